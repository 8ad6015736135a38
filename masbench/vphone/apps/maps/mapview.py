"""Maps' drawn map: a city's street grid, water and parks, clickable pins, the blue dot and a route.

The view is fitted to what it must show (every result pin, both ends of a route) inside the part of the
map that floating bars leave clear, so no pin lies off the map or under a bar. Labels are placed last,
each in the first free spot of right, left, above or below its pin (streets along their road), else
left out, so no two labels overlap and none is cut at the map's edge. Every travel mode draws its route:
driving solid blue, cycling solid green, walking blue dots, transit dots to and from a coloured ride.
The map itself is one drawn view on Android, so its shapes and labels are drawn but not dumped; pins and
the blue dot are views an agent can find."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ...theme import theme
from ...ui import FRAME, IMAGE, VIEWGROUP, Node, line_height, text_width
from ...widgets import text
from .content import ARTERIALS, AVENUES_X, CITIES, HEIGHT_KM, HERE, HOME_CITY, STREETS_Y, WIDTH_KM

Box = tuple[float, float, float, float]
Point = tuple[float, float]
Place = dict[str, Any]
LAND, WATER, PARK, ARTERIAL, ROAD = "#f1f3f4", "#aadaff", "#c5e8c5", "#fde293", "#ffffff"
PIN, HERE_DOT, BIKE, TRANSIT = "#ea4335", "#4285f4", "#188038", "#9334e6"
PIN_W, PIN_H, EDGE = 64, 80, 48  # a pin's box (its tip on the place) and the room kept at the map's edge
LABEL_MAX_W, LABEL_GAP = 420, 10  # a label's widest, and the space it keeps from pins and other labels


@dataclass(frozen=True)
class Viewport:
    """Which part of a city a map of `w` x `h` pixels shows: the km point at its centre and pixels per
    km. `top`/`bottom` are the pixels floating bars cover; pins and labels stay out of them."""

    cx: float
    cy: float
    scale: float
    w: int
    h: int
    top: int = 0
    bottom: int = 0

    def px(self, x: float, y: float) -> Point:
        return (x - self.cx) * self.scale + self.w / 2, (y - self.cy) * self.scale + self.h / 2

    @property
    def clear(self) -> Box:
        return 0, self.top, self.w, self.h - self.bottom


def fit(
    points: Sequence[Point], w: int, h: int, top: int = 0, bottom: int = 0, max_scale: float = 150
) -> Viewport:
    """The view showing every point inside the clear area, each with room for its pin above it."""
    xs, ys = [p[0] for p in points] or [WIDTH_KM / 2], [p[1] for p in points] or [HEIGHT_KM / 2]
    left, right = EDGE, w - EDGE
    upper, lower = top + PIN_H + EDGE / 2, h - bottom - EDGE
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    scale = min(
        [
            max_scale,
            *(room / span for room, span in ((right - left, span_x), (lower - upper, span_y)) if span),
        ]
    )
    # the middle of the points goes to the middle of the usable area
    cx = (min(xs) + max(xs)) / 2 - ((left + right) / 2 - w / 2) / scale
    cy = (min(ys) + max(ys)) / 2 - ((upper + lower) / 2 - h / 2) / scale
    return Viewport(cx, cy, scale, w, h, top, bottom)


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass
class Placer:
    """The map's free room: boxes taken by pins, dots and the route, and the labels placed so far; a label
    takes the first candidate clear of all of them, keeping a gap from other labels so names never run
    together."""

    area: Box
    taken: list[Box] = field(default_factory=list)
    labels: list[Box] = field(default_factory=list)

    def free(self, box: Box) -> bool:
        x1, y1, x2, y2 = self.area
        inside = x1 <= box[0] and y1 <= box[1] and box[2] <= x2 and box[3] <= y2
        room = (box[0] - LABEL_GAP, box[1] - LABEL_GAP, box[2] + LABEL_GAP, box[3] + LABEL_GAP)
        return (
            inside
            and not any(_overlaps(box, t) for t in self.taken)
            and not any(_overlaps(room, t) for t in self.labels)
        )

    def place(self, candidates: Sequence[Box]) -> Box | None:
        spot = next((box for box in candidates if self.free(box)), None)
        if spot is not None:
            self.labels.append(spot)
        return spot


def label_spots(x: float, y: float, w: float, h: float) -> list[Box]:
    """Where a pin's label may go, in order: right of its head, left of it, above the pin, below it."""
    head = y - PIN_H * 0.65
    return [
        (x + PIN_W / 2 + 2, head - h / 2, x + PIN_W / 2 + 2 + w, head + h / 2),
        (x - PIN_W / 2 - 2 - w, head - h / 2, x - PIN_W / 2 - 2, head + h / 2),
        (x - w / 2, y - PIN_H - 2 - h, x + w / 2, y - PIN_H - 2),
        (x - w / 2, y + 2, x + w / 2, y + 2 + h),
    ]


