"""Exercise: this week's workouts and the earlier ones, a workout's detail with Delete, and the manual log
form (type, start date and time, duration, distance in either unit). Logging appends to
`logs.exercise`, deleting removes from it; checks read that list."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    button,
    column,
    dialog,
    divider,
    icon_button,
    label_value,
    row,
    scroll_page,
    section_header,
    text,
)
from . import content
from .common import (
    DISTANCE_UNITS,
    card,
    choice_chips,
    clock_text,
    date_navigator,
    day_label,
    distance_text,
    duration_text,
    error_line,
    form_field,
    form_page,
    glyph,
    labelled,
    next_id,
    page_bar,
    parse_clock,
    parse_number,
    primary_button,
    return_to,
    selected_day,
    to_km,
    today,
    week_start,
)

TYPE_ICONS = {
    "Run": "run",
    "Walk": "run",
    "Bike": "speed",
    "Swim": "water",
    "Yoga": "fitness",
    "Weights": "fitness",
}
AVG_HR = {"Run": 148, "Walk": 104, "Bike": 132, "Swim": 128, "Yoga": 92, "Weights": 112}


def entry(ctx: AppContext, entry_id: str) -> dict[str, Any] | None:
    return next((e for e in ctx.state["logs"]["exercise"] if e["id"] == entry_id), None)


def build_exercise(ctx: AppContext) -> Node:
    start = week_start(ctx, today(ctx)).isoformat()
    entries = sorted(ctx.state["logs"]["exercise"], key=lambda e: (e["date"], e["start"]), reverse=True)
    this_week = [e for e in entries if e["date"] >= start]
    earlier = [e for e in entries if e["date"] < start]
    t = theme()
    return column(
        page_bar(
            ctx, "Exercise", icon_button("plus", "Log exercise", ctx.link("log_exercise"), rid="add_exercise")
        ),
        scroll_page(
            "exercise",
            column(
                primary_button("Log exercise", ctx.link("log_exercise"), rid="log_exercise_button"), pad=32
            ),
            section_header(
                f"This week · {len({e['date'] for e in this_week})} of 5 days", rid="this_week_header"
            ),
            *[exercise_row(ctx, e) for e in this_week],
            text("No exercise logged this week", "caption", pad=(48, 8, 48, 8)) if not this_week else None,
            section_header("Earlier", rid="earlier_header") if earlier else None,
            *[exercise_row(ctx, e) for e in earlier],
            rid="exercise_list",
            bg=t.surface,
        ),
        bg=t.surface,
    )


def exercise_row(ctx: AppContext, e: dict[str, Any]) -> Node:
    when = f"{day_label(ctx, datetime.fromisoformat(e['date']).date())} · {clock_text(e['start'])}"
    facts = duration_text(e["duration_min"]) + (
        f" · {distance_text(ctx, e['distance_km'])}" if e["distance_km"] else ""
    )
    return column(
        row(
            glyph(TYPE_ICONS[e["type"]], theme().primary, 96),
            column(
                text(e["type"], "subtitle", rid="exercise_type"),
                text(when, "caption", rid="exercise_when"),
                text(facts, "body_small", rid="exercise_facts"),
                weight=1,
                gap=4,
            ),
            text(f"{e['calories']} cal", "body_small", rid="exercise_calories"),
            gap=28,
            valign="center",
            pad=(48, 24, 48, 24),
        ),
        divider(),
        on_tap=ctx.link("exercise_detail", id=e["id"]),
        rid="exercise_row",
        desc=f"{e['type']}, {when}",
    )


def build_exercise_detail(ctx: AppContext) -> Node:
    e = entry(ctx, ctx.args["id"])
    if e is None:
        return column(page_bar(ctx, "Exercise"), text("This exercise was deleted", "body", pad=48))
    when = datetime.fromisoformat(e["date"]).date()
    lines = [
        ("Date", when.strftime("%A, %B ") + str(when.day)),
        ("Start", clock_text(e["start"])),
        ("Duration", duration_text(e["duration_min"])),
        ("Distance", distance_text(ctx, e["distance_km"]) if e["distance_km"] else "—"),
        ("Calories", f"{e['calories']} cal"),
        ("Avg heart rate", f"{e['avg_hr']} bpm"),
    ]
    return column(
        page_bar(ctx, e["type"]),
        scroll_page(
            "exercise_detail",
            column(
                glyph(TYPE_ICONS[e["type"]], theme().primary, 180),
                text(e["type"], "headline", rid="detail_type"),
                pad=40,
                gap=16,
                align="center",
            ),
            *[
                label_value(label, value, rid=f"detail_{label.lower().replace(' ', '_')}", bold_value=True)
                for label, value in lines
            ],
            column(
                button(
                    "Delete",
                    ctx.opener("delete_exercise"),
                    rid="delete_exercise_button",
                    primary=False,
                    colour=theme().error,
                ),
                pad=40,
            ),
        ),
        bg=theme().surface,
    )


def delete_dialog(ctx: AppContext) -> Node:
    def delete() -> None:
        logs = ctx.state["logs"]
        logs["exercise"] = [e for e in logs["exercise"] if e["id"] != ctx.args["id"]]
        ctx.close()
        ctx.toast("Exercise deleted")
        ctx.back()

    return dialog(
        "Delete this exercise?",
        [text("It is removed from your exercise log and today's totals.", "body_small", pad=(60, 0, 60, 20))],
        [
            button("Cancel", ctx.close, rid="cancel_button", primary=False),
            button("Delete", delete, rid="confirm_delete_button", colour=theme().error),
        ],
        ctx.close,
    )


# -- the log form ----------------------------------------------------------------------------------------


def build_log_exercise(ctx: AppContext) -> Node:
    kind = ctx.ui.get("type", ctx.args.get("type", ""))
    unit = ctx.ui.get("unit", ctx.state["settings"]["distance_unit"])

    def setter(key: str) -> Callable[[str], None]:
        return lambda value: ctx.ui.update({key: value, "error": ""})

    distance = None
    if kind in content.WITH_DISTANCE:
        distance = labelled(
            "Distance",
            column(
                form_field(ctx, "distance", "exercise_distance", hint="e.g. 5"),
                choice_chips(list(DISTANCE_UNITS), unit, setter("unit"), rid="distance_unit"),
                gap=8,
            ),
        )
    form = card(
        text("Exercise type", "subtitle"),
        choice_chips(content.EXERCISE_TYPES, kind, setter("type"), rid="exercise_type_option"),
        labelled("Start date", date_navigator(ctx, day_label(ctx, selected_day(ctx)))),
        labelled("Start time", form_field(ctx, "start", "exercise_start_time", hint="e.g. 7:00 AM")),
        labelled("Duration (minutes)", form_field(ctx, "duration", "exercise_duration", hint="e.g. 30")),
        distance,
        error_line(ctx),
        gap=8,
    )
    return form_page(ctx, "Log exercise", form, lambda: save(ctx), "save_exercise_button")


def save(ctx: AppContext) -> None:
    """Validate the form and log the exercise for the chosen day."""
    ui = ctx.ui
    kind = ui.get("type", ctx.args.get("type", ""))
    start = parse_clock(str(ui.get("start", "")))
    minutes = parse_number(ui.get("duration", ""))
    distance = parse_number(ui.get("distance", "")) if kind in content.WITH_DISTANCE else 0.0
    day = selected_day(ctx)
    error = ""
    if kind not in content.EXERCISE_TYPES:
        error = "Choose an exercise type"
    elif start is None:
        error = "Enter a start time, e.g. 7:00 AM"
    elif minutes is None or not minutes.is_integer() or minutes > 24 * 60:
        error = "Enter the duration in whole minutes"
    elif kind in content.WITH_DISTANCE and ui.get("distance") and distance is None:
        error = "Enter a distance"
    elif datetime.fromisoformat(f"{day.isoformat()}T{start}") > ctx.now().replace(tzinfo=None):
        error = "The exercise can't start in the future"
    if error:
        ui["error"] = error
        return
    assert start is not None and minutes is not None
    unit = ui.get("unit", ctx.state["settings"]["distance_unit"])
    log = content.exercise_entry(
        next_id(ctx, "ex"),
        kind,
        day.isoformat(),
        start,
        int(minutes),
        to_km(distance or 0.0, unit),
        AVG_HR[kind],
    )
    ctx.state["logs"]["exercise"].append(log)
    ctx.log("exercise_logged", id=log["id"], type=kind)
    ctx.toast(f"{kind} logged")
    return_to(ctx, "exercise")
