"""Pieces every Booking.com screen shares: brand colours, navigation between screens, money and dates
as the app prints them, property cards, bottom sheets, and the save-to-a-list flow behind each heart."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from functools import lru_cache
from typing import Any

from ...app import AppContext
from ...ui import EDIT, FRAME, IMAGE, VIEWGROUP, Node, measure_height
from ...widgets import bottom_nav, button, column, divider, icon_button, row, spacer, text
from . import catalog as cat

PACKAGE = "com.booking"
BLUE = "#003b95"  # brand header
ACTION = "#006ce4"  # buttons and links
YELLOW = "#ffb700"  # search box frame
GREEN = "#008234"
RED = "#d4111e"
INK = "#1a1a1a"
GREY = "#595959"
PALE = "#f5f5f5"
WIDTH = 1080

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
TABS = ("search", "saved", "bookings", "profile")
PARTY_KEYS = ("checkin", "checkout", "adults", "rooms", "children")


# -- navigation ----------------------------------------------------------------------------------------


def open_screen(
    ctx: AppContext, name: str, activity: str, ui: dict[str, Any] | None = None, **args: Any
) -> None:
    """Push a screen, optionally with transient UI state already set (a focused field, a picked month)."""
    screen = ctx.screen(name, activity=activity, **args)
    screen.ui.update(ui or {})
    ctx.phone.push_screen(screen)


def go_tab(ctx: AppContext, tab: str) -> None:
    """Bottom navigation: switch tab in place on a tab root, else open the tab on top."""
    if ctx.top is not None and ctx.top.name == tab:
        return
    if ctx.top is not None and ctx.top.name in TABS:
        ctx.replace(tab, activity=HOME)
    else:
        ctx.go(tab, activity=HOME)


def pop_to(ctx: AppContext, names: Sequence[str], fallback: str = "search") -> None:
    """Close this app's screens until one named in `names` is on top; open `fallback` if none is left."""
    phone = ctx.phone
    while phone.top.package == PACKAGE and phone.top.name not in names and len(phone.stack) > 1:
        phone.pop_screen()
    if phone.top.package != PACKAGE or phone.top.name not in names:
        go_tab(_fresh(ctx), fallback)


def _fresh(ctx: AppContext) -> AppContext:
    top = ctx.phone.top if ctx.phone.top.package == PACKAGE else None
    return AppContext(ctx.phone, ctx.app, top)


def nav(ctx: AppContext, current: str) -> Node:
    items = (("Search", "search"), ("Saved", "heart"), ("Bookings", "bookmark"), ("Profile", "person"))
    return bottom_nav(items, current.title(), lambda label: go_tab(ctx, label.lower()), colour=ACTION)


def header(ctx: AppContext, title: str, back: bool = True, actions: Sequence[Node] = ()) -> Node:
    """The blue app bar most screens have."""
    items: list[Node] = []
    if back:
        items.append(icon_button("back", "Navigate up", ctx.back, rid="navigate_up", fg="#ffffff"))
    items.append(
        text(
            title,
            size=50,
            fg="#ffffff",
            bold=True,
            rid="toolbar_title",
            weight=1,
            max_lines=1,
            pad=(24, 0, 0, 0),
        )
    )
    items.extend(actions)
    return row(*items, h=168, bg=BLUE, pad=(16, 0, 16, 0), valign="center", rid="toolbar")


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


def stay_label(p: dict[str, Any]) -> str:
    """'3 nights, 2 adults' under prices."""
    guests = plural(p["adults"], "adult")
    if p.get("children"):
        guests += ", " + plural(p["children"], "child")
    return f"{plural(cat.nights(p['checkin'], p['checkout']), 'night')}, {guests}"


def party_of(source: dict[str, Any]) -> dict[str, Any]:
    return {k: source[k] for k in PARTY_KEYS}


def price(ctx: AppContext, usd: float) -> str:
    return cat.money(usd, ctx.state.get("currency", "USD"))


# -- building blocks -----------------------------------------------------------------------------------


def score_badge(score: float, size: int = 38) -> Node:
    return Node(
        "android.widget.TextView",
        text=f"{score:.1f}",
        bg=BLUE,
        fg="#ffffff",
        bold=True,
        size=size,
        w=size * 2 + 20,
        h=size * 2 + 8,
        radius=14,
        align="center",
        valign="center",
        rid="review_score_badge",
    )


def stars_row(stars: int, size: int = 30) -> Node | None:
    if not stars:
        return None
    icons = [Node(IMAGE, icon="star", fg=YELLOW, size=size, w=size + 6, h=size + 6) for _ in range(stars)]
    return row(*icons, desc=f"{stars} out of 5 stars", h=size + 8, valign="center", rid="property_stars")


def score_row(hotel: dict[str, Any]) -> Node:
    return row(
        score_badge(hotel["score"], 34),
        column(
            text(cat.score_label(hotel["score"]), size=34, bold=True, fg=INK),
            text(f"{hotel['reviews_count']:,} reviews", size=30, fg=GREY),
        ),
        gap=16,
        valign="center",
        rid="review_score",
    )


