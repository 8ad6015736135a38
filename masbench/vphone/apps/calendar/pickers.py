"""The form's dialogs: the date picker (a month grid; a day closes it), the time picker (type a time),
repeat (the presets, or Custom with a frequency and a number of times) and Add notification."""

from __future__ import annotations

from datetime import date, datetime, time
from functools import partial

from ...app import AppContext
from ...ui import EDIT, Node
from ...widgets import button, chips, choice_dialog, column, dialog, text
from . import editor, model
from .common import month_grid
from .content import REMINDERS, zone_of

FREQUENCIES = {"DAILY": "Day", "WEEKLY": "Week", "MONTHLY": "Month", "YEARLY": "Year"}


def _picked(ctx: AppContext, which: str) -> date:
    if which == "task":
        return date.fromisoformat(
            ctx.ui.get("task_date") or ctx.args.get("date") or model.today(ctx.state, ctx.now()).isoformat()
        )
    return date.fromisoformat(editor.value(ctx, f"{which}_date"))


def date_picker(ctx: AppContext) -> Node:
    which = ctx.dialog_args["which"]
    chosen = _picked(ctx, which)
    shown = date.fromisoformat(ctx.ui.get("picker_month") or chosen.replace(day=1).isoformat())

    def pick(day: date) -> None:
        ctx.ui.pop("picker_month", None)
        ctx.close()
        if which == "task":
            ctx.ui["task_date"] = day.isoformat()
            return
        clock = model.parse_time(editor.value(ctx, f"{which}_time")) or time(9)
        moment = datetime.combine(day, clock, zone_of(ctx.state["settings"]))
        (editor.set_start if which == "start" else editor.set_end)(ctx, moment)

    def show(month: date) -> None:
        ctx.ui["picker_month"] = month.isoformat()

    def cancel() -> None:
        ctx.ui.pop("picker_month", None)
        ctx.close()

    grid = month_grid(
        shown, chosen, model.today(ctx.state, ctx.now()), pick, show, model.week_start(ctx.state, shown)
    )
    return dialog(
        model.long_date(chosen),
        [grid],
        [button("Cancel", cancel, primary=False, rid="cancel_button")],
        cancel,
        rid="date_picker",
    )


def time_picker(ctx: AppContext) -> Node:
    which = ctx.dialog_args["which"]
    current = editor.value(ctx, f"{which}_time")

    def apply(typed: str | None = None) -> None:
        entered = (typed if typed is not None else str(ctx.ui.get("time_input", ""))).strip() or current
        clock = model.parse_time(entered)
        if clock is None:
            ctx.ui["time_error"] = "Enter a time like 14:30 or 2:30 PM"
            return
        ctx.ui.pop("time_input", None)
        ctx.ui.pop("time_error", None)
        ctx.close()
        day = date.fromisoformat(editor.value(ctx, f"{which}_date"))
        moment = datetime.combine(day, clock, zone_of(ctx.state["settings"]))
        (editor.set_start if which == "start" else editor.set_end)(ctx, moment)

    def cancel() -> None:
        ctx.ui.pop("time_input", None)
        ctx.ui.pop("time_error", None)
        ctx.close()

    field = Node(
        EDIT,
        field="time_input",
        hint=current,
        text="",
        rid="time_input",
        size=56,
        h=150,
        on_submit=apply,
        border="#5f6368",
        radius=12,
        pad=(30, 0, 30, 0),
    )
    body = [
        column(
            text("Type a time (24-hour, or with AM/PM)", "caption"),
            field,
            text(ctx.ui["time_error"], "negative", rid="time_error") if "time_error" in ctx.ui else None,
            pad=(60, 0, 60, 10),
            gap=16,
        ),
    ]
    return dialog(
        "Start time" if which == "start" else "End time",
        body,
        [
            button("Cancel", cancel, primary=False, rid="cancel_button"),
            button("OK", lambda: apply(), rid="ok_button"),
        ],
        cancel,
        rid="time_picker",
    )


def repeat_dialog(ctx: AppContext) -> Node:
    first = date.fromisoformat(editor.value(ctx, "start_date"))
    weekday = model.WEEKDAYS[first.weekday()]
    presets = {
        "": "Does not repeat",
        "FREQ=DAILY": "Every day",
        f"FREQ=WEEKLY;BYDAY={weekday}": f"Every week on {model.DAY_NAMES[first.weekday()]}",
        "FREQ=MONTHLY": f"Every month on day {first.day}",
        "FREQ=YEARLY": f"Every year on {first.strftime('%B')} {first.day}",
        "custom": "Custom\u2026",
    }
    current = editor.value(ctx, "rrule")

    def pick(key: str) -> None:
        if key == "custom":
            ctx.open("custom_repeat")
            return
        ctx.ui["rrule"] = key
        ctx.close()

    return choice_dialog(
        "Repeat",
        presets,
        current if current in presets else "custom",
        pick,
        ctx.close,
        option_rid="repeat_option",
    )


def custom_repeat_dialog(ctx: AppContext) -> Node:
    """Repeats every day/week/month/year, ending after a number of times (blank: never)."""
    first = date.fromisoformat(editor.value(ctx, "start_date"))
    freq = ctx.ui.get("custom_freq", "WEEKLY")

    def pick_freq(key: str) -> None:
        ctx.ui["custom_freq"] = key

    def done() -> None:
        count = str(ctx.ui.get("custom_count", "")).strip()
        if count and not (count.isdigit() and int(count) > 0):
            ctx.toast("Enter a number of times")
            return
        parts = [f"FREQ={freq}"]
        if freq == "WEEKLY":
            parts.append(f"BYDAY={model.WEEKDAYS[first.weekday()]}")
        if count:
            parts.append(f"COUNT={int(count)}")
        ctx.ui["rrule"] = ";".join(parts)
        ctx.close()

    count_field = Node(
        EDIT,
        field="custom_count",
        hint="Never",
        text="",
        rid="repeat_count",
        size=44,
        h=130,
        border="#5f6368",
        radius=12,
        pad=(30, 0, 30, 0),
    )
    return dialog(
        "Custom recurrence",
        [
            column(
                text("Repeats every", "body_small"),
                chips(
                    [(label, key == freq, partial(pick_freq, key)) for key, label in FREQUENCIES.items()],
                    rid="frequency_chip",
                    pad=0,
                ),
                text("Ends after (number of times)", "body_small"),
                count_field,
                pad=(60, 0, 60, 10),
                gap=16,
            )
        ],
        [
            button("Cancel", ctx.close, primary=False, rid="cancel_button"),
            button("Done", done, rid="done_button"),
        ],
        ctx.close,
        rid="custom_repeat",
    )


def reminder_dialog(ctx: AppContext) -> Node:
    def pick(key: str) -> None:
        chosen = list(editor.value(ctx, "reminders"))
        if int(key) not in chosen:
            ctx.ui["reminders"] = [*chosen, int(key)]
        ctx.close()

    return choice_dialog(
        "Notification",
        {str(m): label for m, label in REMINDERS.items()},
        None,
        pick,
        ctx.close,
        option_rid="reminder_option",
    )
