"""Saving properties to wish lists: the heart on every property, the "Save to a list" sheet it opens and
the "Create a list" dialog (also reached from the Saved tab)."""

from __future__ import annotations

from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    bottom_sheet,
    button,
    column,
    dialog,
    divider,
    icon_button,
    image,
    text,
    text_field,
)
from . import catalog as cat
from .common import glyph, media, plural

SHADE = "#00000044"  # a translucent disc that keeps a white heart visible on any photo


def saved_lists(state: dict[str, Any], hotel_id: int) -> list[str]:
    return [s["list"] for s in state["saved"] if s["hotel_id"] == hotel_id]


def saved_in(state: dict[str, Any], name: str) -> int:
    """How many properties list `name` holds."""
    return sum(s["list"] == name for s in state["saved"])


def list_picture(state: dict[str, Any], name: str) -> str:
    """A list shows its first property's photo, as the app does; an empty list a generic one."""
    first = next((s["hotel_id"] for s in state["saved"] if s["list"] == name), None)
    return f"hotel:{first}" if first is not None else f"photo:{name}"


def heart(ctx: AppContext, hotel: dict[str, Any], bg: str | None = SHADE) -> Node:
    """The heart on a property: saved ones are red and tapping removes them; others open "Save to a list"."""
    saved = bool(saved_lists(ctx.state, hotel["id"]))

    def tap() -> None:
        if saved:
            ctx.state["saved"] = [s for s in ctx.state["saved"] if s["hotel_id"] != hotel["id"]]
            ctx.toast("Removed from your saved lists")
        else:
            ctx.open("save", hotel_id=hotel["id"])

    t = theme()
    desc = f"Remove {hotel['name']} from saved" if saved else f"Save {hotel['name']}"
    node = icon_button(
        "heart", desc, tap, rid="wishlist_icon", fg=t.error if saved else t.on_primary, size=52, bg=bg
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
    pending = ctx.dialog_args.get("hotel_id")
    ctx.close()
    ctx.ui.pop("list_name", None)
    if pending is not None:
        save_to(ctx, pending, name)
    else:
        ctx.toast(f"Created {name}")


def save_sheet(ctx: AppContext) -> Node:
    hotel_id = ctx.dialog_args["hotel_id"]
    t = theme()

    def pick(name: str) -> None:
        save_to(ctx, hotel_id, name)
        ctx.close()

    def option(name: str) -> Node:
        count = plural(saved_in(ctx.state, name), "property")
        picture = image(list_picture(ctx.state, name), 120, 120, desc=name, radius=16)
        title = text(name, "subtitle", rid="wishlist_option_name")
        return media(picture, title, text(count, "caption"), on_tap=lambda: pick(name), rid="wishlist_option")

    plus = glyph("plus", 56, 120, fg=t.accent, bg=t.pale, radius=16)
    new = text("Create a list", "subtitle", fg=t.accent)
    create = media(plus, new, on_tap=ctx.opener("create_list", hotel_id=hotel_id), rid="create_list")
    return bottom_sheet(
        "Save to a list", [*map(option, ctx.state["wishlists"]), divider(), create], ctx.close
    )


def create_list_dialog(ctx: AppContext) -> Node:
    field = text_field(
        "list_name",
        "Name your list",
        "wishlist_create_edit_text",
        on_submit=lambda value: create_list(ctx, value),
    )
    accent = theme().accent
    return dialog(
        "Create a list",
        [column(field, pad=(60, 0, 60, 0))],
        [
            button("Cancel", ctx.close, rid="button_negative", primary=False, colour=accent),
            button(
                "Create",
                lambda: create_list(ctx, str(ctx.ui.get("list_name", ""))),
                rid="btn_wishlist_create_list",
                colour=accent,
            ),
        ],
        ctx.close,
    )
