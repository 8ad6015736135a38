"""The date-range calendar the search box opens: a month grid (weeks start on Sunday, past days
disabled), check-in then check-out taps, at most 30 nights, confirmed into the search box."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import app_bar, column, icon_button, row, spacer, text
from . import catalog as cat
from .common import cta, plural, range_label, short_date

MAX_NIGHTS = 30
WEEKDAYS = ("Su", "Mo", "Tu", "We", "Th", "Fr", "Sa")


def shift_month(ym: str, delta: int) -> str:
    first = date.fromisoformat(ym + "-01")
    index = first.year * 12 + first.month - 1 + delta
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def build_calendar(ctx: AppContext) -> Node:
    ui = ctx.ui
    t = theme()
    today = ctx.now().date()
    month = ui["month"]
    first = date.fromisoformat(month + "-01")
    sel_in, sel_out = ui.get("sel_in"), ui.get("sel_out")

    def choose(d: date) -> Callable[[], None]:
        def tap() -> None:
            start = ui.get("sel_in")
            if start and not ui.get("sel_out") and d > date.fromisoformat(start):
                if (d - date.fromisoformat(start)).days > MAX_NIGHTS:
                    ctx.toast(f"Reservations longer than {MAX_NIGHTS} nights are not possible")
                    return
                ui["sel_out"] = d.isoformat()
            else:
                ui["sel_in"], ui["sel_out"] = d.isoformat(), None

        return tap

    def cell(d: date) -> Node:
        if d.month != first.month:
            return spacer(124, weight=1)
        iso = d.isoformat()
        ends = iso in (sel_in, sel_out)
        inside = bool(sel_in and sel_out and sel_in < iso < sel_out)
        past = d < today
        return text(
            str(d.day),
            "body",
            desc=d.strftime("%d %B %Y"),
            weight=1,
            h=124,
            align="center",
            bold=ends,
            enabled=not past,
            on_tap=None if past else choose(d),
            fg=t.on_primary if ends else t.divider if past else t.ink,
            bg=t.accent if ends else t.pale if inside else None,
            radius=62 if ends else 0,
            selected=ends or inside,
        )

    start = first - timedelta(days=(first.weekday() + 1) % 7)  # weeks start on Sunday (en-US)
    weeks = [
        row(*[cell(start + timedelta(days=7 * w + d)) for d in range(7)], rid="calendar_week")
        for w in range(6)
    ]
    if sel_in and sel_out:
        summary = f"{range_label(sel_in, sel_out)} ({plural(cat.nights(sel_in, sel_out), 'night')})"
    elif sel_in:
        summary = f"{short_date(sel_in)} - Select your check-out date"
    else:
        summary = "Select your check-in date"

    def confirm() -> None:
        ctx.state["form"].update(checkin=ui["sel_in"], checkout=ui["sel_out"])
        ctx.back()

    def turn(delta: int, icon: str, desc: str, rid: str, allowed: bool) -> Node:
        on_tap = (lambda: ui.update(month=shift_month(month, delta))) if allowed else None
        return icon_button(icon, desc, on_tap, rid=rid, fg=t.accent if allowed else t.divider)

    this_month = today.strftime("%Y-%m")
    return column(
        app_bar("Select dates", ctx.back, colour=t.surface, fg=t.ink),
        row(
            *[text(d, "caption", weight=1, align="center") for d in WEEKDAYS],
            rid="calendar_week_days",
            h=80,
            valign="center",
            bg=t.pale,
        ),
        row(
            turn(-1, "back", "Previous month", "calendar_previous_month", month > this_month),
            text(first.strftime("%B %Y"), "heading", weight=1, align="center", rid="calendar_month_title"),
            turn(1, "chevron", "Next month", "calendar_next_month", month < shift_month(this_month, 12)),
            pad=(16, 16, 16, 8),
            valign="center",
        ),
        column(*weeks, rid="facet_date_picker_calendar", pad=(16, 0, 16, 0), gap=8, weight=1),
        column(
            text(summary, "label", bold=False, align="center", rid="facet_date_picker_selection_summary"),
            cta("Select dates", confirm, rid="facet_date_picker_confirm", enabled=bool(sel_in and sel_out)),
            pad=(40, 24, 40, 32),
            gap=20,
            bg=t.surface,
            border=t.divider,
        ),
        bg=t.surface,
    )
