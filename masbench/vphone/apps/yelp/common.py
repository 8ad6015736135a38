"""Yelp's look: colours, the bottom navigation, business cards and navigation helpers shared by screens."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from ...app import AppContext
from ...ui import IMAGE, VIEWGROUP, Node
from ...widgets import bottom_nav, column, icon_button, rating, row, scroll_list, text
from . import model

RED = "#d32323"
INK = "#2d2e2f"
GREY = "#6e7072"
GREEN = "#008055"
PALE = "#f5f5f5"
PACKAGE = "com.yelp.android"
CARD_H = 330  # height of a business card in lists

NEARBY = "com.yelp.android.nearby.ui.ActivityNearby"
ROUTER = "com.yelp.android.ui.activities.ActivityUrlCatcher"
SEARCH = "com.yelp.android.search.ui.ActivitySearchResults"
BIZ = "com.yelp.android.bizpage.ui.ActivityBizPage"
REVIEW = "com.yelp.android.reviews.ui.ActivityWriteReview"
EVENTS = "com.yelp.android.events.ui.ActivityEventsList"
EVENT = "com.yelp.android.events.ui.ActivityEventPage"
COLLECTIONS = "com.yelp.android.collections.ui.ActivityCollectionView"
SCREEN_ACTIVITY = {  # the app's `screen_activities`: the activity each screen runs in
    "home": NEARBY, "projects": NEARBY, "collections": NEARBY, "me": NEARBY, "my_reviews": NEARBY,
    "my_events": NEARBY, "results": SEARCH, "categories": SEARCH, "filters": SEARCH, "business": BIZ, "write_review": REVIEW,
    "events": EVENTS, "event": EVENT, "collection": COLLECTIONS, "not_found": ROUTER,
}  # fmt: skip
TABS = (("Search", "search", "home"), ("Projects", "apps", "projects"), ("Collections", "bookmark", "collections"),
        ("Me", "person", "me"))  # fmt: skip


def open_biz(ctx: AppContext, biz_id: str) -> Callable[[], None]:
    """A tap handler that opens a business page and records it under Recently Viewed."""

    def tap() -> None:
        model.remember_view(ctx.state, biz_id)
        ctx.go("business", biz_id=biz_id)

    return tap


def switch_tab(ctx: AppContext, name: str) -> None:
    """Bottom navigation: show the tab's root screen (see AppContext.switch_tab)."""
    ctx.switch_tab(ctx.screen(name))


def nav(ctx: AppContext, current: str) -> Node:
    labels = {root: label for label, _, root in TABS}
    return bottom_nav(
        [(label, icon) for label, icon, _ in TABS],
        labels[current],
        lambda label: switch_tab(ctx, next(root for lab, _, root in TABS if lab == label)),
        colour=RED,
    )


def event_when(event: dict[str, Any]) -> str:
    when = datetime.fromisoformat(event["start"])
    return f"{when:%a, %b} {when.day} · {when.strftime('%I:%M %p').lstrip('0')}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def price_sign(level: int) -> str:
    return "$" * level


def info_line(business: dict[str, Any]) -> str:
    return (
        f"{price_sign(business['price'])} · {', '.join(business['categories'])} · {business['neighborhood']}"
    )


# What a business's picture shows, by its Yelp kind: food for restaurants, a cup for cafés, and so on.
PICTURE_KINDS = {"coffee": "coffee", "bars": "bar", "gyms": "sport", "hair": "beauty", "barbers": "beauty"}


def picture(business: dict[str, Any]) -> str:
    """The business's photo (`kind:id`): the same on its result card and its page."""
    return f"{PICTURE_KINDS.get(business['category'], 'dish')}:{business['id']}"


def business_card(
    ctx: AppContext, business: dict[str, Any], status: tuple[bool, str], rank: int | None = None
) -> Node:
    """A search result row: photo, "1. Name", stars, price/category/area, open status, distance. Every
    line has a fixed height so a list of 30 measures fast."""
    is_open, line = status
    extras = " · ".join(f.replace("_", " ").capitalize() for f in business["features"][:3])
    title = row(
        text(f"{rank}.", "name", rid="result_rank") if rank else None,
        text(business["name"], "name", rid="business_name", weight=1, max_lines=1),
        text(f"{business['distance']:.1f} mi", "overline", rid="distance"),
        gap=10, h=56,
    )  # fmt: skip
    return row(
        Node(IMAGE, image=picture(business), desc=business["name"], w=210, h=210, radius=18),
        column(
            title,
            rating(business["rating"], business["review_count"], colour=RED),
            text(info_line(business), "meta", rid="business_info", max_lines=1, h=42),
            text(line, size=32, fg=GREEN if is_open else RED, bold=True, rid="business_hours", h=42),
            text(extras, "overline", rid="business_features", h=40) if extras else None,
            weight=1, gap=8, h=270,
        ),
        on_tap=open_biz(ctx, business["id"]), desc=business["name"], rid="search_result", pad=(40, 30, 40, 30), gap=30,
        bg="#ffffff", h=CARD_H,
    )  # fmt: skip


def recycled_list(
    ctx: AppContext, key: str, count: int, item_h: int, build: Callable[[int], Node], gap: int = 2, **kw: Any
) -> Node:
    """A scroll list of fixed-height rows that builds only the rows near the viewport, as RecyclerView
    binds only visible items; the others are empty placeholders of the same height, so scrolling and
    the scroll limit behave as if every row were there."""
    scroll = ctx.ui.get("scroll", {})
    offset = max(0, int(min(scroll.get(key, 0), scroll.get(key + ".max", 10**9))))  # a fling may overshoot
    first = max(0, offset // (item_h + gap) - 1)
    last = first + 2400 // (item_h + gap) + 3
    rows = [build(i) if first <= i <= last else Node(VIEWGROUP, h=item_h) for i in range(count)]
    return scroll_list(key, rows, gap=gap, **kw)


def back_bar(ctx: AppContext, title: str, *actions: Node) -> Node:
    """The white top bar of inner screens: Navigate up, a title and optional actions."""
    return row(
        icon_button("back", "Navigate up", ctx.back, rid="navigate_up"),
        text(title, "rank", weight=1, max_lines=1, rid="toolbar_title"),
        *actions,
        h=168, pad=(16, 0, 16, 0), valign="center", bg="#ffffff", rid="toolbar",
    )  # fmt: skip


def section_title(label: str, rid: str = "section_title") -> Node:
    return text(label, "heading", pad=(40, 40, 40, 16), rid=rid)
