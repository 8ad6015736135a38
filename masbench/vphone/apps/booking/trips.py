"""The Bookings tab (Active, Past and Cancelled trips), one trip's details and cancelling it."""

from __future__ import annotations

from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    app_bar,
    column,
    dialog,
    divider,
    image,
    label_value,
    scroll_list,
    scroll_page,
    tabs,
    text,
)
from . import catalog as cat
from .common import (
    confirmation_number,
    cta,
    guests_label,
    media,
    nav,
    outline,
    party_of,
    policy_text,
    price,
    range_label,
    short_date,
    tile,
)

TRIP_TABS = ("Active", "Past", "Cancelled")
STATUS = {"Active": "Confirmed", "Past": "Completed", "Cancelled": "Cancelled"}
EMPTY = {
    "Active": "Where to next? You have no upcoming trips.",
    "Past": "You have no past trips yet.",
    "Cancelled": "You have no cancelled trips.",
}
BANNER = {
    "Active": "Your booking is confirmed",
    "Past": "Completed stay",
    "Cancelled": "This booking was cancelled",
}


def trip_kind(booking: dict[str, Any], today: str) -> str:
    if booking.get("status") == "cancelled":
        return "Cancelled"
    return "Active" if booking["checkout"] > today else "Past"


def kind_colour(kind: str) -> str:
    t = theme()
    return {"Active": t.success, "Past": t.muted, "Cancelled": t.error}[kind]


def build_bookings(ctx: AppContext) -> Node:
    today = ctx.now().date().isoformat()
    current = ctx.ui.get("tab", 0)
    kind = TRIP_TABS[current]
    trips = sorted(
        (b for b in ctx.state["bookings"] if trip_kind(b, today) == kind),
        key=lambda b: b["checkin"],
        reverse=kind != "Active",
    )
    t = theme()
    cards = [
        media(
            image(f"hotel:{b['hotel_id']}", 200, 200, desc=b["hotel"], radius=16),
            text(b["hotel"], "subtitle", rid="trip_hotel_name", max_lines=2),
            text(b["city"], "caption"),
            text(
                f"{range_label(b['checkin'], b['checkout'])}, {b['checkin'][:4]}",
                "body_small",
                rid="trip_dates",
            ),
            text(STATUS[kind], "positive", fg=kind_colour(kind), rid="trip_status"),
            on_tap=ctx.link("trip", number=b["number"]),
            rid="trip_card",
            **tile(valign="start"),
        )
        for b in trips
    ] or [text(EMPTY[kind], fg=t.muted, pad=60, rid="trips_empty")]
    return column(
        app_bar("Bookings"),
        tabs(TRIP_TABS, current, lambda i: ctx.ui.update(tab=i), colour=t.accent, rid="trips_tabs"),
        scroll_list("trips", cards, rid="trips_list", gap=20, pad=(32, 24, 32, 24), bg=t.background),
        nav(ctx, "bookings"),
        bg=t.surface,
    )


def booking_of(ctx: AppContext) -> dict[str, Any]:
    return next(b for b in ctx.state["bookings"] if b["number"] == ctx.args["number"])


def build_trip(ctx: AppContext) -> Node:
    booking = booking_of(ctx)
    kind = trip_kind(booking, ctx.now().date().isoformat())
    t = theme()
    lines = [
        ("Check-in", short_date(booking["checkin"]), "trip_checkin"),
        ("Check-out", short_date(booking["checkout"]), "trip_checkout"),
        ("Guests", guests_label(booking), ""),
        ("Room", booking.get("room", ""), ""),
        ("Guest name", f"{booking.get('first_name', '')} {booking.get('last_name', '')}".strip(), ""),
        ("Total price", price(ctx, booking["total"]), ""),
        ("Confirmation number", confirmation_number(booking["number"]), "trip_confirmation_number"),
        ("PIN code", booking.get("pin", ""), ""),
    ]
    party = party_of({"rooms": 1, "children": 0, **booking})  # trips typed in by hand may leave these out
    view_property = ctx.link(
        "hotel", hotel_id=booking["hotel_id"], hotel=booking["hotel"], city=booking["city"], **party
    )
    return column(
        app_bar(booking["hotel"], ctx.back),
        scroll_page(
            "trip",
            text(
                BANNER[kind],
                "body",
                bold=True,
                fg=t.on_primary,
                bg=kind_colour(kind),
                pad=(40, 28, 40, 28),
                rid="trip_status",
            ),
            image(f"hotel:{booking['hotel_id']}", 1080, 420, desc=booking["hotel"]),
            column(
                text(booking["hotel"], "title", rid="trip_hotel_name", pad=(40, 0, 40, 0)),
                text(booking["city"], "caption", pad=(40, 0, 40, 0)),
                divider(),
                *[label_value(label, value, rid=rid, bold_value=True) for label, value, rid in lines],
                policy_text(
                    booking.get("free_cancellation", False),
                    booking["checkin"],
                    "Non-refundable: cancelling costs the full price",
                    pad=(40, 16, 40, 0),
                ),
                pad=(0, 40, 0, 40),
                gap=4,
                bg=t.surface,
            ),
            column(
                outline("Cancel booking", ctx.opener("cancel"), rid="cancel_booking_button", fg=t.error)
                if kind == "Active"
                else None,
                cta("View property", view_property, rid="view_property_button")
                if booking["hotel_id"] in cat.catalog()
                else None,
                pad=40,
                gap=24,
            ),
            rid="trip_scroll",
            bg=t.background,
        ),
        bg=t.surface,
    )


def cancel_dialog(ctx: AppContext) -> Node:
    booking = booking_of(ctx)

    def cancel() -> None:
        booking["status"] = "cancelled"
        booking["cancelled_at"] = ctx.now().isoformat(timespec="seconds")
        ctx.close()
        ctx.log("booking_cancelled", number=booking["number"])
        ctx.toast("Your booking has been cancelled")

    cost = (
        "Cancellation is free."
        if booking.get("free_cancellation")
        else f"This booking is non-refundable: you will be charged {price(ctx, booking['total'])}."
    )
    stay = f"{short_date(booking['checkin'])} to {short_date(booking['checkout'])}"
    body = text(
        f"Your stay at {booking['hotel']} from {stay} will be cancelled. {cost}",
        "body_small",
        pad=(60, 0, 60, 0),
    )
    keep = outline("Keep booking", ctx.close, rid="button_negative")
    return dialog(
        "Cancel your booking?",
        [body],
        [keep, cta("Yes, cancel", cancel, rid="confirm_cancel_button")],
        ctx.close,
    )
