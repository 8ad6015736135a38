"""Maps' You tab: saved lists (and new ones), Home and Work labels, and Settings (distance units, route
options to avoid tolls, highways or ferries)."""

from __future__ import annotations

from typing import Any

from ...app import AppContext, modal
from ...ui import EDIT, IMAGE, Node
from ...widgets import (
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
    switch,
    text,
)
from . import model
from .common import BLUE, GREY, INK, back_bar, go, nav, open_place, screen

LIST_ICONS = {
    "Favorites": "heart",
    "Want to go": "bookmark",
    "Travel plans": "calendar",
    "Starred places": "star",
}
UNITS = (("automatic", "Automatic"), ("kilometers", "Kilometers"), ("miles", "Miles"))


def you(ctx: AppContext) -> Node:
    state = ctx.state
    lists = [
        list_item(lst["name"], f"Private · {len(lst['places'])} place{'s' if len(lst['places']) != 1 else ''}",
                  on_tap=go(ctx, "saved_list", list=lst["name"]), icon=LIST_ICONS.get(lst["name"], "apps"), rid="saved_list")
        for lst in state["lists"]
    ]  # fmt: skip
    labels = [_label_row(ctx, key) for key in ("home", "work")]
    return column(
        row(text("You", size=56, fg=INK, weight=1),
            Node(IMAGE, image="user-Alex", desc="Account and settings", w=90, h=90, radius=45, on_tap=go(ctx, "settings"), rid="account_button"),
            h=168, pad=(40, 0, 40, 0), valign="center"),
        scroll_page(
            "you",
            text("Your lists", size=40, bold=True, fg=INK, pad=(40, 10, 40, 10)),
            *lists,
            row(button("New list", go(ctx, "new_list"), rid="new_list_button", primary=False, colour=BLUE, icon="plus"), pad=(40, 10, 40, 20)),
            divider(),
            text("Labeled", size=40, bold=True, fg=INK, pad=(40, 30, 40, 10)),
            *labels,
            divider(),
            list_item("Settings", "Distance units, navigation, Home & Work", on_tap=go(ctx, "settings"), icon="settings", rid="settings_entry"),
            rid="you_page",
        ),
        nav(ctx, "you"),
        bg="#ffffff",
    )  # fmt: skip


def _label_row(ctx: AppContext, key: str) -> Node:
    point = ctx.state[key]
    label = model.LABELS[key]
    tap = open_place(ctx, f"label:{key}") if point else go(ctx, "set_label", label=key)
    return row(
        Node(IMAGE, icon="home" if key == "home" else "apps", fg=BLUE, size=56, w=100, h=100, align="center"),
        column(text(label, size=42, fg=INK, rid="title"), text(point["address"] if point else "Set once and go", size=32, fg=GREY,
                                                               rid="summary", max_lines=2), weight=1, gap=4),
        icon_button("more", f"Edit {label}", go(ctx, "set_label", label=key), rid=f"edit_{key}", fg=GREY, size=48),
        on_tap=tap, desc=label, rid=f"label_{key}", pad=(40, 20, 24, 20), gap=24, valign="center",
    )  # fmt: skip


def saved_list(ctx: AppContext) -> Node:
    lst = next(
        (x for x in ctx.state["lists"] if x["name"] == ctx.args["list"]),
        {"name": ctx.args["list"], "places": []},
    )
    rows = [list_item(p["name"], p.get("address", p["city"]), on_tap=open_place(ctx, p["id"]), image=p["id"], rid="saved_place", desc=p["name"])
            for p in lst["places"]]  # fmt: skip
    return column(
        back_bar(ctx, lst["name"]),
        text(f"Private · {len(lst['places'])} places", size=32, fg=GREY, pad=(40, 0, 40, 16), rid="list_count"),
        scroll_list("list", rows, rid="saved_places") if rows else text("No places saved yet.", size=40, fg=GREY, pad=60, weight=1),
        bg="#ffffff",
    )  # fmt: skip


