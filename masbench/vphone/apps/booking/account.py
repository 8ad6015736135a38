"""The user's side of the app: Saved (wish lists), Bookings (trips and cancelling them) and Profile
(with the display currency)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...app import AppContext
from ...ui import IMAGE, Node
from ...widgets import column, divider, list_item, overlay, radio, row, scroll_list, scroll_page, tabs, text
from . import catalog as cat
from .common import (
    ACTION,
    BLUE,
    GREEN,
    GREY,
    HOTEL,
    INK,
    PALE,
    RED,
    TRIP,
    WISHLIST,
    YELLOW,
    header,
    modal,
    nav,
    open_hotel,
    plural,
    price,
    primary,
    property_card,
    range_label,
    save_layer,
    secondary,
    short_date,
    stay_label,
)
from .hotel import confirmation_number, free_until

TRIP_TABS = ("Active", "Past", "Cancelled")


# -- Saved -------------------------------------------------------------------------------------------


def build_saved(ctx: AppContext) -> Node:
    state = ctx.state
    cards = []
    for name in state["wishlists"]:
        members = [s for s in state["saved"] if s["list"] == name]
        cards.append(
            row(
                Node(
                    IMAGE,
                    image=f"hotel:{members[0]['hotel_id']}" if members else f"list:{name}",
                    w=200,
                    h=200,
                    radius=16,
                    desc=name,
                ),
                column(
                    text(name, size=44, bold=True, fg=INK, rid="tv_wishlist_name"),
                    text(
                        plural(len(members), "property") + " saved",
                        size=34,
                        fg=GREY,
                        rid="tv_wishlist_property",
                    ),
                    weight=1,
                    gap=8,
                ),
                on_tap=lambda name=name: ctx.go("wishlist", activity=WISHLIST, list=name),
                rid="wishlist_card",
                bg="#ffffff",
                radius=16,
                pad=24,
                gap=32,
                valign="center",
            )
        )
    body = scroll_page(
        "saved",
        text("Your lists", size=46, bold=True, fg=INK, pad=(40, 40, 40, 8)),
        text("Tap the heart on any property to save it to a list.", size=34, fg=GREY, pad=(40, 0, 40, 16)),
        column(*cards, gap=20, pad=(32, 8, 32, 8)),
        column(
            secondary("Create a list", lambda: ctx.ui.update(dialog="create_list"), rid="create_list_button"),
            pad=(32, 24, 32, 40),
        ),
        rid="wishlist_scrollview",
        bg=PALE,
    )
    screen = column(header(ctx, "Saved", back=False), body, nav(ctx, "saved"), bg="#ffffff")
    return overlay(screen, save_layer(ctx))


def build_wishlist(ctx: AppContext) -> Node:
    name = ctx.args["list"]
    form = ctx.state["form"]
    catalog = cat.catalog()
    members = [s for s in ctx.state["saved"] if s["list"] == name]
    cards = []
    for entry in members:
        hotel = catalog.get(entry["hotel_id"])
        if hotel is None:  # a list entry patched in by hand for a property the catalogue lacks
            continue

        def remove(hotel_id: int = hotel["id"]) -> None:
            ctx.state["saved"] = [
                s for s in ctx.state["saved"] if not (s["hotel_id"] == hotel_id and s["list"] == name)
            ]
            ctx.toast(f"Removed from {name}")

        heart = Node(
            "android.widget.ImageButton",
            icon="heart",
            desc=f"Remove {hotel['name']} from {name}",
            on_tap=remove,
            rid="wishlist_icon",
            fg=RED,
            size=52,
            w=112,
            h=112,
            align="center",
            radius=56,
            selected=True,
        )
        total = cat.offer(hotel, form, ctx.state["market"])
        price_text = price(ctx, total) if total is not None else None
        cards.append(
            property_card(hotel, price_text, stay_label(form), open_hotel(ctx, hotel["id"], form), heart)
        )
    if not cards:
        cards = [
            column(
                text("Your list is empty", size=44, bold=True, fg=INK),
                text("Tap the heart on any property to save it here.", size=36, fg=GREY),
                pad=60,
                gap=16,
                rid="tv_wishlist_empty_title",
            )
        ]
    return column(
        header(ctx, name),
        text(
            f"{plural(len(members), 'property')} · prices for "
            f"{range_label(form['checkin'], form['checkout'])}",
            size=34,
            fg=GREY,
            pad=(40, 20, 40, 20),
            bg=PALE,
            rid="wishlist_properties_number",
        ),
        scroll_list("wishlist", cards, rid="wishlist_list", bg=PALE),
        bg="#ffffff",
    )


# -- Bookings -------------------------------------------------------------------------------------------


def trip_kind(booking: dict[str, Any], today: str) -> str:
    if booking.get("status") == "cancelled":
        return "Cancelled"
    return "Active" if booking["checkout"] > today else "Past"


def build_bookings(ctx: AppContext) -> Node:
    today = ctx.now().date().isoformat()
    current = ctx.ui.get("tab", 0)
    kind = TRIP_TABS[current]
    trips = [b for b in ctx.state["bookings"] if trip_kind(b, today) == kind]
    trips.sort(key=lambda b: b["checkin"], reverse=kind != "Active")
    cards = [
        row(
            Node(IMAGE, image=f"hotel:{b['hotel_id']}", w=200, h=200, radius=16, desc=b["hotel"]),
            column(
                text(b["hotel"], size=42, bold=True, fg=INK, rid="trip_hotel_name", max_lines=2),
                text(b["city"], size=34, fg=GREY),
                text(
                    f"{range_label(b['checkin'], b['checkout'])}, {b['checkin'][:4]}",
                    size=34,
                    fg=INK,
                    rid="trip_dates",
                ),
                text(
                    {"Active": "Confirmed", "Past": "Completed", "Cancelled": "Cancelled"}[kind],
                    size=32,
                    bold=True,
                    fg={"Active": GREEN, "Past": GREY, "Cancelled": RED}[kind],
                    rid="trip_status",
                ),
                weight=1,
                gap=6,
            ),
            on_tap=lambda b=b: ctx.go("trip", activity=TRIP, number=b["number"]),
            rid="trip_card",
            bg="#ffffff",
            radius=16,
            pad=24,
            gap=28,
            valign="start",
        )
        for b in trips
    ]
    if not cards:
        empty = {
            "Active": "Where to next? You have no upcoming trips.",
            "Past": "You have no past trips yet.",
            "Cancelled": "You have no cancelled trips.",
        }[kind]
        cards = [text(empty, size=40, fg=GREY, pad=60, rid="trips_empty")]
    return column(
        header(ctx, "Bookings", back=False),
        tabs(TRIP_TABS, current, lambda i: ctx.ui.update(tab=i), colour=ACTION, rid="trips_tabs"),
        scroll_list("trips", cards, rid="trips_list", gap=20, pad=(32, 24, 32, 24), bg=PALE),
        nav(ctx, "bookings"),
        bg="#ffffff",
    )


def build_trip(ctx: AppContext) -> Node:
    booking = next(b for b in ctx.state["bookings"] if b["number"] == ctx.args["number"])
    today = ctx.now().date().isoformat()
    kind = trip_kind(booking, today)
    banner = {
        "Active": ("Your booking is confirmed", GREEN),
        "Past": ("Completed stay", GREY),
        "Cancelled": ("This booking was cancelled", RED),
    }[kind]

    def line(label: str, value: str, rid: str = "") -> Node:
        return row(
            text(label, size=34, fg=GREY, weight=1),
            text(value, size=36, bold=True, fg=INK, rid=rid, align="end", weight=1.4),
            pad=(0, 12, 0, 12),
        )

    policy = (
        f"Free cancellation before {free_until(booking['checkin'])}"
        if booking.get("free_cancellation")
        else "Non-refundable: cancelling costs the full price"
    )
    actions: list[Node] = []
    if kind == "Active":
        actions.append(
            secondary(
                "Cancel booking", lambda: ctx.ui.update(dialog="cancel"), rid="cancel_booking_button", fg=RED
            )
        )
    if booking["hotel_id"] in cat.catalog():
        actions.append(
            primary(
                "View property",
                lambda: ctx.go(
                    "hotel",
                    activity=HOTEL,
                    hotel_id=booking["hotel_id"],
                    hotel=booking["hotel"],
                    city=booking["city"],
                    checkin=booking["checkin"],
                    checkout=booking["checkout"],
                    adults=booking["adults"],
                    rooms=booking.get("rooms", 1),
                    children=booking.get("children", 0),
                ),
                rid="view_property_button",
            )
        )
    screen = column(
        header(ctx, booking["hotel"]),
        scroll_page(
            "trip",
            text(
                banner[0],
                size=40,
                bold=True,
                fg="#ffffff",
                bg=banner[1],
                pad=(40, 28, 40, 28),
                rid="trip_status",
            ),
            Node(IMAGE, image=f"hotel:{booking['hotel_id']}", h=420, desc=booking["hotel"]),
            column(
                text(booking["hotel"], size=48, bold=True, fg=INK, rid="trip_hotel_name"),
                text(booking["city"], size=36, fg=GREY),
                divider(),
                line("Check-in", short_date(booking["checkin"]), "trip_checkin"),
                line("Check-out", short_date(booking["checkout"]), "trip_checkout"),
                line(
                    "Guests",
                    plural(booking["adults"], "adult")
                    + (f", {plural(booking['children'], 'child')}" if booking.get("children") else ""),
                ),
                line("Room", booking.get("room", "")),
                line("Guest name", f"{booking.get('first_name', '')} {booking.get('last_name', '')}".strip()),
                line("Total price", price(ctx, booking["total"])),
                line(
                    "Confirmation number", confirmation_number(booking["number"]), "trip_confirmation_number"
                ),
                line("PIN code", booking.get("pin", "")),
                text(
                    policy, size=34, fg=GREEN if booking.get("free_cancellation") else INK, pad=(0, 16, 0, 0)
                ),
                pad=40,
                gap=4,
                bg="#ffffff",
            ),
            column(*actions, pad=40, gap=24),
            rid="trip_scroll",
            bg=PALE,
        ),
        bg="#ffffff",
    )
    return overlay(screen, cancel_dialog(ctx, booking) if ctx.ui.get("dialog") == "cancel" else None)


def cancel_dialog(ctx: AppContext, booking: dict[str, Any]) -> Node:
    def close() -> None:
        ctx.ui.pop("dialog", None)

    def cancel() -> None:
        booking["status"] = "cancelled"
        booking["cancelled_at"] = ctx.now().isoformat(timespec="seconds")
        close()
        ctx.log("booking_cancelled", number=booking["number"])
        ctx.toast("Your booking has been cancelled")

    cost = (
        "Cancellation is free."
        if booking.get("free_cancellation")
        else f"This booking is non-refundable: you will be charged {price(ctx, booking['total'])}."
    )
    return modal(
        "Cancel your booking?",
        [
            text(
                f"Your stay at {booking['hotel']} from {short_date(booking['checkin'])} to "
                f"{short_date(booking['checkout'])} will be cancelled. {cost}",
                size=38,
                fg=INK,
                pad=(56, 0, 56, 0),
            )
        ],
        [
            secondary("Keep booking", close, rid="button_negative"),
            primary("Yes, cancel", cancel, rid="confirm_cancel_button"),
        ],
        close,
    )


# -- Profile --------------------------------------------------------------------------------------------


def build_profile(ctx: AppContext) -> Node:
    profile = ctx.state["profile"]
    currency = ctx.state.get("currency", "USD")
    name, symbol, _ = cat.CURRENCIES[currency]
    top = row(
        Node(
            IMAGE,
            text=profile["first_name"][:1],
            size=64,
            bold=True,
            fg="#ffffff",
            bg=ACTION,
            w=150,
            h=150,
            radius=75,
            align="center",
            valign="center",
            desc="Profile picture",
        ),
        column(
            text(
                f"Hi, {profile['first_name']} {profile['last_name']}",
                size=46,
                bold=True,
                fg="#ffffff",
                rid="profile_name",
            ),
            row(text("Genius Level 1", size=34, fg=BLUE, bg=YELLOW, radius=12, pad=(16, 4, 16, 4))),
            weight=1,
            gap=12,
        ),
        bg=BLUE,
        pad=(40, 40, 40, 48),
        gap=32,
        valign="center",
    )
    items = [
        text("Manage account", size=40, bold=True, fg=INK, pad=(48, 32, 48, 8)),
        list_item(
            "Personal details",
            f"{profile['email']} · {profile['phone']}",
            icon="person",
            rid="personal_details",
        ),
        list_item(
            "Currency",
            f"{name} ({symbol.strip()})",
            icon="settings",
            rid="currency",
            on_tap=lambda: ctx.ui.update(dialog="currency"),
        ),
        list_item("Language", "English (US)", icon="settings", rid="language"),
        list_item("Notifications", "Deals, trip reminders", icon="bell", rid="notifications"),
        divider(),
        text("Help and support", size=40, bold=True, fg=INK, pad=(48, 32, 48, 8)),
        list_item("Contact Customer Service", "Available 24/7", icon="person", rid="customer_service"),
        list_item(
            "Sign out",
            "",
            icon="back",
            rid="sign_out",
            on_tap=lambda: ctx.toast("You can't sign out of the virtual phone"),
        ),
    ]
    screen = column(
        top, scroll_page("profile", *items, rid="profile_scroll"), nav(ctx, "profile"), bg="#ffffff"
    )
    return overlay(screen, currency_dialog(ctx) if ctx.ui.get("dialog") == "currency" else None)


def currency_dialog(ctx: AppContext) -> Node:
    current = ctx.state.get("currency", "USD")

    def pick(code: str) -> Callable[[], None]:
        def choose() -> None:
            ctx.state["currency"] = code
            ctx.ui.pop("dialog", None)

        return choose

    options = [
        radio(f"{name} ({symbol.strip()})", code == current, pick(code), rid="currency_option")
        for code, (name, symbol, _) in cat.CURRENCIES.items()
    ]
    return modal("Currency", options, [], lambda: ctx.ui.pop("dialog", None))
