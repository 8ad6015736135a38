"""Maps' directions: start and destination fields with suggestions, the four travel modes, the route
options (avoid tolls, highways, ferries), the map of the trip with its route, and Start."""

from __future__ import annotations

from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import IMAGE, Node
from ...widgets import (
    button,
    checkbox,
    column,
    dialog,
    divider,
    icon_button,
    list_item,
    row,
    scroll_list,
    text,
)
from . import model
from .common import SELECTED, filled_field, map_of, page
from .content import CITIES
from .mapview import fit

AVOID = {"avoid_highways": "Avoid highways", "avoid_tolls": "Avoid tolls", "avoid_ferries": "Avoid ferries"}
Place = dict[str, Any]


def avoid(args: dict[str, Any]) -> dict[str, bool]:
    return {key: bool(args.get(key)) for key in AVOID}


def start(ctx: AppContext, origin: Place, dest: Place, mode: str, index: int, args: dict[str, Any]) -> bool:
    """Start navigation on route `index`; False (and a toast) when there is no route."""
    options = model.routes(origin, dest, mode, avoid(args), ctx.now())
    if not options:
        ctx.toast("No route found")
        return False
    route = options[min(index, len(options) - 1)]
    model.start_navigation(ctx.state, origin, dest, mode, route, avoid(args), ctx.now())
    ctx.log("maps_navigation", destination=dest["id"], mode=mode, route=route["name"])
    ctx.go("navigation")
    return True


def trip_map(ctx: AppContext, origin: Place | None, dest: Place, mode: str, h: int) -> Node | None:
    """The destination's city, fitted to both ends of the trip when they share it, with the route drawn."""
    if dest.get("city") not in CITIES:
        return None
    both = origin is not None and origin["city"] == dest["city"]
    view = fit([(p["x"], p["y"]) for p in ([origin, dest] if both else [dest]) if p], 1080, h, max_scale=120)
    return map_of(ctx, view, dest["city"], [dest], route=(origin, dest, mode) if origin and both else None)


def directions(ctx: AppContext) -> Node:
    args = ctx.args
    origin, dest = model.place(ctx.state, args["origin"]), model.place(ctx.state, args["destination"])

    def set_end(key: str, typed: str) -> None:
        found = model.resolve(ctx.state, typed, (dest or origin or {}).get("city"))
        ctx.ui.pop(f"{key}_text", None)
        if found is None:
            ctx.toast(f"Couldn't find “{typed.strip()}”")
        else:
            ctx.args.update({key: found["id"], "route": 0})

    def end_field(key: str, end: Place | None, hint: str, rid: str) -> Node:
        return filled_field(f"{key}_text", hint, rid, end["name"] if end else "", lambda v: set_end(key, v))

    swap = {"origin": args["destination"], "destination": args["origin"], "route": 0}
    header = row(
        icon_button("back", "Navigate up", ctx.back, rid="navigate_up"),
        column(
            end_field("origin", origin, "Choose start location", "directions_startpoint_textbox"),
            end_field("destination", dest, "Choose destination", "directions_endpoint_textbox"),
            weight=1,
            gap=16,
        ),
        icon_button("swap", "Swap start and destination", lambda: ctx.args.update(swap), rid="swap_button"),
        pad=(8, 20, 16, 10),
        gap=8,
    )
    avoided = ", ".join(label.removeprefix("Avoid ") for key, label in AVOID.items() if args.get(key))
    note = f"Avoiding {avoided}" if avoided else "Your location" if args["origin"] == "here" else ""
    options = button("Options", ctx.opener("route_options"), rid="route_options_button", primary=False, h=80)
    return page(
        header,
        row(*[_mode_tab(ctx, mode, origin, dest) for mode in model.MODES], pad=(24, 0, 24, 10), gap=10),
        row(text(note, "caption", weight=1), options, pad=(40, 0, 24, 10)),
        divider(),
        _content(ctx, origin, dest),
    )


