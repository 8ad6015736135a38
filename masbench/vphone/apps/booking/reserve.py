"""The booking process: the guest-details form and the confirmation. Completing a booking appends it to
the app state's `bookings`, which task checks read."""

from __future__ import annotations

import re
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import EDIT, Node
from ...widgets import app_bar, column, image, label_value, row, scroll_page, text
from . import catalog as cat
from .common import (
    card,
    confirmation_number,
    cta,
    footer,
    glyph,
    label_over,
    media,
    outline,
    party_of,
    policy_text,
    pop_to,
    price,
    priced,
    short_date,
    stars_row,
    stay_label,
)

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
FORM_FIELDS = (  # ui key, label, resource id, profile key
    ("first_name", "First name *", "bstage1_contact_firstname_value", "first_name"),
    ("last_name", "Last name *", "bstage1_contact_lastname_value", "last_name"),
    ("email", "Email address *", "bstage1_contact_email_value", "email"),
    ("phone", "Mobile phone *", "bstage1_contact_telephone_value", "phone"),
)


def form_field(field: str, rid: str, value: str = "", hint: str = "", error: bool = False) -> Node:
    """A bordered text field of the form (red when its value was refused)."""
    t = theme()
    return Node(
        EDIT,
        field=field,
        text=value,
        hint=hint,
        rid=rid,
        size=t.style("body").size,
        h=120,
        pad=(28, 0, 28, 0),
        border=t.error if error else t.muted,
        radius=12,
        bg=t.surface,
    )


def build_reserve(ctx: AppContext) -> Node:
    args = ctx.args
    hotel = cat.catalog()[args["hotel_id"]]
    party = party_of(args)
    room = next(r for r in hotel["rooms"] if r["name"] == args["room"])
    total = cat.room_price(hotel, room, party, ctx.state["market"])
    profile = ctx.state["profile"]
    errors = ctx.ui.get("errors", {})
    t = theme()
    fields: list[Node | None] = []
    for key, label, rid, pkey in FORM_FIELDS:
        fields += [
            text(label, "body_small", bold=True, rid="bui_input_container_label", pad=(0, 14, 0, 6)),
            form_field(key, rid, profile.get(pkey, ""), error=key in errors),
            text(errors[key], "negative", bold=False, rid="bui_input_container_error")
            if key in errors
            else None,
        ]
    summary = card(
        media(
            image(f"hotel:{hotel['id']}", 180, 180, desc=hotel["name"], radius=16),
            text(hotel["name"], "subtitle", rid="bp_hotel_name"),
            stars_row(hotel["stars"]),
            text(f"{hotel['district']}, {hotel['city']}", "caption"),
            pad=0,
            gap=24,
            line_gap=8,
            valign="start",
        ),
        row(
            label_over("Check-in", short_date(args["checkin"]), weight=1),
            label_over("Check-out", short_date(args["checkout"]), weight=1),
        ),
        text(f"{room['name']} · {stay_label(party)}", "body_small", rid="bp_room"),
        policy_text(hotel["free_cancellation"], args["checkin"]),
        gap=16,
        rid="bp_summary",
    )
    strip = text(
        f"{hotel['name']} · {short_date(args['checkin'])} - {short_date(args['checkout'])}",
        "body_small",
        bold=True,
        max_lines=1,
        pad=(40, 20, 40, 20),
        bg=t.pale,
        rid="bp_strip",
    )
    details = column(
        text("Enter your details", "heading"),
        text("Almost done! Fields with * are required.", "caption"),
        *fields,
        text("Special requests (optional)", "body_small", bold=True, pad=(0, 28, 0, 8)),
        form_field("requests", "special_requests", hint="e.g. a quiet room"),
        pad=(40, 16, 40, 40),
        gap=4,
        bg=t.surface,
    )
    return column(
        app_bar("Fill in your info", ctx.back),
        scroll_page(
            "form", strip, details, column(summary, pad=(32, 24, 32, 32)), rid="bp_scroll", bg=t.background
        ),
        footer(
            priced("Total", price(ctx, total), "bp_total"),
            cta("Complete booking", lambda: complete(ctx, hotel, room, total), rid="action_button"),
        ),
        bg=t.surface,
    )


def complete(ctx: AppContext, hotel: dict[str, Any], room: dict[str, Any], total: int) -> None:
    """Validate the form; on success record the booking and show its confirmation."""
    profile = ctx.state["profile"]
    values = {
        key: " ".join(str(ctx.ui.get(key, profile.get(pkey, ""))).split()) for key, _, _, pkey in FORM_FIELDS
    }
    errors = {key: "This field is required" for key, value in values.items() if not value}
    if values["email"] and not EMAIL.match(values["email"]):
        errors["email"] = "Enter a valid email address"
    if errors:
        ctx.ui["errors"] = errors
        ctx.toast("Please check your details")
        return
    args = ctx.args
    number = str(ctx.state["next_number"])
    ctx.state["next_number"] += 7919
    booking = {
        "number": number,
        "pin": f"{int(number) * 7 % 10000:04d}",
        "hotel_id": hotel["id"],
        "hotel": hotel["name"],
        "city": hotel["city"],
        "room": room["name"],
        **party_of(args),
        "nights": cat.nights(args["checkin"], args["checkout"]),
        **values,
        "requests": " ".join(str(ctx.ui.get("requests", "")).split()),
        "total": total,
        "currency": ctx.state.get("currency", "USD"),
        "free_cancellation": hotel["free_cancellation"],
        "status": "confirmed",
        "booked_at": ctx.now().isoformat(timespec="seconds"),
    }
    ctx.state["bookings"].append(booking)
    ctx.log("booking", number=number, hotel=hotel["name"])
    ctx.replace("confirmation", number=number)


def build_confirmation(ctx: AppContext) -> Node:
    booking = next(b for b in ctx.state["bookings"] if b["number"] == ctx.args["number"])
    t = theme()
    lines = [
        ("Confirmation number", confirmation_number(booking["number"]), "confirmation_number"),
        ("PIN code", booking["pin"], "confirmation_pin"),
        ("Check-in", short_date(booking["checkin"]), ""),
        ("Check-out", short_date(booking["checkout"]), ""),
        ("Room", booking["room"], ""),
        ("Guest", f"{booking['first_name']} {booking['last_name']}", "confirmation_guest"),
        ("Total price", price(ctx, booking["total"]), ""),
    ]
    done = glyph("check", 120, 180, fg=t.on_primary, bg=t.success)
    return column(
        app_bar("Booking confirmed"),
        scroll_page(
            "confirmation",
            column(
                done,
                text("Your booking is confirmed!", "headline", align="center", rid="confirmation_title"),
                text(
                    f"We sent your confirmation to {booking['email']}",
                    "body_small",
                    fg=t.muted,
                    align="center",
                ),
                pad=(40, 60, 40, 20),
                gap=24,
                align="center",
            ),
            column(
                card(
                    text(booking["hotel"], "heading", rid="confirmation_hotel", pad=(40, 0, 40, 8)),
                    *[label_value(label, value, rid=rid, bold_value=True) for label, value, rid in lines],
                    pad=(0, 40, 0, 40),
                ),
                pad=(32, 0, 32, 0),
            ),
            column(
                cta(
                    "View booking",
                    lambda: ctx.replace("trip", number=booking["number"]),
                    rid="view_booking_button",
                ),
                outline(
                    "Continue searching", lambda: pop_to(ctx, ("results", "search")), rid="continue_searching"
                ),
                pad=40,
                gap=24,
            ),
            rid="confirmation_scroll",
            bg=t.background,
        ),
        bg=t.surface,
    )
