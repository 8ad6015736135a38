"""Search results: the property list for a destination and party, its sort sheet and its full-screen
filters. The order and the applied filters are screen arguments, so a task can check what is shown."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ...app import AppContext
from ...ui import IMAGE, VIEWGROUP, Node
from ...widgets import (
    button,
    checkbox,
    column,
    divider,
    icon_button,
    overlay,
    row,
    scroll_list,
    scroll_page,
    text,
)
from . import catalog as cat
from .common import (
    ACTION,
    BLUE,
    GREY,
    INK,
    PALE,
    YELLOW,
    card_height,
    heart,
    open_hotel,
    party_of,
    pop_to,
    price,
    property_card,
    range_label,
    save_layer,
    sheet,
    stay_label,
)

MAX_RESULTS = 25
VIEWPORT = 1900  # about the results list's height on the 1080x2400 screen


def active_filters(args: dict[str, Any]) -> int:
    return sum(1 for key, default in cat.FILTER_DEFAULTS.items() if args.get(key, default) != default)


def build_results(ctx: AppContext) -> Node:
    args = ctx.args
    if ctx.ui.get("dialog") == "filters":
        return build_filters(ctx)
    currency = ctx.state.get("currency", "USD")
    found = cat.search(args, ctx.state["market"], currency)
    party = party_of(args)
    cards = _cards(ctx, found[:MAX_RESULTS], party)
    if not found:
        cards = [
            column(
                text("No properties found", size=46, bold=True, fg=INK),
                text(
                    "Try changing your filters or searching for another destination."
                    if cat.city_of(args["city"])
                    else f'We could not find "{args["city"]}". Check the spelling or try a city name.',
                    size=36,
                    fg=GREY,
                ),
                button(
                    "Reset filters",
                    lambda: args.update(copy.deepcopy(cat.FILTER_DEFAULTS)),
                    rid="reset_filters",
                    primary=False,
                    colour=ACTION,
                )
                if active_filters(args)
                else None,
                pad=60,
                gap=24,
                rid="no_results",
            )
        ]
    count = active_filters(args)
    toolbar = row(
        _tool(ctx, "Sort", "menu", lambda: ctx.ui.update(dialog="sort")),
        _tool(
            ctx, "Filter", "filter", lambda: ctx.ui.update(dialog="filters", pending=_pending(args)), count
        ),
        _tool(ctx, "Map", "pin", lambda: ctx.toast("Map view is not available on this device")),
        bg="#ffffff",
        h=120,
        rid="sr_topbar_frame",
    )
    summary = column(
        text(args["city"], size=42, bold=True, fg=INK, max_lines=1, rid="searchbox_destination"),
        text(
            f"{range_label(args['checkin'], args['checkout'])} · {stay_label(party).split(', ', 1)[1]}",
            size=32,
            fg=GREY,
            max_lines=1,
            rid="searchbox_dates",
        ),
        weight=1,
        bg="#ffffff",
        radius=12,
        pad=(28, 12, 28, 12),
        border=YELLOW,
        on_tap=lambda: pop_to(ctx, ("search",)),
        desc="Edit your search",
    )
    screen = column(
        row(
            icon_button("back", "Navigate up", ctx.back, rid="navigate_up", fg="#ffffff"),
            summary,
            pad=(16, 20, 32, 20),
            gap=8,
            valign="center",
            bg=BLUE,
            rid="sr_toolbar",
        ),
        toolbar,
        divider(),
        text(
            f"{len(found)} properties"
            + (
                f" · sorted by {cat.ORDERS[args['order']].lower()}"
                if args.get("order", "popularity") != "popularity"
                else ""
            ),
            size=32,
            fg=GREY,
            pad=(32, 20, 32, 12),
            bg=PALE,
            rid="sr_results_count",
        ),
        scroll_list("results", cards, rid="results_list_facet", bg=PALE),
        bg="#ffffff",
        rid="sr_activity_root",
    )
    return overlay(screen, sort_sheet(ctx) if ctx.ui.get("dialog") == "sort" else save_layer(ctx))


def _cards(ctx: AppContext, found: list[tuple[dict[str, Any], int]], party: dict[str, Any]) -> list[Node]:
    """Cards near the visible part of the list are built; the others are empty boxes of the same height
    (as a RecyclerView recycles them), so a frame stays cheap however long the list is."""
    stay = stay_label(party)
    heights = [card_height(hotel["id"], True, stay) for hotel, _ in found]
    offset = max(0, min(ctx.ui.get("scroll", {}).get("results", 0), sum(heights) - VIEWPORT))
    cards: list[Node] = []
    top = 0
    for (hotel, total), height in zip(found, heights, strict=True):
        if offset - VIEWPORT // 2 <= top + height and top <= offset + VIEWPORT * 3 // 2:
            on_tap = open_hotel(ctx, hotel["id"], party)
            cards.append(property_card(hotel, price(ctx, total), stay, on_tap, heart(ctx, hotel)))
        else:
            cards.append(Node(VIEWGROUP, h=height))
        top += height
    return cards


def _tool(ctx: AppContext, label: str, icon: str, on_tap: Callable[[], None], badge: int = 0) -> Node:
    return row(
        Node(IMAGE, icon=icon, size=44, fg=INK, w=56, h=56),
        text(label, size=38, fg=INK, rid="toolbar_item_label"),
        text(
            str(badge),
            size=28,
            bold=True,
            fg="#ffffff",
            bg=ACTION,
            radius=24,
            w=48,
            h=48,
            align="center",
            rid="filter_count",
        )
        if badge
        else None,
        weight=1,
        on_tap=on_tap,
        gap=12,
        valign="center",
        pad=(40, 0, 0, 0),
        desc=label,
        rid="sr_toolbar_item",
    )


def sort_sheet(ctx: AppContext) -> Node:
    current = ctx.args.get("order", "popularity")

    def choose(order: str) -> Callable[[], None]:
        def apply() -> None:
            ctx.args["order"] = order
            ctx.ui.pop("dialog", None)
            ctx.ui.get("scroll", {}).pop("results", None)

        return apply

    options = [
        Node(
            "android.widget.CheckedTextView",
            text=label,
            checkable=True,
            checked=order == current,
            on_tap=choose(order),
            rid="sort_option",
            size=42,
            h=130,
            pad=(48, 0, 48, 0),
            fg=ACTION if order == current else INK,
            bold=order == current,
            icon="check" if order == current else None,
        )
        for order, label in cat.ORDERS.items()
    ]
    return sheet("Sort by", options, lambda: ctx.ui.pop("dialog", None), rid="sort_sheet")


# -- filters -----------------------------------------------------------------------------------------


def _pending(args: dict[str, Any]) -> dict[str, Any]:
    return {key: copy.deepcopy(args.get(key, default)) for key, default in cat.FILTER_DEFAULTS.items()}


def build_filters(ctx: AppContext) -> Node:
    """Full-screen "Filter by" page; nothing changes on the results until "Show results"."""
    pending = ctx.ui["pending"]
    currency = ctx.state.get("currency", "USD")

    def single(key: str, value: Any, off: Any) -> Callable[[], None]:
        return lambda: pending.update({key: off if pending[key] == value else value})

    def many(key: str, value: Any) -> Callable[[], None]:
        def flip() -> None:
            values = pending[key]
            pending[key] = sorted([v for v in values if v != value] if value in values else [*values, value])

        return flip

    def section(title: str, *items: Node) -> Node:
        return column(text(title, size=42, bold=True, fg=INK, pad=(48, 36, 48, 8)), *items, divider())

    def box(label: str, checked: bool, on_tap: Callable[[], None]) -> Node:
        return checkbox(label, checked, on_tap, rid="filter_option")

    budget = [
        box(cat.budget_label(b, currency), pending["price"] == b, single("price", b, "")) for b in cat.BUDGETS
    ]
    sections = [
        section(f"Your budget (per night, {currency})", *budget),
        section("Reservation policy", box("Free cancellation", pending["fc"], single("fc", True, False))),
        section(
            "Review score",
            *[box(label, pending["review"] == v, single("review", v, 0)) for v, label in cat.REVIEW_FILTERS],
        ),
        section(
            "Property rating",
            *[
                box(f"{n} star" + ("s" if n > 1 else ""), n in pending["stars"], many("stars", n))
                for n in range(1, 6)
            ],
        ),
        section("Meals", box("Breakfast included", pending["breakfast"], single("breakfast", True, False))),
        section(
            "Property type",
            *[
                box(label, kind in pending["types"], many("types", kind))
                for kind, (label, _) in cat.TYPES.items()
            ],
        ),
        section(
            "Facilities",
            *[
                box(label, key in pending["facilities"], many("facilities", key))
                for key, (label, _) in cat.FACILITIES.items()
            ],
        ),
        section(
            "Distance from centre",
            *[
                box(label, pending["distance"] == km, single("distance", km, 0))
                for km, label in cat.DISTANCE_FILTERS
            ],
        ),
    ]
    preview = {**ctx.args, **pending}
    count = len(cat.search(preview, ctx.state["market"], currency))

    def apply() -> None:
        ctx.args.update(copy.deepcopy(pending))
        ctx.ui.pop("dialog", None)
        ctx.ui.pop("pending", None)
        ctx.ui.get("scroll", {}).pop("results", None)
        ctx.ui.get("scroll", {}).pop("filters", None)

    def close() -> None:
        ctx.ui.pop("dialog", None)
        ctx.ui.pop("pending", None)
        ctx.ui.get("scroll", {}).pop("filters", None)

    return column(
        row(
            icon_button("close", "Close", close, rid="navigate_up", fg=INK),
            text("Filter by", size=50, bold=True, fg=INK, weight=1, pad=(24, 0, 0, 0), rid="toolbar_title"),
            button(
                "Reset",
                lambda: pending.update(copy.deepcopy(cat.FILTER_DEFAULTS)),
                rid="reset_filters",
                primary=False,
                colour=ACTION,
                h=100,
            ),
            h=168,
            pad=(16, 0, 32, 0),
            valign="center",
            bg="#ffffff",
        ),
        divider(),
        scroll_page("filters", *sections, rid="filter_layout"),
        row(
            text(f"{count} properties", size=38, fg=INK, weight=1, rid="filter_results_count"),
            button("Show results", apply, rid="apply_button", colour=ACTION, radius=12),
            pad=(40, 24, 40, 24),
            valign="center",
            bg="#ffffff",
            border="#e0e0e0",
        ),
        bg="#ffffff",
        rid="filters_root",
    )
