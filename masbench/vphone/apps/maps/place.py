"""Maps' place sheet (Directions, Start, Call, Save, Share, hours, reviews), the Save to list dialog and
the review form."""

from __future__ import annotations

import zlib
from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    app_bar,
    button,
    checkbox,
    column,
    dialog,
    divider,
    icon_button,
    image,
    label_value,
    list_item,
    rating,
    row,
    scroll_list,
    scroll_page,
    section_header,
    spacer,
    star_input,
    text,
)
from . import model
from .common import OWNER, avatar, filled_field, map_of, page, picture, search_bar
from .content import CITIES, DAYS, HOME_CITY, distance_km, here, hours_line, open_status, reviews_for
from .directions import start
from .mapview import fit

STAR_LABELS = ("Tap a star to rate", "Terrible", "Poor", "Average", "Good", "Excellent")


def place_page(ctx: AppContext) -> Node:
    p = model.place(ctx.state, ctx.args["place_id"])
    if p is None:
        return page(app_bar("Maps", ctx.back), text("This place is not available.", "body", pad=60))
    is_address = p.get("category") == "Address" or p["id"].startswith("label:")
    saved_in = model.lists_with(ctx.state, p["id"])
    dist = model.distance_text(ctx.state, distance_km(model.center(ctx.state, HOME_CITY), p))
    info: list[Node | None] = [
        list_item("Saved in " + ", ".join(saved_in), icon="bookmark", rid="saved_in") if saved_in else None,
        list_item(p.get("address", p["name"]), icon="pin", rid="place_address", selectable=True),
    ]
    if not is_address:
        info += [
            list_item(p["phone"], "", lambda: _call(ctx, p), "bell", rid="place_phone"),
            *_details(ctx, p),
        ]
    actions = _actions(ctx, p, is_address, bool(saved_in))
    photo = None if is_address else image(picture(p), 240, 240, desc=p["name"], radius=20)
    return page(
        column(search_bar(ctx, p["name"], on_back=ctx.back), pad=(24, 20, 24, 10)),
        scroll_page(
            "place",
            map_of(ctx, fit([(p["x"], p["y"])], 1080, 480), p["city"], [p]) if p["city"] in CITIES else None,
            row(
                column(*_head(ctx, p, is_address, dist), weight=1, gap=10),
                photo,
                pad=(40, 24, 40, 10),
                gap=24,
            ),
            scroll_list(
                "place_actions", actions, rid="place_actions", horizontal=True, gap=20, pad=(40, 10, 40, 20)
            ),
            divider(),
            *info,
            spacer(80),
            rid="place_sheet",
        ),
    )


def _actions(ctx: AppContext, p: dict[str, Any], is_address: bool, saved: bool) -> list[Node]:
    """The place's buttons: Directions, Start, Call (not for an address), Save or Saved, Share."""
    to_place = ctx.link("directions", **model.directions_args(ctx.state, "here", p["id"]))
    label = "Saved" if saved else "Save"
    outlined: dict[str, Any] = {"primary": False, "h": 104}
    return [
        button("Directions", to_place, rid="directions_button", h=104),
        button("Start", lambda: _start(ctx, p), rid="start_button", icon="play", **outlined),
        *([] if is_address else [button("Call", lambda: _call(ctx, p), rid="call_button", **outlined)]),
        button(
            label,
            ctx.opener("save"),
            rid="save_button",
            icon="bookmark",
            desc=label,
            selected=saved,
            **outlined,
        ),
        button("Share", lambda: _share(ctx, p), rid="share_button", icon="share", **outlined),
    ]


def _head(ctx: AppContext, p: dict[str, Any], is_address: bool, dist: str) -> list[Node | None]:
    """The place's name and what it is: an address and how far, or rating, category, price and hours."""
    title = text(p["name"], "headline", bold=False, rid="place_title")
    if is_address:
        address = text(p.get("address", ""), "body_small", fg=theme().muted, rid="place_subtitle")
        return [title, address, text(f"{dist} away", "caption")]
    is_open, line = open_status(p, *model.minute_of(ctx.now()))
    price = f" · {'$' * p['price']}" if p.get("price") else ""
    return [
        title,
        rating(p["rating"], p["reviews"]),
        text(f"{p['category']} · {dist}{price}", "body_small", fg=theme().muted, rid="place_subtitle"),
        text(line, "positive" if is_open else "negative", rid="place_hours_status"),
    ]


