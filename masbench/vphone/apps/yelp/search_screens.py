"""Yelp's Search tab: the home screen with the search bar and category shortcuts, the results list with
its filter bar, sort dialog and full Filters page, and the list of all categories."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ...app import AppContext
from ...ui import EDIT, IMAGE, TEXT, Node
from ...widgets import (
    button,
    checkbox,
    chip,
    choice_dialog,
    column,
    divider,
    icon_button,
    list_item,
    radio,
    row,
    scroll_list,
    scroll_page,
    spacer,
    text,
)
from . import model
from .common import (
    CARD_H,
    GREY,
    INK,
    PALE,
    RED,
    back_bar,
    business_card,
    event_when,
    nav,
    open_biz,
    picture,
    recycled_list,
    section_title,
)
from .content import CATEGORIES, CITY_NAMES, FEATURE_LABELS, city_of, location_label, open_status

HOME_TILES = (("Restaurants", "restaurants", ""), ("Coffee & Tea", "coffee", ""), ("Bars", "bars", ""),
              ("Delivery", "restaurants", "delivery"), ("Takeout", "restaurants", "takeout"),
              ("Bakeries", "bakeries", ""), ("Gyms", "gyms", ""), ("More", "", ""))  # fmt: skip
SEARCH_HINT = "Search for burgers, delivery, barbers…"


def open_results(ctx: AppContext, query: str, location: str | None = None, **filters: Any) -> None:
    """Run a search from the GUI: remember it and show the results screen."""
    args = model.search_args(query, location or ctx.state["location"], **filters)
    model.remember_search(ctx.state, args["query"], args["location"])
    ctx.phone.push_screen(ctx.screen("results", **args))


def _field(
    field: str,
    hint: str,
    rid: str,
    value: str,
    on_submit: Callable[[str], None],
    icon: str,
    bg: str = "#ffffff",
) -> Node:
    return Node(EDIT, field=field, hint=hint, text=value, rid=rid, on_submit=on_submit, icon=icon, bg=bg,
                radius=16, h=120, pad=(32, 0, 32, 0), size=40, weight=1)  # fmt: skip


# -- home -------------------------------------------------------------------------------------------


def home(ctx: AppContext) -> Node:
    state = ctx.state
    city = city_of(state["location"]) or ""
    header = column(
        row(
            text("yelp", size=84, bold=True, fg="#ffffff", rid="yelp_logo"),
            spacer(weight=1),
            icon_button("bell", "Notifications", None, rid="notifications", fg="#ffffff"),
            valign="center",
        ),
        row(_field("search_terms", SEARCH_HINT, "search_bar_text", "", lambda v: open_results(ctx, v), "search")),
        Node(TEXT, text=state["location"], icon="pin", size=36, fg="#ffffff", rid="location_button",
             desc="Change location", on_tap=ctx.opener("location"), h=90),
        bg=RED, pad=(40, 20, 40, 24), gap=18,
    )  # fmt: skip
    tiles = [_tile(ctx, label, category, feature) for label, category, feature in HOME_TILES]
    events = [e for e in state["events"] if e["city"] == city][:2]
    fresh = sorted((b for b in state["businesses"].values() if b["city"] == city), key=lambda b: b["boost"])[
        -6:
    ]
    recent = [state["businesses"][i] for i in state["recently_viewed"][:6] if i in state["businesses"]]
    body = scroll_page(
        "home",
        row(*tiles[:4], pad=(20, 30, 20, 0)),
        row(*tiles[4:], pad=(20, 10, 20, 20)),
        divider(),
        row(section_title("Upcoming events"), spacer(weight=1),
            text("See all", size=38, fg=RED, bold=True, on_tap=ctx.link("events", location=state["location"], category="All"),
                 rid="see_all_events", pad=(20, 40, 40, 16)), valign="center"),
        *[_event_teaser(ctx, e) for e in events],
        section_title(f"Hot and New in {city}"),
        scroll_list("hot_new", [_mini_card(ctx, b) for b in reversed(fresh)], rid="hot_and_new", horizontal=True,
                    gap=24, pad=(40, 0, 40, 30)),
        section_title("Recently Viewed") if recent else None,
        scroll_list("recent", [_mini_card(ctx, b) for b in recent], rid="recently_viewed", horizontal=True,
                    gap=24, pad=(40, 0, 40, 30)) if recent else None,
        bg="#ffffff",
    )  # fmt: skip
    return column(header, body, nav(ctx, "home"), bg="#ffffff")


def _tile(ctx: AppContext, label: str, category: str, feature: str) -> Node:
    features = [feature] if feature else []
    tap = (
        (lambda: open_results(ctx, label, category=category, features=features))
        if category
        else ctx.link("categories")
    )
    return column(
        Node(IMAGE, icon="apps" if not category else None, image=None if not category else f"{TILE_KINDS.get(label, 'dish')}:{label}",
             desc=label, w=130, h=130, radius=65, fg=GREY, bg=PALE if not category else None, size=60, align="center"),
        text(label, size=30, fg=INK, align="center", max_lines=1),
        on_tap=tap, weight=1, gap=10, align="center", desc=label, rid="category_tile",
    )  # fmt: skip


def _event_teaser(ctx: AppContext, event: dict[str, Any]) -> Node:
    return row(
        Node(IMAGE, image=event["id"], desc=event["name"], w=150, h=150, radius=14),
        column(
            text(event["name"], "subtitle", max_lines=1, rid="event_name"),
            text(event_when(event), size=32, fg=RED, rid="event_time"),
            text(event["venue"], "meta", max_lines=1, rid="event_venue"),
            weight=1, gap=6,
        ),
        on_tap=ctx.link("event", event_id=event["id"]), desc=event["name"], pad=(40, 16, 40, 16), gap=30,
    )  # fmt: skip


TILE_KINDS = {
    "Coffee & Tea": "coffee",
    "Bars": "bar",
    "Gyms": "sport",
    "Bakeries": "grocery",
    "Hair Salons": "beauty",
}


def _mini_card(ctx: AppContext, business: dict[str, Any]) -> Node:
    return column(
        Node(IMAGE, image=picture(business), desc=business["name"], w=420, h=260, radius=18),
        text(business["name"], size=36, bold=True, fg=INK, max_lines=1, w=420),
        text(f"{business['rating']:.1f} stars · {'$' * business['price']} · {business['categories'][0]}", "overline", max_lines=1, w=420),
        on_tap=open_biz(ctx, business["id"]), desc=business["name"], w=420, gap=8, rid="business_card",
    )  # fmt: skip


def location_dialog(ctx: AppContext) -> Node:
    """Choose a city: the app's location on the home screen, the listing's on the events screen."""
    on_events = ctx.top is not None and ctx.top.name == "events"
    current = ctx.args.get("location", "") if on_events else ctx.state["location"]

    def choose(label: str) -> None:
        if on_events:
            ctx.args["location"] = label
            ctx.ui.get("scroll", {}).pop("events", None)
        else:
            ctx.state["location"] = label
        ctx.close()

    cities = {label: label for label in CITY_NAMES}
    return choice_dialog(
        "Choose a location", cities, current, choose, ctx.close, option_rid="location_option"
    )


def categories(ctx: AppContext) -> Node:
    items = [("Restaurants", "restaurants"), *sorted((v[0], k) for k, v in CATEGORIES.items())]
    return column(
        back_bar(ctx, "All Categories"),
        scroll_list("cats", [list_item(title, on_tap=partial(open_results, ctx, title, category=alias), rid="category_row",
                                       icon="chevron") for title, alias in items], rid="categories_list"),
        bg="#ffffff",
    )  # fmt: skip


# -- results ----------------------------------------------------------------------------------------


def results(ctx: AppContext) -> Node:
    args = ctx.args
    found = model.search(ctx.state, args, ctx.now())
    now = ctx.now()
    top = column(
        row(
            icon_button("back", "Navigate up", ctx.back, rid="navigate_up"),
            _field("query", SEARCH_HINT, "search_bar_text", args["query"], lambda v: _requery(ctx, query=v), "search", PALE),
            pad=(8, 16, 32, 8), gap=8, valign="center",
        ),
        row(_field("location", "Address, city, state or zip", "location_text", args["location"],
                   lambda v: _requery(ctx, location=v), "pin", PALE), pad=(128, 0, 32, 16)),
        _filter_bar(ctx),
        bg="#ffffff",
    )  # fmt: skip
    summary = f"{len(found)} result{'s' if len(found) != 1 else ''}"
    city = city_of(args["location"])
    if found:
        listing = recycled_list(
            ctx, "results", len(found), CARD_H, lambda i: business_card(ctx, found[i], open_status(found[i], now), rank=i + 1),
            rid="search_results_list", bg="#eeeeee",
        )  # fmt: skip
    else:
        where = city or args["location"]
        listing = column(
            text(f"No results for “{args['query']}” in {where}", "subtitle", pad=(60, 120, 60, 20)),
            text("Try a different search or remove some filters.", size=36, fg=GREY, pad=(60, 0, 60, 0)),
            weight=1, rid="no_results",
        )  # fmt: skip
    body = column(top, divider(), text(summary, "meta", pad=(40, 14, 40, 14), rid="results_count"), listing,
                  bg="#ffffff")  # fmt: skip
    return body


def _requery(ctx: AppContext, **change: str) -> None:
    ctx.args.update({k: v.strip() for k, v in change.items()})
    if "location" in change:
        city = city_of(change["location"])
        if city:
            ctx.args["location"] = location_label(city)
    if "query" in change:
        ctx.args["category"] = ""
    ctx.ui.pop("query", None)
    ctx.ui.pop("location", None)
    ctx.ui.get("scroll", {}).pop("results", None)
    model.remember_search(ctx.state, ctx.args["query"], ctx.args["location"])


def _toggle_arg(ctx: AppContext, key: str, value: Any) -> None:
    values = list(ctx.args[key])
    ctx.args[key] = sorted(set(values) - {value}) if value in values else sorted({*values, value})
    ctx.ui.get("scroll", {}).pop("results", None)


def _filter_bar(ctx: AppContext) -> Node:
    args = ctx.args
    active = sum(bool(args[k]) for k in ("open_now", "price", "min_rating", "distance", "features"))
    chips = [
        chip(f"Filters ({active})" if active else "Filters", bool(active), ctx.link("filters", **{k: args[k] for k in model.FILTER_KEYS}), rid="filter_button", colour=RED),
        chip(f"Sort: {model.SORTS[args['sort']]}", args["sort"] != "recommended", ctx.opener("sort"), rid="sort_button", colour=RED),
        chip("Open Now", args["open_now"], lambda: ctx.args.update(open_now=not ctx.args["open_now"]), rid="open_now_chip", colour=RED),
        *[chip("$" * n, n in args["price"], partial(_toggle_arg, ctx, "price", n), rid="price_chip", colour=RED) for n in (1, 2, 3, 4)],
        *[chip(FEATURE_LABELS[f], f in args["features"], partial(_toggle_arg, ctx, "features", f), rid="feature_chip", colour=RED)
          for f in ("delivery", "takeout", "reservations", "outdoor_seating")],
    ]  # fmt: skip
    return scroll_list("filter_bar", chips, rid="filter_bar", horizontal=True, gap=18, pad=(32, 0, 32, 16))


def sort_dialog(ctx: AppContext) -> Node:
    def pick(key: str) -> None:
        ctx.args["sort"] = key
        ctx.close()
        ctx.ui.get("scroll", {}).pop("results", None)

    return choice_dialog(
        "Sort by", model.SORTS, ctx.args["sort"], pick, ctx.close, rid="sort_dialog", option_rid="sort_option"
    )


def filters(ctx: AppContext) -> Node:
    """The full Filters page over a results screen; Apply copies its choices into the results' args."""
    pending = ctx.args

    def put(key: str, value: Any) -> None:
        pending[key] = value

    def flip(key: str, value: Any) -> None:
        values = set(pending[key])
        pending[key] = sorted(values ^ {value})

    def apply() -> None:
        below = ctx.phone.stack[-2]
        below.args.update(pending)
        below.ui.get("scroll", {}).pop("results", None)
        ctx.back()

    def heading(label: str) -> Node:
        return text(label, "subtitle", pad=(48, 36, 48, 8), rid="filter_section")

    prices = row(*[chip("$" * n, n in pending["price"], partial(flip, "price", n), rid="price_option", colour=RED)
                   for n in (1, 2, 3, 4)], gap=24, pad=(48, 8, 48, 8))  # fmt: skip
    page = scroll_page(
        "filters",
        heading("Sort by"),
        *[radio(label, pending["sort"] == key, partial(put, "sort", key), rid="sort_option") for key, label in model.SORTS.items()],
        heading("Price"),
        prices,
        heading("Suggested"),
        checkbox("Open Now", pending["open_now"], lambda: put("open_now", not pending["open_now"]), rid="open_now_checkbox"),
        *[checkbox(FEATURE_LABELS[f], f in pending["features"], partial(flip, "features", f), rid="feature_checkbox")
          for f in ("delivery", "takeout", "reservations", "outdoor_seating")],
        heading("Rating"),
        *[radio(label, pending["min_rating"] == value, partial(put, "min_rating", value), rid="rating_option")
          for value, label in model.RATINGS],
        heading("Distance"),
        *[radio(label, pending["distance"] == value, partial(put, "distance", value), rid="distance_option")
          for value, label in model.DISTANCES],
        spacer(40),
        rid="filters_list",
    )  # fmt: skip
    reset = {
        "open_now": False,
        "price": [],
        "min_rating": 0.0,
        "distance": 0.0,
        "features": [],
        "sort": "recommended",
    }
    return column(
        row(
            icon_button("close", "Close", ctx.back, rid="close_filters"),
            text("Filters", "title", weight=1),
            text("Reset", size=40, fg=RED, bold=True, on_tap=lambda: pending.update(reset), rid="reset_filters", pad=(20, 0, 30, 0)),
            h=168, pad=(16, 0, 16, 0), valign="center",
        ),
        divider(),
        page,
        divider(),
        row(button("Apply", apply, rid="apply_filters", colour=RED, weight=1), pad=(40, 24, 40, 24)),
        bg="#ffffff", rid="filters_page",
    )  # fmt: skip
