"""The Search tab and what its search box opens: the destination picker, the date-range calendar and the
rooms-and-guests sheet. The box's values live in the app state (`form`), as the real app remembers them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from ...app import AppContext
from ...ui import EDIT, HSCROLL, IMAGE, TEXT, VIEW, Node
from ...widgets import button, column, icon_button, row, scroll_list, scroll_page, spacer, text
from . import catalog as cat
from .common import (
    ACTION,
    BLUE,
    GREY,
    HOME,
    INK,
    PALE,
    RESULTS,
    YELLOW,
    modal,
    nav,
    open_hotel,
    open_screen,
    party_label,
    party_of,
    plural,
    range_label,
    sheet,
    short_date,
)

VERTICALS = ("Stays", "Flights", "Car rental", "Taxi", "Attractions")
TRENDING = ("Prague", "Vienna", "Sydney", "New York", "Dubai", "Singapore")
MAX_NIGHTS = 30
MAX_RECENT = 5
LIMITS = {"rooms": (1, 8), "adults": (1, 16), "children": (0, 10)}


def run_search(ctx: AppContext, params: dict[str, Any]) -> None:
    """Open results for a city and party (from the box, a recent search or a deep link) and remember it."""
    recent = {"city": params["city"], **party_of(params)}
    ctx.state["recent_searches"] = [recent] + [r for r in ctx.state["recent_searches"] if r != recent]
    del ctx.state["recent_searches"][MAX_RECENT:]
    ctx.go("results", activity=RESULTS, **results_args(params))


def results_args(params: dict[str, Any]) -> dict[str, Any]:
    """A results screen's arguments: destination, party, order and every filter (defaults included)."""
    args = {"city": params["city"], **party_of(params), "order": params.get("order", "popularity")}
    for key, default in cat.FILTER_DEFAULTS.items():
        args[key] = params.get(key, default)
    return args


# -- the Search tab ------------------------------------------------------------------------------------


def build_home(ctx: AppContext) -> Node:
    form = ctx.state["form"]
    vertical = ctx.ui.get("vertical", "Stays")
    chips = [
        Node(
            TEXT,
            text=v,
            rid="facet_entry_point_item_label",
            size=36,
            bold=v == vertical,
            fg="#ffffff",
            bg="#ffffff22" if v == vertical else None,
            border="#ffffff" if v == vertical else None,
            radius=48,
            h=96,
            pad=(36, 0, 36, 0),
            valign="center",
            selected=v == vertical,
            on_tap=lambda v=v: ctx.ui.update(vertical=v),
        )
        for v in VERTICALS
    ]
    top = column(
        row(
            text("Booking.com", size=58, bold=True, fg="#ffffff", weight=1, pad=(32, 0, 0, 0)),
            icon_button("bell", "Notifications", None, rid="notifications", fg="#ffffff"),
            pad=(16, 0, 16, 0),
            h=150,
            valign="center",
        ),
        Node(
            HSCROLL,
            layout="h",
            scroll="verticals",
            children=chips,
            gap=16,
            pad=(32, 0, 32, 28),
            rid="facet_entry_points",
        ),
        bg=BLUE,
    )
    if vertical != "Stays":
        body: list[Node | None] = [
            column(
                text(f"{vertical} are not available on this device yet.", size=40, fg=INK),
                text("Switch back to Stays to search for places to stay.", size=34, fg=GREY),
                pad=60,
                gap=16,
                rid="vertical_placeholder",
            )
        ]
    else:
        body = [search_box(ctx, form), *recent_section(ctx), trending_section(ctx)]
    screen = column(
        top, scroll_page("home", *body, rid="home_scroll", bg=PALE), nav(ctx, "search"), bg="#ffffff"
    )
    return screen


def field_row(
    icon: str, label: str, rid: str, on_tap: Callable[[], None], desc: str, empty: bool = False
) -> Node:
    return row(
        Node(
            IMAGE,
            icon=icon,
            size=52,
            fg=INK,
            w=72,
            h=72,
            align="center",
            rid="facet_search_box_basic_field_icon",
        ),
        text(
            label,
            size=40,
            fg=GREY if empty else INK,
            bold=not empty,
            weight=1,
            max_lines=1,
            rid="facet_search_box_basic_field_label",
        ),
        on_tap=on_tap,
        rid=rid,
        desc=desc,
        bg="#ffffff",
        h=136,
        pad=(28, 0, 28, 0),
        gap=20,
        valign="center",
    )