def _details(ctx: AppContext, p: dict[str, Any]) -> list[Node]:
    """Opening hours for the week, stars to rate it, then reviews (the user's own first)."""
    weekday, _ = model.minute_of(ctx.now())
    hours = [label_value(DAYS[d], hours_line(p["hours"][d]), "hours_row", d == weekday) for d in range(7)]
    rate = [
        (f"Rate {n} star{'s' if n > 1 else ''}", ctx.link("review", place_id=p["id"], rating=n))
        for n in range(1, 6)
    ]
    stars = [
        icon_button("star_outline", desc, tap, rid="rate_star", fg=theme().muted, size=72)
        for desc, tap in rate
    ]
    own = next((r for r in ctx.state["reviews"] if r["place_id"] == p["id"]), None)
    mine = [{"user": "You", "rating": own["rating"], "text": own["text"], "age": "Just now"}] if own else []
    return [
        *hours,
        divider(),
        section_header("Rate and review"),
        row(*stars, pad=(30, 0, 30, 10)),
        section_header("Reviews"),
        *(_review(r) for r in mine + reviews_for(p)),
    ]


def _review(r: dict[str, Any]) -> Node:
    who = OWNER if r["user"] == "You" else r["user"]
    author = column(text(r["user"], "label", rid="review_author"), text(r["age"], "caption"), gap=4)
    return column(
        row(avatar(who, 90), author, gap=24),
        rating(float(r["rating"])),
        text(r["text"], "body_small", rid="review_text"),
        pad=(40, 16, 40, 20),
        gap=10,
    )


def save(ctx: AppContext) -> Node:
    """Save to list: a checkbox per list; ticking one saves the place there at once."""
    p = model.place(ctx.state, ctx.args["place_id"])
    assert p is not None
    saved_in = set(model.lists_with(ctx.state, p["id"]))

    def toggle(name: str) -> None:
        added = model.toggle_in_list(ctx.state, name, p)
        ctx.log("maps_save", place_id=p["id"], list=name, added=added)

    options = [
        checkbox(lst["name"], lst["name"] in saved_in, partial(toggle, lst["name"]), rid="list_option")
        for lst in ctx.state["lists"]
    ]
    done = button("Done", ctx.close, rid="done_button")
    return dialog("Save to list", options, [done], ctx.close, rid="save_sheet")


def _start(ctx: AppContext, p: dict[str, Any]) -> None:
    """Start on the place sheet: drive there now on the fastest route, with the saved route options."""
    start(ctx, here(), p, "drive", 0, model.directions_args(ctx.state, "here", p["id"]))


def _call(ctx: AppContext, p: dict[str, Any]) -> None:
    ctx.log("maps_call", place_id=p["id"], phone=p["phone"])
    ctx.toast(f"Calling {p['phone']}")


def _share(ctx: AppContext, p: dict[str, Any]) -> None:
    ctx.share(
        f"{p['name']}\n{p.get('address', p['name'])}\nhttps://maps.app.goo.gl/{zlib.crc32(p['id'].encode()):08x}"
    )


def review(ctx: AppContext) -> Node:
    """The review form: stars, a text box and Post (enabled once rated)."""
    p = model.place(ctx.state, ctx.args["place_id"])
    assert p is not None
    stars = int(ctx.args.get("rating", 0))

    def post() -> None:
        model.post_review(ctx.state, p, stars, str(ctx.ui.get("review_text", "")), ctx.now())
        ctx.log("maps_review", place_id=p["id"], rating=stars)
        ctx.back()
        ctx.toast("Review posted")

    close = icon_button("close", "Close", ctx.back, rid="close_button")
    title = text(p["name"], "title", bold=False, weight=1, max_lines=1, rid="toolbar_title")
    send = button("Post", post if stars else None, rid="post_button", enabled=stars > 0, h=100)
    hint = "Share details of your own experience at this place"
    return page(
        row(close, title, send, h=168, pad=(16, 0, 24, 0), gap=12),
        divider(),
        text(f"Posting publicly as {OWNER}", "caption", pad=(50, 24, 50, 0)),
        row(star_input(stars, lambda n: ctx.args.update(rating=n), rid="review_stars"), pad=(30, 30, 30, 0)),
        text(STAR_LABELS[stars], "body_small", pad=(50, 10, 50, 20), rid="rating_label"),
        column(filled_field("review_text", hint, "review_text_field", h=420), pad=(40, 0, 40, 0)),
    )
