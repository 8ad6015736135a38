"""The main screen: the chosen view (Schedule, Day, 3 days, Week, Month) of the focused date, the header
(drawer, month title that opens a month picker, search, today), the drawer that switches views and opens
Tasks and Settings, and the + button's Event / Task menu.

The focused date is the screen's ui state (`date`); the chosen view is app state, as the real app
remembers it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

from ...app import AppContext
from ...theme import theme
from ...ui import BUTTON, FRAME, VIEWGROUP, Node
from ...widgets import bottom_sheet, column, divider, icon_button, list_item, row, scroll_list, spacer, text
from . import model
from .common import SHORT_DAYS, colour_of, event_chip, fit, month_grid

VIEWS = {"schedule": "Schedule", "day": "Day", "3day": "3 days", "week": "Week", "month": "Month"}
VIEW_ICONS = {"schedule": "list", "day": "today", "3day": "grid", "week": "grid", "month": "event"}
SPAN = {"day": 1, "3day": 3, "week": 7}
SCHEDULE_DAYS = 45
WIDTH = 1080


def focus(ctx: AppContext) -> date:
    """The focused date: where the user navigated, else the date the screen was opened on, else today."""
    chosen = ctx.ui.get("date") or ctx.args.get("date")
    return date.fromisoformat(chosen) if chosen else model.today(ctx.state, ctx.now())


def set_focus(ctx: AppContext, day: date) -> None:
    ctx.ui["date"] = day.isoformat()
    ctx.ui.pop("picker", None)
    ctx.ui.pop("main", None)  # scroll back to the top of the new range


def _open_event(ctx: AppContext, ev: model.Event, day: date) -> Callable[[], None]:
    return ctx.link("event", id=ev["id"], date=day.isoformat())


def _period_start(ctx: AppContext, view: str, day: date) -> date:
    return model.week_start(ctx.state, day) if view == "week" else day


def _step(ctx: AppContext, view: str, direction: int) -> None:
    day = focus(ctx)
    if view == "month":
        set_focus(ctx, model.shift_month(day, direction))
    else:
        set_focus(ctx, day + timedelta(days=SPAN.get(view, 1) * direction))


def open_search(ctx: AppContext) -> None:
    """Search opens with its box focused and the keyboard up."""
    ctx.go("search")
    ctx.phone.top.ui["focus"] = "query"


def header(ctx: AppContext, view: str) -> Node:
    day = focus(ctx)
    t = theme()

    def toggle_picker() -> None:
        ctx.ui["picker"] = not ctx.ui.get("picker")
        ctx.ui["picker_month"] = day.replace(day=1).isoformat()

    title = row(
        text(day.strftime("%B %Y"), "title", max_lines=1),
        Node(icon="expand_less" if ctx.ui.get("picker") else "expand_more", size=50, w=70, h=70, fg=t.ink),
        on_tap=toggle_picker,
        rid="date_picker_button",
        desc="Show date picker",
        valign="center",
        gap=4,
    )
    arrows = (
        [
            icon_button("chevron_left", "Previous", lambda: _step(ctx, view, -1), rid="prev_period"),
            icon_button("chevron_right", "Next", lambda: _step(ctx, view, 1), rid="next_period"),
        ]
        if view != "schedule"
        else []
    )
    return row(
        icon_button(
            "menu", "Show Calendar List and Settings drawer", ctx.opener("drawer"), rid="drawer_button"
        ),
        title,
        spacer(weight=1),
        *arrows,
        icon_button("search", "Search", lambda: open_search(ctx), rid="action_search"),
        icon_button(
            "today",
            "Jump to Today",
            lambda: set_focus(ctx, model.today(ctx.state, ctx.now())),
            rid="action_today",
        ),
        h=168,
        pad=(16, 0, 8, 0),
        valign="center",
        rid="toolbar",
        bg=t.surface,
    )


def day_label(ctx: AppContext, day: date, on_tap: Callable[[], None] | None = None, width: int = 150) -> Node:
    """A day's weekday and number; today's number is circled in the brand colour."""
    t = theme()
    is_today = day == model.today(ctx.state, ctx.now())
    return column(
        text(SHORT_DAYS[day.weekday()], "caption", align="center", fg=t.primary if is_today else t.muted),
        text(
            str(day.day),
            size=44,
            bold=True,
            w=90,
            h=90,
            radius=45,
            align="center",
            bg=t.primary if is_today else None,
            fg=t.on_primary if is_today else t.ink,
        ),
        w=width,
        align="center",
        on_tap=on_tap,
        rid="day_header" if on_tap else "",
        desc=model.long_date(day),
    )


def schedule(ctx: AppContext) -> Node:
    start = focus(ctx)
    rows: list[Node] = []
    for n in range(SCHEDULE_DAYS):
        day = start + timedelta(days=n)
        events = model.on_day(ctx.state, day)
        if not events:
            continue
        if day.day == 1 or not rows:
            rows.append(text(day.strftime("%B %Y"), "heading", pad=(40, 30, 40, 10), rid="month_header"))
        chips = [event_chip(ev, day, _open_event(ctx, ev, day), WIDTH - 230) for ev in events]
        rows.append(
            row(
                day_label(ctx, day),
                column(*chips, gap=12, weight=1),
                pad=(20, 16, 40, 16),
                gap=20,
                valign="start",
            )
        )
    if not rows:
        rows.append(text("Nothing planned", "body", pad=60, rid="empty_message"))
    return scroll_list("main", rows, rid="schedule_list")


def columns(ctx: AppContext, view: str) -> Node:
    """Day, 3 days or Week: a column per day with its events top to bottom."""
    span = SPAN[view]
    first = _period_start(ctx, view, focus(ctx))
    width = (WIDTH - 40) // span - 8
    cols = []
    for n in range(span):
        day = first + timedelta(days=n)
        chips = [
            event_chip(ev, day, _open_event(ctx, ev, day), width, compact=span > 1)
            for ev in model.on_day(ctx.state, day)
        ]
        cols.append(
            column(
                day_label(
                    ctx,
                    day,
                    ctx.link("main", view="day", date=day.isoformat()) if span > 1 else None,
                    width=width,
                ),
                *chips,
                w=width,
                gap=10,
            )
        )
    body = row(*cols, gap=8, pad=(20, 10, 20, 40), valign="start")
    return scroll_list("main", [body], rid="day_columns")


def month(ctx: AppContext) -> Node:
    """The month grid: each day's number and its first events; a day opens that day."""
    t = theme()
    day = focus(ctx)
    first = day.replace(day=1)
    start = model.week_start(ctx.state, first)
    today = model.today(ctx.state, ctx.now())
    cell_w = (WIDTH - 20) // 7
    names = row(
        *(
            text(SHORT_DAYS[(start + timedelta(days=i)).weekday()], "caption", align="center", weight=1)
            for i in range(7)
        ),
        pad=(10, 10, 10, 10),
    )
    weeks = []
    for w in range(6):
        week = [start + timedelta(days=7 * w + d) for d in range(7)]
        if week[0].month != first.month and week[0] > first:
            break
        cells = []
        for d in week:
            events = model.on_day(ctx.state, d)
            lines = [
                text(
                    fit(ev["summary"], 24, cell_w - 16),
                    size=24,
                    fg="#ffffff",
                    bg=colour_of(ev),
                    radius=6,
                    pad=(4, 2, 4, 2),
                    max_lines=1,
                )
                for ev in events[:3]
            ]
            more = text(f"+{len(events) - 3}", size=24, fg=t.muted) if len(events) > 3 else None
            cells.append(
                column(
                    text(
                        str(d.day),
                        size=30,
                        bold=d == today,
                        align="center",
                        fg=t.primary if d == today else (t.ink if d.month == first.month else t.muted),
                    ),
                    *lines,
                    more,
                    w=cell_w,
                    h=300,
                    gap=4,
                    pad=(4, 6, 4, 6),
                    on_tap=ctx.link("main", view="day", date=d.isoformat()),
                    rid="month_day",
                    desc=f"{model.long_date(d)}, {len(events)} event{'s' if len(events) != 1 else ''}",
                )
            )
        weeks += [row(*cells, pad=(10, 0, 10, 0)), divider()]
    return scroll_list("main", [names, *weeks], rid="month_grid")


