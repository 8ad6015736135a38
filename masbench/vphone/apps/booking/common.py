"""Pieces every Booking.com screen shares: its activities, tab navigation, dates, guests and money as the
app prints them, and the brand's small blocks (review score, stars, call-to-action buttons)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, timedelta
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import IMAGE, Node
from ...widgets import bottom_nav, button, column, row, text
from . import catalog as cat

# Activities (fully-qualified, as dumpsys reports them)
HOME = "com.booking.startup.HomeActivity"
DEEPLINK = "com.booking.deeplink.DeeplinkDispatcherActivity"
RESULTS = "com.booking.searchresult.SearchResultsActivity"
HOTEL = "com.booking.hotel.HotelActivity"
ROOMS = "com.booking.room.list.RoomListActivity"
BOOKING = "com.booking.bookingprocess.BookingStageActivity"
CONFIRMATION = "com.booking.confirmation.ConfirmationActivity"
WISHLIST = "com.booking.wishlist.WishlistDetailActivity"
TRIP = "com.booking.mybookingslist.BookingDetailsActivity"
TABS = (("Search", "search"), ("Saved", "heart"), ("Bookings", "bookmark"), ("Profile", "person"))
PARTY_KEYS = ("checkin", "checkout", "adults", "rooms", "children")

# -- navigation ----------------------------------------------------------------------------------------


def nav(ctx: AppContext, current: str) -> Node:
    """The bottom navigation of the four tab roots; the open tab does nothing when tapped again."""

    def select(label: str) -> None:
        if label.lower() != current:
            ctx.switch_tab(ctx.screen(label.lower()))

    return bottom_nav(TABS, current.title(), select, colour=theme().accent)


def pop_to(ctx: AppContext, names: Sequence[str]) -> None:
    """Close this app's screens until one named in `names` is on top; open Search if none is left."""
    phone, package = ctx.phone, ctx.app.package
    while phone.top.package == package and phone.top.name not in names and len(phone.stack) > 1:
        phone.pop_screen()
    if phone.top.package != package or phone.top.name not in names:
        phone.context(package).go("search")


def go_with(ctx: AppContext, name: str, ui: dict[str, Any]) -> None:
    """Open a screen with transient UI state already set (a focused field, the dates to start from)."""
    ctx.go(name)
    ctx.phone.top.ui.update(ui)


def open_hotel(ctx: AppContext, hotel_id: int, party: dict[str, Any]) -> Callable[[], None]:
    hotel = cat.catalog()[hotel_id]
    return ctx.link("hotel", hotel_id=hotel_id, hotel=hotel["name"], city=hotel["city"], **party_of(party))


# -- dates, parties, money -----------------------------------------------------------------------------


def day(iso: str) -> date:
    return date.fromisoformat(iso)


def short_date(iso: str) -> str:
    """'Fri, Jun 20'"""
    return day(iso).strftime("%a, %b ") + str(day(iso).day)


def range_label(checkin: str, checkout: str) -> str:
    return f"{short_date(checkin)} - {short_date(checkout)}"


def plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    if word == "child":
        return f"{n} children"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def party_label(p: dict[str, Any]) -> str:
    """'1 room · 2 adults · 0 children', the occupancy line of the search box."""
    return f"{plural(p['rooms'], 'room')} · {plural(p['adults'], 'adult')} · {plural(p.get('children', 0), 'child')}"


def guests_label(p: dict[str, Any]) -> str:
    """'2 adults, 1 child'"""
    children = p.get("children", 0)
    return plural(p["adults"], "adult") + (f", {plural(children, 'child')}" if children else "")


def stay_label(p: dict[str, Any]) -> str:
    """'3 nights, 2 adults' under prices."""
    return f"{plural(cat.nights(p['checkin'], p['checkout']), 'night')}, {guests_label(p)}"


def party_of(source: dict[str, Any]) -> dict[str, Any]:
    return {k: source[k] for k in PARTY_KEYS}


def price(ctx: AppContext, usd: float) -> str:
    return cat.money(usd, ctx.state.get("currency", "USD"))


def free_until(checkin: str) -> str:
    """Free cancellation lasts until two days before check-in."""
    return short_date((day(checkin) - timedelta(days=2)).isoformat())


