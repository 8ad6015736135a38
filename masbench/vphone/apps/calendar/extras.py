"""Calendar's other screens: Tasks (the list and the new-task form with a date), Search events, and
Settings (start of the week, default event duration, default notifications)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import EDIT, Node
from ...widgets import (
    app_bar,
    button,
    checkbox,
    choice_dialog,
    column,
    icon_button,
    list_item,
    row,
    scroll_list,
    search_field,
    section_header,
    text,
)
from . import model
from .content import REMINDERS, zone_of

DURATIONS = {
    "15": "15 minutes",
    "20": "20 minutes",
    "30": "30 minutes",
    "45": "45 minutes",
    "60": "60 minutes",
    "90": "90 minutes",
    "120": "120 minutes",
}
WEEK_STARTS = ("Saturday", "Sunday", "Monday")
NO_REMINDER = "none"


def build_tasks(ctx: AppContext) -> Node:
    tasks = sorted(ctx.state["tasks"].values(), key=lambda t: (t["done"], t["date"], t["id"]))

    def toggle(tid: int) -> None:
        task = ctx.state["tasks"][str(tid)]
        task["done"] = not task["done"]

    rows = [
        row(
            checkbox("", t["done"], partial(toggle, t["id"]), rid="task_done"),
            column(
                text(t["title"], "body", rid="task_title", max_lines=2),
                text(model.long_date(date.fromisoformat(t["date"])), "caption"),
                weight=1,
                gap=4,
            ),
            pad=(0, 10, 48, 10),
            valign="center",
            desc=t["title"],
        )
        for t in tasks
    ]
    return column(
        app_bar(
            "Tasks", ctx.back, button("New task", ctx.link("task_editor"), rid="new_task", h=110, size=38)
        ),
        scroll_list(
            "tasks", rows or [text("No tasks yet", "body", pad=60, rid="empty_message")], rid="task_list"
        ),
    )


def build_task_editor(ctx: AppContext) -> Node:
    default = ctx.args.get("date") or model.today(ctx.state, ctx.now()).isoformat()
    chosen = date.fromisoformat(ctx.ui.get("task_date") or default)

    def save() -> None:
        title = " ".join(str(ctx.ui.get("task_title", "")).split())
        if not title:
            ctx.toast("Add a title")
            return
        model.save_task(ctx.state, title, chosen)
        ctx.toast("Task saved")
        ctx.back()

    title = Node(
        EDIT,
        field="task_title",
        hint="Add title",
        text="",
        rid="task_title_input",
        size=56,
        h=160,
        pad=(48, 0, 48, 0),
    )
    return column(
        app_bar("New task", ctx.back, button("Save", save, rid="save", h=110, size=38)),
        title,
        list_item(
            model.long_date(chosen),
            "Date",
            ctx.opener("date_picker", which="task"),
            icon="event",
            rid="task_date",
        ),
        bg=theme().surface,
    )


def build_search(ctx: AppContext) -> Node:
    query = str(ctx.ui.get("query", ""))
    hits = model.search(ctx.state, query)
    rows = [
        list_item(
            ev["summary"],
            f"{model.when(ev)} \u00b7 {ev['location']}" if ev["location"] else model.when(ev),
            ctx.link("event", id=ev["id"], date=model.first_day(ev).isoformat()),
            icon="event",
            rid="search_result",
            desc=f"{ev['summary']}, {model.when(ev)}",
        )
        for ev in hits
    ]
    if query and not hits:
        rows = [text(f"No results for \u201c{query}\u201d", "body", pad=60, rid="empty_message")]
    return column(
        row(
            icon_button("back", "Navigate up", ctx.back, rid="navigate_up"),
            search_field("query", "Search", None, rid="search_input", value=query),
            pad=(8, 24, 24, 16),
            gap=8,
            valign="center",
        ),
        scroll_list("results", rows, rid="search_results"),
    )


def build_settings(ctx: AppContext) -> Node:
    settings = ctx.state["settings"]
    reminders = settings["default_reminders"]
    return column(
        app_bar("Settings", ctx.back),
        scroll_list(
            "settings",
            [
                section_header("General"),
                list_item(
                    "Start of the week", settings["week_start"], ctx.opener("week_start"), rid="week_start"
                ),
                list_item("Time zone", zone_of(settings).key, rid="time_zone_setting"),
                section_header("Events"),
                list_item(
                    "Default event duration",
                    DURATIONS[str(settings["default_duration"])],
                    ctx.opener("default_duration"),
                    rid="default_duration",
                ),
                list_item(
                    "Default notifications",
                    model.reminder_label(reminders[0]) if reminders else "None",
                    ctx.opener("default_reminder"),
                    rid="default_notification",
                ),
            ],
            rid="settings_list",
        ),
    )


def _setting_dialog(
    ctx: AppContext,
    title: str,
    choices: dict[str, str],
    key: str,
    current: str,
    convert: Callable[[str], Any],
) -> Node:
    def pick(choice: str) -> None:
        ctx.state["settings"][key] = convert(choice)
        ctx.close()

    return choice_dialog(title, choices, current, pick, ctx.close, option_rid="setting_option")


def week_start_dialog(ctx: AppContext) -> Node:
    return _setting_dialog(
        ctx,
        "Start of the week",
        {d: d for d in WEEK_STARTS},
        "week_start",
        ctx.state["settings"]["week_start"],
        str,
    )


def duration_dialog(ctx: AppContext) -> Node:
    return _setting_dialog(
        ctx,
        "Default event duration",
        DURATIONS,
        "default_duration",
        str(ctx.state["settings"]["default_duration"]),
        int,
    )


def default_reminder_dialog(ctx: AppContext) -> Node:
    current = ctx.state["settings"]["default_reminders"]
    choices = {NO_REMINDER: "No notification", **{str(m): label for m, label in REMINDERS.items()}}
    return _setting_dialog(
        ctx,
        "Default notifications",
        choices,
        "default_reminders",
        str(current[0]) if current else NO_REMINDER,
        lambda c: [] if c == NO_REMINDER else [int(c)],
    )