def build_main(ctx: AppContext) -> Node:
    view = ctx.args.get("view") or ctx.state["view"]
    body = {"schedule": schedule, "month": month}.get(view)
    content = body(ctx) if body else columns(ctx, view)
    picker = None
    if ctx.ui.get("picker"):
        shown = date.fromisoformat(ctx.ui["picker_month"])

        def show_month(m: date) -> None:
            ctx.ui["picker_month"] = m.isoformat()

        picker = column(
            month_grid(
                shown,
                focus(ctx),
                model.today(ctx.state, ctx.now()),
                lambda d: set_focus(ctx, d),
                show_month,
                model.week_start(ctx.state, shown),
            ),
            divider(),
        )
    return column(header(ctx, view), picker, content, fab(ctx), bg=theme().surface)


def fab(ctx: AppContext) -> Node:
    t = theme()
    button = Node(
        BUTTON,
        icon="plus",
        desc="Create new event or task",
        on_tap=ctx.opener("create_menu"),
        rid="floating_action_button",
        w=170,
        h=170,
        radius=50,
        bg=t.pale,
        fg=t.primary,
        size=70,
        align="center",
    )
    return row(spacer(weight=1), button, pad=(0, 10, 40, 30))


def create_menu(ctx: AppContext) -> Node:
    """The + button's choices."""

    def event() -> None:
        ctx.close()
        ctx.go("editor", date=focus(ctx).isoformat())

    def task() -> None:
        ctx.close()
        ctx.go("task_editor", date=focus(ctx).isoformat())

    return bottom_sheet(
        "Create",
        [
            list_item("Event", on_tap=event, icon="event", rid="create_event"),
            list_item("Task", on_tap=task, icon="check", rid="create_task"),
        ],
        ctx.close,
    )


