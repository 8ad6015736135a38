"""Maps' You tab: saved lists (and new ones), Home and Work labels, and Settings (distance units, route
options to avoid tolls, highways or ferries)."""

from __future__ import annotations

from functools import partial
from typing import Any

from ...app import AppContext
from ...ui import Node
from ...widgets import (
    app_bar,
    button,
    dialog,
    divider,
    icon_button,
    list_item,
    radio,
    row,
    scroll_list,
    scroll_page,
    search_field,
    section_header,
    switch,
    text,
    text_field,
)
from . import model
from .common import OWNER, avatar, nav, open_place, page, picture, tab_title
from .directions import AVOID

LIST_ICONS = {
    "Favorites": "heart",
    "Want to go": "bookmark",
    "Travel plans": "calendar",
    "Starred places": "star",
}
UNITS = {"automatic": "Automatic", "kilometers": "Kilometers", "miles": "Miles"}


def you(ctx: AppContext) -> Node:
    def saved(lst: dict[str, Any]) -> Node:
        n = len(lst["places"])
        summary = f"Private · {n} place{'s' if n != 1 else ''}"
        icon = LIST_ICONS.get(lst["name"], "apps")
        return list_item(
            lst["name"], summary, ctx.link("saved_list", list=lst["name"]), icon, rid="saved_list"
        )

    account = avatar(OWNER, 90, ctx.link("settings"), rid="account_button", desc="Account and settings")
    new = button("New list", ctx.link("new_list"), rid="new_list_button", primary=False, icon="plus")
    settings = "Distance units, navigation, Home & Work"
    return page(
        tab_title("You", account),
        scroll_page(
            "you",
            section_header("Your lists"),
            *map(saved, ctx.state["lists"]),
            row(new, pad=(40, 10, 40, 20)),
            divider(),
            section_header("Labeled"),
            *[_label_row(ctx, key) for key in model.LABELS],
            divider(),
            list_item("Settings", settings, ctx.link("settings"), "settings", rid="settings_entry"),
            rid="you_page",
        ),
        nav(ctx, "you"),
    )


def _label_row(ctx: AppContext, key: str) -> Node:
    point, label = ctx.state[key], model.LABELS[key]
    edit = ctx.link("set_label", label=key)
    more = icon_button("more", f"Edit {label}", edit, rid=f"edit_{key}", size=48)
    address = point["address"] if point else "Set once and go"
    tap = open_place(ctx, f"label:{key}") if point else edit
    icon = "home" if key == "home" else "apps"
    return list_item(label, address, tap, icon, rid=f"label_{key}", trailing=more, desc=label)


def saved_list(ctx: AppContext) -> Node:
    name = ctx.args["list"]
    places: list[dict[str, Any]] = next((x["places"] for x in ctx.state["lists"] if x["name"] == name), [])
    rows = [
        list_item(
            p["name"],
            p.get("address", p["city"]),
            open_place(ctx, p["id"]),
            image=picture(p),
            rid="saved_place",
            desc=p["name"],
        )
        for p in places
    ]
    empty = text("No places saved yet.", "caption", pad=60, weight=1)
    return page(
        app_bar(name, ctx.back),
        text(f"Private · {len(places)} places", "caption", pad=(40, 0, 40, 16), rid="list_count"),
        scroll_list("list", rows, rid="saved_places") if rows else empty,
    )


def new_list(ctx: AppContext) -> Node:
    def save() -> None:
        name = str(ctx.ui.get("list_name", "")).strip()
        if not model.new_list(ctx.state, name):
            ctx.toast("Choose a new, non-empty name")
            return
        ctx.log("maps_new_list", name=name)
        ctx.replace("saved_list", list=name)

    return page(
        app_bar("New list", ctx.back, button("Save", save, rid="save_list_button", h=100)),
        text_field("list_name", "List name", "list_name_text", on_submit=lambda _: save()),
        text_field("list_description", "Description (optional)", "list_description_text"),
    )


def settings(ctx: AppContext) -> Node:
    units = UNITS[ctx.state["settings"]["distance_units"]]
    return page(
        app_bar("Settings", ctx.back),
        scroll_page(
            "settings",
            list_item("Edit home or work", "", ctx.link("labels"), "home", rid="edit_home_work"),
            list_item("Distance units", units, ctx.opener("units"), "pin", rid="distance_units"),
            list_item(
                "Navigation settings",
                "Route options, voice guidance",
                ctx.link("nav_settings"),
                "play",
                rid="navigation_settings",
            ),
            list_item("Maps history", icon="calendar", rid="maps_history"),
            list_item("About, terms & privacy", icon="more", rid="about"),
        ),
    )


def units(ctx: AppContext) -> Node:
    """The Distance units dialog of Settings."""

    def pick(value: str) -> None:
        ctx.state["settings"]["distance_units"] = value
        ctx.close()

    current = ctx.state["settings"]["distance_units"]
    options = [radio(label, current == v, partial(pick, v), rid="units_option") for v, label in UNITS.items()]
    cancel = button("Cancel", ctx.close, primary=False)
    return dialog("Distance units", options, [cancel], ctx.close, rid="units_dialog")


def nav_settings(ctx: AppContext) -> Node:
    prefs = ctx.state["settings"]

    def flip(key: str) -> None:
        prefs[key] = not prefs[key]

    switches = [
        switch(label, prefs[key], partial(flip, key), rid=f"{key}_switch") for key, label in AVOID.items()
    ]
    return page(
        app_bar("Navigation settings", ctx.back),
        text("Route options", "link", pad=(48, 30, 48, 10)),
        *switches,
    )


def labels(ctx: AppContext) -> Node:
    return page(app_bar("Edit home or work", ctx.back), *[_label_row(ctx, key) for key in model.LABELS])


def set_label(ctx: AppContext) -> Node:
    key = ctx.args["label"]
    label = model.LABELS[key]
    typed = str(ctx.ui.get("label_address", ""))

    def choose(p: dict[str, Any] | None) -> None:
        if p is None:
            ctx.toast(f"Couldn't find “{typed.strip()}”")
            return
        model.set_label(ctx.state, key, p)
        ctx.log("maps_label", label=key, address=p.get("address", p["name"]))
        ctx.back()
        ctx.toast(f"{label} address saved")

    found = model.resolve(ctx.state, typed) if typed.strip() else None
    named = model.name_matches(ctx.state, typed) if typed.strip() else []
    suggestions = ([found] if found else []) + [p for p in named if p is not found][:5]
    rows = [
        list_item(p["name"], p.get("address", ""), partial(choose, p), "pin", rid="suggestion")
        for p in suggestions
    ]
    hint = f"Enter {label.lower()} address"
    field = search_field(
        "label_address", hint, lambda v: choose(model.resolve(ctx.state, v)), rid="label_address_text"
    )
    return page(
        app_bar(f"Set {label.lower()} address", ctx.back),
        row(field, pad=(24, 16, 24, 16)),
        scroll_list("suggestions", rows, rid="suggestions_list") if rows else None,
    )
