"""Maps' You tab: saved lists (and new ones), Home and Work labels, and Settings (distance units, route
options to avoid tolls, highways or ferries)."""

from __future__ import annotations

from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import IMAGE, Node
from ...widgets import (
    app_bar,
    button,
    column,
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
from .common import OWNER, avatar, nav, open_place, picture

LIST_ICONS = {
    "Favorites": "heart",
    "Want to go": "bookmark",
    "Travel plans": "calendar",
    "Starred places": "star",
}
UNITS = {"automatic": "Automatic", "kilometers": "Kilometers", "miles": "Miles"}


def _places(n: int) -> str:
    return f"{n} place{'s' if n != 1 else ''}"


def you(ctx: AppContext) -> Node:
    lists = [
        list_item(
            lst["name"],
            f"Private · {_places(len(lst['places']))}",
            on_tap=ctx.link("saved_list", list=lst["name"]),
            icon=LIST_ICONS.get(lst["name"], "apps"),
            rid="saved_list",
        )
        for lst in ctx.state["lists"]
    ]
    new = button("New list", ctx.link("new_list"), rid="new_list_button", primary=False, icon="plus")
    return column(
        row(
            text("You", "headline", weight=1),
            avatar(OWNER, 90, ctx.link("settings"), rid="account_button", desc="Account and settings"),
            h=168,
            pad=(40, 0, 40, 0),
            valign="center",
        ),
        scroll_page(
            "you",
            section_header("Your lists"),
            *lists,
            row(new, pad=(40, 10, 40, 20)),
            divider(),
            section_header("Labeled"),
            *[_label_row(ctx, key) for key in model.LABELS],
            divider(),
            list_item(
                "Settings",
                "Distance units, navigation, Home & Work",
                on_tap=ctx.link("settings"),
                icon="settings",
                rid="settings_entry",
            ),
            rid="you_page",
        ),
        nav(ctx, "you"),
        bg=theme().surface,
    )


def _label_row(ctx: AppContext, key: str) -> Node:
    point = ctx.state[key]
    label = model.LABELS[key]
    t = theme()
    return row(
        Node(
            IMAGE,
            icon="home" if key == "home" else "apps",
            fg=t.primary,
            size=56,
            w=100,
            h=100,
            align="center",
        ),
        column(
            text(label, "body", rid="title"),
            text(point["address"] if point else "Set once and go", "caption", rid="summary", max_lines=2),
            weight=1,
            gap=4,
        ),
        icon_button(
            "more", f"Edit {label}", ctx.link("set_label", label=key), rid=f"edit_{key}", fg=t.muted, size=48
        ),
        on_tap=open_place(ctx, f"label:{key}") if point else ctx.link("set_label", label=key),
        desc=label,
        rid=f"label_{key}",
        pad=(40, 20, 24, 20),
        gap=24,
        valign="center",
    )


def saved_list(ctx: AppContext) -> Node:
    lst = next(
        (x for x in ctx.state["lists"] if x["name"] == ctx.args["list"]),
        {"name": ctx.args["list"], "places": []},
    )
    rows = [
        list_item(
            p["name"],
            p.get("address", p["city"]),
            on_tap=open_place(ctx, p["id"]),
            image=picture(p),
            rid="saved_place",
            desc=p["name"],
        )
        for p in lst["places"]
    ]
    empty = text("No places saved yet.", "body", fg=theme().muted, pad=60, weight=1)
    return column(
        app_bar(lst["name"], ctx.back),
        text(f"Private · {len(lst['places'])} places", "caption", pad=(40, 0, 40, 16), rid="list_count"),
        scroll_list("list", rows, rid="saved_places") if rows else empty,
        bg=theme().surface,
    )


def new_list(ctx: AppContext) -> Node:
    def save() -> None:
        name = str(ctx.ui.get("list_name", "")).strip()
        if not model.new_list(ctx.state, name):
            ctx.toast("Choose a new, non-empty name")
            return
        ctx.log("maps_new_list", name=name)
        ctx.replace("saved_list", list=name)

    return column(
        app_bar("New list", ctx.back, button("Save", save, rid="save_list_button", h=100)),
        text_field("list_name", "List name", "list_name_text", on_submit=lambda _: save()),
        text_field("list_description", "Description (optional)", "list_description_text"),
        bg=theme().surface,
    )


def settings(ctx: AppContext) -> Node:
    return column(
        app_bar("Settings", ctx.back),
        scroll_page(
            "settings",
            list_item("Edit home or work", on_tap=ctx.link("labels"), icon="home", rid="edit_home_work"),
            list_item(
                "Distance units",
                UNITS[ctx.state["settings"]["distance_units"]],
                on_tap=ctx.opener("units"),
                icon="pin",
                rid="distance_units",
            ),
            list_item(
                "Navigation settings",
                "Route options, voice guidance",
                on_tap=ctx.link("nav_settings"),
                icon="play",
                rid="navigation_settings",
            ),
            list_item("Maps history", icon="calendar", rid="maps_history"),
            list_item("About, terms & privacy", icon="more", rid="about"),
        ),
        bg=theme().surface,
    )


def units(ctx: AppContext) -> Node:
    """The Distance units dialog of Settings."""

    def pick(value: str) -> None:
        ctx.state["settings"]["distance_units"] = value
        ctx.close()

    current = ctx.state["settings"]["distance_units"]
    options = [
        radio(label, current == value, lambda v=value: pick(v), rid="units_option")
        for value, label in UNITS.items()
    ]
    return dialog(
        "Distance units", options, [button("Cancel", ctx.close, primary=False)], ctx.close, rid="units_dialog"
    )


def nav_settings(ctx: AppContext) -> Node:
    prefs = ctx.state["settings"]
    switches = [
        switch(label, prefs[key], lambda key=key: prefs.update({key: not prefs[key]}), rid=f"{key}_switch")
        for key, label in (
            ("avoid_highways", "Avoid highways"),
            ("avoid_tolls", "Avoid tolls"),
            ("avoid_ferries", "Avoid ferries"),
        )
    ]
    return column(
        app_bar("Navigation settings", ctx.back),
        text("Route options", "link", pad=(48, 30, 48, 10)),
        *switches,
        bg=theme().surface,
    )


def labels(ctx: AppContext) -> Node:
    return column(
        app_bar("Edit home or work", ctx.back),
        *[_label_row(ctx, key) for key in model.LABELS],
        bg=theme().surface,
    )


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

    suggestions: list[dict[str, Any]] = []
    if typed.strip():
        found = model.resolve(ctx.state, typed)
        suggestions = [found] if found else []
        suggestions += [p for p in model.name_matches(ctx.state, typed) if p not in suggestions][:5]
    rows = [
        list_item(p["name"], p.get("address", ""), on_tap=lambda p=p: choose(p), icon="pin", rid="suggestion")
        for p in suggestions
    ]
    field = search_field(
        "label_address",
        f"Enter {label.lower()} address",
        lambda v: choose(model.resolve(ctx.state, v)),
        rid="label_address_text",
    )
    return column(
        app_bar(f"Set {label.lower()} address", ctx.back),
        row(field, pad=(24, 16, 24, 16)),
        scroll_list("suggestions", rows, rid="suggestions_list") if rows else None,
        bg=theme().surface,
    )
