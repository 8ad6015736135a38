"""Maps' Explore and Contribute tabs: the full-screen map under a floating search bar, category chips and
the Explore sheet, the account menu, and the places to review."""

from __future__ import annotations

from typing import Any

from ... import keyboard
from ...app import AppContext
from ...display import HEIGHT, NAV_BAR_H, STATUS_BAR_H, WIDTH
from ...theme import theme
from ...ui import FRAME, VIEWGROUP, Node, measure_height
from ...widgets import (
    button,
    chip,
    chips,
    column,
    dialog,
    image,
    list_item,
    row,
    scroll_list,
    scroll_page,
    spacer,
    text,
)
from .common import OWNER, map_of, nav, open_place, page, picture, run_search, search_bar, tab_title
from .mapview import fit

CHIPS = ("Restaurants", "Gas", "Coffee", "Hotels", "Groceries", "Parks", "Museums", "Pharmacies")
GENERIC = {"Restaurant", "Coffee shop", "Gas station", "Hotel", "Grocery store", "Pharmacy", "Bar"}


def _window_height(ctx: AppContext) -> int:
    """The app window's height: the screen less the system bars and, while typing, the keyboard."""
    return HEIGHT - STATUS_BAR_H - NAV_BAR_H - (keyboard.HEIGHT if ctx.ui.get("focus") else 0)


def landmarks(ctx: AppContext, city: str) -> list[dict[str, Any]]:
    """The city's sights (not shops)."""
    return [p for p in ctx.state["places"].values() if p["city"] == city and p["category"] not in GENERIC]


def map_home(ctx: AppContext) -> Node:
    state = ctx.state
    city = state["map"]["city"]
    sights = sorted(landmarks(ctx, city), key=lambda p: -p["rating"])
    layer = state["map"].get("layer", "none")

    def hide_layer() -> None:
        state["map"]["layer"] = "none"

    no_layer = chip(f"{layer.title()} layer", True, hide_layer, rid="layer_chip")
    chip_row = [(label, False, lambda label=label: run_search(ctx, f"{label} in {city}")) for label in CHIPS]
    top = column(
        column(search_bar(ctx), pad=(32, 24, 32, 0)),
        chips(chip_row, scroll_key="chips", rid="category_chip"),
        row(spacer(weight=1), no_layer, pad=(0, 0, 32, 0)) if layer != "none" else None,
    )
    cards = [_card(ctx, p) for p in sights[:6]]
    grip = Node(VIEWGROUP, w=110, h=12, radius=6, bg=theme().divider)
    handle = row(spacer(weight=1), grip, spacer(weight=1))
    sheet = column(
        handle,
        text(f"Explore {city}", "heading", pad=(40, 16, 40, 16), rid="sheet_title"),
        scroll_list("explore", cards, rid="explore_list", horizontal=True, gap=24, pad=(40, 0, 40, 24)),
        bg=theme().surface,
        radius=40,
        pad=(0, 20, 0, 0),
    )
    bottom = column(sheet, nav(ctx, "map"))
    clear = measure_height(top, WIDTH), measure_height(bottom, WIDTH)  # the map shows between the bars
    view = fit([(p["x"], p["y"]) for p in sights], WIDTH, _window_height(ctx), *clear)
    bars = column(top, Node(VIEWGROUP, weight=1), bottom, weight=1)
    layers = [map_of(ctx, view, city, sights), bars]
    return Node(FRAME, layout="stack", valign="start", children=layers, rid="map_home")


def _card(ctx: AppContext, p: dict[str, Any]) -> Node:
    """A sight in the Explore sheet: its picture, name, rating and kind."""
    photo = image(picture(p), 360, 220, desc=p["name"], radius=20)
    about = text(f"{p['rating']:.1f} · {p['category']}", "caption", max_lines=1)
    card = {"desc": p["name"], "w": 360, "gap": 6, "rid": "explore_card"}
    return column(
        photo, text(p["name"], "label", max_lines=1), about, on_tap=open_place(ctx, p["id"]), **card
    )


def account(ctx: AppContext) -> Node:
    """The account menu the avatar in the search bar opens."""

    def open_settings() -> None:
        ctx.close()
        ctx.go("settings")

    items = [
        list_item(label, icon=icon, rid="account_item")
        for label, icon in (
            ("Your profile", "person"),
            ("Location sharing", "share"),
            ("Offline maps", "check"),
        )
    ]
    items += [
        list_item("Settings", on_tap=open_settings, icon="settings", rid="settings_entry"),
        list_item("Help & feedback", icon="more", rid="account_item"),
    ]
    return dialog(OWNER, items, [button("Close", ctx.close, primary=False)], ctx.close, rid="account_menu")


def contribute(ctx: AppContext) -> Node:
    spots = landmarks(ctx, ctx.state["map"]["city"])[:6]
    review = [ctx.link("review", place_id=p["id"], rating=0) for p in spots]
    rows = [
        list_item(p["name"], "Rate and review", tap, image=picture(p), rid="contribute_place")
        for p, tap in zip(spots, review, strict=True)
    ]
    intro = text("Share your experiences from places you visited", "caption", pad=(40, 0, 40, 20))
    return page(tab_title("Contribute"), scroll_page("contribute", intro, *rows), nav(ctx, "contribute"))
