"""Pieces every Fitbit screen shares: activities, units as the settings show them, the bottom navigation,
the day navigator, form fields and chips, and the small blocks (cards, big numbers, bars)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import BUTTON, EDIT, IMAGE, VIEWGROUP, Node
from ...widgets import app_bar, bottom_nav, button, column, icon_button, row, scroll_page, text

# Activities (fully qualified, as dumpsys reports them)
HOME = "com.fitbit.home.ui.HomeActivity_"
DEEPLINK = "com.fitbit.deeplink.DeepLinkActivity"
STATS = "com.fitbit.corestats.CoreStatsActivity"
EXERCISE = "com.fitbit.activity.ui.ExerciseListActivity"
LOGGING = "com.fitbit.logging.LoggingActivity"
CHALLENGE = "com.fitbit.challenges.ui.ChallengeActivity"
SETTINGS = "com.fitbit.settings.ui.SettingsActivity"
TABS = (("Today", "home"), ("Discover", "explore"), ("You", "person"))

KM_PER_MI = 1.609344
KG_PER_LB = 0.45359237
ML_PER_FL_OZ = 29.5735
DISTANCE_UNITS = {"km": "Kilometers", "mi": "Miles"}
WEIGHT_UNITS = {"kg": "Kilograms", "lb": "Pounds"}
WATER_UNITS = {"ml": "Milliliters", "fl oz": "Fluid ounces"}


# -- units -----------------------------------------------------------------------------------------------


def to_km(value: float, unit: str) -> float:
    return round(value * KM_PER_MI if unit == "mi" else value, 2)


def to_kg(value: float, unit: str) -> float:
    return round(value * KG_PER_LB if unit == "lb" else value, 2)


def to_ml(value: float, unit: str) -> float:
    return round(value * ML_PER_FL_OZ if unit == "fl oz" else value, 1)


def from_base(value: float, unit: str) -> float:
    """A stored amount (km, kg or ml) in the unit the settings show."""
    factor = {"mi": KM_PER_MI, "lb": KG_PER_LB, "fl oz": ML_PER_FL_OZ}.get(unit, 1.0)
    return value / factor


def number(value: float, digits: int = 1) -> str:
    """'5', '5.2', '12,000': no trailing zeros."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.{digits}f}".rstrip("0").rstrip(".")


def distance_text(ctx: AppContext, km: float) -> str:
    unit = ctx.state["settings"]["distance_unit"]
    return f"{number(from_base(km, unit), 2)} {unit}"


def weight_text(ctx: AppContext, kg: float) -> str:
    unit = ctx.state["settings"]["weight_unit"]
    return f"{number(from_base(kg, unit), 1)} {unit}"


def water_parts(ctx: AppContext, ml: float) -> tuple[str, str]:
    """(figure, unit) of a water amount in the unit the settings show."""
    unit = ctx.state["settings"]["water_unit"]
    return number(from_base(ml, unit), 1 if unit == "fl oz" else 0), unit


def water_text(ctx: AppContext, ml: float) -> str:
    return " ".join(water_parts(ctx, ml))


def duration_text(minutes: int) -> str:
    """'7 hr 32 min', '45 min'."""
    hours, rest = divmod(minutes, 60)
    return f"{hours} hr {rest} min" if hours else f"{rest} min"


def parse_number(raw: Any) -> float | None:
    """A typed amount ('750', '5.5', '12,000'), or None when it is not a positive number."""
    try:
        value = float(str(raw).replace(",", "").strip())
    except ValueError:
        return None
    return value if value > 0 else None


# -- dates -----------------------------------------------------------------------------------------------


def today(ctx: AppContext) -> date:
    return ctx.now().date()


def day_label(ctx: AppContext, day: date) -> str:
    """'Today', 'Yesterday' or 'Mon, Nov 23'."""
    delta = (today(ctx) - day).days
    if delta == 0:
        return "Today"
    if delta == 1:
        return "Yesterday"
    return day.strftime("%a, %b ") + str(day.day)


