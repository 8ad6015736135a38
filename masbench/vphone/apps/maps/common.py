"""Google Maps' look: colours, the drawn map (street grid, water, parks, pins, the blue dot), the bottom
navigation and the small helpers every screen uses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...app import AppContext, Screen
from ...ui import FRAME, IMAGE, TEXT, VIEWGROUP, Node
from ...widgets import bottom_nav, icon_button, row, text
from . import model
from .content import AVENUES_X, CITIES, HEIGHT_KM, HERE, HOME_CITY, STREETS_Y, WIDTH_KM

BLUE = "#1a73e8"
INK = "#202124"
GREY = "#5f6368"
GREEN = "#188038"
RED = "#d93025"
LAND = "#f1f3f4"
WATER = "#aadaff"
PARK = "#c5e8c5"
ARTERIAL = "#fde293"
PACKAGE = "com.google.android.apps.maps"
MAPS_ACTIVITY = "com.google.android.maps.MapsActivity"
TABS = (("Explore", "pin", "map"), ("You", "person", "you"), ("Contribute", "plus", "contribute"))
# water per city: (x, y, width, height) in km
WATER_AREAS = {
    "San Francisco": ((9.75, 0.0, 0.5, 14.0), (0.0, 0.0, 10.0, 0.25)),
    "New York": ((9.8, 0.0, 0.4, 14.0), (0.0, 0.0, 0.2, 14.0)),
    "Chicago": ((9.95, 0.0, 0.3, 14.0),),
    "Seattle": ((0.0, 0.0, 0.35, 14.0), (3.0, 0.0, 4.0, 0.15)),
    "Austin": ((0.0, 13.3, 10.0, 0.2),),
}
ARTERIALS = ((2, 6), (2, 4))  # avenue and street indices drawn as main roads


def screen(ctx: AppContext, name: str, **args: Any) -> Screen:
    return ctx.screen(name, activity=MAPS_ACTIVITY, **args)


def go(ctx: AppContext, name: str, **args: Any) -> Callable[[], None]:
    return lambda: ctx.phone.push_screen(screen(ctx, name, **args))


def open_place(ctx: AppContext, place_id: str) -> Callable[[], None]:
    def tap() -> None:
        p = model.place(ctx.state, place_id)
        if p is not None and p["city"] in CITIES:
            ctx.state["map"]["city"] = p["city"]
        ctx.phone.push_screen(screen(ctx, "place", place_id=place_id))

    return tap


def switch_tab(ctx: AppContext, root: str) -> None:
    """Bottom navigation: show the tab's root screen (see AppContext.switch_tab)."""
    ctx.switch_tab(screen(ctx, root))


def nav(ctx: AppContext, current: str) -> Node:
    label = next(lab for lab, _, root in TABS if root == current)
    return bottom_nav(
        [(lab, icon) for lab, icon, _ in TABS],
        label,
        lambda chosen: switch_tab(ctx, next(root for lab, _, root in TABS if lab == chosen)),
        colour=BLUE,
    )


def back_bar(ctx: AppContext, title: str, *actions: Node) -> Node:
    return row(
        icon_button("back", "Navigate up", ctx.back, rid="navigate_up"),
        text(title, size=50, bold=False, fg=INK, weight=1, max_lines=1, rid="toolbar_title"),
        *actions,
        h=168, pad=(16, 0, 16, 0), valign="center", bg="#ffffff", rid="toolbar",
    )  # fmt: skip


# -- the drawn map ----------------------------------------------------------------------------------


def _at(x: float, y: float, node: Node) -> Node:
    """Place a fixed-size node at (x, y) pixels inside a stack: a full-size wrapper padded to the spot."""
    return Node(FRAME, layout="stack", pad=(int(x), int(y), 0, 0), valign="start", children=[node])


def _rect(x: float, y: float, w: float, h: float, colour: str, box: tuple[int, int]) -> Node | None:
    if x < 0:
        w, x = w + x, 0
    if y < 0:
        h, y = h + y, 0
    if w < 1 or h < 1 or x >= box[0] or y >= box[1]:
        return None
    return _at(x, y, Node(VIEWGROUP, w=int(w), h=int(h), bg=colour))


