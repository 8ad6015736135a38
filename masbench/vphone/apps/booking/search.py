"""The Search tab and what its search box opens: the destination picker and the rooms-and-guests sheet
(the dates open calendar.py). The box's values live in the app state (`form`), as the real app remembers
them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    bottom_sheet,
    button,
    column,
    dialog,
    icon_button,
    image,
    row,
    scroll_list,
    scroll_page,
    search_field,
    section_header,
    text,
)
from . import catalog as cat
from .common import (
    cta,
    glyph,
    go_with,
    media,
    nav,
    open_hotel,
    party_label,
    party_of,
    plural,
    range_label,
    tile,
)

VERTICALS = ("Stays", "Flights", "Car rental", "Taxi", "Attractions")
TRENDING = ("Prague", "Vienna", "Sydney", "New York", "Dubai", "Singapore")
MAX_RECENT = 5
LIMITS = {"rooms": (1, 8), "adults": (1, 16), "children": (0, 10)}
GLASS = "#ffffff22"  # the selected vertical's translucent fill on the blue header


def remember(state: dict[str, Any], params: dict[str, Any]) -> None:
    """Put a search first in the recent searches, as the app does when results open."""
    recent = {"city": params["city"], **party_of(params)}
    state["recent_searches"] = [recent] + [r for r in state["recent_searches"] if r != recent]
    del state["recent_searches"][MAX_RECENT:]


def results_args(params: dict[str, Any]) -> dict[str, Any]:
    """A results screen's arguments: destination, party, order and every filter (defaults included)."""
    args = {"city": params["city"], **party_of(params), "order": params.get("order", "popularity")}
    for key, default in cat.FILTER_DEFAULTS.items():
        args[key] = params.get(key, default)
    return args


def run_search(ctx: AppContext, params: dict[str, Any]) -> None:
    """Open results for a city and party (from the box or a recent search) and remember it."""
    remember(ctx.state, params)
    ctx.go("results", **results_args(params))


# -- the Search tab ------------------------------------------------------------------------------------


def build_home(ctx: AppContext) -> Node:
    t = theme()
    vertical = ctx.ui.get("vertical", "Stays")

    def chip(v: str) -> Node:
        on = v == vertical
        style = {"bg": GLASS, "border": t.on_primary} if on else {}
        return text(
            v,
            "label",
            bold=on,
            fg=t.on_primary,
            radius=48,
            h=96,
            pad=(36, 0, 36, 0),
            selected=on,
            on_tap=lambda: ctx.ui.update(vertical=v),
            rid="facet_entry_point_item_label",
            **style,
        )

    logo = text("Booking.com", "headline", fg=t.on_primary, weight=1, pad=(32, 0, 0, 0))
    bell = icon_button("bell", "Notifications", None, rid="notifications", fg=t.on_primary)
    chips = [chip(v) for v in VERTICALS]
    top = column(
        row(logo, bell, pad=(16, 0, 16, 0), h=150, valign="center"),
        scroll_list(
            "verticals", chips, rid="facet_entry_points", horizontal=True, gap=16, pad=(32, 0, 32, 28)
        ),
        bg=t.primary,
    )
    if vertical == "Stays":
        body = [search_box(ctx), *recent_section(ctx), *trending_section(ctx)]
    else:
        body = [
            column(
                text(f"{vertical} are not available on this device yet."),
                text("Switch back to Stays to search for places to stay.", "caption"),
                pad=60,
                gap=16,
                rid="vertical_placeholder",
            )
        ]
    page = scroll_page("home", *body, rid="home_scroll", bg=t.background)
    return column(top, page, nav(ctx, "search"), bg=t.surface)


def field_row(icon: str, label: str, rid: str, on_tap: Callable[[], None], desc: str = "") -> Node:
    """One field of the search box; an empty one shows its hint in grey."""
    t = theme()
    empty = not desc
    return row(
        glyph(icon, 52, 72, rid="facet_search_box_basic_field_icon"),
        text(
            label,
            fg=t.muted if empty else t.ink,
            bold=not empty,
            weight=1,
            max_lines=1,
            rid="facet_search_box_basic_field_label",
        ),
        on_tap=on_tap,
        rid=rid,
        desc=desc or label,
        bg=t.surface,
        h=136,
        pad=(28, 0, 28, 0),
        gap=20,
        valign="center",
    )


def search_box(ctx: AppContext) -> Node:
    form = ctx.state["form"]
    dates = range_label(form["checkin"], form["checkout"])
    calendar = {"sel_in": form["checkin"], "sel_out": form["checkout"], "month": form["checkin"][:7]}
    occupancy = ctx.opener("occupancy", occ={k: form[k] for k in LIMITS})
    box = column(
        field_row(
            "search",
            form["city"] or "Enter your destination",
            "facet_search_box_accommodation_destination",
            lambda: go_with(ctx, "destination", {"focus": "dest"}),
            form["city"],
        ),
        field_row(
            "calendar",
            dates,
            "facet_search_box_accommodation_dates",
            lambda: go_with(ctx, "calendar", calendar),
            dates,
        ),
        field_row(
            "person",
            party_label(form),
            "facet_search_box_accommodation_occupancy",
            occupancy,
            party_label(form).replace(" ·", ","),
        ),
        cta("Search", lambda: submit(ctx), rid="facet_search_box_cta", h=136),
        bg=theme().star,
        pad=8,
        gap=8,
        radius=16,
        desc="Accommodation search box",
        rid="facet_search_box",
    )
    return column(box, pad=(32, 40, 32, 24))


def submit(ctx: AppContext) -> None:
    form = ctx.state["form"]
    if form["city"]:
        run_search(ctx, form)
    else:
        ctx.open("no_destination")