def search_box(ctx: AppContext, form: dict[str, Any]) -> Node:
    def open_calendar() -> None:
        open_screen(
            ctx,
            "calendar",
            HOME,
            ui={"sel_in": form["checkin"], "sel_out": form["checkout"], "month": form["checkin"][:7]},
        )

    def open_occupancy() -> None:
        ctx.ui.update(dialog="occupancy", occ={k: form[k] for k in LIMITS})

    box = column(
        field_row(
            "search",
            form["city"] or "Enter your destination",
            "facet_search_box_accommodation_destination",
            lambda: open_screen(ctx, "destination", HOME, ui={"focus": "dest"}),
            form["city"] or "Enter your destination",
            empty=not form["city"],
        ),
        field_row(
            "calendar",
            range_label(form["checkin"], form["checkout"]),
            "facet_search_box_accommodation_dates",
            open_calendar,
            range_label(form["checkin"], form["checkout"]),
        ),
        field_row(
            "person",
            party_label(form),
            "facet_search_box_accommodation_occupancy",
            open_occupancy,
            party_label(form).replace(" ·", ","),
        ),
        Node(
            "android.widget.Button",
            text="Search",
            rid="facet_search_box_cta",
            bg=ACTION,
            fg="#ffffff",
            bold=True,
            size=44,
            h=136,
            align="center",
            on_tap=lambda: submit(ctx),
        ),
        bg=YELLOW,
        pad=8,
        gap=8,
        radius=16,
        desc="Accommodation search box",
        rid="facet_search_box",
    )
    return column(box, pad=(32, 40, 32, 24))


def submit(ctx: AppContext) -> None:
    form = ctx.state["form"]
    if not form["city"]:
        ctx.ui["dialog"] = "no_destination"
        return
    run_search(ctx, form)


def recent_section(ctx: AppContext) -> list[Node | None]:
    recents = ctx.state["recent_searches"]
    if not recents:
        return []
    cards = [
        row(
            Node(IMAGE, image=f"city:{r['city']}", w=150, h=150, radius=16, desc=r["city"]),
            column(
                text(r["city"], size=42, bold=True, fg=INK, rid="recent_search_city"),
                text(
                    f"{range_label(r['checkin'], r['checkout'])}, {plural(r['adults'], 'adult')}",
                    size=34,
                    fg=GREY,
                    rid="recent_search_dates",
                ),
                weight=1,
                gap=6,
            ),
            on_tap=lambda r=r: run_search(ctx, r),
            rid="recent_search_item",
            bg="#ffffff",
            radius=16,
            pad=24,
            gap=28,
            valign="center",
        )
        for r in recents
    ]
    return [
        text("Continue your search", size=46, bold=True, fg=INK, pad=(40, 24, 40, 8)),
        column(*cards, gap=20, pad=(32, 8, 32, 16), rid="recent_searches"),
    ]


def trending_section(ctx: AppContext) -> Node:
    def choose(city: str) -> Callable[[], None]:
        return lambda: ctx.state["form"].update(city=city)

    tiles = [
        column(
            Node(IMAGE, image=f"city:{c}", w=360, h=260, radius=20, desc=c),
            text(c, size=38, bold=True, fg=INK, pad=(4, 12, 0, 0)),
            w=360,
            on_tap=choose(c),
            rid="trending_destination",
        )
        for c in TRENDING
    ]
    return column(
        text("Trending destinations", size=46, bold=True, fg=INK, pad=(40, 32, 40, 4)),
        text("Most popular choices for travellers", size=34, fg=GREY, pad=(40, 0, 40, 16)),
        scroll_list("trending", tiles, rid="trending_list", horizontal=True, gap=24, pad=(32, 0, 32, 40)),
    )


def home_layer(ctx: AppContext) -> Node | None:
    """Sheets and dialogs over the Search tab."""
    kind = ctx.ui.get("dialog")
    if kind == "occupancy":
        return occupancy_sheet(ctx)
    if kind == "no_destination":
        close = lambda: ctx.ui.pop("dialog", None)  # noqa: E731
        return modal(
            "Please enter your destination",
            [text("Tell us where you want to go to start searching.", size=40, fg=GREY, pad=(56, 0, 56, 0))],
            [button("OK", close, rid="button_positive", colour=ACTION)],
            close,
        )
    return None