def map_canvas(
    ctx: AppContext,
    city: str,
    focus: tuple[float, float],
    size: tuple[int, int],
    pins: list[dict[str, Any]],
    scale: float = 108.0,
    show_here: bool = True,
    route_to: dict[str, Any] | None = None,
) -> Node:
    """A map of `city` centred on `focus` (km), `size` pixels, with clickable pins for `pins`."""
    w, h = size
    cx, cy = focus

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - cx) * scale + w / 2, (y - cy) * scale + h / 2

    shapes: list[Node | None] = []
    for wx, wy, ww, wh in WATER_AREAS.get(city, ()):
        x, y = px(wx, wy)
        shapes.append(_rect(x, y, ww * scale, wh * scale, WATER, size))
    parks = {
        p["id"]: p
        for p in [*pins, *ctx.state["places"].values()]
        if p["city"] == city and p.get("category") == "Park"
    }
    for p in parks.values():
        x, y = px(p["x"] - 0.45, p["y"] - 0.35)
        shapes.append(_rect(x, y, 0.9 * scale, 0.7 * scale, PARK, size))
    for i, ax in enumerate(AVENUES_X):  # streets run on past the city's edge, as a map's do
        width = 18 if i in ARTERIALS[0] else 10
        x, y = px(ax, -HEIGHT_KM)
        colour = ARTERIAL if i in ARTERIALS[0] else "#ffffff"
        shapes.append(_rect(x - width / 2, y, width, 3 * HEIGHT_KM * scale, colour, size))
    for j, sy in enumerate(STREETS_Y):
        width = 18 if j in ARTERIALS[1] else 10
        x, y = px(-WIDTH_KM, sy)
        colour = ARTERIAL if j in ARTERIALS[1] else "#ffffff"
        shapes.append(_rect(x, y - width / 2, 3 * WIDTH_KM * scale, width, colour, size))
    if route_to is not None:
        shapes.extend(_route_line(px, route_to, size))
    info = CITIES[city]
    for i in ARTERIALS[0]:
        x, y = px(AVENUES_X[i], cy + 2.1)
        if 0 <= x < w - 200 and 0 <= y < h:
            shapes.append(_at(x + 14, y, text(info["avenues"][i], size=26, fg=GREY, bold=True, h=36)))
    for j in ARTERIALS[1]:
        x, y = px(cx + 0.9, STREETS_Y[j])
        if 0 <= x < w and 40 <= y < h:
            shapes.append(_at(max(0, x), y - 40, text(info["streets"][j], size=26, fg=GREY, bold=True, h=36)))
    for p in pins:
        x, y = px(p["x"], p["y"])
        if x - 32 >= 0 and x + 32 < w and y - 80 >= 0 and y < h:
            pin = Node(
                IMAGE,
                icon="pin",
                fg=RED,
                size=64,
                w=64,
                h=80,
                desc=p["name"],
                rid="map_pin",
                on_tap=open_place(ctx, p["id"]),
            )
            shapes.append(_at(x - 32, y - 80, pin))
            shapes.append(
                _at(
                    x + 30,
                    y - 62,
                    Node(TEXT, text=p["name"], size=26, bold=True, fg="#3c4043", max_lines=1, h=36),
                )
            )
    if show_here and city == HOME_CITY:
        x, y = px(*HERE)
        if x - 24 >= 0 and y - 24 >= 0:
            dot = Node(
                VIEWGROUP,
                w=48,
                h=48,
                radius=24,
                bg="#4285f4",
                border="#ffffff",
                desc="Your location",
                rid="my_location",
            )
            shapes.append(_at(x - 24, y - 24, dot))
    return Node(
        FRAME,
        layout="stack",
        valign="start",
        children=[s for s in shapes if s is not None],
        bg=LAND,
        w=w,
        h=h,
        rid="map_view",
        desc="Map",
    )


def _route_line(px, dest: dict[str, Any], size: tuple[int, int]) -> list[Node | None]:
    """A blue L-shaped route from the phone's location to `dest` (same city only)."""
    (x1, y1), (x2, y2) = px(*HERE), px(dest["x"], dest["y"])
    return [
        _rect(min(x1, x2) - 8, y1 - 8, abs(x2 - x1) + 16, 16, BLUE, size),
        _rect(x2 - 8, min(y1, y2) - 8, 16, abs(y2 - y1) + 16, BLUE, size),
    ]
