"""The property card of results and wish lists: photo with heart, name, stars, score, location, perks and
the price for the stay."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ...theme import theme
from ...ui import FRAME, IMAGE, VIEWGROUP, Node, measure_height
from ...widgets import column, divider, row, text
from . import catalog as cat
from .common import score_row, stars_row

WIDTH = 1080  # the screen's, which cards fill


def property_card(
    hotel: dict[str, Any],
    price_text: str | None,
    stay: str,
    on_tap: Callable[[], None] | None,
    heart: Node,
    h: int | None = None,
) -> Node:
    """One card; `h` gives all cards of a lazy list the same height (the content stays on top)."""
    photo = Node(
        FRAME,
        layout="stack",
        w=300,
        valign="start",
        children=[
            Node(
                IMAGE,
                image=f"hotel:{hotel['id']}",
                weight=1,
                radius=16,
                desc=hotel["name"],
                rid="sr_property_card_image",
            ),
            column(heart, pad=8, align="end"),
        ],
    )
    if price_text is None:
        price_block = text("No rooms for your group", "negative", align="end")
    else:
        price_block = column(
            text(f"Price for {stay}", "caption", align="end"),
            text(price_text, "price", align="end", rid="price_view_price"),
            text("Includes taxes and charges", "overline", align="end"),
        )
    body = column(
        text(hotel["name"], "subtitle", max_lines=2, rid="sr_property_card_header_property_name"),
        stars_row(hotel["stars"]),
        score_row(hotel),
        text(
            f"{hotel['district']} · {hotel['distance']} km from centre",
            "caption",
            max_lines=2,
            rid="sr_property_card_location",
        ),
        text("Free cancellation", "positive", rid="free_cancellation")
        if hotel["free_cancellation"]
        else None,
        text("Breakfast included", "positive", bold=False, rid="breakfast_included")
        if hotel["breakfast"]
        else None,
        Node(VIEWGROUP, weight=1),  # the price sits at the bottom of a card taller than its content
        price_block,
        weight=1,
        gap=6,
    )
    return column(
        row(photo, body, gap=28, pad=(32, 24, 32, 24), valign="start", weight=1),
        divider(),
        on_tap=on_tap,
        rid="property_card",
        bg=theme().surface,
        h=h,
    )


@lru_cache(maxsize=4096)
def card_height(hotel_id: int, stay: str) -> int:
    """How tall a priced card is (it depends only on how its texts wrap): cached, so a lazy list can size
    its rows without building every card."""
    probe = property_card(cat.catalog()[hotel_id], "US$0", stay, None, Node(h=112))
    return measure_height(probe, WIDTH)
