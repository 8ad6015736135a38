"""Yelp's business page (save, call, directions, website, hours, amenities, reviews), the review form,
and the Collections tab (My Bookmarks, Recently Viewed)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import quote

from ...app import AppContext
from ...intents import ACTION_VIEW, Intent
from ...ui import EDIT, IMAGE, Node
from ...widgets import (
    button,
    column,
    dialog,
    divider,
    icon_button,
    rating,
    row,
    scroll_list,
    scroll_page,
    spacer,
    text,
)
from . import model
from .common import (
    GREEN,
    GREY,
    INK,
    PALE,
    RED,
    back_bar,
    business_card,
    nav,
    picture,
    plural,
    section_title,
)
from .content import DAYS, FEATURE_LABELS, hours_line, open_status, reviews_for

STAR_LABELS = ("Select your rating", "Not good", "Could've been better", "OK", "Good", "Great")


def not_found(ctx: AppContext) -> Node:
    return column(
        back_bar(ctx, "Yelp"),
        text(
            "We couldn't find that page.",
            "heading",
            pad=(60, 200, 60, 20),
            rid="error_title",
        ),
        text(str(ctx.args.get("uri", "")), "caption", pad=(60, 0, 60, 0)),
        bg="#ffffff",
    )


# -- business page ----------------------------------------------------------------------------------


def business(ctx: AppContext) -> Node:
    biz = ctx.state["businesses"][ctx.args["biz_id"]]
    saved = model.is_bookmarked(ctx.state, biz["id"])
    is_open, line = open_status(biz, ctx.now())
    today = ctx.now().weekday()
    address = f"{biz['address']}, {biz['city']}, {biz['state']} {biz['zip']}"
    own = next((r for r in ctx.state["reviews"] if r["biz_id"] == biz["id"]), None)
    reviews = (
        [{"user": "You", "rating": own["rating"], "text": own["text"], "age_days": 0}] if own else []
    ) + reviews_for(biz)
    status = row(
        text("Open" if is_open else "Closed", size=38, bold=True, fg=GREEN if is_open else RED),
        text(line.split(" ", 1)[1] if " " in line else "", size=38, fg=GREY),
        gap=12, rid="hours_status",
    )  # fmt: skip
    actions = row(
        button("Write a review", ctx.link("write_review", biz_id=biz["id"], rating=0), rid="write_review_button", colour=RED,
               icon="star", weight=1),
        button("Saved" if saved else "Save", lambda: _save(ctx, biz), rid="bookmark_button", primary=False, colour=RED,
               icon="bookmark", desc="Saved" if saved else "Save", selected=saved),
        button("Share", lambda: _share(ctx, biz), rid="share_button", primary=False, colour=INK, icon="share"),
        gap=20, pad=(40, 10, 40, 20),
    )  # fmt: skip
    links = [
        _link("Call", biz["phone"], lambda: _call(ctx, biz), "call_button"),
        _link("Get Directions", address, lambda: _directions(ctx, address), "directions_button"),
        _link(
            "Visit Website",
            biz["website"].removeprefix("https://"),
            lambda: _website(ctx, biz),
            "website_button",
        ),
    ]
    hours = [
        row(text(DAYS[d], size=36, fg=INK, bold=d == today, w=140),
            text(hours_line(biz["hours"][d]), size=36, fg=INK, bold=d == today, weight=1),
            text(("Open now" if is_open else "Closed now") if d == today else "", size=34, fg=GREEN if is_open else RED),
            pad=(40, 8, 40, 8), rid="hours_row")
        for d in range(7)
    ]  # fmt: skip
    amenities = [
        row(Node(IMAGE, icon="check" if f in biz["features"] else "close", fg=INK, size=44, w=60, h=60),
            text(FEATURE_LABELS[f] if f in biz["features"] else f"No {FEATURE_LABELS[f].removeprefix('Offers ').removeprefix('Takes ')}", "body", weight=1), gap=20, pad=(40, 8, 40, 8), valign="center", rid="amenity")
        for f in FEATURE_LABELS
    ] if biz["kind"] in ("food", "cafe", "bar") else []  # fmt: skip
    page = scroll_page(
        "biz",
        Node(IMAGE, image=picture(biz), desc=f"Photos of {biz['name']}", h=560, rid="photo"),
        column(
            text(biz["name"], size=62, bold=True, fg=INK, rid="business_name"),
            row(rating(biz["rating"], colour=RED), text(f"{biz['review_count']:,} reviews", "caption", rid="review_count"),
                gap=16, valign="center"),
            text(f"{'$' * biz['price']} · {', '.join(biz['categories'])}", "body", rid="business_info"),
            status,
            pad=(40, 30, 40, 10), gap=12,
        ),
        actions,
        divider(),
        *links,
        divider(),
        section_title("Rate and review"),
        row(*[icon_button("star_outline", f"Rate {n} star{'s' if n > 1 else ''}", ctx.link("write_review", biz_id=biz["id"], rating=n),
                          rid="rate_star", fg=RED, size=70) for n in range(1, 6)], pad=(30, 0, 30, 20)),
        divider(),
        section_title("Location & Hours"),
        Node(IMAGE, image=f"map:{biz['neighborhood']}", desc="Map", h=300, radius=18, rid="map_preview"),
        text(address, "body", pad=(40, 16, 40, 16), rid="address", selectable=True),
        *hours,
        divider(),
        section_title("Amenities and More") if amenities else None,
        *amenities,
        section_title("Recommended Reviews"),
        *[_review(r) for r in reviews],
        spacer(60),
        rid="biz_page",
    )  # fmt: skip
    body = column(
        back_bar(ctx, biz["name"], icon_button("bookmark", "Saved" if saved else "Save", lambda: _save(ctx, biz), rid="menu_bookmark",
                                           fg=RED if saved else INK)),
        page, bg="#ffffff",
    )  # fmt: skip
    return body


def unsave_dialog(ctx: AppContext) -> Node:
    biz = ctx.state["businesses"][ctx.args["biz_id"]]
    return dialog("Remove from My Bookmarks?", [text(biz["name"], "lead", pad=(60, 0, 60, 20))],
                  [button("Cancel", ctx.close, primary=False, colour=RED, rid="cancel_button"),
                   button("Remove", lambda: _unsave(ctx, biz), colour=RED, rid="remove_button")],
                  ctx.close)  # fmt: skip


def _link(label: str, detail: str, on_tap: Callable[[], None], rid: str) -> Node:
    return row(
        column(text(label, "subtitle"), text(detail, "caption", max_lines=2), weight=1, gap=4),
        Node(IMAGE, icon="chevron", fg=GREY, size=44, w=60, h=60),
        on_tap=on_tap, rid=rid, desc=label, pad=(40, 24, 40, 24), valign="center",
    )  # fmt: skip


def _review(review: dict[str, Any]) -> Node:
    when = "Today" if review["age_days"] == 0 else f"{review['age_days']} days ago"
    return column(
        row(Node(IMAGE, image="avatar:" + review["user"], desc=review["user"], w=100, h=100, radius=50),
            column(text(review["user"], size=38, bold=True, fg=INK, rid="review_user"), text(when, "overline"), gap=4),
            gap=24, valign="center"),
        rating(float(review["rating"]), colour=RED),
        text(review["text"], "body", rid="review_text"),
        pad=(40, 20, 40, 24), gap=12, rid="review",
    )  # fmt: skip


def _save(ctx: AppContext, biz: dict[str, Any]) -> None:
    if model.is_bookmarked(ctx.state, biz["id"]):
        ctx.open("unsave")
        return
    model.bookmark(ctx.state, biz, ctx.now())
    ctx.log("yelp_bookmark", biz_id=biz["id"])
    ctx.toast("Saved to My Bookmarks")


def _unsave(ctx: AppContext, biz: dict[str, Any]) -> None:
    model.unbookmark(ctx.state, biz["id"])
    ctx.close()
    ctx.toast("Removed from My Bookmarks")


def _call(ctx: AppContext, biz: dict[str, Any]) -> None:
    ctx.state["calls"].append(
        {"biz_id": biz["id"], "name": biz["name"], "city": biz["city"], "phone": biz["phone"]}
    )
    ctx.toast(f"Calling {biz['phone']}")


def _directions(ctx: AppContext, address: str) -> None:
    error = ctx.start_activity(Intent(ACTION_VIEW, data=f"geo:0,0?q={quote(address)}"))
    if error:
        ctx.toast("No app can show directions")


def _website(ctx: AppContext, biz: dict[str, Any]) -> None:
    ctx.start_activity(Intent(ACTION_VIEW, data=biz["website"]))


def _share(ctx: AppContext, biz: dict[str, Any]) -> None:
    ctx.share(f"Check out {biz['name']} on Yelp: https://www.yelp.com/biz/{biz['alias']}")


# -- review form ------------------------------------------------------------------------------------


def write_review(ctx: AppContext) -> Node:
    biz = ctx.state["businesses"][ctx.args["biz_id"]]
    stars = int(ctx.args.get("rating", 0))
    body = str(ctx.ui.get("review_text", ""))
    ready = stars > 0 and bool(body.strip())

    def choose(n: int) -> None:
        ctx.args["rating"] = n

    def post() -> None:
        model.post_review(ctx.state, biz, stars, body, ctx.now())
        ctx.log("yelp_review", biz_id=biz["id"], rating=stars)
        ctx.back()
        ctx.toast("Your review was posted")

    star_row = row(
        *[icon_button("star" if n <= stars else "star_outline", f"{n} star{'s' if n > 1 else ''}", partial(choose, n),
                      rid="review_star", fg=RED if n <= stars else GREY, size=90) for n in range(1, 6)],
        pad=(30, 30, 30, 0), gap=6,
    )  # fmt: skip
    return column(
        row(
            icon_button("close", "Close", ctx.back, rid="close_button"),
            text(biz["name"], size=44, bold=True, fg=INK, weight=1, max_lines=1, rid="toolbar_title"),
            button("Post", post if ready else None, rid="post_button", colour=RED, enabled=ready, h=100),
            h=168, pad=(16, 0, 24, 0), valign="center", gap=12,
        ),
        divider(),
        star_row,
        text(STAR_LABELS[stars], size=38, fg=INK, bold=True, pad=(50, 10, 50, 20), rid="rating_label"),
        text("A few things to consider in your review: food, service, ambiance.", "meta", pad=(50, 0, 50, 20)),
        Node(EDIT, field="review_text", multiline=True, hint="Start your review...", rid="review_text_field", h=520, pad=(40, 30, 40, 30),
             size=40, valign="start", bg=PALE, radius=16),
        text(f"{len(body)} characters", "overline", pad=(50, 12, 50, 0), rid="char_count"),
        bg="#ffffff", pad=(0, 0, 0, 0),
    )  # fmt: skip


# -- collections ------------------------------------------------------------------------------------


def collections(ctx: AppContext) -> Node:
    state = ctx.state
    tiles = [
        (
            "My Bookmarks",
            len(state["bookmarks"]),
            state["bookmarks"][0]["id"] if state["bookmarks"] else "bookmarks",
        ),
        (
            "Recently Viewed",
            len(state["recently_viewed"]),
            state["recently_viewed"][0] if state["recently_viewed"] else "recent",
        ),
    ]
    cards = [
        column(
            Node(IMAGE, image=seed, desc=name, h=300, radius=18),
            text(name, "subtitle", rid="collection_name"),
            text(plural(count, "place"), "meta", rid="collection_count"),
            on_tap=ctx.link("collection", collection=name), weight=1, gap=8, desc=name, rid="collection",
        )
        for name, count, seed in tiles
    ]  # fmt: skip
    return column(
        row(text("Collections", "headline", weight=1), h=168, pad=(40, 0, 40, 0), valign="center"),
        scroll_page("collections", row(*cards, gap=30, pad=(40, 20, 40, 20)),
                    text("Save places to find them later. Tap Save on any business page.", "caption", pad=(40, 20, 40, 0))),
        nav(ctx, "collections"),
        bg="#ffffff",
    )  # fmt: skip


def collection(ctx: AppContext) -> Node:
    name = ctx.args.get("collection", "My Bookmarks")
    state = ctx.state
    ids = [b["id"] for b in state["bookmarks"]] if name == "My Bookmarks" else state["recently_viewed"]
    items = [state["businesses"][i] for i in ids if i in state["businesses"]]
    now = ctx.now()
    cards = [business_card(ctx, b, open_status(b, now)) for b in items]
    content = (
        scroll_list("collection", cards, rid="collection_list", gap=2, bg="#eeeeee")
        if cards
        else text("No places yet.", "lead", pad=(60, 120, 60, 0), rid="empty_collection", weight=1)
    )
    return column(
        back_bar(ctx, name),
        text(plural(len(items), "place"), "caption", pad=(40, 0, 40, 16), rid="collection_count"),
        content,
        bg="#ffffff",
    )  # fmt: skip
