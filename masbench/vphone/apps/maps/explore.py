"""Maps' Explore side: the map home (search bar, category chips, explore sheet), search results with
filters, the place sheet (Directions, Start, Call, Save, Share, hours, reviews), saving to lists and the
review form."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from ...app import AppContext, modal
from ...ui import EDIT, FRAME, IMAGE, VIEWGROUP, Node
from ...widgets import (
    button,
    checkbox,
    chip,
    column,
    dialog,
    divider,
    icon_button,
    list_item,
    radio,
    rating,
    row,
    scroll_list,
    scroll_page,
    spacer,
    text,
)
from . import model
from .common import BLUE, GREEN, GREY, INK, RED, back_bar, go, map_canvas, nav, open_place, screen
from .content import CITIES, HOME_CITY, distance_km, here, hours_line, open_status, reviews_for
from .content import DAYS as WEEKDAYS
from .directions import start

CHIPS = (("Restaurants", "Restaurant"), ("Gas", "Gas station"), ("Coffee", "Coffee shop"), ("Hotels", "Hotel"),
         ("Groceries", "Grocery store"), ("Parks", "Park"), ("Museums", "Museum"), ("Pharmacies", "Pharmacy"))  # fmt: skip
GENERIC = {"Restaurant", "Coffee shop", "Gas station", "Hotel", "Grocery store", "Pharmacy", "Bar"}
STAR_LABELS = ("Tap a star to rate", "Terrible", "Poor", "Average", "Good", "Excellent")


def run_search(ctx: AppContext, query: str, city: str | None = None) -> None:
    """What the search bar does: a single place or address opens its sheet, anything else lists results."""
    query = query.strip()
    if not query:
        return
    ctx.ui.pop("q", None)
    model.remember_search(ctx.state, query)
    args = model.search_args(ctx.state, query, city)
    found = None if args["category"] else model.resolve(ctx.state, query, args["city"])
    if found is not None:
        open_place(ctx, found["id"])()
    else:
        ctx.phone.push_screen(screen(ctx, "results", **args))


def _search_bar(ctx: AppContext, value: str = "", on_back: Callable[[], None] | None = None) -> Node:
    lead = (
        icon_button("back", "Navigate up", on_back, rid="navigate_up", size=56)
        if on_back
        else Node(IMAGE, icon="pin", fg=RED, size=56, w=90, h=90, align="center")
    )
    return row(
        lead,
        Node(EDIT, field="q", text=value, hint="Search here", rid="search_omnibox_text_box", size=42, weight=1,
             h=120, bg="#ffffff", on_submit=lambda v: run_search(ctx, v)),
        Node(IMAGE, icon="mic", fg=GREY, size=52, w=80, h=80, desc="Voice search", align="center"),
        Node(IMAGE, image="user-Alex", desc="Account and settings", w=84, h=84, radius=42, rid="account_button",
             on_tap=lambda: ctx.ui.update(dialog="account")),
        bg="#ffffff", radius=66, h=132, pad=(20, 0, 20, 0), gap=12, valign="center", border="#dadce0", rid="search_bar",
    )  # fmt: skip


def _category_chips(ctx: AppContext) -> Node:
    city = ctx.state["map"]["city"]
    chips = [
        Node("android.widget.Button", text=label, on_tap=lambda label=label: run_search(ctx, f"{label} in {city}"),
             rid="category_chip", h=96, radius=48, pad=(34, 0, 34, 0), size=36, bg="#ffffff", border="#dadce0", fg=INK,
             align="center", desc=label)
        for label, _ in CHIPS
    ]  # fmt: skip
    return scroll_list("chips", chips, rid="category_chips", horizontal=True, gap=16, pad=(32, 20, 32, 10))


def account_dialog(ctx: AppContext) -> Node:
    def open_settings() -> None:
        ctx.ui.pop("dialog", None)
        ctx.phone.push_screen(screen(ctx, "settings"))

    items = [
        list_item("Your profile", icon="person", rid="account_item"),
        list_item("Location sharing", icon="share", rid="account_item"),
        list_item("Offline maps", icon="check", rid="account_item"),
        list_item("Settings", on_tap=open_settings, icon="settings", rid="settings_entry"),
        list_item("Help & feedback", icon="more", rid="account_item"),
    ]
    return dialog("Alex Jordan", items, [button("Close", lambda: ctx.ui.pop("dialog", None), primary=False)],
                  lambda: ctx.ui.pop("dialog", None), rid="account_menu")  # fmt: skip


# -- map home ---------------------------------------------------------------------------------------


def map_home(ctx: AppContext) -> Node:
    state = ctx.state
    city = state["map"]["city"]
    landmarks = [p for p in state["places"].values() if p["city"] == city and p["category"] not in GENERIC]
    focus = (5.0, 6.8) if city == HOME_CITY else (5.0, 7.0)
    canvas = map_canvas(ctx, city, focus, (1080, 2300), landmarks)
    cards = [
        column(
            Node(IMAGE, image=p["id"], desc=p["name"], w=360, h=220, radius=20),
            text(p["name"], size=34, bold=True, fg=INK, max_lines=1, w=360),
            text(f"{p['rating']:.1f} · {p['category']}", size=30, fg=GREY, max_lines=1, w=360),
            on_tap=open_place(ctx, p["id"]), desc=p["name"], w=360, gap=6, rid="explore_card",
        )
        for p in sorted(landmarks, key=lambda p: -p["rating"])[:6]
    ]  # fmt: skip
    layer = state["map"].get("layer", "none")
    sheet = column(
        row(spacer(weight=1), Node(VIEWGROUP, w=110, h=12, radius=6, bg="#dadce0"), spacer(weight=1), pad=(0, 20, 0, 16)),
        text(f"Explore {city}", size=44, bold=True, fg=INK, pad=(40, 0, 40, 16), rid="sheet_title"),
        scroll_list("explore", cards, rid="explore_list", horizontal=True, gap=24, pad=(40, 0, 40, 24)),
        bg="#ffffff", radius=40,
    )  # fmt: skip
    overlay = column(
        column(_search_bar(ctx), pad=(32, 24, 32, 0)),
        _category_chips(ctx),
        row(spacer(weight=1), chip(f"{layer.title()} layer", True, lambda: state["map"].update(layer="none"), rid="layer_chip"),
            pad=(0, 0, 32, 0)) if layer != "none" else None,
        Node(VIEWGROUP, weight=1),
        sheet,
        nav(ctx, "map"),
        weight=1,
    )  # fmt: skip
    return Node(FRAME, layout="stack", children=[canvas, overlay], rid="map_home")


# -- results ----------------------------------------------------------------------------------------


def results(ctx: AppContext) -> Node:
    args = ctx.args
    found = model.search(ctx.state, args, ctx.now())
    origin = model.center(ctx.state, args["city"])
    weekday, minute = model.minute_of(ctx.now())
    rows = [_result_row(ctx, p, origin, weekday, minute) for p in found]
    listing = (
        scroll_list("results", rows, rid="results_list", gap=2, bg="#eeeeee")
        if rows
        else text(
            f"No results for “{args['query']}”",
            size=42,
            fg=GREY,
            pad=(60, 100, 60, 0),
            weight=1,
            rid="no_results",
        )
    )

    def flip(key: str) -> None:
        ctx.args[key] = not ctx.args[key]
        ctx.ui.get("scroll", {}).pop("results", None)

    filters = row(
        chip("Open now", args["open_now"], lambda: flip("open_now"), rid="open_now_chip"),
        chip("Top rated", args["top_rated"], lambda: flip("top_rated"), rid="top_rated_chip"),
        chip(f"Sort by: {model.SORTS[args['sort']]}", args["sort"] != "relevance", lambda: ctx.ui.update(dialog="sort"), rid="sort_chip"),
        gap=16, pad=(32, 16, 32, 16),
    )  # fmt: skip
    strip_focus = (
        (sum(p["x"] for p in found[:8]) / len(found[:8]), sum(p["y"] for p in found[:8]) / len(found[:8]))
        if found
        else (5.0, 7.0)
    )
    body = column(
        column(_search_bar(ctx, args["query"], on_back=ctx.back), pad=(24, 20, 24, 0)),
        filters,
        map_canvas(ctx, args["city"], strip_focus, (1080, 460), found[:8], scale=70),
        text(f"{len(found)} results in {args['city']}", size=32, fg=GREY, pad=(40, 16, 40, 16), rid="results_count"),
        listing,
        bg="#ffffff",
    )  # fmt: skip
    if ctx.ui.get("dialog") == "sort":
        return modal(body, _sort_dialog(ctx))
    if ctx.ui.get("dialog") == "account":
        return modal(body, account_dialog(ctx))
    return body


def _sort_dialog(ctx: AppContext) -> Node:
    def pick(key: str) -> None:
        ctx.args["sort"] = key
        ctx.ui.pop("dialog", None)
        ctx.ui.get("scroll", {}).pop("results", None)

    options = [
        radio(label, ctx.args["sort"] == key, lambda key=key: pick(key), rid="sort_option")
        for key, label in model.SORTS.items()
    ]
    return dialog("Sort by", options, [button("Cancel", lambda: ctx.ui.pop("dialog", None), primary=False)],
                  lambda: ctx.ui.pop("dialog", None), rid="sort_dialog")  # fmt: skip


def _result_row(
    ctx: AppContext, p: dict[str, Any], origin: dict[str, Any], weekday: int, minute: int
) -> Node:
    is_open, line = open_status(p, weekday, minute)
    dist = model.distance_text(ctx.state, distance_km(origin, p))
    return row(
        column(
            text(p["name"], size=42, bold=True, fg=INK, rid="result_title", max_lines=2),
            row(rating(p["rating"], p["reviews"]), gap=8),
            text(f"{p['category']} · {dist} · {p['address'].split(',')[0]}", size=32, fg=GREY, rid="result_details", max_lines=2),
            text(line, size=32, fg=GREEN if is_open else RED, rid="result_hours"),
            weight=1, gap=8,
        ),
        column(
            Node(IMAGE, image=p["id"], desc=p["name"], w=200, h=150, radius=16),
            Node("android.widget.Button", text="Directions", size=30, fg=BLUE, border="#dadce0", radius=40, h=80,
                 pad=(20, 0, 20, 0), align="center", rid="result_directions", desc=f"Directions to {p['name']}",
                 on_tap=go(ctx, "directions", **directions_args(ctx, "here", p["id"]))),
            gap=14, align="center",
        ),
        on_tap=open_place(ctx, p["id"]), desc=p["name"], rid="result_item", pad=(40, 28, 40, 28), gap=24, bg="#ffffff",
    )  # fmt: skip


def directions_args(ctx: AppContext, origin: str, destination: str, mode: str = "drive") -> dict[str, Any]:
    settings = ctx.state["settings"]
    return {
        "origin": origin,
        "destination": destination,
        "mode": mode,
        "route": 0,
        "avoid_tolls": settings["avoid_tolls"],
        "avoid_highways": settings["avoid_highways"],
        "avoid_ferries": settings["avoid_ferries"],
    }


# -- the place sheet --------------------------------------------------------------------------------


def place_page(ctx: AppContext) -> Node:
    p = model.place(ctx.state, ctx.args["place_id"])
    if p is None:
        return column(
            back_bar(ctx, "Maps"),
            text("This place is not available.", size=42, fg=GREY, pad=60),
            bg="#ffffff",
        )
    is_address = p.get("category") == "Address" or p["id"].startswith("label:")
    saved_in = model.lists_with(ctx.state, p["id"])
    origin = model.center(ctx.state, HOME_CITY)
    now = ctx.now()
    weekday, minute = model.minute_of(now)
    dist = model.distance_text(ctx.state, distance_km(origin, p))
    actions = [
        button("Directions", go(ctx, "directions", **directions_args(ctx, "here", p["id"])), rid="directions_button", colour=BLUE,
               h=104),
        button("Start", lambda: _start(ctx, p), rid="start_button", primary=False, colour=BLUE, icon="play", h=104),
        None if is_address else button("Call", lambda: _call(ctx, p), rid="call_button", primary=False, colour=BLUE, h=104),
        button("Saved" if saved_in else "Save", lambda: ctx.ui.update(dialog="save"), rid="save_button", primary=False, colour=BLUE,
               icon="bookmark", h=104, desc="Saved" if saved_in else "Save", selected=bool(saved_in)),
        button("Share", lambda: _share(ctx, p), rid="share_button", primary=False, colour=BLUE, icon="share", h=104),
    ]  # fmt: skip
    head: list[Node | None]
    if is_address:
        head = [text(p["name"], size=58, fg=INK, rid="place_title"), text(p.get("address", ""), size=34, fg=GREY, rid="place_subtitle"),
                text(f"{dist} away", size=32, fg=GREY)]  # fmt: skip
    else:
        is_open, line = open_status(p, weekday, minute)
        head = [
            text(p["name"], size=58, fg=INK, rid="place_title"),
            rating(p["rating"], p["reviews"]),
            text(f"{p['category']} · {dist}" + (f" · {'$' * p['price']}" if p.get("price") else ""), size=34, fg=GREY, rid="place_subtitle"),
            text(line, size=34, fg=GREEN if is_open else RED, rid="place_hours_status"),
        ]  # fmt: skip
    info: list[Node | None] = [list_item(p.get("address", p["name"]), icon="pin", rid="place_address")]
    if not is_address:
        info.append(list_item(p["phone"], icon="bell", rid="place_phone", on_tap=lambda: _call(ctx, p)))
        info.extend(
            row(text(WEEKDAYS[d], size=34, fg=INK, bold=d == weekday, w=260), text(hours_line(p["hours"][d]), size=34, fg=INK,
                bold=d == weekday, weight=1), pad=(60, 6, 40, 6), rid="hours_row")
            for d in range(7)
        )  # fmt: skip
        info.append(divider())
        info.append(text("Rate and review", size=42, bold=True, fg=INK, pad=(40, 30, 40, 10)))
        info.append(row(*[icon_button("star_outline", f"Rate {n} star{'s' if n > 1 else ''}", go(ctx, "review", place_id=p["id"], rating=n),
                                      rid="rate_star", fg=GREY, size=72) for n in range(1, 6)], pad=(30, 0, 30, 10)))  # fmt: skip
        own = next((r for r in ctx.state["reviews"] if r["place_id"] == p["id"]), None)
        reviews = (
            [{"user": "You", "rating": own["rating"], "text": own["text"], "age": "Just now"}] if own else []
        ) + reviews_for(p)
        info.append(text("Reviews", size=42, bold=True, fg=INK, pad=(40, 30, 40, 10)))
        info.extend(_review(r) for r in reviews)
    if saved_in:
        info.insert(0, list_item("Saved in " + ", ".join(saved_in), icon="bookmark", rid="saved_in"))
    body = column(
        column(_search_bar(ctx, p["name"], on_back=ctx.back), pad=(24, 20, 24, 10)),
        scroll_page(
            "place",
            map_canvas(ctx, p["city"], (p["x"], p["y"]), (1080, 480), [p], scale=150) if p["city"] in CITIES else None,
            column(*head, pad=(40, 24, 40, 10), gap=10),
            scroll_list("place_actions", [a for a in actions if a is not None], rid="place_actions", horizontal=True, gap=20,
                        pad=(40, 10, 40, 20)),
            divider(),
            *info,
            spacer(80),
            rid="place_sheet",
        ),
        bg="#ffffff",
    )  # fmt: skip
    layer = {"save": lambda: save_dialog(ctx, p), "account": lambda: account_dialog(ctx)}.get(
        ctx.ui.get("dialog", "")
    )
    return modal(body, layer()) if layer else body


def _review(r: dict[str, Any]) -> Node:
    return column(
        row(Node(IMAGE, image="user-" + r["user"], desc=r["user"], w=90, h=90, radius=45),
            column(text(r["user"], size=36, bold=True, fg=INK, rid="review_author"), text(r["age"], size=30, fg=GREY), gap=4),
            gap=24, valign="center"),
        rating(float(r["rating"])),
        text(r["text"], size=36, fg=INK, rid="review_text"),
        pad=(40, 16, 40, 20), gap=10,
    )  # fmt: skip


def save_dialog(ctx: AppContext, p: dict[str, Any]) -> Node:
    saved_in = set(model.lists_with(ctx.state, p["id"]))

    def toggle(name: str) -> None:
        added = model.toggle_in_list(ctx.state, name, p)
        ctx.log("maps_save", place_id=p["id"], list=name, added=added)

    options = [checkbox(lst["name"], lst["name"] in saved_in, lambda n=lst["name"]: toggle(n), rid="list_option")
               for lst in ctx.state["lists"]]  # fmt: skip
    return dialog("Save to list", options, [button("Done", lambda: ctx.ui.pop("dialog", None), rid="done_button")],
                  lambda: ctx.ui.pop("dialog", None), rid="save_sheet")  # fmt: skip


def _start(ctx: AppContext, p: dict[str, Any]) -> None:
    """Start on the place sheet: drive there now on the fastest route, with the saved route options."""
    start(ctx, here(), p, "drive", 0, directions_args(ctx, "here", p["id"]))


def _call(ctx: AppContext, p: dict[str, Any]) -> None:
    ctx.log("maps_call", place_id=p["id"], phone=p["phone"])
    ctx.toast(f"Calling {p['phone']}")


def _share(ctx: AppContext, p: dict[str, Any]) -> None:
    ctx.phone.clipboard = f"https://maps.app.goo.gl/{zlib.crc32(p['id'].encode()):08x}"
    ctx.toast("Link copied")


# -- review form ------------------------------------------------------------------------------------


def review(ctx: AppContext) -> Node:
    p = model.place(ctx.state, ctx.args["place_id"])
    assert p is not None
    stars = int(ctx.args.get("rating", 0))
    body = str(ctx.ui.get("review_text", ""))
    ready = stars > 0

    def post() -> None:
        model.post_review(ctx.state, p, stars, body, ctx.now())
        ctx.log("maps_review", place_id=p["id"], rating=stars)
        ctx.back()
        ctx.toast("Review posted")

    star_row = row(
        *[icon_button("star" if n <= stars else "star_outline", f"{n} star{'s' if n > 1 else ''}", lambda n=n: ctx.args.update(rating=n),
                      rid="review_star", fg="#f9ab00" if n <= stars else GREY, size=90) for n in range(1, 6)],
        pad=(30, 30, 30, 0), gap=6,
    )  # fmt: skip
    return column(
        row(icon_button("close", "Close", ctx.back, rid="close_button"),
            text(p["name"], size=44, fg=INK, weight=1, max_lines=1, rid="toolbar_title"),
            button("Post", post if ready else None, rid="post_button", colour=BLUE, enabled=ready, h=100),
            h=168, pad=(16, 0, 24, 0), valign="center", gap=12),
        divider(),
        text("Posting publicly as Alex Jordan", size=32, fg=GREY, pad=(50, 24, 50, 0)),
        star_row,
        text(STAR_LABELS[stars], size=38, fg=INK, pad=(50, 10, 50, 20), rid="rating_label"),
        Node(EDIT, field="review_text", hint="Share details of your own experience at this place", rid="review_text_field",
             h=420, pad=(40, 30, 40, 30), size=38, bg="#f1f3f4", radius=16),
        bg="#ffffff",
    )  # fmt: skip


def contribute(ctx: AppContext) -> Node:
    city = ctx.state["map"]["city"]
    spots = [p for p in ctx.state["places"].values() if p["city"] == city and p["category"] not in GENERIC][
        :6
    ]
    rows = [list_item(p["name"], "Rate and review", on_tap=go(ctx, "review", place_id=p["id"], rating=0), image=p["id"], rid="contribute_place")
            for p in spots]  # fmt: skip
    return column(
        row(text("Contribute", size=56, fg=INK, weight=1), h=168, pad=(40, 0, 40, 0), valign="center"),
        scroll_page("contribute", text("Share your experiences from places you visited", size=36, fg=GREY, pad=(40, 0, 40, 20)), *rows),
        nav(ctx, "contribute"),
        bg="#ffffff",
    )  # fmt: skip
