"""A property: its page (photos, score, dates, policy, facilities, description, reviews) and its room
list, from which a room is reserved (reserve.py)."""

from __future__ import annotations

from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    app_bar,
    column,
    flow,
    icon_button,
    image,
    row,
    scroll_list,
    scroll_page,
    section_header,
    text,
)
from . import catalog as cat
from .common import (
    card,
    cta,
    footer,
    glyph,
    label_over,
    media,
    party_label,
    party_of,
    policy_text,
    price,
    priced,
    score_row,
    short_date,
    stars_row,
    stay_label,
)
from .saving import heart


def gallery(hotel: dict[str, Any]) -> list[str]:
    """The page's photos: the front (the same picture as in lists), its rooms, a breakfast or a dish when
    it serves food, and the city."""
    hid = hotel["id"]
    pictures = [f"hotel:{hid}", *(f"room:{hid}:{room['name']}" for room in hotel["rooms"])]
    if hotel["breakfast"] or "restaurant" in hotel["facilities"]:
        pictures.append(f"dish:{hid}")
    return [*pictures, f"city:{hotel['city']}"]


def description(hotel: dict[str, Any]) -> str:
    facilities = ", ".join(cat.FACILITIES[f][0].lower() for f in hotel["facilities"][:3]) or "a quiet stay"
    return (
        f"{hotel['name']} is a {hotel['type'].lower()} in {hotel['district']}, {hotel['distance']} km from the "
        f"centre of {hotel['city']}. Guests enjoy {facilities}"
        f"{' and breakfast is included' if hotel['breakfast'] else ''}."
    )


def facilities(hotel: dict[str, Any]) -> Node:
    labels = [cat.FACILITIES[f][0] for f in hotel["facilities"]] + ["Breakfast included"] * hotel["breakfast"]
    success = theme().success
    items = [
        row(glyph("check", 36, 44, fg=success), text(label, "body_small"), w=480, gap=12, rid="facility")
        for label in labels
    ]
    return flow(*items, gap=16, pad=(40, 8, 40, 8))


def review(r: dict[str, Any]) -> Node:
    return card(
        media(
            image(f"avatar:{r['author']}", 84, 84, desc=r["author"], radius=42),
            text(r["author"], "body_small", bold=True),
            text(r["country"], "caption"),
            gap=20,
            pad=0,
            line_gap=0,
        ),
        text(f"“{r['text']}”", "body_small"),
        pad=28,
        gap=16,
        rid="review_snippet",
    )