def pin_layout(view: Viewport, places: Sequence[Place]) -> tuple[list[Place], list[Place]]:
    """(full pins, dots) of the places in view, in the given order (most relevant first): a place whose
    pin would cover another's tap target shrinks to a dot, as less relevant results do in Maps."""
    x1, y1, x2, y2 = view.clear
    full: list[Place] = []
    dots: list[Place] = []
    for p in places:
        x, y = view.px(p["x"], p["y"])
        if not (x1 + PIN_W / 2 <= x <= x2 - PIN_W / 2 and y1 + PIN_H <= y <= y2):
            continue
        spots = [view.px(q["x"], q["y"]) for q in full]
        clash = any(abs(x - qx) < PIN_W * 0.6 and abs(y - qy) < PIN_H * 0.6 for qx, qy in spots)
        (dots if clash else full).append(p)
    return full, dots


# -- routes ---------------------------------------------------------------------------------------------


def route_path(origin: Place, dest: Place) -> list[Point]:
    """A trip along the grid: east or west on the origin's street, then north or south to the place."""
    return [(origin["x"], origin["y"]), (dest["x"], origin["y"]), (dest["x"], dest["y"])]


def _length(path: Sequence[Point]) -> float:
    return sum(_seg(a, b) for a, b in pairwise(path))


def _seg(a: Point, b: Point) -> float:
    return abs(b[0] - a[0]) + abs(b[1] - a[1])


def _point_along(path: Sequence[Point], d: float) -> Point:
    for a, b in pairwise(path):
        seg = _seg(a, b)
        if d <= seg:
            t = d / seg if seg else 0.0
            return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        d -= seg
    return path[-1]


def _cut(path: Sequence[Point], start: float, end: float) -> list[Point]:
    """The part of an axis-aligned polyline between two distances along it."""
    corners, walked = [], 0.0
    for a, b in pairwise(path):
        walked += _seg(a, b)
        if start < walked < end:
            corners.append(b)
    return [_point_along(path, start), *corners, _point_along(path, end)]


def route_legs(origin: Place, dest: Place, mode: str) -> list[tuple[str, list[Point]]]:
    """The legs a mode draws, each (style, km polyline): transit walks to a stop, rides, walks on."""
    path = route_path(origin, dest)
    if mode != "transit":
        return [({"drive": "solid", "bicycle": "bike"}.get(mode, "dots"), path)]
    total = _length(path)
    walk = min(0.4, total * 0.2)
    ride = (walk, total - walk)
    return [("dots", _cut(path, 0, walk)), ("ride", _cut(path, *ride)), ("dots", _cut(path, ride[1], total))]


# -- drawing --------------------------------------------------------------------------------------------


def _at(box: Box, node: Node, dumped: bool = False) -> Node:
    """`node` at a pixel box of the map: a full-size wrapper padded to the spot."""
    node.w, node.h = round(box[2] - box[0]), round(box[3] - box[1])
    spot = (round(box[0]), round(box[1]), 0, 0)
    return Node(FRAME, layout="stack", pad=spot, valign="start", children=[node], dumped=dumped)


def _shape(view: Viewport, box: Box, colour: str, radius: int = 0, rid: str = "") -> Node | None:
    """A filled rectangle cut to the map, or None when none of it shows."""
    box = (max(0, box[0]), max(0, box[1]), min(view.w, box[2]), min(view.h, box[3]))
    if box[2] - box[0] < 1 or box[3] - box[1] < 1:
        return None
    return _at(box, Node(VIEWGROUP, bg=colour, radius=radius, rid=rid))


Mark = tuple[Box, str, int, str]  # a route's piece: pixel box, colour, corner radius, resource id


def _marks(view: Viewport, path: Sequence[Point], style: str) -> Iterator[Mark]:
    """One leg of a route in pixels: bars for solid styles, a dot every 26 px for walking, and for a
    ride the stops where it starts and ends."""
    blue = theme().primary
    colour, half = {"solid": (blue, 8), "bike": (BIKE, 7), "ride": (TRANSIT, 9)}.get(style, (blue, 7))
    for a, b in pairwise(path):
        (ax, ay), (bx, by) = view.px(*a), view.px(*b)
        if style != "dots":
            yield (
                (min(ax, bx) - half, min(ay, by) - half, max(ax, bx) + half, max(ay, by) + half),
                colour,
                0,
                "route",
            )
            continue
        steps = max(1, int((abs(bx - ax) + abs(by - ay)) / 26))
        for i in range(steps + 1):
            x, y = ax + (bx - ax) * i / steps, ay + (by - ay) * i / steps
            yield (x - 7, y - 7, x + 7, y + 7), colour, 7, "route"
    if style == "ride" and path:
        for x, y in (view.px(*path[0]), view.px(*path[-1])):
            yield (x - 14, y - 14, x + 14, y + 14), TRANSIT, 14, "transit_stop"