def new_list(ctx: AppContext) -> Node:
    def save() -> None:
        name = str(ctx.ui.get("list_name", "")).strip()
        if not model.new_list(ctx.state, name):
            ctx.toast("Choose a new, non-empty name")
            return
        ctx.log("maps_new_list", name=name)
        ctx.phone.pop_screen()
        ctx.phone.push_screen(screen(ctx, "saved_list", list=name))

    return column(
        back_bar(ctx, "New list", button("Save", save, rid="save_list_button", colour=BLUE, h=100)),
        Node(EDIT, field="list_name", hint="List name", rid="list_name_text", h=140, size=44, pad=(40, 0, 40, 0), on_submit=lambda v: save()),
        Node(EDIT, field="list_description", hint="Description (optional)", rid="list_description_text", h=140, size=40, pad=(40, 0, 40, 0)),
        bg="#ffffff",
    )  # fmt: skip


# -- settings -----------------------------------------------------------------------------------------


def settings(ctx: AppContext) -> Node:
    units = dict(UNITS)[ctx.state["settings"]["distance_units"]]
    body = column(
        back_bar(ctx, "Settings"),
        scroll_page(
            "settings",
            list_item("Edit home or work", on_tap=go(ctx, "labels"), icon="home", rid="edit_home_work"),
            list_item("Distance units", units, on_tap=lambda: ctx.ui.update(dialog="units"), icon="pin", rid="distance_units"),
            list_item("Navigation settings", "Route options, voice guidance", on_tap=go(ctx, "nav_settings"), icon="play",
                      rid="navigation_settings"),
            list_item("Maps history", icon="calendar", rid="maps_history"),
            list_item("About, terms & privacy", icon="more", rid="about"),
        ),
        bg="#ffffff",
    )  # fmt: skip
    if ctx.ui.get("dialog") != "units":
        return body

    def pick(value: str) -> None:
        ctx.state["settings"]["distance_units"] = value
        ctx.ui.pop("dialog", None)

    options = [
        radio(
            label,
            ctx.state["settings"]["distance_units"] == value,
            lambda v=value: pick(v),
            rid="units_option",
        )
        for value, label in UNITS
    ]
    layer = dialog("Distance units", options, [button("Cancel", lambda: ctx.ui.pop("dialog", None), primary=False)],
                   lambda: ctx.ui.pop("dialog", None), rid="units_dialog")  # fmt: skip
    return modal(body, layer)


def nav_settings(ctx: AppContext) -> Node:
    prefs = ctx.state["settings"]

    def flip(key: str) -> None:
        prefs[key] = not prefs[key]

    return column(
        back_bar(ctx, "Navigation settings"),
        text("Route options", size=36, bold=True, fg=BLUE, pad=(48, 30, 48, 10)),
        switch(
            "Avoid highways",
            prefs["avoid_highways"],
            lambda: flip("avoid_highways"),
            rid="avoid_highways_switch",
        ),
        switch("Avoid tolls", prefs["avoid_tolls"], lambda: flip("avoid_tolls"), rid="avoid_tolls_switch"),
        switch(
            "Avoid ferries", prefs["avoid_ferries"], lambda: flip("avoid_ferries"), rid="avoid_ferries_switch"
        ),
        bg="#ffffff",
    )


def labels(ctx: AppContext) -> Node:
    return column(
        back_bar(ctx, "Edit home or work"), *[_label_row(ctx, key) for key in ("home", "work")], bg="#ffffff"
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
        tokens = typed.lower().replace("'", "").split()
        suggestions += [p for p in ctx.state["places"].values() if all(t in p["name"].lower().replace("'", "") for t in tokens)
                        and p not in suggestions][:5]  # fmt: skip
    rows = [
        list_item(p["name"], p.get("address", ""), on_tap=lambda p=p: choose(p), icon="pin", rid="suggestion")
        for p in suggestions
    ]
    return column(
        back_bar(ctx, f"Set {label.lower()} address"),
        Node(EDIT, field="label_address", hint=f"Enter {label.lower()} address", rid="label_address_text", h=140, size=42,
             pad=(40, 0, 40, 0), bg="#f1f3f4", on_submit=lambda v: choose(model.resolve(ctx.state, v))),
        scroll_list("suggestions", rows, rid="suggestions_list") if rows else None,
        bg="#ffffff",
    )  # fmt: skip