def sized(node: Node, width: int = WIDTH) -> Node:
    """Give a stacked layer its natural height (stack children otherwise fill the whole screen)."""
    node.h = measure_height(node, node.w or width)
    return node


def sheet(
    title: str, body: Sequence[Node | None], on_dismiss: Callable[[], None], rid: str = "bottom_sheet"
) -> Node:
    """A bottom sheet over a scrim; tapping the scrim or the X dismisses it."""
    card = sized(
        column(
            row(
                text(title, size=48, bold=True, fg=INK, weight=1, rid="sheet_title"),
                icon_button("close", "Close", on_dismiss, rid="sheet_close"),
                pad=(48, 24, 24, 8),
                valign="center",
            ),
            *body,
            spacer(40),
            bg="#ffffff",
            radius=36,
            rid=rid,
            cls=FRAME,
        )
    )
    return Node(
        FRAME,
        layout="stack",
        valign="end",
        children=[Node(VIEWGROUP, bg="#00000088", on_tap=on_dismiss, rid="touch_outside", weight=1), card],
    )


def modal(
    title: str, body: Sequence[Node | None], actions: Sequence[Node], on_dismiss: Callable[[], None]
) -> Node:
    """A centred alert dialog (measured, so it is only as tall as its content)."""
    card = sized(
        column(
            text(title, size=48, bold=True, fg=INK, pad=(56, 56, 56, 16), rid="alertTitle"),
            *body,
            row(spacer(weight=1), *actions, pad=(40, 24, 40, 40), gap=20),
            bg="#ffffff",
            radius=36,
            w=940,
            rid="dialog",
            cls=FRAME,
        ),
        940,
    )
    return Node(
        FRAME,
        layout="stack",
        align="center",
        valign="center",
        children=[Node(VIEWGROUP, bg="#00000088", on_tap=on_dismiss, rid="touch_outside", weight=1), card],
    )


def primary(label: str, on_tap: Callable[[], None] | None, rid: str, **kw: Any) -> Node:
    return button(label, on_tap, rid=rid, colour=ACTION, radius=12, **kw)


def secondary(label: str, on_tap: Callable[[], None] | None, rid: str, **kw: Any) -> Node:
    return button(label, on_tap, rid=rid, primary=False, colour=ACTION, radius=12, **kw)


# -- saving to lists ---------------------------------------------------------------------------------


def saved_lists(state: dict[str, Any], hotel_id: int) -> list[str]:
    return [s["list"] for s in state["saved"] if s["hotel_id"] == hotel_id]


def heart(ctx: AppContext, hotel: dict[str, Any], bg: str | None = "#00000044") -> Node:
    """The heart on a property: saved ones are red and tapping removes them; others open "Save to a list"."""
    saved = bool(saved_lists(ctx.state, hotel["id"]))

    def tap() -> None:
        if saved:
            ctx.state["saved"] = [s for s in ctx.state["saved"] if s["hotel_id"] != hotel["id"]]
            ctx.toast("Removed from your saved lists")
        else:
            ctx.ui.update(dialog="save", save_id=hotel["id"])

    desc = f"Remove {hotel['name']} from saved" if saved else f"Save {hotel['name']}"
    node = icon_button(
        "heart", desc, tap, rid="wishlist_icon", fg=RED if saved else "#ffffff", size=52, bg=bg
    )
    node.selected = saved
    return node


def save_to(ctx: AppContext, hotel_id: int, list_name: str) -> None:
    hotel = cat.catalog()[hotel_id]
    if list_name not in saved_lists(ctx.state, hotel_id):
        ctx.state["saved"].append(
            {"hotel_id": hotel_id, "name": hotel["name"], "city": hotel["city"], "list": list_name}
        )
    ctx.toast(f"Saved to {list_name}")


def create_list(ctx: AppContext, name: str) -> None:
    """Create a wish list from the dialog's field; a pending heart is saved straight into it."""
    name = " ".join(name.split())
    if not name:
        ctx.toast("Enter a name for your list")
        return
    if name in ctx.state["wishlists"]:
        ctx.toast(f"You already have a list called {name}")
        return
    ctx.state["wishlists"].append(name)
    pending = ctx.ui.pop("save_id", None)
    ctx.ui.pop("dialog", None)
    ctx.ui.pop("list_name", None)
    if pending is not None:
        save_to(ctx, pending, name)
    else:
        ctx.toast(f"Created {name}")