def drawer(ctx: AppContext) -> Node:
    """The navigation drawer: the views, then Tasks, Search and Settings."""
    t = theme()
    current = ctx.args.get("view") or ctx.state["view"]

    def pick(view: str) -> None:
        ctx.state["view"] = view
        ctx.close()
        ctx.args.pop("view", None)

    def go(screen: str) -> None:
        ctx.close()
        ctx.go(screen)

    items = [
        row(
            Node(icon=VIEW_ICONS[key], size=56, w=80, h=80, fg=t.primary if key == current else t.muted),
            text(label, "body", bold=key == current, weight=1),
            on_tap=lambda k=key: pick(k),
            rid="drawer_view",
            selected=key == current,
            desc=label,
            pad=(40, 26, 40, 26),
            gap=30,
            valign="center",
            bg=t.pale if key == current else None,
            radius=60,
        )
        for key, label in VIEWS.items()
    ]
    panel = column(
        text("Google Calendar", "title", pad=(48, 60, 48, 30)),
        *items,
        divider(),
        list_item("Tasks", on_tap=lambda: go("tasks"), icon="check", rid="drawer_tasks"),
        list_item("Settings", on_tap=lambda: go("settings"), icon="settings", rid="drawer_settings"),
        w=840,
        weight=1,
        bg=t.surface,
        cls=FRAME,
        rid="drawer",
    )
    scrim = Node(VIEWGROUP, bg="#00000088", on_tap=ctx.close, rid="touch_outside", weight=1, dumped=False)
    return Node(FRAME, layout="stack", children=[scrim, panel], align="start", valign="start")
