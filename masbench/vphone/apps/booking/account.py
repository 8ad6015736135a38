"""The user's side of the app: Saved (wish lists and one list's properties) and Profile (with the display
currency)."""

from __future__ import annotations

from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    app_bar,
    column,
    dialog,
    divider,
    icon_button,
    image,
    list_item,
    radio,
    row,
    scroll_list,
    scroll_page,
    section_header,
    text,
)
from . import catalog as cat
from .cards import property_card
from .common import media, nav, open_hotel, outline, plural, price, range_label, stay_label, tile
from .saving import list_picture, saved_in

# -- Saved -------------------------------------------------------------------------------------------


def build_saved(ctx: AppContext) -> Node:
    state = ctx.state
    t = theme()
    cards = [
        media(
            image(list_picture(state, name), 200, 200, desc=name, radius=16),
            text(name, "subtitle", rid="tv_wishlist_name"),
            text(
                f"{plural(saved_in(state, name), 'property')} saved",
                "body_small",
                fg=t.muted,
                rid="tv_wishlist_property",
            ),
            on_tap=ctx.link("wishlist", list=name),
            rid="wishlist_card",
            line_gap=8,
            **tile(gap=32),
        )
        for name in state["wishlists"]
    ]
    body = scroll_page(
        "saved",
        section_header("Your lists"),
        text("Tap the heart on any property to save it to a list.", "caption", pad=(40, 0, 40, 16)),
        column(*cards, gap=20, pad=(32, 8, 32, 8)),
        column(
            outline("Create a list", ctx.opener("create_list"), rid="create_list_button"),
            pad=(32, 24, 32, 40),
        ),
        rid="wishlist_scrollview",
        bg=t.background,
    )
    return column(app_bar("Saved"), body, nav(ctx, "saved"), bg=t.surface)


def build_wishlist(ctx: AppContext) -> Node:
    name = ctx.args["list"]
    form = ctx.state["form"]
    catalog = cat.catalog()
    members = [s for s in ctx.state["saved"] if s["list"] == name]
    t = theme()

    def remove(hotel_id: int) -> None:
        ctx.state["saved"] = [
            s for s in ctx.state["saved"] if not (s["hotel_id"] == hotel_id and s["list"] == name)
        ]
        ctx.toast(f"Removed from {name}")

    def entry(hotel: dict[str, Any]) -> Node:
        heart = icon_button(
            "heart",
            f"Remove {hotel['name']} from {name}",
            lambda: remove(hotel["id"]),
            rid="wishlist_icon",
            fg=t.error,
            size=52,
        )
        heart.selected = True
        total = cat.offer(hotel, form, ctx.state["market"])
        price_text = price(ctx, total) if total is not None else None
        return property_card(hotel, price_text, stay_label(form), open_hotel(ctx, hotel["id"], form), heart)

    # a list entry patched in by hand for a property the catalogue lacks is left out
    cards = [entry(catalog[s["hotel_id"]]) for s in members if s["hotel_id"] in catalog] or [
        column(
            text("Your list is empty", "heading", rid="tv_wishlist_empty_title"),
            text("Tap the heart on any property to save it here.", "body_small", fg=t.muted),
            pad=60,
            gap=16,
        )
    ]
    count = (
        f"{plural(len(members), 'property')} · prices for {range_label(form['checkin'], form['checkout'])}"
    )
    return column(
        app_bar(name, ctx.back),
        text(
            count,
            "body_small",
            fg=t.muted,
            pad=(40, 20, 40, 20),
            bg=t.background,
            rid="wishlist_properties_number",
        ),
        scroll_list("wishlist", cards, rid="wishlist_list", bg=t.background),
        bg=t.surface,
    )


# -- Profile --------------------------------------------------------------------------------------------


def build_profile(ctx: AppContext) -> Node:
    profile = ctx.state["profile"]
    name, symbol, _ = cat.CURRENCIES[ctx.state.get("currency", "USD")]
    t = theme()
    full_name = f"{profile['first_name']} {profile['last_name']}"
    top = row(
        image(f"avatar:{full_name}", 150, 150, desc="Profile picture", radius=75),
        column(
            text(f"Hi, {full_name}", "heading", fg=t.on_primary, rid="profile_name"),
            row(text("Genius Level 1", "body_small", fg=t.primary, bg=t.star, radius=12, pad=(16, 4, 16, 4))),
            weight=1,
            gap=12,
        ),
        bg=t.primary,
        pad=(40, 40, 40, 48),
        gap=32,
        valign="center",
    )
    items = [
        section_header("Manage account"),
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
            on_tap=ctx.opener("currency"),
        ),
        list_item("Language", "English (US)", icon="settings", rid="language"),
        list_item("Notifications", "Deals, trip reminders", icon="bell", rid="notifications"),
        divider(),
        section_header("Help and support"),
        list_item("Contact Customer Service", "Available 24/7", icon="person", rid="customer_service"),
        list_item(
            "Sign out",
            icon="back",
            rid="sign_out",
            on_tap=lambda: ctx.toast("You can't sign out of the virtual phone"),
        ),
    ]
    return column(
        top, scroll_page("profile", *items, rid="profile_scroll"), nav(ctx, "profile"), bg=t.surface
    )


def currency_dialog(ctx: AppContext) -> Node:
    current = ctx.state.get("currency", "USD")

    def pick(code: str) -> None:
        ctx.state["currency"] = code
        ctx.close()

    options = [
        radio(f"{name} ({symbol.strip()})", code == current, partial(pick, code), rid="currency_option")
        for code, (name, symbol, _) in cat.CURRENCIES.items()
    ]
    return dialog("Currency", options, [], ctx.close)
