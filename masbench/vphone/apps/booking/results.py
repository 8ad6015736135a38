"""Search results: the property list for a destination and party, its sort sheet and its full-screen
filters. The order and the applied filters are screen arguments, so a task can check what is shown."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    app_bar,
    bottom_sheet,
    checkbox,
    column,
    divider,
    icon_button,
    lazy_list,
    row,
    scroll_page,
    text,
)
from . import catalog as cat
from .cards import card_height, property_card
from .common import cta, footer, glyph, open_hotel, outline, party_of, pop_to, price, range_label, stay_label
from .saving import heart

MAX_RESULTS = 25


def active_filters(args: dict[str, Any]) -> int:
    return sum(1 for key, default in cat.FILTER_DEFAULTS.items() if args.get(key, default) != default)


def reset_scroll(ctx: AppContext, *keys: str) -> None:
    for key in keys:
        ctx.ui.get("scroll", {}).pop(key, None)


def build_results(ctx: AppContext) -> Node:
    args = ctx.args
    t = theme()
    every = cat.search(args, ctx.state["market"], ctx.state.get("currency", "USD"))
    found = every[:MAX_RESULTS]
    party = party_of(args)
    stay = stay_label(party)
    listing = no_results(ctx)
    if found:
        item_h = max(card_height(hotel["id"], stay) for hotel, _ in found)

        def card(i: int) -> Node:
            hotel, total = found[i]
            on_tap = open_hotel(ctx, hotel["id"], party)
            return property_card(hotel, price(ctx, total), stay, on_tap, heart(ctx, hotel), h=item_h)

        listing = lazy_list(
            "results", len(found), item_h, card, rid="results_list_facet", gap=0, bg=t.background
        )
    order = args.get("order", "popularity")
    count = f"{len(every)} properties" + (
        f" · sorted by {cat.ORDERS[order].lower()}" if order != "popularity" else ""
    )
    filters = ctx.opener("filters", pending=pending_filters(args))
    tools = [
        tool("Sort", "menu", ctx.opener("sort")),
        tool("Filter", "filter", filters, active_filters(args)),
        tool("Map", "pin", lambda: ctx.toast("Map view is not available on this device")),
    ]
    return column(
        search_bar(ctx, f"{range_label(args['checkin'], args['checkout'])} · {stay.split(', ', 1)[1]}"),
        row(*tools, bg=t.surface, h=120, rid="sr_topbar_frame"),
        divider(),
        text(count, "caption", pad=(32, 20, 32, 12), bg=t.background, rid="sr_results_count"),
        listing,
        bg=t.surface,
        rid="sr_activity_root",
    )


def search_bar(ctx: AppContext, dates: str) -> Node:
    """The blue bar with the search it shows; tapping the search goes back to edit it."""
    t = theme()
    summary = column(
        text(ctx.args["city"], "subtitle", max_lines=1, rid="searchbox_destination"),
        text(dates, "caption", max_lines=1, rid="searchbox_dates"),
        weight=1,
        bg=t.surface,
        radius=12,
        pad=(28, 12, 28, 12),
        border=t.star,
        on_tap=lambda: pop_to(ctx, ("search",)),
        desc="Edit your search",
    )
    back = icon_button("back", "Navigate up", ctx.back, rid="navigate_up", fg=t.on_primary)
    return row(back, summary, pad=(16, 20, 32, 20), gap=8, valign="center", bg=t.primary, rid="sr_toolbar")


def no_results(ctx: AppContext) -> Node:
    args = ctx.args
    reason = (
        "Try changing your filters or searching for another destination."
        if cat.city_of(args["city"])
        else f'We could not find "{args["city"]}". Check the spelling or try a city name.'
    )
    reset = outline(
        "Reset filters", lambda: args.update(copy.deepcopy(cat.FILTER_DEFAULTS)), rid="reset_filters"
    )
    return column(
        text("No properties found", "heading"),
        text(reason, "body_small", fg=theme().muted),
        reset if active_filters(args) else None,
        pad=60,
        gap=24,
        weight=1,
        rid="no_results",
    )


def tool(label: str, icon: str, on_tap: Callable[[], None], badge: int = 0) -> Node:
    t = theme()
    count = text(
        str(badge),
        "overline",
        bold=True,
        fg=t.on_primary,
        bg=t.accent,
        radius=24,
        w=48,
        h=48,
        align="center",
        rid="filter_count",
    )
    return row(
        glyph(icon, 44, 56),
        text(label, "body_small", rid="toolbar_item_label"),
        count if badge else None,
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
    t = theme()

    def choose(order: str) -> Callable[[], None]:
        def apply() -> None:
            ctx.args["order"] = order
            ctx.close()
            reset_scroll(ctx, "results")

        return apply

    options = [
        Node(
            "android.widget.CheckedTextView",
            text=label,
            checkable=True,
            checked=order == current,
            on_tap=choose(order),
            rid="sort_option",
            size=t.style("body").size,
            h=130,
            pad=(48, 0, 48, 0),
            fg=t.accent if order == current else t.ink,
            bold=order == current,
            icon="check" if order == current else None,
        )
        for order, label in cat.ORDERS.items()
    ]
    return bottom_sheet("Sort by", options, ctx.close, rid="sort_sheet")


# -- filters -----------------------------------------------------------------------------------------


def pending_filters(args: dict[str, Any]) -> dict[str, Any]:
    return {key: copy.deepcopy(args.get(key, default)) for key, default in cat.FILTER_DEFAULTS.items()}


def filter_sections(pending: dict[str, Any], currency: str) -> list[Node]:
    """Every filter as a checkbox: single-choice groups untick when tapped again, others add up."""

    def single(label: str, key: str, value: Any, off: Any) -> Node:
        on = pending[key] == value
        return checkbox(label, on, lambda: pending.update({key: off if on else value}), rid="filter_option")

    def many(label: str, key: str, value: Any) -> Node:
        values = pending[key]
        flipped = sorted([v for v in values if v != value] if value in values else [*values, value])
        return checkbox(label, value in values, lambda: pending.update({key: flipped}), rid="filter_option")

    def section(title: str, *items: Node) -> Node:
        return column(text(title, "subtitle", pad=(48, 36, 48, 8)), *items, divider())

    return [
        section(
            f"Your budget (per night, {currency})",
            *[single(cat.budget_label(b, currency), "price", b, "") for b in cat.BUDGETS],
        ),
        section("Reservation policy", single("Free cancellation", "fc", True, False)),
        section("Review score", *[single(label, "review", v, 0) for v, label in cat.REVIEW_FILTERS]),
        section(
            "Property rating", *[many(f"{n} star" + ("s" if n > 1 else ""), "stars", n) for n in range(1, 6)]
        ),
        section("Meals", single("Breakfast included", "breakfast", True, False)),
        section("Property type", *[many(label, "types", kind) for kind, (label, _) in cat.TYPES.items()]),
        section(
            "Facilities", *[many(label, "facilities", key) for key, (label, _) in cat.FACILITIES.items()]
        ),
        section(
            "Distance from centre", *[single(label, "distance", km, 0) for km, label in cat.DISTANCE_FILTERS]
        ),
    ]


def filters_page(ctx: AppContext) -> Node:
    """Full-screen "Filter by" page over the results; nothing changes on them until "Show results"."""
    pending = ctx.dialog_args["pending"]
    currency = ctx.state.get("currency", "USD")
    count = len(cat.search({**ctx.args, **pending}, ctx.state["market"], currency))
    t = theme()

    def apply() -> None:
        ctx.args.update(copy.deepcopy(pending))
        close()
        reset_scroll(ctx, "results")

    def close() -> None:
        ctx.close()
        reset_scroll(ctx, "filters")

    reset = outline(
        "Reset", lambda: pending.update(copy.deepcopy(cat.FILTER_DEFAULTS)), rid="reset_filters", h=100
    )
    return column(
        app_bar("Filter by", close, reset, colour=t.surface, fg=t.ink),
        divider(),
        scroll_page("filters", *filter_sections(pending, currency), rid="filter_layout"),
        footer(
            text(f"{count} properties", "label", bold=False, weight=1, rid="filter_results_count"),
            cta("Show results", apply, rid="apply_button"),
        ),
        bg=t.surface,
        weight=1,
        rid="filters_root",
    )
