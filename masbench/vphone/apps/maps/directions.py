"""Maps' directions (start and destination fields, travel modes, route options, avoid options) and the
navigation screen (next turn, ETA, mute, Exit)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ...app import AppContext, modal
from ...ui import EDIT, FRAME, IMAGE, Node
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
from .common import BLUE, GREEN, GREY, INK, LAND, RED, map_canvas, screen
from .content import CITIES

NAV_GREEN = "#0b8043"


def _endpoints(ctx: AppContext) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    return model.place(ctx.state, ctx.args["origin"]), model.place(ctx.state, ctx.args["destination"])


def _avoid(args: dict[str, Any]) -> dict[str, bool]:
    return {k: bool(args.get(k)) for k in ("avoid_tolls", "avoid_highways", "avoid_ferries")}


def start(
    ctx: AppContext, origin: dict[str, Any], dest: dict[str, Any], mode: str, index: int, args: dict[str, Any]
) -> bool:
    """Start navigation on route `index`; False (and a toast) when there is no route."""
    options = model.routes(origin, dest, mode, _avoid(args), ctx.now())
    if not options:
        ctx.toast("No route found")
        return False
    route = options[min(index, len(options) - 1)]
    model.start_navigation(ctx.state, origin, dest, mode, route, _avoid(args), ctx.now())
    ctx.log("maps_navigation", destination=dest["id"], mode=mode, route=route["name"])
    ctx.phone.push_screen(screen(ctx, "navigation"))
    return True


def directions(ctx: AppContext) -> Node:
    args = ctx.args
    origin, dest = _endpoints(ctx)
    now = ctx.now()
    options = model.routes(origin, dest, args["mode"], _avoid(args), now) if origin and dest else []
    selected = min(args.get("route", 0), max(0, len(options) - 1))

    def set_end(key: str, typed: str) -> None:
        found = model.resolve(ctx.state, typed, (dest or origin or {}).get("city"))
        ctx.ui.pop(f"{key}_text", None)
        if found is None:
            ctx.toast(f"Couldn't find “{typed.strip()}”")
            return
        ctx.args[key] = found["id"]
        ctx.args["route"] = 0

    def swap() -> None:
        ctx.args["origin"], ctx.args["destination"] = ctx.args["destination"], ctx.args["origin"]
        ctx.args["route"] = 0

    fields = column(
        _end_field("origin_text", origin["name"] if origin else "", "Choose start location", "directions_startpoint_textbox",
                   lambda v: set_end("origin", v)),
        _end_field("destination_text", dest["name"] if dest else "", "Choose destination", "directions_endpoint_textbox",
                   lambda v: set_end("destination", v)),
        weight=1, gap=16,
    )  # fmt: skip
    header = row(
        icon_button("back", "Navigate up", ctx.back, rid="navigate_up"),
        fields,
        icon_button("more", "Swap start and destination", swap, rid="swap_button"),
        pad=(8, 20, 16, 10),
        gap=8,
        valign="center",
    )
    tabs = row(*[_mode_tab(ctx, mode, origin, dest) for mode in model.MODES], pad=(24, 0, 24, 10), gap=10)
    avoided = [
        label
        for key, label in (
            ("avoid_tolls", "tolls"),
            ("avoid_highways", "highways"),
            ("avoid_ferries", "ferries"),
        )
        if args.get(key)
    ]
    options_row = row(
        text("Avoiding " + ", ".join(avoided) if avoided else "Your location" if args["origin"] == "here" else "", size=32, fg=GREY, weight=1),
        Node("android.widget.Button", text="Options", size=34, fg=BLUE, on_tap=lambda: ctx.ui.update(dialog="options"),
             rid="route_options_button", h=80, pad=(24, 0, 24, 0), align="center"),
        pad=(40, 0, 24, 10), valign="center",
    )  # fmt: skip
    focus_field = ctx.ui.get("focus")
    typed = str(ctx.ui.get(focus_field, "")) if focus_field in ("origin_text", "destination_text") else ""
    if typed.strip():
        key = "origin" if focus_field == "origin_text" else "destination"
        content = _suggestions(ctx, key, typed)
    elif not options:
        why = "No routes found" if origin and dest else "Choose a start and a destination"
        content = text(why, size=42, fg=GREY, pad=(60, 80, 60, 0), weight=1, rid="no_routes")
    else:
        cards = [_route_card(ctx, r, i, i == selected) for i, r in enumerate(options)]
        content = column(
            map_canvas(ctx, dest["city"], (dest["x"], dest["y"]), (1080, 420), [dest], scale=60,
                       route_to=dest if origin["id"] == "here" and dest["city"] == model.HOME_CITY else None) if dest["city"] in CITIES else None,
            scroll_list("routes", cards, rid="routes_list", gap=2, bg="#eeeeee"),
            row(button("Start", lambda: start(ctx, origin, dest, args["mode"], selected, args), rid="start_button", colour=BLUE,
                       icon="play", weight=1), pad=(40, 20, 40, 20)),
            weight=1,
        )  # fmt: skip
    body = column(header, tabs, options_row, divider(), content, bg="#ffffff")
    if ctx.ui.get("dialog") == "options":
        return modal(body, _options_dialog(ctx))
    return body


def _end_field(field: str, value: str, hint: str, rid: str, on_submit) -> Node:
    return Node(EDIT, field=field, text=value, hint=hint, rid=rid, on_submit=on_submit, size=38, h=110, bg="#f1f3f4", radius=20,
                pad=(28, 0, 28, 0))  # fmt: skip


def _suggestions(ctx: AppContext, key: str, typed: str) -> Node:
    low = typed.strip().lower()
    items: list[dict[str, Any]] = []
    for special in ("here", "label:home", "label:work"):
        p = model.place(ctx.state, special)
        if p is not None and low in p["name"].lower():
            items.append(p)
    point = model.resolve(ctx.state, typed)
    if point is not None and point not in items:
        items.append(point)
    tokens = low.replace("'", "").split()
    items += [
        p
        for p in ctx.state["places"].values()
        if all(t in p["name"].lower().replace("'", "") for t in tokens) and p not in items
    ][:6]

    def choose(p: dict[str, Any]) -> None:
        ctx.args[key] = model.remember(ctx.state, p)["id"]
        ctx.args["route"] = 0
        ctx.ui.pop(f"{key}_text", None)
        ctx.ui.pop("focus", None)

    rows = [
        list_item(
            p["name"], p.get("address", p["city"]), on_tap=lambda p=p: choose(p), icon="pin", rid="suggestion"
        )
        for p in items[:7]
    ]
    return scroll_list(
        "suggestions", rows or [text("No suggestions", size=38, fg=GREY, pad=60)], rid="suggestions_list"
    )


def _mode_tab(ctx: AppContext, mode: str, origin: dict[str, Any] | None, dest: dict[str, Any] | None) -> Node:
    options = model.routes(origin, dest, mode, _avoid(ctx.args), ctx.now()) if origin and dest else []
    best = min((r["minutes"] for r in options), default=None)
    current = ctx.args["mode"] == mode

    def pick() -> None:
        ctx.args["mode"] = mode
        ctx.args["route"] = 0

    label = model.MODE_LABELS[mode]
    return column(
        text(label, size=34, bold=current, fg=BLUE if current else INK, align="center"),
        text(model.duration_text(best) if best is not None else "-", size=30, fg=BLUE if current else GREY, align="center"),
        on_tap=pick, weight=1, desc=label, selected=current, rid="mode_tab", pad=(0, 14, 0, 14),
        bg="#e8f0fe" if current else None, radius=40,
    )  # fmt: skip


def _route_card(ctx: AppContext, r: dict[str, Any], index: int, selected: bool) -> Node:
    def pick() -> None:
        ctx.args["route"] = index

    if r["mode"] == "transit":
        lines = [
            text(
                f"{model.clock_text(r['depart'])} - {model.clock_text(r['arrive'])}",
                size=34,
                fg=GREY,
                rid="route_times",
            ),
            text(r["summary"], size=32, fg=GREY, rid="route_summary"),
        ]
    else:
        flags = [f for f, on in (("Tolls", r["toll"]), ("Highway", r["highway"])) if on]
        lines = [
            text(
                " · ".join([r["summary"], *flags]).strip(" ·") or "Alternate route",
                size=32,
                fg=GREY,
                rid="route_summary",
            )
        ]
    return row(
        column(
            row(text(model.duration_text(r["minutes"]), size=46, bold=True, fg=GREEN if index == 0 else INK, rid="route_duration"),
                text(f"({model.distance_text(ctx.state, r['km'])})", size=36, fg=GREY, rid="route_distance"), gap=16, valign="center"),
            text(r["name"], size=38, fg=INK, rid="route_name"),
            *lines,
            weight=1, gap=6,
        ),
        Node(IMAGE, icon="check", fg=BLUE, size=50, w=60, h=60) if selected else None,
        on_tap=pick, desc=f"{r['name']}, {model.duration_text(r['minutes'])}", selected=selected, rid="route_option",
        pad=(40, 28, 40, 28), bg="#e8f0fe" if selected else "#ffffff", valign="center",
    )  # fmt: skip


def _options_dialog(ctx: AppContext) -> Node:
    def flip(key: str) -> None:
        ctx.args[key] = not ctx.args.get(key)
        ctx.args["route"] = 0

    boxes = [checkbox(label, bool(ctx.args.get(key)), lambda key=key: flip(key), rid=key)
             for key, label in (("avoid_highways", "Avoid highways"), ("avoid_tolls", "Avoid tolls"), ("avoid_ferries", "Avoid ferries"))]  # fmt: skip
    return dialog("Route options", boxes, [button("Done", lambda: ctx.ui.pop("dialog", None), rid="done_button")],
                  lambda: ctx.ui.pop("dialog", None), rid="route_options")  # fmt: skip


# -- navigation ---------------------------------------------------------------------------------------


def navigation(ctx: AppContext) -> Node:
    nav = ctx.state["navigation"]
    if not nav.get("active"):
        return column(text("Navigation ended", size=44, fg=GREY, pad=60), bg="#ffffff")
    dest = model.place(ctx.state, nav["destination"]["id"]) or nav["destination"]
    origin = model.place(ctx.state, nav["origin"]["id"]) or model.place(ctx.state, "here")
    arrive = ctx.now() + timedelta(minutes=nav["minutes"])
    options = model.routes(origin, dest, nav["mode"], nav, ctx.now()) if origin and "x" in dest else []
    first = next(
        (r["first_step"] for r in options if r["name"] == nav["route"]),
        f"Head toward {nav['destination']['name']}",
    )

    def mute() -> None:
        nav["muted"] = not nav["muted"]

    def exit_nav() -> None:
        nav["active"] = False
        ctx.log("maps_navigation_exit")
        ctx.back()

    banner = column(
        row(Node(IMAGE, icon="chevron", fg="#ffffff", size=80, w=110, h=110), text(first, size=44, bold=True, fg="#ffffff", weight=1,
            rid="next_turn", max_lines=3), gap=20, valign="center"),
        text(f"{model.MODE_LABELS[nav['mode']]} · {nav['route']}", size=32, fg="#e6f4ea", pad=(130, 0, 0, 0), rid="route_label"),
        bg=NAV_GREEN, pad=(30, 30, 30, 30), gap=10, rid="navigation_banner",
    )  # fmt: skip
    city = origin["city"] if origin else model.HOME_CITY
    canvas = map_canvas(ctx, city, (origin["x"], origin["y"]) if origin else (5, 7), (1080, 1450), [dest] if dest.get("city") == city else [],
                        scale=90, route_to=dest if origin and origin["id"] == "here" and dest.get("city") == city else None)  # fmt: skip
    bottom = row(
        column(
            text(model.duration_text(nav["minutes"]), size=56, bold=True, fg=GREEN, rid="eta_duration"),
            text(f"{model.distance_text(ctx.state, nav['km'])} · {arrive.strftime('%I:%M %p').lstrip('0')}", size=34, fg=GREY, rid="eta_details"),
            weight=1, gap=6,
        ),
        icon_button("bell" if not nav["muted"] else "close", "Unmute voice guidance" if nav["muted"] else "Mute voice guidance", mute,
                    rid="mute_button", fg=INK, bg="#f1f3f4"),
        button("Exit", exit_nav, rid="exit_button", colour=RED, h=110),
        pad=(40, 30, 40, 30), gap=24, valign="center", bg="#ffffff",
    )  # fmt: skip
    return column(banner, canvas, Node(FRAME, weight=1, bg=LAND), bottom, bg="#ffffff", rid="navigation")
