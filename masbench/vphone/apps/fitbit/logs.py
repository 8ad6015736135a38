"""The water and weight logs: a day's water with quick 250 / 500 ml buttons, an amount in either unit and
removable entries; weigh-ins with a value in kg or lb for a chosen day. Amounts are stored in ml and kg
(`logs.water[].amount_ml`, `logs.weight[].weight_kg`) whatever unit was typed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import button, column, divider, icon_button, row, scroll_page, section_header, text
from .common import (
    WATER_UNITS,
    WEIGHT_UNITS,
    big_number,
    card,
    choice_chips,
    date_navigator,
    day_label,
    error_line,
    form_field,
    form_page,
    labelled,
    next_id,
    page_bar,
    parse_number,
    primary_button,
    return_to,
    selected_day,
    to_kg,
    to_ml,
    water_parts,
    water_text,
    weight_text,
)

QUICK_ML = (250, 500)


def entry_row(title: str, detail: str, on_remove: Callable[[], None], rid: str) -> Node:
    """A logged entry with its remove button."""
    return column(
        row(
            column(text(title, "subtitle", rid=f"{rid}_amount"), text(detail, "caption"), weight=1, gap=4),
            icon_button("delete", f"Remove {title}", on_remove, rid=f"remove_{rid}", fg=theme().muted),
            pad=(48, 16, 24, 16),
            valign="center",
        ),
        divider(),
        rid=rid,
    )


def remover(ctx: AppContext, log: str, entry_id: str) -> Callable[[], None]:
    def remove() -> None:
        ctx.state["logs"][log] = [e for e in ctx.state["logs"][log] if e["id"] != entry_id]
        ctx.toast("Entry removed")

    return remove


def offset_of(ctx: AppContext, day: date) -> int:
    return (ctx.now().date() - day).days


# -- water ---------------------------------------------------------------------------------------------


def build_water(ctx: AppContext) -> Node:
    day = selected_day(ctx)
    entries = [w for w in ctx.state["logs"]["water"] if w["date"] == day.isoformat()]
    total = sum(w["amount_ml"] for w in entries)
    goal = ctx.state["goals"]["water_ml"]

    def quick(ml: int) -> Callable[[], None]:
        def add() -> None:
            append_water(ctx, day, float(ml))

        return add

    figure, unit = water_parts(ctx, total)
    summary = card(
        big_number(figure, unit, rid="water_total"),
        text(f"of {water_text(ctx, goal)} goal", "caption", rid="water_goal"),
        row(
            *[
                button(
                    f"+{ml} ml",
                    quick(ml),
                    rid=f"quick_add_{ml}",
                    primary=False,
                    colour=theme().primary,
                    weight=1,
                )
                for ml in QUICK_ML
            ],
            gap=24,
        ),
        primary_button(
            "Add water", ctx.link("log_water", day_offset=offset_of(ctx, day)), rid="add_water_button"
        ),
        gap=20,
    )
    rows = [
        entry_row(
            water_text(ctx, w["amount_ml"]),
            day_label(ctx, day),
            remover(ctx, "water", w["id"]),
            "water_entry",
        )
        for w in entries
    ]
    return column(
        page_bar(ctx, "Water"),
        date_navigator(ctx, day_label(ctx, day)),
        scroll_page(
            "water",
            column(summary, pad=32),
            section_header("Logged", rid="water_log_header"),
            *rows,
            text("Nothing logged on this day", "caption", pad=(48, 8, 48, 8)) if not rows else None,
            rid="water_scroll",
            bg=theme().background,
        ),
        bg=theme().background,
    )


def append_water(ctx: AppContext, day: date, ml: float) -> None:
    ctx.state["logs"]["water"].append({"id": next_id(ctx, "w"), "date": day.isoformat(), "amount_ml": ml})
    ctx.log("water_logged", ml=ml)
    ctx.toast(f"{water_text(ctx, ml)} of water logged")


def build_log_water(ctx: AppContext) -> Node:
    unit = ctx.ui.get("unit", ctx.state["settings"]["water_unit"])
    day = selected_day(ctx)
    form = card(
        labelled("Date", date_navigator(ctx, day_label(ctx, day))),
        labelled("Amount", form_field(ctx, "amount", "water_amount", hint="e.g. 250")),
        choice_chips(list(WATER_UNITS), unit, lambda u: ctx.ui.update(unit=u, error=""), rid="water_unit"),
        error_line(ctx),
    )

    def save() -> None:
        amount = parse_number(ctx.ui.get("amount", ""))
        if amount is None:
            ctx.ui["error"] = "Enter an amount"
            return
        append_water(ctx, day, to_ml(amount, unit))
        return_to(ctx, "water")

    return form_page(ctx, "Add water", form, save, "save_water_button")


# -- weight ----------------------------------------------------------------------------------------------


def build_weight(ctx: AppContext) -> Node:
    entries = sorted(ctx.state["logs"]["weight"], key=lambda w: w["date"], reverse=True)
    goal = ctx.state["goals"]["weight_kg"]
    latest = weight_text(ctx, entries[0]["weight_kg"]) if entries else "No weigh-ins"
    summary = card(
        big_number(latest, rid="weight_latest"),
        text(f"Goal: {weight_text(ctx, goal)}", "caption", rid="weight_goal"),
        primary_button("Log weight", ctx.link("log_weight"), rid="log_weight_button"),
        gap=20,
    )
    rows = [
        entry_row(weight_text(ctx, w["weight_kg"]), day_label(ctx, date.fromisoformat(w["date"])),
                  remover(ctx, "weight", w["id"]), "weight_entry")
        for w in entries
    ]  # fmt: skip
    return column(
        page_bar(ctx, "Weight"),
        scroll_page(
            "weight", column(summary, pad=32), section_header("Weigh-ins"), *rows, bg=theme().background
        ),
        bg=theme().background,
    )


def build_log_weight(ctx: AppContext) -> Node:
    unit = ctx.ui.get("unit", ctx.state["settings"]["weight_unit"])
    day = selected_day(ctx)
    form = card(
        labelled("Date", date_navigator(ctx, day_label(ctx, day))),
        labelled("Weight", form_field(ctx, "weight", "weight_value", hint="e.g. 160.5")),
        choice_chips(list(WEIGHT_UNITS), unit, lambda u: ctx.ui.update(unit=u, error=""), rid="weight_unit"),
        error_line(ctx),
    )

    def save() -> None:
        value = parse_number(ctx.ui.get("weight", ""))
        if value is None or to_kg(value, unit) > 400:
            ctx.ui["error"] = "Enter your weight"
            return
        log: dict[str, Any] = {
            "id": next_id(ctx, "kg"),
            "date": day.isoformat(),
            "weight_kg": to_kg(value, unit),
        }
        ctx.state["logs"]["weight"].append(log)
        ctx.toast("Weight logged")
        return_to(ctx, "weight")

    return form_page(ctx, "Log weight", form, save, "save_weight_button")