def policy_text(free_cancellation: bool, checkin: str, otherwise: str = "Non-refundable", **kw: Any) -> Node:
    """The cancellation policy line: green when cancelling is free."""
    if free_cancellation:
        return text(f"Free cancellation before {free_until(checkin)}", "positive", **kw)
    return text(otherwise, "body_small", bold=True, **kw)


def confirmation_number(number: str) -> str:
    return f"{number[:4]}.{number[4:7]}.{number[7:]}"


# -- building blocks -----------------------------------------------------------------------------------


def score_badge(score: float, rid: str = "review_score_badge") -> Node:
    t = theme()
    return text(
        f"{score:.1f}", "label", fg=t.on_primary, bg=t.primary, radius=14, w=96, h=72, align="center", rid=rid
    )


def stars_row(stars: int, size: int = 30) -> Node | None:
    if not stars:
        return None
    icons = [
        Node(IMAGE, icon="star", fg=theme().star, size=size, w=size + 6, h=size + 6) for _ in range(stars)
    ]
    return row(*icons, desc=f"{stars} out of 5 stars", h=size + 8, valign="center", rid="property_stars")


def score_row(hotel: dict[str, Any]) -> Node:
    """The review score: its badge, its word and how many reviews it rests on."""
    summary = f"{cat.score_label(hotel['score'])} · {hotel['reviews_count']:,} reviews"
    return row(
        score_badge(hotel["score"]),
        text(summary, "body_small", weight=1, max_lines=1),
        gap=16,
        valign="center",
        rid="review_score",
    )


def glyph(icon: str, size: int, box: int, fg: str | None = None, **kw: Any) -> Node:
    """A decorative icon centred in a `box`-pixel square (round when it has a background)."""
    kw.setdefault("radius", box // 2 if kw.get("bg") else 0)
    return Node(IMAGE, icon=icon, size=size, w=box, h=box, fg=fg or theme().ink, align="center", **kw)


def media(lead: Node, *lines: Node | None, on_tap: Callable[[], None] | None = None, **kw: Any) -> Node:
    """A picture or icon beside stacked lines, tappable as one: `widgets.media_row`, but the lines are
    nodes, so each keeps the resource-id the real app gives it (media_row names every title "title")."""
    kw.setdefault("pad", (40, 24, 40, 24))
    kw.setdefault("gap", 32)
    kw.setdefault("valign", "center")
    return row(lead, column(*lines, weight=1, gap=kw.pop("line_gap", 6)), on_tap=on_tap, **kw)


def tile(**kw: Any) -> dict[str, Any]:
    """The style of a white rounded tile in a list (recent searches, wish lists, trips)."""
    return {"bg": theme().surface, "radius": 16, "pad": 24, "gap": 28, **kw}


def label_over(label: str, value: str, **kw: Any) -> Node:
    """A small label over a bold value ("Check-in" / "Fri, Jun 20")."""
    return column(text(label, "caption"), text(value, "body_small", bold=True), **kw)


def priced(label: str, amount: str, rid: str, **kw: Any) -> Node:
    """A small label over a price ("Price for 2 nights, 2 adults" / "US$176"), filling its row."""
    return column(text(label, "caption"), text(amount, "price", rid=rid, **kw), weight=1)


def card(*children: Node | None, **kw: Any) -> Node:
    """A white rounded card with a hairline border."""
    t = theme()
    kw.setdefault("pad", 32)
    return column(*children, bg=t.surface, radius=16, border=t.divider, **kw)


def cta(label: str, on_tap: Callable[[], None] | None, rid: str, **kw: Any) -> Node:
    """Booking's blue call-to-action button."""
    return button(label, on_tap, rid=rid, colour=theme().accent, radius=12, **kw)


def outline(label: str, on_tap: Callable[[], None] | None, rid: str, **kw: Any) -> Node:
    return button(label, on_tap, rid=rid, primary=False, colour=theme().accent, radius=12, **kw)


def footer(*children: Node | None, **kw: Any) -> Node:
    """The white bar pinned under a page: a price and its action."""
    t = theme()
    return row(*children, pad=(40, 24, 40, 24), gap=24, valign="center", bg=t.surface, border=t.divider, **kw)
