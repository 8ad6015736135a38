"""Maps' navigation screen: the next turn on a green banner, the map of the trip with its route, the
time left and arrival, mute and Exit."""

from __future__ import annotations

from datetime import timedelta

from ...app import AppContext
from ...theme import theme
from ...ui import FRAME, IMAGE, Node
from ...widgets import button, column, icon_button, row, text
from . import model
from .directions import trip_map
from .mapview import LAND

NAV_GREEN = "#0b8043"  # the navigation banner


def navigation(ctx: AppContext) -> Node:
    nav = ctx.state["navigation"]
    t = theme()
    if not nav.get("active"):
        return column(text("Navigation ended", "body", fg=t.muted, pad=60), bg=t.surface)
    dest = model.place(ctx.state, nav["destination"]["id"]) or nav["destination"]
    origin = model.place(ctx.state, nav["origin"]["id"]) or model.place(ctx.state, "here")
    options = model.routes(origin, dest, nav["mode"], nav, ctx.now()) if origin and "x" in dest else []
    first = next(
        (r["first_step"] for r in options if r["name"] == nav["route"]), f"Head toward {dest['name']}"
    )

    def exit_nav() -> None:
        nav["active"] = False
        ctx.log("maps_navigation_exit")
        ctx.back()

    turn = Node(IMAGE, icon="chevron", fg=t.on_primary, size=80, w=110, h=110)
    way = f"{model.MODE_LABELS[nav['mode']]} · {nav['route']}"
    banner = column(
        row(turn, text(first, "title", fg=t.on_primary, weight=1, rid="next_turn", max_lines=3), gap=20),
        text(way, "caption", fg=t.on_primary, pad=(130, 0, 0, 0), rid="route_label"),
        bg=NAV_GREEN,
        pad=30,
        gap=10,
        rid="navigation_banner",
    )
    arrive = (ctx.now() + timedelta(minutes=nav["minutes"])).strftime("%I:%M %p").lstrip("0")
    muted = nav["muted"]
    mute = icon_button(
        "close" if muted else "bell",
        "Unmute voice guidance" if muted else "Mute voice guidance",
        lambda: nav.update(muted=not muted),
        rid="mute_button",
        bg=t.pale,
    )
    eta = column(
        text(model.duration_text(nav["minutes"]), "headline", fg=t.success, rid="eta_duration"),
        text(f"{model.distance_text(ctx.state, nav['km'])} · {arrive}", "caption", rid="eta_details"),
        weight=1,
        gap=6,
    )
    bottom = row(
        eta, mute, button("Exit", exit_nav, rid="exit_button", colour=t.error, h=110), pad=40, gap=24
    )
    area = trip_map(ctx, origin, dest, nav["mode"], 1450) if "x" in dest else None
    return column(banner, area, Node(FRAME, weight=1, bg=LAND), bottom, bg=t.surface, rid="navigation")