def occupancy_sheet(ctx: AppContext) -> Node:
    occ = ctx.ui["occ"]

    def step(key: str, delta: int) -> Callable[[], None]:
        low, high = LIMITS[key]
        return lambda: occ.update({key: max(low, min(high, occ[key] + delta))})

    def stepper(key: str, label: str, note: str = "") -> Node:
        low, high = LIMITS[key]
        noun = key if key != "children" else "children"
        return row(
            column(
                text(label, size=42, bold=True, fg=INK),
                text(note, size=32, fg=GREY) if note else None,
                weight=1,
            ),
            row(
                Node(
                    "android.widget.Button",
                    text="-",
                    desc=f"Decrease number of {noun}",
                    rid="bui_input_stepper_remove_button",
                    on_tap=step(key, -1),
                    enabled=occ[key] > low,
                    size=52,
                    w=110,
                    h=110,
                    radius=12,
                    border="#868686",
                    fg=ACTION if occ[key] > low else "#bdbdbd",
                    align="center",
                ),
                text(
                    str(occ[key]),
                    size=44,
                    bold=True,
                    fg=INK,
                    w=110,
                    align="center",
                    rid="bui_input_stepper_value",
                ),
                Node(
                    "android.widget.Button",
                    text="+",
                    desc=f"Increase number of {noun}",
                    rid="bui_input_stepper_add_button",
                    on_tap=step(key, +1),
                    enabled=occ[key] < high,
                    size=52,
                    w=110,
                    h=110,
                    radius=12,
                    border="#868686",
                    fg=ACTION if occ[key] < high else "#bdbdbd",
                    align="center",
                ),
                valign="center",
            ),
            rid=f"group_config_{key}_count",
            pad=(48, 20, 48, 20),
            valign="center",
        )

    def apply() -> None:
        ctx.state["form"].update(occ)
        ctx.ui.pop("dialog", None)

    return sheet(
        "Select rooms and guests",
        [
            stepper("rooms", "Rooms"),
            stepper("adults", "Adults", "Ages 18 or above"),
            stepper("children", "Children", "Ages 0-17"),
            column(
                button("Apply", apply, rid="group_config_apply_button", colour=ACTION, radius=12),
                pad=(48, 24, 48, 0),
            ),
        ],
        lambda: ctx.ui.pop("dialog", None),
        rid="group_config_main_configs",
    )


# -- destination picker --------------------------------------------------------------------------------


def build_destination(ctx: AppContext) -> Node:
    typed = str(ctx.ui.get("dest", ""))
    found = cat.suggestions(typed)

    def pick(title: str, hotel_id: int | None) -> Callable[[], None]:
        def go() -> None:
            if hotel_id is None:
                ctx.state["form"]["city"] = title
                ctx.back()
            else:
                ctx.back()
                open_hotel(ctx, hotel_id, ctx.state["form"])()

        return go

    rows = [
        row(
            Node(
                IMAGE,
                icon="pin" if hid is None else "home",
                size=52,
                fg=INK,
                w=96,
                h=96,
                bg=PALE,
                radius=48,
                align="center",
            ),
            column(
                text(
                    title,
                    size=42,
                    bold=True,
                    fg=INK,
                    rid="view_disambiguation_destination_title",
                    max_lines=1,
                ),
                text(subtitle, size=34, fg=GREY, rid="view_disambiguation_destination_subtitle", max_lines=1),
                weight=1,
            ),
            on_tap=pick(title, hid),
            rid="disambiguation_item",
            pad=(40, 24, 40, 24),
            gap=32,
            valign="center",
        )
        for title, subtitle, hid in found
    ]
    if not typed.strip():
        recent_cities = list(dict.fromkeys(r["city"] for r in ctx.state["recent_searches"]))
        rows = (
            [text("Recent searches", size=38, bold=True, fg=INK, pad=(40, 32, 40, 8))]
            if recent_cities
            else []
        )
        rows += [
            row(
                Node(IMAGE, icon="calendar", size=48, fg=INK, w=96, h=96, bg=PALE, radius=48, align="center"),
                text(c, size=42, fg=INK, weight=1, rid="view_disambiguation_destination_title"),
                on_tap=pick(c, None),
                rid="disambiguation_item",
                pad=(40, 24, 40, 24),
                gap=32,
                valign="center",
            )
            for c in recent_cities
        ]
    elif not found:
        rows = [text(f'No destinations match "{typed}"', size=40, fg=GREY, pad=60, rid="no_results")]

    def submit(value: str) -> None:
        hits = cat.suggestions(value)
        if hits:
            pick(hits[0][0], hits[0][2])()
        else:
            ctx.toast("Choose a destination from the list")

    field = Node(
        EDIT,
        field="dest",
        hint="Enter destination",
        rid="facet_with_bui_free_search_booking_header_toolbar_content",
        size=44,
        weight=1,
        h=120,
        bg="#ffffff",
        radius=12,
        pad=(28, 0, 28, 0),
        on_submit=submit,
    )
    return column(
        row(
            icon_button("back", "Navigate up", ctx.back, rid="navigate_up", fg=INK),
            field,
            pad=(16, 24, 32, 24),
            gap=8,
            valign="center",
            bg="#ffffff",
            border=YELLOW,
        ),
        scroll_list("suggestions", rows, rid="facet_disambiguation_content"),
        bg="#ffffff",
    )


# -- date range calendar -------------------------------------------------------------------------------


def _month_start(ym: str) -> date:
    return date.fromisoformat(ym + "-01")


