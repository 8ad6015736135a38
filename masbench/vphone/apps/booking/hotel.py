"""A property and the booking process: the property page, its room list, the guest-details form and the
confirmation. Completing a booking appends it to the app state's `bookings`, which task checks read."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from ...app import AppContext
from ...intents import Intent
from ...ui import EDIT, IMAGE, Node
from ...widgets import column, icon_button, overlay, row, scroll_list, scroll_page, spacer, text
from . import catalog as cat
from .common import (
    BLUE,
    BOOKING,
    CONFIRMATION,
    GREEN,
    GREY,
    INK,
    PALE,
    RED,
    ROOMS,
    TRIP,
    day,
    header,
    heart,
    party_label,
    party_of,
    pop_to,
    price,
    primary,
    save_layer,
    score_row,
    secondary,
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


def free_until(checkin: str) -> str:
    """Free cancellation lasts until two days before check-in."""
    return short_date((day(checkin) - timedelta(days=2)).isoformat())


def _facility_chips(hotel: dict[str, Any]) -> Node:
    labels = [cat.FACILITIES[f][0] for f in hotel["facilities"]]
    if hotel["breakfast"]:
        labels.append("Breakfast included")
    rows = []
    for i in range(0, len(labels), 2):
        pair = [
            row(
                Node(IMAGE, icon="check", size=36, fg=GREEN, w=44, h=44),
                text(label, size=34, fg=INK, max_lines=1),
                weight=1,
                gap=12,
                valign="center",
                rid="facility",
            )
            for label in labels[i : i + 2]
        ]
        rows.append(row(*pair, spacer(weight=1) if len(pair) == 1 else None, pad=(40, 8, 40, 8)))
    return column(*rows)


def build_hotel(ctx: AppContext) -> Node:
    args = ctx.args
    hotel = cat.catalog()[args["hotel_id"]]
    party = party_of(args)
    total = cat.offer(hotel, party, ctx.state["market"])
    photos = [
        Node(
            IMAGE,
            image=f"hotel:{hotel['id']}:{i}",
            w=860,
            h=560,
            radius=20,
            desc=f"{hotel['name']} photo {i + 1} of 8",
        )
        for i in range(8)
    ]
    reviews = [
        column(
            row(
                Node(IMAGE, image=f"guest:{r['author']}", w=84, h=84, radius=42, desc=r["author"]),
                column(
                    text(r["author"], size=36, bold=True, fg=INK),
                    text(r["country"], size=30, fg=GREY),
                    weight=1,
                ),
                text(
                    f"{r['score']:.1f}",
                    size=34,
                    bold=True,
                    fg="#ffffff",
                    bg=BLUE,
                    radius=10,
                    w=90,
                    h=64,
                    align="center",
                ),
                gap=20,
                valign="center",
            ),
            text(f"“{r['text']}”", size=36, fg=INK),
            pad=28,
            gap=16,
            bg="#ffffff",
            radius=16,
            border="#e0e0e0",
            rid="review_snippet",
        )
        for r in hotel["reviews"]
    ]
    policy = (
        text(
            f"Free cancellation before {free_until(args['checkin'])}",
            size=36,
            fg=GREEN,
            bold=True,
            pad=(40, 8, 40, 8),
            rid="free_cancellation",
        )
        if hotel["free_cancellation"]
        else text(
            "Non-refundable: you pay the full price if you cancel",
            size=36,
            fg=INK,
            pad=(40, 8, 40, 8),
            rid="non_refundable",
        )
    )
    dates = row(
        column(
            text("Check-in", size=30, fg=GREY),
            text(short_date(args["checkin"]), size=38, bold=True, fg=INK),
            weight=1,
        ),
        column(
            text("Check-out", size=30, fg=GREY),
            text(short_date(args["checkout"]), size=38, bold=True, fg=INK),
            weight=1,
        ),
        column(
            text("Rooms and guests", size=30, fg=GREY),
            text(party_label(party).rsplit(" ·", 1)[0], size=38, bold=True, fg=INK),
            weight=1.4,
        ),
        pad=28,
        gap=16,
        bg="#ffffff",
        radius=16,
        border="#e0e0e0",
        rid="hotel_dates",
    )
    description = (
        f"{hotel['name']} is a {hotel['type'].lower()} in {hotel['district']}, {hotel['distance']} km from the centre "
        f"of {hotel['city']}. Guests enjoy {', '.join(cat.FACILITIES[f][0].lower() for f in hotel['facilities'][:3]) or 'a quiet stay'}"
        f"{' and breakfast is included' if hotel['breakfast'] else ''}."
    )
    page = scroll_page(
        "hotel",
        scroll_list(
            "photos", photos, rid="hotel_photos", horizontal=True, gap=16, pad=(24, 24, 24, 8), h=600
        ),
        column(
            row(
                text(hotel["type"], size=32, fg=GREY), stars_row(hotel["stars"], 34), gap=16, valign="center"
            ),
            text(hotel["name"], size=54, bold=True, fg=INK, rid="hotel_name"),
            text(
                f"{hotel['district']}, {hotel['city']}, {hotel['country']} · {hotel['distance']} km from centre",
                size=34,
                fg=GREY,
                rid="hotel_address",
            ),
            score_row(hotel),
            pad=(40, 16, 40, 16),
            gap=14,
        ),
        column(dates, pad=(32, 8, 32, 8)),
        policy,
        text("Most popular facilities", size=44, bold=True, fg=INK, pad=(40, 32, 40, 8)),
        _facility_chips(hotel),
        text("About this property", size=44, bold=True, fg=INK, pad=(40, 32, 40, 8)),
        text(description, size=36, fg=INK, pad=(40, 0, 40, 8), rid="hotel_description"),
        text("Guests who stayed here loved", size=44, bold=True, fg=INK, pad=(40, 32, 40, 8)),
        column(*reviews, gap=20, pad=(32, 8, 32, 40)),
        rid="hotel_scroll",
        bg=PALE,
    )
    footer = column(
        row(
            column(
                text(f"Price for {stay_label(party)}", size=30, fg=GREY),
                text(
                    price(ctx, total) if total is not None else "No rooms for your group",
                    size=46,
                    bold=True,
                    fg=INK if total is not None else RED,
                    rid="hotel_price",
                ),
                weight=1,
            ),
            primary(
                "Select rooms",
                (lambda: ctx.go("rooms", activity=ROOMS, **dict(args))) if total is not None else None,
                rid="select_room_cta",
                enabled=total is not None,
            ),
            valign="center",
            gap=24,
        ),
        pad=(40, 24, 40, 24),
        bg="#ffffff",
        border="#e0e0e0",
    )
    share = icon_button("share", "Share", lambda: _share(ctx, hotel), rid="share_button", fg="#ffffff")
    screen = column(
        header(ctx, hotel["name"], actions=[heart(ctx, hotel, bg=None), share]),
        page,
        footer,
        bg="#ffffff",
    )
    return overlay(screen, save_layer(ctx))


def _share(ctx: AppContext, hotel: dict[str, Any]) -> None:
    url = f"https://www.booking.com/hotel/{hotel['cc']}/{hotel['slug']}.html"
    ctx.phone.clipboard = url
    error = ctx.start_activity(
        Intent(
            "android.intent.action.SEND",
            mime_type="text/plain",
            extras={"android.intent.extra.TEXT": f"{hotel['name']} on Booking.com: {url}"},
        )
    )
    if error:
        ctx.toast("Link copied to clipboard")


# -- rooms ----------------------------------------------------------------------------------------------


def build_rooms(ctx: AppContext) -> Node:
    args = ctx.args
    hotel = cat.catalog()[args["hotel_id"]]
    party = party_of(args)
    market = ctx.state["market"]
    cards = []
    for room in cat.fitting_rooms(hotel, party):
        total = cat.room_price(hotel, room, party, market)
        reserve = primary(
            "Reserve",
            lambda room=room, total=total: ctx.go(
                "reserve",
                activity=BOOKING,
                hotel_id=hotel["id"],
                hotel=hotel["name"],
                room=room["name"],
                **party,
            ),
            rid="room_reserve_button",
            desc=f"Reserve {room['name']}",
        )
        cards.append(
            column(
                row(
                    Node(
                        IMAGE,
                        image=f"room:{hotel['id']}:{room['name']}",
                        w=220,
                        h=220,
                        radius=16,
                        desc=room["name"],
                    ),
                    column(
                        text(room["name"], size=42, bold=True, fg=INK, rid="room_name"),
                        text(room["beds"], size=34, fg=INK),
                        text(f"Sleeps {room['sleeps']}", size=32, fg=GREY, icon="person"),
                        weight=1,
                        gap=8,
                    ),
                    gap=28,
                ),
                text(
                    f"Free cancellation before {free_until(args['checkin'])}"
                    if hotel["free_cancellation"]
                    else "Non-refundable",
                    size=34,
                    fg=GREEN if hotel["free_cancellation"] else INK,
                    bold=True,
                ),
                text(
                    "Breakfast included" if hotel["breakfast"] else "Breakfast available at the property",
                    size=32,
                    fg=GREEN if hotel["breakfast"] else GREY,
                ),
                row(
                    column(
                        text(f"Price for {stay_label(party)}", size=30, fg=GREY),
                        text(price(ctx, total), size=48, bold=True, fg=INK, rid="room_price"),
                        weight=1,
                    ),
                    reserve,
                    valign="center",
                ),
                pad=32,
                gap=14,
                bg="#ffffff",
                radius=16,
                border="#e0e0e0",
                rid="room_card",
            )
        )
    if not cards:
        cards = [text("No rooms fit your group at this property.", size=40, fg=GREY, pad=60, rid="no_rooms")]
    return column(
        header(ctx, "Select rooms"),
        text(
            f"{hotel['name']} · {short_date(args['checkin'])} - {short_date(args['checkout'])} · "
            f"{party_label(party).rsplit(' ·', 1)[0]}",
            size=34,
            fg=INK,
            pad=(40, 24, 40, 24),
            bg="#ebf3ff",
            rid="rooms_summary",
        ),
        scroll_list("rooms", cards, rid="room_list", gap=24, pad=(32, 24, 32, 24), bg=PALE),
        bg="#ffffff",
    )


# -- guest details form -------------------------------------------------------------------------------


def build_reserve(ctx: AppContext) -> Node:
    args = ctx.args
    hotel = cat.catalog()[args["hotel_id"]]
    party = party_of(args)
    room = next(r for r in hotel["rooms"] if r["name"] == args["room"])
    total = cat.room_price(hotel, room, party, ctx.state["market"])
    profile = ctx.state["profile"]
    errors = ctx.ui.get("errors", {})
    fields: list[Node] = []
    for key, label, rid, pkey in FORM_FIELDS:
        fields.append(
            text(label, size=34, fg=INK, bold=True, rid="bui_input_container_label", pad=(0, 14, 0, 6))
        )
        fields.append(
            Node(
                EDIT,
                field=key,
                text=profile.get(pkey, ""),
                rid=rid,
                size=42,
                h=120,
                pad=(28, 0, 28, 0),
                border=RED if key in errors else "#868686",
                radius=12,
                bg="#ffffff",
            )
        )
        if key in errors:
            fields.append(text(errors[key], size=32, fg=RED, rid="bui_input_container_error"))
    summary = column(
        row(
            Node(IMAGE, image=f"hotel:{hotel['id']}", w=180, h=180, radius=16, desc=hotel["name"]),
            column(
                text(hotel["name"], size=42, bold=True, fg=INK, rid="bp_hotel_name"),
                stars_row(hotel["stars"]),
                text(f"{hotel['district']}, {hotel['city']}", size=32, fg=GREY),
                weight=1,
                gap=8,
            ),
            gap=24,
        ),
        row(
            column(
                text("Check-in", size=30, fg=GREY),
                text(short_date(args["checkin"]), size=36, bold=True, fg=INK),
                weight=1,
            ),
            column(
                text("Check-out", size=30, fg=GREY),
                text(short_date(args["checkout"]), size=36, bold=True, fg=INK),
                weight=1,
            ),
        ),
        text(f"{room['name']} · {stay_label(party)}", size=34, fg=INK, rid="bp_room"),
        text(
            f"Free cancellation before {free_until(args['checkin'])}"
            if hotel["free_cancellation"]
            else "Non-refundable",
            size=34,
            fg=GREEN if hotel["free_cancellation"] else INK,
            bold=True,
        ),
        pad=32,
        gap=16,
        bg="#ffffff",
        radius=16,
        border="#e0e0e0",
        rid="bp_summary",
    )
    strip = text(
        f"{hotel['name']} · {short_date(args['checkin'])} - {short_date(args['checkout'])}",
        size=34, fg=INK, bold=True, max_lines=1, pad=(40, 20, 40, 20), bg="#ebf3ff", rid="bp_strip",
    )  # fmt: skip
    form = scroll_page(
        "form",
        strip,
        column(
            text("Enter your details", size=46, bold=True, fg=INK),
            text("Almost done! Fields with * are required.", size=32, fg=GREY),
            *fields,
            text("Special requests (optional)", size=34, fg=INK, bold=True, pad=(0, 28, 0, 8)),
            Node(
                EDIT,
                field="requests",
                hint="e.g. a quiet room",
                rid="special_requests",
                size=40,
                h=130,
                pad=(28, 0, 28, 0),
                border="#868686",
                radius=12,
                bg="#ffffff",
            ),
            pad=(40, 16, 40, 40),
            gap=4,
            bg="#ffffff",
        ),
        column(summary, pad=(32, 24, 32, 32)),
        rid="bp_scroll",
        bg=PALE,
    )
    footer = row(
        column(
            text("Total", size=30, fg=GREY),
            text(price(ctx, total), size=46, bold=True, fg=INK, rid="bp_total"),
            weight=1,
        ),
        primary("Complete booking", lambda: complete(ctx, hotel, room, total), rid="action_button"),
        pad=(40, 24, 40, 24),
        valign="center",
        bg="#ffffff",
        border="#e0e0e0",
    )
    return column(header(ctx, "Fill in your info"), form, footer, bg="#ffffff")


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
    ctx.replace("confirmation", activity=CONFIRMATION, number=number)


def confirmation_number(number: str) -> str:
    return f"{number[:4]}.{number[4:7]}.{number[7:]}"


def build_confirmation(ctx: AppContext) -> Node:
    booking = next(b for b in ctx.state["bookings"] if b["number"] == ctx.args["number"])

    def line(label: str, value: str, rid: str = "") -> Node:
        return row(
            text(label, size=34, fg=GREY, weight=1),
            text(value, size=36, bold=True, fg=INK, rid=rid, align="end"),
            pad=(0, 10, 0, 10),
        )

    return column(
        row(
            text("Booking confirmed", size=50, bold=True, fg="#ffffff", pad=(40, 0, 0, 0)),
            h=168,
            bg=BLUE,
            valign="center",
            rid="toolbar",
        ),
        scroll_page(
            "confirmation",
            column(
                Node(
                    IMAGE,
                    icon="check",
                    size=120,
                    fg="#ffffff",
                    bg=GREEN,
                    radius=90,
                    w=180,
                    h=180,
                    align="center",
                ),
                text(
                    "Your booking is confirmed!",
                    size=52,
                    bold=True,
                    fg=INK,
                    align="center",
                    rid="confirmation_title",
                ),
                text(f"We sent your confirmation to {booking['email']}", size=36, fg=GREY, align="center"),
                pad=(40, 60, 40, 20),
                gap=24,
                align="center",
            ),
            column(
                column(
                    text(booking["hotel"], size=44, bold=True, fg=INK, rid="confirmation_hotel"),
                    line(
                        "Confirmation number", confirmation_number(booking["number"]), "confirmation_number"
                    ),
                    line("PIN code", booking["pin"], "confirmation_pin"),
                    line("Check-in", short_date(booking["checkin"])),
                    line("Check-out", short_date(booking["checkout"])),
                    line("Room", booking["room"]),
                    line("Guest", f"{booking['first_name']} {booking['last_name']}", "confirmation_guest"),
                    line("Total price", price(ctx, booking["total"])),
                    pad=40,
                    bg="#ffffff",
                    radius=16,
                    border="#e0e0e0",
                ),
                pad=(32, 0, 32, 0),
            ),
            column(
                primary(
                    "View booking",
                    lambda: ctx.replace("trip", activity=TRIP, number=booking["number"]),
                    rid="view_booking_button",
                ),
                secondary(
                    "Continue searching", lambda: pop_to(ctx, ("results", "search")), rid="continue_searching"
                ),
                pad=40,
                gap=24,
            ),
            rid="confirmation_scroll",
            bg=PALE,
        ),
        bg="#ffffff",
    )