def _content(ctx: AppContext, origin: Place | None, dest: Place | None) -> Node:
    """Below the fields: suggestions while one is typed, else the map and routes, else why there are none."""
    typing = ctx.ui.get("focus") if ctx.ui.get("focus") in ("origin_text", "destination_text") else None
    if typing and str(ctx.ui.get(typing, "")).strip():
        return _suggestions(ctx, typing.removesuffix("_text"), str(ctx.ui[typing]))
    mode = ctx.args["mode"]
    options = model.routes(origin, dest, mode, avoid(ctx.args), ctx.now()) if origin and dest else []
    if not (options and origin and dest):
        why = "No routes found" if origin and dest else "Choose a start and a destination"
        return text(why, "body", fg=theme().muted, pad=(60, 80, 60, 0), weight=1, rid="no_routes")
    chosen = min(ctx.args.get("route", 0), len(options) - 1)
    cards = [_route_card(ctx, r, i, i == chosen) for i, r in enumerate(options)]

    def go() -> None:
        start(ctx, origin, dest, mode, chosen, ctx.args)

    return column(
        trip_map(ctx, origin, dest, mode, 420),
        scroll_list("routes", cards, rid="routes_list", gap=2, bg=theme().divider),
        row(button("Start", go, rid="start_button", icon="play", weight=1), pad=(40, 20, 40, 20)),
        weight=1,
    )


def _suggestions(ctx: AppContext, key: str, typed: str) -> Node:
    """Places matching what is typed in a field: your location and labels first, then addresses and names."""
    low = typed.strip().lower()
    specials = [model.place(ctx.state, s) for s in ("here", "label:home", "label:work")]
    items = [p for p in specials if p is not None and low in p["name"].lower()]
    point = model.resolve(ctx.state, typed)
    items += [point] if point is not None and point not in items else []
    items += [p for p in model.name_matches(ctx.state, low) if p not in items][:6]

    def choose(p: Place) -> None:
        ctx.args.update({key: model.remember(ctx.state, p)["id"], "route": 0})
        ctx.ui.pop(f"{key}_text", None)
        ctx.ui.pop("focus", None)

    rows = [
        list_item(p["name"], p.get("address", p["city"]), partial(choose, p), icon="pin", rid="suggestion")
        for p in items[:7]
    ]
    empty = text("No suggestions", "body_small", fg=theme().muted, pad=60)
    return scroll_list("suggestions", rows or [empty], rid="suggestions_list")


def _mode_tab(ctx: AppContext, mode: str, origin: Place | None, dest: Place | None) -> Node:
    options = model.routes(origin, dest, mode, avoid(ctx.args), ctx.now()) if origin and dest else []
    best = min((r["minutes"] for r in options), default=None)
    on = ctx.args["mode"] == mode
    t = theme()
    label = model.MODE_LABELS[mode]
    time = model.duration_text(best) if best is not None else "-"
    look = {"weight": 1, "pad": (0, 14, 0, 14), "radius": 40, "bg": SELECTED if on else None}
    return column(
        text(label, "body_small", bold=on, fg=t.primary if on else t.ink, align="center"),
        text(time, "caption", fg=t.primary if on else t.muted, align="center"),
        on_tap=lambda: ctx.args.update(mode=mode, route=0),
        desc=label,
        selected=on,
        rid="mode_tab",
        **look,
    )


def _route_card(ctx: AppContext, r: dict[str, Any], index: int, selected: bool) -> Node:
    t = theme()
    if r["mode"] == "transit":
        times = f"{model.clock_text(r['depart'])} - {model.clock_text(r['arrive'])}"
        notes = {"route_times": times, "route_summary": r["summary"]}
    else:
        flags = [f for f, on in (("Tolls", r["toll"]), ("Highway", r["highway"])) if on]
        notes = {"route_summary": " · ".join([r["summary"], *flags]).strip(" ·") or "Alternate route"}
    duration = model.duration_text(r["minutes"])
    km = f"({model.distance_text(ctx.state, r['km'])})"
    head = row(
        text(duration, "price", fg=t.success if index == 0 else t.ink, rid="route_duration"),
        text(km, "body_small", fg=t.muted, rid="route_distance"),
        gap=16,
    )
    lines = [text(note, "caption", rid=rid) for rid, note in notes.items()]
    return row(
        column(head, text(r["name"], "body_small", rid="route_name"), *lines, weight=1, gap=6),
        Node(IMAGE, icon="check", fg=t.primary, size=50, w=60, h=60) if selected else None,
        on_tap=lambda: ctx.args.update(route=index),
        desc=f"{r['name']}, {duration}",
        selected=selected,
        rid="route_option",
        pad=(40, 28, 40, 28),
        bg=SELECTED if selected else t.surface,
    )


def route_options(ctx: AppContext) -> Node:
    """The avoid options of a directions search; each tick re-plans at once."""

    def flip(key: str) -> None:
        ctx.args.update({key: not ctx.args.get(key), "route": 0})

    boxes = [checkbox(label, bool(ctx.args.get(k)), partial(flip, k), rid=k) for k, label in AVOID.items()]
    done = button("Done", ctx.close, rid="done_button")
    return dialog("Route options", boxes, [done], ctx.close, rid="route_options")