def save_layer(ctx: AppContext) -> Node | None:
    """The "Save to a list" sheet and the "Create a list" dialog, when one of them is open."""
    kind = ctx.ui.get("dialog")

    def close() -> None:
        ctx.ui.pop("dialog", None)
        ctx.ui.pop("save_id", None)

    if kind == "save":
        hotel_id = ctx.ui["save_id"]

        def pick(name: str) -> Callable[[], None]:
            return lambda: (save_to(ctx, hotel_id, name), close())

        rows = [
            row(
                Node(IMAGE, image=f"list:{name}", w=120, h=120, radius=16, desc=name),
                column(
                    text(name, size=42, bold=True, fg=INK, rid="wishlist_option_name"),
                    text(
                        plural(sum(s["list"] == name for s in ctx.state["saved"]), "property"),
                        size=32,
                        fg=GREY,
                    ),
                    weight=1,
                ),
                on_tap=pick(name),
                rid="wishlist_option",
                pad=(48, 20, 48, 20),
                gap=32,
                valign="center",
            )
            for name in ctx.state["wishlists"]
        ]
        create = row(
            Node(
                IMAGE, icon="plus", fg=ACTION, size=56, w=120, h=120, bg="#ebf3ff", radius=16, align="center"
            ),
            text("Create a list", size=42, fg=ACTION, bold=True, weight=1),
            on_tap=lambda: ctx.ui.update(dialog="create_list"),
            rid="create_list",
            pad=(48, 20, 48, 20),
            gap=32,
            valign="center",
        )
        return sheet("Save to a list", [*rows, divider(), create], close)
    if kind == "create_list":
        field = Node(
            EDIT,
            field="list_name",
            hint="Name your list",
            rid="wishlist_create_edit_text",
            size=44,
            h=140,
            pad=(24, 0, 24, 0),
            on_submit=lambda v: create_list(ctx, v),
        )
        return modal(
            "Create a list",
            [column(field, pad=(56, 0, 56, 0))],
            [
                button("Cancel", close, rid="button_negative", primary=False, colour=ACTION),
                button(
                    "Create",
                    lambda: create_list(ctx, str(ctx.ui.get("list_name", ""))),
                    rid="btn_wishlist_create_list",
                    colour=ACTION,
                ),
            ],
            close,
        )
    return None


# -- property cards -----------------------------------------------------------------------------------


def property_card(
    hotel: dict[str, Any], price_text: str | None, stay: str, on_tap: Callable[[], None], heart_node: Node
) -> Node:
    """A search-result card: photo with heart, name, stars, score, location, perks and the price."""
    card = _card_tree(hotel, price_text, stay, on_tap, heart_node)
    card.h = card_height(hotel["id"], price_text is not None, stay)
    return card


@lru_cache(maxsize=4096)
def card_height(hotel_id: int, priced: bool, stay: str) -> int:
    """A card's height depends only on how its texts wrap; cached, so long lists lay out in a few ms and
    cards far from the viewport can stand in as empty boxes of the same height."""
    probe = _card_tree(
        cat.catalog()[hotel_id], "US$0" if priced else None, stay, None, Node(VIEWGROUP, h=112)
    )
    return measure_height(probe, WIDTH)


def _card_tree(
    hotel: dict[str, Any],
    price_text: str | None,
    stay: str,
    on_tap: Callable[[], None] | None,
    heart_node: Node,
) -> Node:
    photo = Node(
        FRAME,
        layout="stack",
        valign="start",
        w=300,
        children=[
            Node(
                IMAGE,
                image=f"hotel:{hotel['id']}",
                weight=1,
                radius=16,
                desc=hotel["name"],
                rid="sr_property_card_image",
            ),
            row(spacer(weight=1), heart_node, valign="start", pad=8),
        ],
    )
    perks = [
        text("Free cancellation", size=32, fg=GREEN, bold=True, rid="free_cancellation")
        if hotel["free_cancellation"]
        else None,
        text("Breakfast included", size=32, fg=GREEN, rid="breakfast_included")
        if hotel["breakfast"]
        else None,
    ]
    price_block = (
        column(
            text(f"Price for {stay}", size=30, fg=GREY, align="end"),
            text(price_text, size=48, bold=True, fg=INK, align="end", rid="price_view_price"),
            text("Includes taxes and charges", size=28, fg=GREY, align="end"),
        )
        if price_text is not None
        else text("No rooms for your group", size=32, fg=RED, align="end")
    )
    body = column(
        text(
            hotel["name"],
            size=42,
            bold=True,
            fg=INK,
            max_lines=2,
            rid="sr_property_card_header_property_name",
        ),
        stars_row(hotel["stars"]),
        score_row(hotel),
        text(
            f"{hotel['district']} · {hotel['distance']} km from centre",
            size=32,
            fg=GREY,
            max_lines=2,
            rid="sr_property_card_location",
        ),
        *perks,
        price_block,
        weight=1,
        gap=10,
    )
    return column(
        row(photo, body, gap=28, pad=(32, 28, 32, 28), valign="start"),
        divider(),
        on_tap=on_tap,
        rid="property_card",
        bg="#ffffff",
    )


def open_hotel(ctx: AppContext, hotel_id: int, party: dict[str, Any]) -> Callable[[], None]:
    hotel = cat.catalog()[hotel_id]
    return lambda: ctx.go(
        "hotel", activity=HOTEL, hotel_id=hotel_id, hotel=hotel["name"], city=hotel["city"], **party_of(party)
    )