def _shift_month(ym: str, delta: int) -> str:
    first = _month_start(ym)
    index = first.year * 12 + first.month - 1 + delta
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def build_calendar(ctx: AppContext) -> Node:
    ui = ctx.ui
    today = ctx.now().date()
    month = ui["month"]
    first = _month_start(month)
    sel_in = ui.get("sel_in")
    sel_out = ui.get("sel_out")

    def tap(d: date) -> Callable[[], None]:
        def choose() -> None:
            start = ui.get("sel_in")
            if start and not ui.get("sel_out") and d > date.fromisoformat(start):
                if (d - date.fromisoformat(start)).days > MAX_NIGHTS:
                    ctx.toast(f"Reservations longer than {MAX_NIGHTS} nights are not possible")
                    return
                ui["sel_out"] = d.isoformat()
            else:
                ui["sel_in"], ui["sel_out"] = d.isoformat(), None

        return choose

    weeks: list[Node] = []
    cursor = first - timedelta(days=(first.weekday() + 1) % 7)  # weeks start on Sunday (en-US)
    for _ in range(6):
        cells: list[Node] = []
        for _ in range(7):
            if cursor.month != first.month:
                cells.append(Node(VIEW, weight=1, h=124))
            else:
                iso = cursor.isoformat()
                ends = iso in (sel_in, sel_out)
                inside = bool(sel_in and sel_out and sel_in < iso < sel_out)
                past = cursor < today
                cells.append(
                    Node(
                        VIEW,
                        text=str(cursor.day),
                        desc=cursor.strftime("%d %B %Y"),
                        weight=1,
                        h=124,
                        size=40,
                        align="center",
                        valign="center",
                        bold=ends,
                        enabled=not past,
                        on_tap=None if past else tap(cursor),
                        fg="#ffffff" if ends else "#bdbdbd" if past else INK,
                        bg=ACTION if ends else "#ebf3ff" if inside else None,
                        radius=62 if ends else 0,
                        selected=ends or inside,
                    )
                )
            cursor += timedelta(days=1)
        weeks.append(Node("android.widget.LinearLayout", layout="h", children=cells, rid="calendar_week"))
    if sel_in and sel_out:
        summary = f"{range_label(sel_in, sel_out)} ({plural(cat.nights(sel_in, sel_out), 'night')})"
    elif sel_in:
        summary = f"{short_date(sel_in)} - Select your check-out date"
    else:
        summary = "Select your check-in date"

    def confirm() -> None:
        ctx.state["form"].update(checkin=ui["sel_in"], checkout=ui["sel_out"])
        ctx.back()

    can_go_back = month > today.strftime("%Y-%m")
    can_go_on = month < _shift_month(today.strftime("%Y-%m"), 12)
    return column(
        row(
            icon_button("close", "Close", ctx.back, rid="navigate_up", fg=INK),
            text(
                "Select dates", size=50, bold=True, fg=INK, weight=1, pad=(24, 0, 0, 0), rid="toolbar_title"
            ),
            h=168,
            pad=(16, 0, 16, 0),
            valign="center",
            bg="#ffffff",
        ),
        row(
            *[
                text(d, size=34, fg=GREY, weight=1, align="center")
                for d in ("Su", "Mo", "Tu", "We", "Th", "Fr", "Sa")
            ],
            rid="calendar_week_days",
            h=80,
            valign="center",
            bg=PALE,
        ),
        row(
            icon_button(
                "back",
                "Previous month",
                (lambda: ui.update(month=_shift_month(month, -1))) if can_go_back else None,
                rid="calendar_previous_month",
                fg=ACTION if can_go_back else "#bdbdbd",
            ),
            text(
                first.strftime("%B %Y"),
                size=46,
                bold=True,
                fg=INK,
                weight=1,
                align="center",
                rid="calendar_month_title",
            ),
            icon_button(
                "chevron",
                "Next month",
                (lambda: ui.update(month=_shift_month(month, 1))) if can_go_on else None,
                rid="calendar_next_month",
                fg=ACTION if can_go_on else "#bdbdbd",
            ),
            pad=(16, 16, 16, 8),
            valign="center",
        ),
        column(*weeks, rid="facet_date_picker_calendar", pad=(16, 0, 16, 0), gap=8),
        spacer(weight=1),
        column(
            text(summary, size=38, fg=INK, align="center", rid="facet_date_picker_selection_summary"),
            button(
                "Select dates",
                confirm,
                rid="facet_date_picker_confirm",
                colour=ACTION,
                radius=12,
                enabled=bool(sel_in and sel_out),
            ),
            pad=(40, 24, 40, 32),
            gap=20,
            bg="#ffffff",
            border="#e0e0e0",
        ),
        bg="#ffffff",
    )