def recent_section(ctx: AppContext) -> list[Node]:
    def card(r: dict[str, Any]) -> Node:
        when = f"{range_label(r['checkin'], r['checkout'])}, {plural(r['adults'], 'adult')}"
        return media(
            image(f"city:{r['city']}", 150, 150, desc=r["city"], radius=16),
            text(r["city"], "subtitle", rid="recent_search_city"),
            text(when, "body_small", fg=theme().muted, rid="recent_search_dates"),
            on_tap=lambda: run_search(ctx, r),
            rid="recent_search_item",
            **tile(),
        )

    cards = [card(r) for r in ctx.state["recent_searches"]]
    if not cards:
        return []
    return [
        section_header("Continue your search"),
        column(*cards, gap=20, pad=(32, 8, 32, 16), rid="recent_searches"),
    ]


def trending_section(ctx: AppContext) -> list[Node]:
    tiles = [
        column(
            image(f"city:{c}", 360, 260, desc=c, radius=20),
            text(c, "label", pad=(4, 12, 0, 0)),
            w=360,
            on_tap=lambda c=c: ctx.state["form"].update(city=c),
            rid="trending_destination",
        )
        for c in TRENDING
    ]
    return [
        section_header("Trending destinations"),
        text("Most popular choices for travellers", "caption", pad=(40, 0, 40, 16)),
        scroll_list("trending", tiles, rid="trending_list", horizontal=True, gap=24, pad=(32, 0, 32, 40)),
    ]


def no_destination_dialog(ctx: AppContext) -> Node:
    return dialog(
        "Please enter your destination",
        [text("Tell us where you want to go to start searching.", fg=theme().muted, pad=(60, 0, 60, 0))],
        [cta("OK", ctx.close, rid="button_positive")],
        ctx.close,
    )


def occupancy_sheet(ctx: AppContext) -> Node:
    occ = ctx.dialog_args["occ"]

    def step(key: str, delta: int) -> Node:
        low, high = LIMITS[key]
        value = max(low, min(high, occ[key] + delta))
        verb, sign, kind = ("Increase", "+", "add") if delta > 0 else ("Decrease", "-", "remove")
        return button(
            sign,
            lambda: occ.update({key: value}),
            primary=False,
            colour=theme().accent,
            radius=12,
            enabled=value != occ[key],
            w=110,
            h=110,
            pad=0,
            desc=f"{verb} number of {key}",
            rid=f"bui_input_stepper_{kind}_button",
        )

    def stepper(key: str, label: str, note: str = "") -> Node:
        return row(
            column(text(label, "subtitle"), text(note, "caption") if note else None, weight=1),
            step(key, -1),
            text(str(occ[key]), "heading", w=110, align="center", rid="bui_input_stepper_value"),
            step(key, +1),
            rid=f"group_config_{key}_count",
            pad=(48, 20, 48, 20),
            valign="center",
        )

    def apply() -> None:
        ctx.state["form"].update(occ)
        ctx.close()

    body = [
        stepper("rooms", "Rooms"),
        stepper("adults", "Adults", "Ages 18 or above"),
        stepper("children", "Children", "Ages 0-17"),
        column(cta("Apply", apply, rid="group_config_apply_button"), pad=(48, 24, 48, 0)),
    ]
    return bottom_sheet("Select rooms and guests", body, ctx.close, rid="group_config_main_configs")


# -- destination picker --------------------------------------------------------------------------------


def suggestion(icon: str, title: str, subtitle: str, on_tap: Callable[[], None]) -> Node:
    return media(
        glyph(icon, 52, 96, bg=theme().background),
        text(
            title, "subtitle", bold=bool(subtitle), max_lines=1, rid="view_disambiguation_destination_title"
        ),
        text(subtitle, "caption", max_lines=1, rid="view_disambiguation_destination_subtitle")
        if subtitle
        else None,
        on_tap=on_tap,
        rid="disambiguation_item",
        line_gap=0,
    )


def build_destination(ctx: AppContext) -> Node:
    typed = str(ctx.ui.get("dest", ""))
    found = cat.suggestions(typed)

    def pick(title: str, hotel_id: int | None) -> Callable[[], None]:
        def choose() -> None:
            ctx.back()
            if hotel_id is None:
                ctx.state["form"]["city"] = title
            else:
                open_hotel(ctx, hotel_id, ctx.state["form"])()

        return choose

    def submit(value: str) -> None:
        hits = cat.suggestions(value)
        if hits:
            pick(hits[0][0], hits[0][2])()
        else:
            ctx.toast("Choose a destination from the list")

    rows: list[Node] = [
        suggestion("pin" if hid is None else "home", title, subtitle, pick(title, hid))
        for title, subtitle, hid in found
    ]
    if not typed.strip():
        cities = list(dict.fromkeys(r["city"] for r in ctx.state["recent_searches"]))
        rows = [text("Recent searches", "label", pad=(40, 32, 40, 8))] if cities else []
        rows += [suggestion("calendar", c, "", pick(c, None)) for c in cities]
    elif not found:
        rows = [text(f'No destinations match "{typed}"', fg=theme().muted, pad=60, rid="no_results")]
    t = theme()
    field = search_field(
        "dest", "Enter destination", submit, rid="facet_with_bui_free_search_booking_header_toolbar_content"
    )
    back = icon_button("back", "Navigate up", ctx.back, rid="navigate_up")
    return column(
        row(back, field, pad=(16, 24, 32, 24), gap=8, valign="center", bg=t.surface, border=t.star),
        scroll_list("suggestions", rows, rid="facet_disambiguation_content"),
        bg=t.surface,
    )
