"""Pieces Calendar's screens share: activities, event colours, the event chip, a month grid (the view, the
header's month picker and the form's date picker all draw one) and text cut to fit narrow columns."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from functools import partial
from typing import Any

from ...theme import theme
from ...ui import TEXT, Node, text_width
from ...widgets import column, icon_button, row, text
from . import model
from .content import COLOURS, DEFAULT_COLOUR

ALL_IN_ONE = "com.android.calendar.AllInOneActivity"
EVENT_INFO = "com.android.calendar.event.LaunchInfoActivity"
EVENT_EDIT = "com.google.android.calendar.event.EditEventActivity"
SHORT_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def fit(value: str, size: int, width: int) -> str:
    """`value` cut with an ellipsis to fit `width` pixels on one line (week and month cells are narrow)."""
    if text_width(value, size) <= width:
        return value
    while value and text_width(value + "\u2026", size) > width:
        value = value[:-1]
    return value + "\u2026"


def colour_of(ev: dict[str, Any]) -> str:
    return COLOURS[ev.get("colour") or DEFAULT_COLOUR]


def event_chip(
    ev: dict[str, Any], day: date, on_tap: Callable[[], None], width: int, compact: bool = False
) -> Node:
    """An event block in a view on `day`: its colour, title and (unless compact) its time; `width` is the
    column's. Its description names the day too, as the real app's does for screen readers."""
    size = 30 if compact else 38
    inner = width - 40
    lines: list[Node] = [
        text(
            fit(ev["summary"], size, inner),
            size=size,
            bold=True,
            fg="#ffffff",
            max_lines=1,
            rid="event_title",
        )
    ]
    if not ev["all_day"]:
        lines.append(
            text(fit(model.time_range(ev), size - 4, inner), size=size - 4, fg="#ffffff", max_lines=1)
        )
    if not compact and ev["location"]:
        lines.append(text(fit(ev["location"], size - 4, inner), size=size - 4, fg="#ffffff", max_lines=1))
    return column(
        *lines,
        bg=colour_of(ev),
        radius=14,
        pad=(20, 10, 20, 10),
        on_tap=on_tap,
        rid="event_chip",
        desc=f"{ev['summary']}, {model.long_date(day)}, {model.time_range(ev)}",
        gap=2,
    )


def month_grid(
    month: date,
    selected: date | None,
    today: date,
    on_pick: Callable[[date], None],
    on_month: Callable[[date], None],
    week_first: date,
    cell_h: int = 110,
) -> Node:
    """A month of day numbers under its title with previous/next arrows; `week_first` is any date on the
    weekday the rows start with (the Start of the week setting)."""
    t = theme()
    first = month.replace(day=1)
    offset = (first.weekday() - week_first.weekday()) % 7
    start = first - timedelta(days=offset)
    header = row(
        icon_button(
            "chevron_left", "Previous month", lambda: on_month(model.shift_month(first, -1)), rid="prev_month"
        ),
        text(first.strftime("%B %Y"), "subtitle", align="center", weight=1, rid="month_title"),
        icon_button(
            "chevron_right", "Next month", lambda: on_month(model.shift_month(first, 1)), rid="next_month"
        ),
        valign="center",
    )
    names = row(
        *(
            text(SHORT_DAYS[(week_first.weekday() + i) % 7][0], "caption", align="center", weight=1)
            for i in range(7)
        )
    )
    weeks = []
    for w in range(6):
        cells = []
        for d in range(7):
            day = start + timedelta(days=7 * w + d)
            inside = day.month == first.month
            chosen = day == selected
            cells.append(
                Node(
                    TEXT,
                    text=str(day.day) if inside else "",
                    weight=1,
                    h=cell_h,
                    align="center",
                    size=38,
                    bold=day == today,
                    radius=cell_h // 2,
                    bg=t.primary if chosen and inside else None,
                    fg=t.on_primary if chosen else (t.primary if day == today else t.ink),
                    on_tap=partial(on_pick, day) if inside else None,
                    selected=chosen and inside,
                    desc=model.long_date(day) if inside else "",
                    rid="day_cell" if inside else "",
                )
            )
        if any(c.text for c in cells):
            weeks.append(row(*cells))
    return column(header, names, *weeks, pad=(24, 8, 24, 8), rid="month_picker")