def _ground(view: Viewport, city: str, parks: Sequence[Place]) -> Iterator[Node | None]:
    """Water, parks and the street grid; streets run on past the city's edge, as a map's do."""
    s = view.scale
    for wx, wy, ww, wh in CITIES[city]["water"]:
        x, y = view.px(wx, wy)
        yield _shape(view, (x, y, x + ww * s, y + wh * s), WATER)
    for p in parks:
        x, y = view.px(p["x"] - 0.45, p["y"] - 0.35)
        yield _shape(view, (x, y, x + 0.9 * s, y + 0.7 * s), PARK)
    for i, ax in enumerate(AVENUES_X):
        half = 9 if i in ARTERIALS[0] else 5
        x, _ = view.px(ax, 0)
        yield _shape(view, (x - half, 0, x + half, view.h), ARTERIAL if i in ARTERIALS[0] else ROAD)
    for j, sy in enumerate(STREETS_Y):
        half = 9 if j in ARTERIALS[1] else 5
        _, y = view.px(0, sy)
        yield _shape(view, (0, y - half, view.w, y + half), ARTERIAL if j in ARTERIALS[1] else ROAD)


def _label(box: Box, value: str, muted: bool = False) -> Node:
    colour = theme().muted if muted else theme().ink
    return _at(box, text(value, "overline", bold=True, fg=colour, max_lines=1, rid="map_label"))


def _label_size(value: str) -> tuple[float, float]:
    size = theme().style("overline").size
    return min(LABEL_MAX_W, text_width(value, size)), line_height(size)


def _street_labels(view: Viewport, city: str, placer: Placer) -> Iterator[Node]:
    """The main roads' names beside their lines, where there is room."""
    info = CITIES[city]
    x1, y1, x2, y2 = view.clear
    for i in ARTERIALS[0]:
        x, _ = view.px(AVENUES_X[i], 0)
        w, h = _label_size(info["avenues"][i])
        ys = [y1 + (y2 - y1) * f for f in (0.5, 0.3, 0.7, 0.15, 0.85)]
        spot = placer.place([(x + dx, y, x + dx + w, y + h) for y in ys for dx in (14, -14 - w)])
        if spot:
            yield _label(spot, info["avenues"][i], muted=True)
    for j in ARTERIALS[1]:
        _, y = view.px(0, STREETS_Y[j])
        w, h = _label_size(info["streets"][j])
        xs = [x1 + (x2 - x1) * f - w / 2 for f in (0.5, 0.25, 0.75)]
        spot = placer.place([(x, y + dy, x + w, y + dy + h) for x in xs for dy in (-12 - h, 12)])
        if spot:
            yield _label(spot, info["streets"][j], muted=True)


def _around(x: float, y: float, r: float) -> Box:
    return x - r, y - r, x + r, y + r


def draw_map(
    view: Viewport,
    city: str,
    pins: Sequence[Place],
    on_pin: Callable[[Place], Callable[[], None]],
    parks: Sequence[Place] = (),
    route: tuple[Place, Place, str] | None = None,
) -> Node:
    """The map of `city` in `view`: ground, the route (origin, destination, mode), pins for `pins`
    (most relevant first), the blue dot when the phone is in view, then every label that has room."""
    marks = [mark for style, leg in route_legs(*route) for mark in _marks(view, leg, style)] if route else []
    shapes = [*_ground(view, city, parks), *(_shape(view, *mark) for mark in marks)]
    full, dots = pin_layout(view, pins)
    placer = Placer((view.clear[0] + 4, view.clear[1] + 4, view.clear[2] - 4, view.clear[3] - 4))
    for p in dots:
        box = _around(*view.px(p["x"], p["y"]), 14)
        dot = Node(VIEWGROUP, bg=PIN, border=ROAD, radius=14, desc=p["name"], rid="map_dot")
        shapes.append(_at(box, dot))
        placer.taken.append(box)
    for p in sorted(full, key=lambda p: p["y"]):  # southern pins drawn over northern ones, as on a map
        x, y = view.px(p["x"], p["y"])
        box = (x - PIN_W / 2, y - PIN_H, x + PIN_W / 2, y)
        pin = Node(IMAGE, icon="pin", fg=PIN, size=PIN_W, desc=p["name"], rid="map_pin", on_tap=on_pin(p))
        shapes.append(_at(box, pin, dumped=True))
        placer.taken.append(box)
    here = _around(*view.px(*HERE), 24)
    if city == HOME_CITY and placer.free(here):
        dot = Node(VIEWGROUP, radius=24, bg=HERE_DOT, border=ROAD, desc="Your location", rid="my_location")
        shapes.append(_at(here, dot, dumped=True))
        placer.taken.append(here)
    placer.taken += [box for box, *_ in marks]  # labels keep off the route, as Maps keeps it readable
    for p in full:
        spot = placer.place(label_spots(*view.px(p["x"], p["y"]), *_label_size(p["name"])))
        if spot:
            shapes.append(_label(spot, p["name"]))
    shapes += _street_labels(view, city, placer)
    canvas: dict[str, Any] = {"bg": LAND, "w": view.w, "h": view.h, "rid": "map_view", "desc": "Map"}
    return Node(
        FRAME, layout="stack", valign="start", children=[s for s in shapes if s is not None], **canvas
    )
