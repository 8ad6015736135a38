"""The You tab and what hangs off it: goals (each editable in the unit the settings show), badges and
settings (units, start of week, notifications)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    button,
    choice_dialog,
    column,
    dialog,
    divider,
    row,
    scroll_page,
    section_header,
    switch,
    text,
)
from . import content
from .common import (
    DISTANCE_UNITS,
    WATER_UNITS,
    WEIGHT_UNITS,
    distance_text,
    duration_text,
    form_field,
    from_base,
    glyph,
    list_row,
    nav,
    number,
    page_bar,
    parse_number,
    to_kg,
    to_km,
    to_ml,
    water_text,
    weight_text,
)

SLEEP_CHOICES = {str(m): duration_text(m) for m in range(300, 601, 30)}
NOTIFICATIONS = {
    "goal_reached": "Goal celebrations",
    "reminders_to_move": "Reminders to move",
    "challenges": "Challenge updates",
    "sleep": "Sleep schedule reminders",
}


# -- You -------------------------------------------------------------------------------------------------


def build_you(ctx: AppContext) -> Node:
    t = theme()
    earned = len(ctx.state["badges"])
    header = row(
        glyph("person", t.on_primary, 150),
        column(
            text("Alex Morgan", "headline", fg=t.on_primary, rid="profile_name"),
            text(f"{earned} badges", "body_small", fg=t.on_primary),
        ),
        pad=(48, 48, 48, 48),
        gap=32,
        bg=t.primary,
        valign="center",
    )
    entries = [
        ("Goals", "Steps, distance, sleep, water, weight", "goals", "you_goals"),
        ("Exercise", "Your workouts", "exercise", "you_exercise"),
        ("Badges", f"{earned} earned", "badges", "you_badges"),
        ("Challenges", "Join and leave challenges", "discover", "you_challenges"),
        ("Settings", "Units, start of week, notifications", "settings", "you_settings"),
    ]
    rows = [list_row(title, sub, ctx.link(screen), rid) for title, sub, screen, rid in entries]
    return column(header, scroll_page("you", *rows, rid="you_list"), nav(ctx, "You"), bg=t.surface)


# -- goals -----------------------------------------------------------------------------------------------


def goal_rows(ctx: AppContext) -> list[tuple[str, str, str]]:
    """(goal key, title, value as shown) for each goal."""
    g = ctx.state["goals"]
    return [
        ("steps", "Steps", f"{g['steps']:,} steps"),
        ("distance_km", "Distance", distance_text(ctx, g["distance_km"])),
        ("calories", "Calories burned", f"{g['calories']:,} cal"),
        ("azm", "Active Zone Minutes", f"{g['azm']} min a day"),
        ("sleep_min", "Sleep", duration_text(g["sleep_min"])),
        ("water_ml", "Water", water_text(ctx, g["water_ml"])),
        ("weight_kg", "Weight", weight_text(ctx, g["weight_kg"])),
    ]


def build_goals(ctx: AppContext) -> Node:
    rows = [
        list_row(title, value, ctx.opener("sleep_goal" if key == "sleep_min" else "edit_goal", goal=key),
                 f"goal_{key.split('_')[0]}")
        for key, title, value in goal_rows(ctx)
    ]  # fmt: skip
    return column(page_bar(ctx, "Goals"), scroll_page("goals", *rows, rid="goals_list"), bg=theme().surface)


def goal_unit(ctx: AppContext, key: str) -> str:
    settings = ctx.state["settings"]
    units: dict[str, str] = {
        "steps": "steps",
        "distance_km": settings["distance_unit"],
        "calories": "cal",
        "azm": "min",
        "water_ml": settings["water_unit"],
        "weight_kg": settings["weight_unit"],
    }
    return units[key]


def stored_goal(key: str, value: float, unit: str) -> float | int:
    """A typed goal in the unit it is stored in (counts as whole numbers)."""
    convert: dict[str, Callable[[float, str], float]] = {
        "distance_km": to_km,
        "water_ml": to_ml,
        "weight_kg": to_kg,
    }
    return convert[key](value, unit) if key in convert else int(value)


def edit_goal_dialog(ctx: AppContext) -> Node:
    key = ctx.dialog_args["goal"]
    title, shown = next((t, v) for k, t, v in goal_rows(ctx) if k == key)
    unit = goal_unit(ctx, key)
    current = ctx.state["goals"][key]
    hint = number(from_base(current, unit), 2 if key == "distance_km" else 1)  # as the goal list prints it

    def save() -> None:
        value = parse_number(ctx.ui.get("goal_value", ""))
        if value is None and not str(ctx.ui.get("goal_value", "")).strip():
            ctx.close()
            return
        if value is None or (key in ("steps", "calories", "azm") and not value.is_integer()):
            ctx.ui["goal_error"] = "Enter a positive number"
            return
        ctx.state["goals"][key] = stored_goal(key, value, unit)
        ctx.ui.pop("goal_value", None)
        ctx.ui.pop("goal_error", None)
        ctx.close()
        ctx.toast(f"{title} goal updated")

    def cancel() -> None:
        ctx.ui.pop("goal_value", None)
        ctx.ui.pop("goal_error", None)
        ctx.close()

    error = ctx.ui.get("goal_error")
    return dialog(
        f"{title} goal",
        [
            text(f"Now: {shown}", "caption", pad=(60, 0, 60, 12), rid="goal_current"),
            row(
                form_field(ctx, "goal_value", "goal_value", hint=hint),
                text(unit, "body", pad=(20, 0, 0, 0)),
                pad=(60, 0, 60, 12),
                valign="center",
            ),
            text(error, "negative", pad=(60, 0, 60, 0), rid="error_text") if error else None,
        ],
        [
            button("Cancel", cancel, rid="cancel_button", primary=False),
            button("Save", save, rid="save_goal_button"),
        ],
        cancel,
    )


def sleep_goal_dialog(ctx: AppContext) -> Node:
    def pick(minutes: str) -> None:
        ctx.state["goals"]["sleep_min"] = int(minutes)
        ctx.close()
        ctx.toast("Sleep goal updated")

    current = str(ctx.state["goals"]["sleep_min"])
    return choice_dialog(
        "Sleep goal", SLEEP_CHOICES, current, pick, ctx.close, option_rid="sleep_goal_option"
    )


# -- badges ----------------------------------------------------------------------------------------------


def build_badges(ctx: AppContext) -> Node:
    earned = {b["id"]: b for b in ctx.state["badges"]}
    rows = []
    for bid, name, what in content.BADGES:
        got = earned.get(bid)
        when = date.fromisoformat(got["earned"]) if got else None
        status = f"Earned {when.strftime('%b')} {when.day}, {when.year}" if when else "Not earned yet"
        rows.append(
            row(
                glyph("trophy", theme().star if got else theme().divider, 120),
                column(
                    text(name, "subtitle", rid="badge_name"),
                    text(what, "caption"),
                    text(status, "body_small", rid="badge_status"),
                    weight=1,
                    gap=4,
                ),
                pad=(48, 24, 48, 24),
                gap=32,
                rid="badge",
                desc=f"{name}: {status}",
            )
        )
    return column(
        page_bar(ctx, "Badges"), scroll_page("badges", *rows, rid="badges_list"), bg=theme().surface
    )


# -- settings --------------------------------------------------------------------------------------------

UNIT_SETTINGS = {  # setting key -> (title, choices)
    "distance_unit": ("Distance", DISTANCE_UNITS),
    "weight_unit": ("Weight", WEIGHT_UNITS),
    "water_unit": ("Water", WATER_UNITS),
}
WEEK_STARTS = {day: day for day in ("Sunday", "Monday", "Saturday")}


def build_settings(ctx: AppContext) -> Node:
    settings = ctx.state["settings"]
    units = [
        list_row(title, choices[settings[key]], ctx.opener("unit_choice", setting=key), f"setting_{key}")
        for key, (title, choices) in UNIT_SETTINGS.items()
    ]
    notes = settings["notifications"]

    def toggler(key: str) -> Callable[[], None]:
        return lambda: notes.update({key: not notes[key]})

    switches = [
        switch(label, notes[key], toggler(key), rid=f"notify_{key}") for key, label in NOTIFICATIONS.items()
    ]
    return column(
        page_bar(ctx, "Settings"),
        scroll_page(
            "settings",
            section_header("Units", rid="units_header"),
            *units,
            divider(),
            section_header("Activity", rid="activity_header"),
            list_row("Start of week", settings["week_start"], ctx.opener("week_start"), "setting_week_start"),
            divider(),
            section_header("Notifications", rid="notifications_header"),
            *switches,
            rid="settings_list",
        ),
        bg=theme().surface,
    )


def unit_dialog(ctx: AppContext) -> Node:
    key = ctx.dialog_args["setting"]
    title, choices = UNIT_SETTINGS[key]
    return choice_dialog(
        title, choices, ctx.state["settings"][key], setter(ctx, key), ctx.close, option_rid="unit_option"
    )


def week_start_dialog(ctx: AppContext) -> Node:
    current = ctx.state["settings"]["week_start"]
    return choice_dialog("Start of week", WEEK_STARTS, current, setter(ctx, "week_start"), ctx.close,
                         option_rid="week_start_option")  # fmt: skip


def setter(ctx: AppContext, key: str) -> Callable[[str], None]:
    def pick(value: str) -> None:
        ctx.state["settings"][key] = value
        ctx.close()

    return pick
