"""The month calendar Gmail shows to pick a day: a snooze date, or the vacation responder's first or last
day. The dialog keeps the month shown and the day picked in its arguments until OK."""

from __future__ import annotations

import calendar
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import BUTTON, VIEWGROUP, Node
from ...widgets import button, column, dialog, icon_button, row, text
from . import model
from .common import snooze_targets

CELL = 122
WEEKDAYS = ("S", "M", "T", "W", "T", "F", "S")


def open_picker(ctx: AppContext, purpose: str, start: date) -> None:
    """Open the calendar for `purpose` (snooze, first_day, last_day) on the month of `start`."""
    ctx.open("pick_date", purpose=purpose, month=start.replace(day=1).isoformat(), chosen=start.isoformat())


def date_dialog(ctx: AppContext) -> Node:
    args = ctx.dialog_args
    month = date.fromisoformat(args["month"])
    chosen = args.get("chosen")
    earliest = ctx.now().date() + timedelta(days=1 if args["purpose"] == "snooze" else 0)

    def shift(months: int) -> None:
        year, index = divmod(month.year * 12 + month.month - 1 + months, 12)
        args["month"] = date(year, index + 1, 1).isoformat()

    def pick(day: date) -> None:
        args["chosen"] = day.isoformat()

    header = row(
        icon_button("chevron_left", "Previous month", lambda: shift(-1), rid="prev_month", size=52),
        text(f"{calendar.month_name[month.month]} {month.year}", "subtitle", align="center", weight=1,
             rid="month_title"),
        icon_button("chevron_right", "Next month", lambda: shift(1), rid="next_month", size=52),
        pad=(30, 0, 30, 0), valign="center",
    )  # fmt: skip
    weeks = [row(*[text(d, "caption", w=CELL, align="center") for d in WEEKDAYS], pad=(40, 10, 40, 10))]
    for week in calendar.Calendar(firstweekday=6).monthdatescalendar(month.year, month.month):
        cells = []
        for day in week:
            if day.month != month.month:
                cells.append(Node(VIEWGROUP, w=CELL, h=110))
                continue
            picked = chosen == day.isoformat()
            cells.append(Node(
                BUTTON, text=str(day.day), w=CELL, h=110, radius=55, size=38, align="center", rid="day",
                desc=f"{calendar.month_name[day.month]} {day.day}, {day.year}", selected=picked,
                enabled=day >= earliest, on_tap=partial(pick, day), bg=theme().primary if picked else None,
                fg="#ffffff" if picked else (theme().ink if day >= earliest else "#bdc1c6"),
            ))  # fmt: skip
        weeks.append(row(*cells, pad=(40, 0, 40, 0)))
    chosen_label = model.day_label(date.fromisoformat(chosen)) if chosen else "No day picked"
    body = [header, text(chosen_label, "body", fg=theme().muted, align="center", rid="chosen_day",
                         pad=(0, 0, 0, 10)), column(*weeks)]  # fmt: skip
    actions = [button("Cancel", ctx.close, rid="button2", primary=False),
               button("OK", lambda: apply(ctx), rid="button1", enabled=bool(chosen))]  # fmt: skip
    return dialog("Pick date", body, actions, ctx.close, rid="date_picker")


def apply(ctx: AppContext) -> None:
    """OK: snooze the thread until that day at 8 AM, or set the vacation day on the settings form."""
    args: dict[str, Any] = ctx.dialog_args
    chosen = date.fromisoformat(args["chosen"])
    ctx.close()
    if args["purpose"] == "snooze":
        snooze_targets(
            ctx, datetime.combine(chosen, datetime.min.time(), tzinfo=ctx.now().tzinfo).replace(hour=8)
        )
    else:
        ctx.ui[args["purpose"]] = chosen.isoformat()
