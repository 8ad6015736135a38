"""Maps' search results: the query in the search bar, Open now / Top rated / Sort chips, a map fitted to
every result's pin and the list of places with their rating, distance, hours and a Directions button."""

from __future__ import annotations

from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    button,
    chip,
    choice_dialog,
    column,
    image,
    rating,
    row,
    scroll_list,
    text,
)
from . import model
from .common import map_of, open_place, page, picture, search_bar
from .content import distance_km, open_status
from .mapview import fit


def results(ctx: AppContext) -> Node:
    args = ctx.args
    found = model.search(ctx.state, args, ctx.now())
    origin = model.center(ctx.state, args["city"])
    weekday, minute = model.minute_of(ctx.now())
    rows = [_result_row(ctx, p, origin, weekday, minute) for p in found]
    empty = f"No results for “{args['query']}”"
    none = text(empty, "body", fg=theme().muted, pad=(60, 100, 60, 0), weight=1, rid="no_results")

    def flip(key: str) -> None:
        ctx.args[key] = not ctx.args[key]
        ctx.ui.get("scroll", {}).pop("results", None)

    sort_by = f"Sort by: {model.SORTS[args['sort']]}"
    filters = row(
        chip("Open now", args["open_now"], lambda: flip("open_now"), rid="open_now_chip"),
        chip("Top rated", args["top_rated"], lambda: flip("top_rated"), rid="top_rated_chip"),
        chip(sort_by, args["sort"] != "relevance", ctx.opener("sort"), rid="sort_chip"),
        gap=16,
        pad=(32, 16, 32, 16),
    )
    city = found[0]["city"] if found else args["city"]
    pins = [p for p in found if p["city"] == city]
    return page(
        column(search_bar(ctx, args["query"], on_back=ctx.back), pad=(24, 20, 24, 0)),
        filters,
        map_of(ctx, fit([(p["x"], p["y"]) for p in pins], 1080, 460, max_scale=70), city, pins),
        text(f"{len(found)} results in {args['city']}", "caption", pad=(40, 16, 40, 16), rid="results_count"),
        scroll_list("results", rows, rid="results_list", gap=2, bg=theme().divider) if rows else none,
    )


def sort(ctx: AppContext) -> Node:
    """The Sort by dialog of a results list."""

    def pick(key: str) -> None:
        ctx.args["sort"] = key
        ctx.close()
        ctx.ui.get("scroll", {}).pop("results", None)

    return choice_dialog(
        "Sort by", model.SORTS, ctx.args["sort"], pick, ctx.close, rid="sort_dialog", option_rid="sort_option"
    )


def _result_row(
    ctx: AppContext, p: dict[str, Any], origin: dict[str, Any], weekday: int, minute: int
) -> Node:
    is_open, hours = open_status(p, weekday, minute)
    dist = model.distance_text(ctx.state, distance_km(origin, p))
    details = f"{p['category']} · {dist} · {p['address'].split(',')[0]}"
    about = column(
        text(p["name"], "subtitle", rid="result_title", max_lines=2),
        rating(p["rating"], p["reviews"]),
        text(details, "caption", rid="result_details", max_lines=2),
        text(hours, "positive" if is_open else "negative", rid="result_hours"),
        weight=1,
        gap=8,
    )
    to_place = ctx.link("directions", **model.directions_args(ctx.state, "here", p["id"]))
    small: dict[str, Any] = {
        "primary": False,
        "h": 80,
        "pad": (24, 0, 24, 0),
        "desc": f"Directions to {p['name']}",
    }
    go = button("Directions", to_place, rid="result_directions", **small)
    side = column(image(picture(p), 200, 150, desc=p["name"], radius=16), go, gap=14, align="center")
    look = {"pad": (40, 28, 40, 28), "gap": 24, "bg": theme().surface}
    return row(about, side, on_tap=open_place(ctx, p["id"]), desc=p["name"], rid="result_item", **look)