def build_hotel(ctx: AppContext) -> Node:
    args = ctx.args
    hotel = cat.catalog()[args["hotel_id"]]
    party = party_of(args)
    total = cat.offer(hotel, party, ctx.state["market"])
    t = theme()
    photos = [
        image(picture, 860, 560, desc=f"{hotel['name']} photo {i + 1} of {len(gallery(hotel))}", radius=20)
        for i, picture in enumerate(gallery(hotel))
    ]
    dates = card(
        row(
            label_over("Check-in", short_date(args["checkin"]), weight=1),
            label_over("Check-out", short_date(args["checkout"]), weight=1),
            label_over("Rooms and guests", party_label(party).rsplit(" ·", 1)[0], weight=1.4),
            gap=16,
        ),
        pad=28,
        rid="hotel_dates",
    )
    page = scroll_page(
        "hotel",
        scroll_list(
            "photos", photos, rid="hotel_photos", horizontal=True, gap=16, pad=(24, 24, 24, 8), h=600
        ),
        column(
            row(text(hotel["type"], "caption"), stars_row(hotel["stars"], 34), gap=16, valign="center"),
            text(hotel["name"], "headline", rid="hotel_name"),
            text(
                f"{hotel['street']}, {hotel['district']}, {hotel['city']}, {hotel['country']} · "
                f"{hotel['distance']} km from centre",
                "caption",
                rid="hotel_address",
                selectable=True,
            ),
            score_row(hotel),
            pad=(40, 16, 40, 16),
            gap=14,
        ),
        column(dates, pad=(32, 8, 32, 8)),
        policy_text(
            hotel["free_cancellation"],
            args["checkin"],
            "Non-refundable: you pay the full price if you cancel",
            pad=(40, 8, 40, 8),
            rid="free_cancellation" if hotel["free_cancellation"] else "non_refundable",
        ),
        section_header("Most popular facilities"),
        facilities(hotel),
        section_header("About this property"),
        text(description(hotel), "body_small", pad=(40, 0, 40, 8), rid="hotel_description"),
        section_header("Guests who stayed here loved"),
        column(*map(review, hotel["reviews"]), gap=20, pad=(32, 8, 32, 40)),
        rid="hotel_scroll",
        bg=t.background,
    )
    select = ctx.link("rooms", **args) if total is not None else None
    amount = price(ctx, total) if total is not None else "No rooms for your group"
    return column(
        app_bar(
            hotel["name"],
            ctx.back,
            heart(ctx, hotel, bg=None),
            icon_button("share", "Share", lambda: share(ctx, hotel), rid="share_button", fg=t.on_primary),
        ),
        page,
        footer(
            priced(
                f"Price for {stay_label(party)}",
                amount,
                "hotel_price",
                fg=t.error if total is None else t.ink,
            ),
            cta("Select rooms", select, rid="select_room_cta", enabled=total is not None),
        ),
        bg=t.surface,
    )


def share(ctx: AppContext, hotel: dict[str, Any]) -> None:
    url = f"https://www.booking.com/hotel/{hotel['cc']}/{hotel['slug']}.html"
    ctx.share(f"{hotel['name']} on Booking.com: {url}", subject=hotel["name"])


# -- rooms ----------------------------------------------------------------------------------------------


def build_rooms(ctx: AppContext) -> Node:
    args = ctx.args
    hotel = cat.catalog()[args["hotel_id"]]
    party = party_of(args)
    t = theme()

    def room_card(room: dict[str, Any]) -> Node:
        total = cat.room_price(hotel, room, party, ctx.state["market"])
        reserve = ctx.link("reserve", hotel_id=hotel["id"], hotel=hotel["name"], room=room["name"], **party)
        breakfast = "Breakfast included" if hotel["breakfast"] else "Breakfast available at the property"
        return card(
            media(
                image(f"room:{hotel['id']}:{room['name']}", 220, 220, desc=room["name"], radius=16),
                text(room["name"], "subtitle", rid="room_name"),
                text(room["beds"], "body_small"),
                text(f"Sleeps {room['sleeps']}", "caption", icon="person"),
                pad=0,
                gap=28,
                line_gap=8,
                valign="start",
            ),
            policy_text(hotel["free_cancellation"], args["checkin"]),
            text(breakfast, "positive", bold=False) if hotel["breakfast"] else text(breakfast, "caption"),
            row(
                priced(f"Price for {stay_label(party)}", price(ctx, total), "room_price"),
                cta("Reserve", reserve, rid="room_reserve_button", desc=f"Reserve {room['name']}"),
                valign="center",
            ),
            gap=14,
            rid="room_card",
        )

    cards = [room_card(room) for room in cat.fitting_rooms(hotel, party)] or [
        text("No rooms fit your group at this property.", fg=t.muted, pad=60, rid="no_rooms")
    ]
    summary = (
        f"{hotel['name']} · {short_date(args['checkin'])} - {short_date(args['checkout'])} · "
        f"{party_label(party).rsplit(' ·', 1)[0]}"
    )
    return column(
        app_bar("Select rooms", ctx.back),
        text(summary, "body_small", pad=(40, 24, 40, 24), bg=t.pale, rid="rooms_summary"),
        scroll_list("rooms", cards, rid="room_list", gap=24, pad=(32, 24, 32, 24), bg=t.background),
        bg=t.surface,
    )