def week_start(ctx: AppContext, day: date) -> date:
    """The first day of `day`'s week under the Start of week setting."""
    first = {"Monday": 0, "Saturday": 5, "Sunday": 6}[ctx.state["settings"]["week_start"]]
    return day - timedelta(days=(day.weekday() - first) % 7)


def selected_day(ctx: AppContext, key: str = "day_offset") -> date:
    """The day a screen's navigator shows: today minus the days stepped back."""
    return today(ctx) - timedelta(days=int(ctx.ui.get(key, ctx.args.get(key, 0))))


def date_navigator(ctx: AppContext, label: str, key: str = "day_offset", step_limit: int = 365) -> Node:
    """'<  Today  >': steps back through days (never past today), as the app's date header does."""
    offset = int(ctx.ui.get(key, ctx.args.get(key, 0)))

    def move(delta: int) -> Callable[[], None]:
        def go() -> None:
            ctx.ui[key] = min(step_limit, max(0, offset + delta))

        return go

    return row(
        icon_button("chevron_left", "Previous", move(1), rid="date_previous"),
        text(label, "subtitle", align="center", weight=1, rid="date_label"),
        icon_button("chevron_right", "Next", move(-1) if offset > 0 else None, rid="date_next"),
        pad=(24, 8, 24, 8),
        valign="center",
        bg=theme().surface,
        rid="date_navigator",
    )


# -- navigation -----------------------------------------------------------------------------------------


def nav(ctx: AppContext, current: str) -> Node:
    """The bottom navigation: Today, Discover (challenges) and You; the open tab does nothing."""
    roots = {"Today": "today", "Discover": "discover", "You": "you"}

    def select(label: str) -> None:
        if label != current:
            ctx.switch_tab(ctx.screen(roots[label], activity=HOME))

    return bottom_nav(TABS, current, select, colour=theme().primary)


def page_bar(ctx: AppContext, title: str, *actions: Node | None) -> Node:
    return app_bar(title, ctx.back, *actions)


# -- building blocks -----------------------------------------------------------------------------------


def card(*children: Node | None, **kw: Any) -> Node:
    """A white rounded card."""
    kw.setdefault("pad", 36)
    kw.setdefault("gap", 12)
    return column(*children, bg=theme().surface, radius=28, **kw)


def glyph(icon: str, colour: str, box: int = 96) -> Node:
    return Node(IMAGE, icon=icon, size=box * 2 // 3, w=box, h=box, fg=colour, align="center")


def big_number(value: str, unit: str = "", rid: str = "stat_value") -> Node:
    """The headline figure of a detail page: '8,214 steps'."""
    return row(
        text(value, "display", rid=rid),
        text(unit, "body", fg=theme().muted, pad=(16, 20, 0, 0)) if unit else None,
        valign="end",
    )


def progress_bar(value: float, goal: float, rid: str = "goal_progress") -> Node:
    """A rounded bar filled to the share of the goal reached (full at or past the goal)."""
    t = theme()
    share = max(0.0, min(1.0, value / goal)) if goal else 0.0
    return row(
        Node(VIEWGROUP, weight=share, radius=12, bg=t.primary) if share else None,
        Node(VIEWGROUP, weight=1 - share) if share < 1 else None,
        h=24, radius=12, bg=t.pale, rid=rid, desc=f"{round(share * 100)}% of goal",
    )  # fmt: skip


def bar_chart(
    values: Sequence[float], labels: Sequence[str], goal: float | None = None, h: int = 300
) -> Node:
    """Vertical bars for a week or month (a day's value each), tinted when they reach the goal."""
    t = theme()
    top = max([*values, goal or 0, 1])
    bars = [
        column(
            Node(VIEWGROUP, weight=1),
            Node(VIEWGROUP, h=max(4, int((h - 60) * v / top)), radius=6,
                 bg=t.primary if goal and v >= goal else t.accent),
            text(label, "overline", align="center", h=44, max_lines=1),
            weight=1, h=h, align="center", gap=6,
        )
        for v, label in zip(values, labels, strict=True)
    ]  # fmt: skip
    return row(*bars, gap=4 if len(values) > 10 else 16, pad=(24, 16, 24, 16), rid="chart")


def form_field(
    ctx: AppContext, key: str, rid: str, hint: str = "", value: str = "", w: int | None = None
) -> Node:
    """A bordered text field whose value lives in the screen's UI state under `key`."""
    t = theme()
    return Node(
        EDIT, field=key, text=value, hint=hint, rid=rid, size=t.style("body").size, h=120, w=w,
        weight=0 if w else 1, pad=(28, 0, 28, 0), border=t.muted, radius=16, bg=t.surface,
    )  # fmt: skip


def labelled(label: str, control: Node) -> Node:
    """A small label over a form control."""
    return column(text(label, "caption", pad=(0, 12, 0, 4)), control)


def choice_chips(options: Sequence[str], current: str, on_pick: Callable[[str], None], rid: str) -> Node:
    """Single-choice chips (an exercise type, a meal, a unit): the current one filled."""
    t = theme()
    chips = [
        Node(
            BUTTON, text=option, selected=option == current, on_tap=partial(on_pick, option), rid=rid,
            h=96, radius=48, pad=(32, 0, 32, 0), size=36, align="center", bold=option == current,
            bg=t.primary if option == current else t.surface, fg=t.on_primary if option == current else t.ink,
            border=None if option == current else t.divider,
        )
        for option in options
    ]  # fmt: skip
    return Node(children=chips, layout="flow", gap=16, rid=rid + "_group", pad=(0, 8, 0, 8))


def error_line(ctx: AppContext) -> Node | None:
    message = ctx.ui.get("error")
    return text(message, "negative", rid="error_text", bold=False) if message else None


def primary_button(label: str, on_tap: Callable[[], None] | None, rid: str) -> Node:
    return button(label, on_tap, rid=rid, colour=theme().primary)


def next_id(ctx: AppContext, prefix: str) -> str:
    """A fresh id for a log entry ('w12'), from a counter kept in the state."""
    ctx.state["next_id"] += 1
    return f"{prefix}{ctx.state['next_id']}"


def list_row(title: str, subtitle: str, on_tap: Callable[[], None] | None, rid: str, **kw: Any) -> Node:
    """A tappable row of a settings-style list: a title over its current value."""
    return column(
        text(title, "body", rid=rid + "_title"),
        text(subtitle, "caption", rid=rid + "_value") if subtitle else None,
        on_tap=on_tap, rid=rid, pad=(48, 28, 48, 28), gap=4, desc=title, **kw,
    )  # fmt: skip


def return_to(ctx: AppContext, screen: str) -> None:
    """Close a log form and show the list it adds to (opened from a deep link, push that list)."""
    phone = ctx.phone
    phone.pop_screen()
    if phone.top.package != ctx.app.package or phone.top.name != screen:
        phone.context(ctx.app.package).go(screen)


def parse_clock(raw: str) -> str | None:
    """'7:00', '07:00', '7:00 AM', '7 pm', '19:30' as 'HH:MM'; None if it is not a time of day."""
    found = re.fullmatch(r"\s*(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?\s*", raw.lower())
    if not found:
        return None
    hour, minute = int(found.group(1)), int(found.group(2) or 0)
    suffix = (found.group(3) or "").replace(".", "")
    if suffix and not 1 <= hour <= 12:
        return None
    if suffix:
        hour = hour % 12 + (12 if suffix == "pm" else 0)
    if hour > 23 or minute > 59 or (found.group(2) is None and not suffix):
        return None
    return f"{hour:02d}:{minute:02d}"


def clock_text(hhmm: str) -> str:
    """'07:00' as '7:00 AM'."""
    hour, minute = map(int, hhmm.split(":"))
    return f"{hour % 12 or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def form_page(ctx: AppContext, title: str, form: Node, on_save: Callable[[], None], rid: str) -> Node:
    """A log form under an app bar whose Log button saves it (in reach above the keyboard, as in the app)."""
    t = theme()
    save = button("Log", on_save, rid=rid, colour=t.primary, h=100, pad=(44, 0, 44, 0))
    return column(
        page_bar(ctx, title, save),
        scroll_page("form", column(form, pad=32), bg=t.background),
        bg=t.background,
    )
