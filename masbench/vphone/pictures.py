"""Pictures that show what they are: `Node.image = "kind:key"` is drawn as a flat illustration of its kind
(a shoe, a hotel front, a dish, a face...), varied by a stable hash of the key, so the same item looks the
same in a list thumbnail and on its detail page, and different items of a kind differ.

Every drawing is made in a unit square (the subject) over a full-bleed background, then scaled to the
node; a key word naming a colour ("...:Black", "...:Navy") colours a product. Unknown kinds, and keys
without a kind, are drawn as a generic photo. Drawn at twice the size and reduced, for smooth edges, and
cached: screens redraw the same pictures every frame.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

Colour = tuple[int, int, int]
Point = tuple[float, float]  # in the unit square of the subject
NAMED: dict[str, Colour] = {
    "black": (38, 38, 42), "white": (236, 236, 232), "grey": (150, 152, 158), "gray": (150, 152, 158),
    "blue": (52, 110, 200), "red": (205, 50, 52), "navy": (34, 48, 92), "olive": (112, 118, 62),
    "green": (60, 140, 80), "pink": (226, 120, 160), "silver": (190, 194, 200), "gold": (212, 170, 72),
    "brown": (120, 80, 50), "beige": (214, 196, 160), "purple": (120, 80, 170), "yellow": (236, 196, 60),
    "orange": (236, 130, 50), "teal": (40, 140, 140), "charcoal": (64, 66, 72), "tan": (196, 160, 110),
}  # fmt: skip
SKIN = [(255, 219, 172), (241, 194, 125), (224, 172, 105), (198, 134, 66), (141, 85, 36), (92, 56, 30)]
HAIR = [(40, 30, 25), (90, 60, 35), (160, 110, 60), (220, 190, 120), (120, 120, 120), (170, 60, 40)]


class Canvas:
    """A drawing surface in unit coordinates: (0, 0) top-left, (1, 1) bottom-right of the subject square."""

    def __init__(self, w: int, h: int, rng: random.Random, colour: Colour | None) -> None:
        self.img = Image.new("RGB", (w, h), (240, 240, 240))
        self.d = ImageDraw.Draw(self.img)
        self.w, self.h, self.rng = w, h, rng
        side = min(w, h)
        self.side, self.ox, self.oy = side, (w - side) / 2, (h - side) / 2
        self.colour = colour or self.hue(0.55, 0.75)

    def p(self, x: float, y: float) -> tuple[float, float]:
        return self.ox + x * self.side, self.oy + y * self.side

    def box(self, x1: float, y1: float, x2: float, y2: float) -> tuple[float, float, float, float]:
        return (*self.p(x1, y1), *self.p(x2, y2))

    def rect(self, x1: float, y1: float, x2: float, y2: float, fill: Colour, r: float = 0.0) -> None:
        self.d.rounded_rectangle(self.box(x1, y1, x2, y2), radius=r * self.side, fill=fill)

    def oval(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        fill: Colour | None,
        outline: Colour | None = None,
        width: float = 0.0,
    ) -> None:
        self.d.ellipse(
            self.box(x1, y1, x2, y2), fill=fill, outline=outline, width=max(0, int(width * self.side))
        )

    def poly(self, points: Sequence[Point], fill: Colour) -> None:
        self.d.polygon([self.p(x, y) for x, y in points], fill=fill)

    def line(self, points: Sequence[Point], fill: Colour, width: float) -> None:
        self.d.line([self.p(x, y) for x, y in points], fill=fill, width=max(1, int(width * self.side)))

    def ground(self, top: Colour, bottom: Colour, horizon: float = 1.0) -> None:
        """A vertical gradient over the whole picture, `top` above `horizon` (a fraction of the height)."""
        strip = Image.new("RGB", (1, 2))
        strip.putpixel((0, 0), top)
        strip.putpixel((0, 1), bottom)
        cut = max(1, int(self.h * horizon))
        self.img.paste(strip.resize((self.w, cut), Image.Resampling.BILINEAR), (0, 0))
        if cut < self.h:
            self.d.rectangle((0, cut, self.w, self.h), fill=bottom)

    def hue(self, saturation: float, value: float) -> Colour:
        h = self.rng.random()
        return _hsv(h, saturation, value)


def _hsv(h: float, s: float, v: float) -> Colour:
    i, f = int(h * 6) % 6, h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    r, g, b = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
    return int(r * 255), int(g * 255), int(b * 255)


def _shade(c: Colour, k: float) -> Colour:
    return tuple(max(0, min(255, int(v * k))) for v in c)  # type: ignore[return-value]


# -- products: a light studio background, the object in the middle ---------------------------------------
def _studio(c: Canvas) -> None:
    c.ground((250, 250, 250), (232, 232, 234))


def shoe(c: Canvas) -> None:
    _studio(c)
    body, sole = c.colour, (245, 245, 245) if sum(c.colour) < 600 else (60, 60, 60)
    c.poly(
        [
            (0.12, 0.62),
            (0.2, 0.42),
            (0.38, 0.4),
            (0.5, 0.5),
            (0.78, 0.56),
            (0.9, 0.64),
            (0.88, 0.7),
            (0.12, 0.7),
        ],
        body,
    )
    c.rect(0.1, 0.68, 0.92, 0.76, sole, 0.03)
    c.oval(0.2, 0.38, 0.36, 0.46, _shade(body, 0.7))
    for i in range(4):
        c.line(
            [(0.38 + i * 0.05, 0.47 + i * 0.015), (0.44 + i * 0.05, 0.45 + i * 0.015)], (250, 250, 250), 0.012
        )
    c.line([(0.22, 0.62), (0.6, 0.58), (0.82, 0.66)], _shade(body, 1.35), 0.02)


def watch(c: Canvas) -> None:
    _studio(c)
    strap = _shade(c.colour, 0.8)
    c.rect(0.4, 0.05, 0.6, 0.95, strap, 0.05)
    c.oval(0.24, 0.26, 0.76, 0.74, (200, 200, 205))
    dark = c.rng.random() < 0.5
    c.oval(0.28, 0.3, 0.72, 0.7, (30, 32, 36) if dark else (248, 248, 244))
    hands = (230, 230, 230) if dark else (40, 40, 40)
    c.line([(0.5, 0.5), (0.5, 0.36)], hands, 0.02)
    c.line([(0.5, 0.5), (0.6, 0.56)], hands, 0.015)
    c.rect(0.75, 0.46, 0.8, 0.54, (180, 180, 185), 0.01)


def laptop(c: Canvas) -> None:
    _studio(c)
    c.rect(0.16, 0.2, 0.84, 0.66, (60, 62, 68), 0.02)
    c.rect(0.19, 0.23, 0.81, 0.63, c.hue(0.45, 0.85), 0.01)
    c.poly([(0.06, 0.7), (0.94, 0.7), (0.88, 0.66), (0.12, 0.66)], (190, 192, 198))
    c.rect(0.06, 0.7, 0.94, 0.74, (150, 152, 158), 0.01)


def phone(c: Canvas) -> None:
    _studio(c)
    c.rect(0.32, 0.08, 0.68, 0.92, (30, 32, 36), 0.06)
    c.rect(0.34, 0.12, 0.66, 0.88, c.colour, 0.04)
    c.oval(0.47, 0.13, 0.53, 0.16, (20, 20, 20))
    for i in range(3):
        c.rect(0.38, 0.3 + i * 0.16, 0.62, 0.4 + i * 0.16, _shade(c.colour, 1.25), 0.02)


def headphones(c: Canvas) -> None:
    _studio(c)
    c.d.arc(c.box(0.2, 0.12, 0.8, 0.8), 180, 360, fill=c.colour, width=int(0.06 * c.side))
    for x in (0.14, 0.7):
        c.rect(x, 0.46, x + 0.16, 0.74, _shade(c.colour, 0.75), 0.06)
        c.rect(x + 0.03, 0.5, x + 0.13, 0.7, (40, 40, 44), 0.04)


def camera(c: Canvas) -> None:
    _studio(c)
    c.rect(0.12, 0.3, 0.88, 0.74, (45, 46, 50), 0.05)
    c.rect(0.2, 0.24, 0.38, 0.32, (45, 46, 50), 0.02)
    c.oval(0.36, 0.34, 0.7, 0.68, (90, 92, 98))
    c.oval(0.42, 0.4, 0.64, 0.62, (20, 24, 40))
    c.oval(0.47, 0.44, 0.53, 0.5, (200, 210, 240))
    c.rect(0.74, 0.34, 0.82, 0.38, c.colour, 0.01)


def shirt(c: Canvas) -> None:
    _studio(c)
    c.poly([(0.3, 0.14), (0.42, 0.12), (0.5, 0.2), (0.58, 0.12), (0.7, 0.14), (0.9, 0.3), (0.8, 0.42),
            (0.72, 0.36), (0.72, 0.88), (0.28, 0.88), (0.28, 0.36), (0.2, 0.42), (0.1, 0.3)], c.colour)  # fmt: skip
    c.poly([(0.42, 0.12), (0.5, 0.2), (0.58, 0.12)], _shade(c.colour, 0.7))


def bag(c: Canvas) -> None:
    _studio(c)
    c.d.arc(c.box(0.32, 0.12, 0.68, 0.5), 180, 360, fill=_shade(c.colour, 0.7), width=int(0.04 * c.side))
    c.rect(0.18, 0.3, 0.82, 0.88, c.colour, 0.08)
    c.rect(0.3, 0.5, 0.7, 0.7, _shade(c.colour, 0.85), 0.04)
    c.rect(0.46, 0.46, 0.54, 0.54, (210, 190, 120), 0.01)


def book(c: Canvas) -> None:
    _studio(c)
    cover = c.hue(0.6, 0.7)
    c.rect(0.26, 0.08, 0.76, 0.92, _shade(cover, 0.7), 0.01)
    c.rect(0.28, 0.08, 0.78, 0.9, cover, 0.01)
    c.rect(0.34, 0.2, 0.72, 0.26, (245, 240, 225))
    c.rect(0.34, 0.3, 0.66, 0.33, (245, 240, 225))
    c.oval(0.4, 0.45, 0.66, 0.71, c.hue(0.5, 0.95))


def toy(c: Canvas) -> None:
    _studio(c)
    for row in range(3):
        for col in range(3 - row):
            x, y = 0.18 + col * 0.22 + row * 0.11, 0.7 - row * 0.18
            colour = c.hue(0.75, 0.9)
            c.rect(x, y, x + 0.2, y + 0.17, colour, 0.02)
            c.rect(x + 0.03, y - 0.03, x + 0.08, y, colour)
            c.rect(x + 0.12, y - 0.03, x + 0.17, y, colour)


def kitchen(c: Canvas) -> None:
    _studio(c)
    c.oval(0.14, 0.4, 0.7, 0.8, (40, 40, 44))
    c.oval(0.18, 0.44, 0.66, 0.76, (70, 70, 76))
    c.rect(0.66, 0.55, 0.94, 0.63, _shade(c.colour, 0.6), 0.03)


def furniture(c: Canvas) -> None:
    _studio(c)
    c.rect(0.1, 0.36, 0.9, 0.62, _shade(c.colour, 0.8), 0.06)
    c.rect(0.06, 0.5, 0.94, 0.74, c.colour, 0.06)
    for x in (0.14, 0.82):
        c.rect(x, 0.74, x + 0.04, 0.86, (80, 60, 40))


def beauty(c: Canvas) -> None:
    _studio(c)
    c.rect(0.36, 0.28, 0.64, 0.88, c.colour, 0.06)
    c.rect(0.42, 0.12, 0.58, 0.3, (60, 60, 64), 0.03)
    c.rect(0.4, 0.48, 0.6, 0.66, (250, 250, 250), 0.02)


def grocery(c: Canvas) -> None:
    _studio(c)
    for i in range(3):
        colour = c.hue(0.7, 0.85)
        x = 0.14 + i * 0.25
        c.oval(x, 0.42 + 0.05 * (i % 2), x + 0.24, 0.66 + 0.05 * (i % 2), colour)
        c.line([(x + 0.12, 0.42 + 0.05 * (i % 2)), (x + 0.14, 0.36)], (90, 70, 40), 0.015)


# -- places and scenes: sky, ground, buildings -----------------------------------------------------------
def _sky(c: Canvas, horizon: float = 0.62) -> None:
    dusk = c.rng.random() < 0.2
    c.ground((250, 180, 120) if dusk else (130, 185, 235), (70, 120, 70), horizon)
    if not dusk:
        c.oval(0.72, 0.08, 0.86, 0.22, (255, 236, 150))


def _windows(c: Canvas, x1: float, y1: float, x2: float, y2: float, lit: Colour) -> None:
    cols, rows = 3 + c.rng.randrange(3), 3 + c.rng.randrange(4)
    for i in range(cols):
        for j in range(rows):
            wx = x1 + (x2 - x1) * (i + 0.25) / cols
            wy = y1 + (y2 - y1) * (j + 0.2) / rows
            c.rect(wx, wy, wx + (x2 - x1) * 0.5 / cols, wy + (y2 - y1) * 0.55 / rows, lit)


def hotel(c: Canvas) -> None:
    _sky(c, 0.78)
    wall = c.hue(0.25, 0.92)
    c.rect(0.14, 0.2, 0.86, 0.84, wall)
    c.rect(0.1, 0.14, 0.9, 0.22, _shade(wall, 0.7))
    _windows(c, 0.16, 0.24, 0.84, 0.66, (170, 200, 230))
    c.rect(0.42, 0.68, 0.58, 0.84, (90, 60, 40))
    c.rect(0.36, 0.62, 0.64, 0.67, c.hue(0.8, 0.7))


def room(c: Canvas) -> None:
    c.ground(c.hue(0.15, 0.95), (190, 160, 120), 0.66)
    c.rect(0.58, 0.14, 0.9, 0.44, (170, 210, 240))
    c.line([(0.74, 0.14), (0.74, 0.44)], (255, 255, 255), 0.012)
    c.rect(0.08, 0.5, 0.62, 0.78, (250, 250, 248), 0.03)
    c.rect(0.08, 0.42, 0.18, 0.78, (120, 90, 60), 0.02)
    c.rect(0.2, 0.5, 0.34, 0.58, c.hue(0.5, 0.9), 0.02)
    c.rect(0.08, 0.62, 0.62, 0.7, c.colour, 0.01)


def pool(c: Canvas) -> None:
    _sky(c, 0.45)
    c.rect(0.0, 0.45, 1.0, 1.0, (225, 215, 190))
    c.poly([(0.1, 0.6), (0.9, 0.6), (1.0, 0.95), (0.0, 0.95)], (60, 180, 220))
    for i in range(3):
        c.line([(0.2 + i * 0.25, 0.72), (0.32 + i * 0.25, 0.7)], (200, 240, 250), 0.01)
    c.rect(0.06, 0.48, 0.2, 0.54, c.hue(0.7, 0.9), 0.02)


def restaurant(c: Canvas) -> None:
    wall = c.hue(0.45, 0.45)
    c.ground(wall, _shade(wall, 0.6), 0.6)
    cloth = (245, 240, 230) if c.rng.random() < 0.5 else c.hue(0.4, 0.9)
    for x in (0.16, 0.56):
        c.oval(x, 0.62, x + 0.3, 0.72, cloth)
        c.rect(x + 0.13, 0.72, x + 0.17, 0.92, (60, 40, 30))
    for i in range(3):
        c.oval(0.12 + i * 0.3, 0.1, 0.24 + i * 0.3, 0.22, (255, 210, 120))


def bar(c: Canvas) -> None:
    c.ground((40, 30, 50), (70, 40, 40), 0.55)
    c.rect(0.0, 0.55, 1.0, 0.66, (120, 70, 40))
    for i in range(5):
        c.rect(0.1 + i * 0.17, 0.18, 0.16 + i * 0.17, 0.42, c.hue(0.6, 0.8), 0.02)
    c.poly([(0.4, 0.7), (0.6, 0.7), (0.52, 0.8), (0.48, 0.8)], (240, 200, 90))
    c.line([(0.5, 0.8), (0.5, 0.92)], (220, 220, 220), 0.01)


def park(c: Canvas) -> None:
    _sky(c, 0.55)
    c.poly([(0.0, 0.75), (0.5, 0.62), (1.0, 0.78), (1.0, 1.0), (0.0, 1.0)], (90, 160, 80))
    for _ in range(4):
        x = c.rng.uniform(0.05, 0.85)
        c.rect(x + 0.045, 0.55, x + 0.065, 0.75, (110, 80, 50))
        c.oval(x, 0.36, x + 0.11, 0.6, (60, 130 + c.rng.randrange(50), 60))
    c.line([(0.3, 1.0), (0.5, 0.66), (0.7, 1.0)], (210, 195, 160), 0.03)


def museum(c: Canvas) -> None:
    _sky(c, 0.85)
    stone = c.hue(0.12, 0.88)
    c.poly([(0.1, 0.3), (0.5, 0.1), (0.9, 0.3)], stone)
    c.rect(0.12, 0.3, 0.88, 0.36, _shade(stone, 0.9))
    columns = 4 + c.rng.randrange(4)
    for i in range(columns):
        x = 0.15 + i * 0.7 / columns
        c.rect(x, 0.38, x + 0.35 / columns, 0.76, stone)
    c.rect(0.08, 0.76, 0.92, 0.86, _shade(stone, 0.85))


def landmark(c: Canvas) -> None:
    _sky(c, 0.85)
    steel = (120, 110, 100)
    c.poly([(0.38, 0.86), (0.5, 0.08), (0.62, 0.86)], steel)
    c.poly([(0.44, 0.86), (0.5, 0.5), (0.56, 0.86)], (130, 185, 235))
    c.rect(0.36, 0.6, 0.64, 0.63, steel)
    c.rect(0.42, 0.36, 0.58, 0.38, steel)


def beach(c: Canvas) -> None:
    c.ground((140, 200, 240), (40, 140, 200), 0.5)
    c.rect(0.0, 0.5, 1.0, 0.62, (40, 140, 200))
    c.poly([(0.0, 0.6), (1.0, 0.66), (1.0, 1.0), (0.0, 1.0)], (240, 220, 170))
    c.oval(0.7, 0.1, 0.84, 0.24, (255, 236, 150))
    c.line([(0.25, 0.9), (0.3, 0.62)], (120, 90, 50), 0.015)
    c.d.chord(c.box(0.12, 0.52, 0.48, 0.72), 180, 360, fill=c.hue(0.8, 0.95))


def mountain(c: Canvas) -> None:
    _sky(c, 0.9)
    left, right = c.rng.uniform(0.2, 0.4), c.rng.uniform(0.6, 0.78)
    peak = c.rng.uniform(0.12, 0.3)
    c.poly([(0.0, 0.9), (left, 0.35), (0.55, 0.9)], (110, 120, 140))
    c.poly([(0.35, 0.9), (right, peak), (1.0, 0.9)], (90, 100, 125))
    c.poly([(right - 0.08, peak + 0.17), (right, peak), (right + 0.08, peak + 0.17)], (250, 250, 252))
    c.rect(0.0, 0.88, 1.0, 1.0, (80, 130, 80))


def city(c: Canvas) -> None:
    _sky(c, 0.92)
    for i in range(7):
        top = c.rng.uniform(0.2, 0.6)
        x = i * 0.15 - 0.02
        shade = c.hue(0.15, c.rng.uniform(0.45, 0.75))
        c.rect(x, top, x + 0.14, 0.95, shade)
        _windows(c, x + 0.01, top + 0.03, x + 0.13, 0.9, (250, 230, 160))


def street(c: Canvas) -> None:
    _sky(c, 0.5)
    c.poly([(0.0, 1.0), (0.42, 0.5), (0.58, 0.5), (1.0, 1.0)], (90, 90, 95))
    c.line([(0.5, 0.55), (0.5, 1.0)], (240, 220, 120), 0.012)
    c.poly([(0.0, 0.2), (0.38, 0.5), (0.38, 0.62), (0.0, 0.95)], c.hue(0.3, 0.8))
    c.poly([(1.0, 0.25), (0.62, 0.5), (0.62, 0.62), (1.0, 0.95)], c.hue(0.3, 0.75))


def news(c: Canvas) -> None:
    (city if c.rng.random() < 0.5 else street)(c)
    c.rect(0.0, 0.8, 1.0, 1.0, (187, 25, 25))
    c.rect(0.05, 0.85, 0.55, 0.9, (255, 255, 255))


def sport(c: Canvas) -> None:
    grass = (40 + c.rng.randrange(30), 110 + c.rng.randrange(40), 50 + c.rng.randrange(30))
    c.ground(grass, _shade(grass, 0.85))
    c.line([(0.5, 0.0), (0.5, 1.0)], (240, 240, 240), 0.01)
    c.oval(0.35, 0.35, 0.65, 0.65, None, (240, 240, 240), 0.01)
    bx, by = c.rng.uniform(0.1, 0.8), c.rng.uniform(0.1, 0.8)
    c.oval(bx, by, bx + 0.12, by + 0.12, (250, 250, 250))
    c.oval(bx + 0.04, by + 0.04, bx + 0.08, by + 0.08, (30, 30, 30))


def photo(c: Canvas) -> None:
    (park, city, beach, mountain)[c.rng.randrange(4)](c)


def video(c: Canvas) -> None:
    """A frame of a video: a scene of some kind, not a play button."""
    (park, city, beach, mountain, room, restaurant, sport, street)[c.rng.randrange(8)](c)


def short(c: Canvas) -> None:
    video(c)
    avatar_head(c, 0.3, 0.3, 0.7, 0.9)


def channel(c: Canvas) -> None:
    c.ground(c.hue(0.6, 0.8), c.hue(0.6, 0.55))
    c.oval(0.2, 0.2, 0.8, 0.8, (250, 250, 250))
    c.oval(0.3, 0.3, 0.7, 0.7, c.colour)
    c.poly([(0.44, 0.4), (0.44, 0.6), (0.6, 0.5)], (250, 250, 250))


def dish(c: Canvas) -> None:
    c.ground((150, 110, 80), (120, 85, 60))
    c.oval(0.1, 0.1, 0.9, 0.9, (250, 250, 248))
    c.oval(0.2, 0.2, 0.8, 0.8, (240, 238, 232))
    for _ in range(6):
        x, y = c.rng.uniform(0.28, 0.62), c.rng.uniform(0.28, 0.62)
        s = c.rng.uniform(0.08, 0.16)
        c.oval(x, y, x + s, y + s, c.hue(0.7, c.rng.uniform(0.6, 0.95)))


def coffee(c: Canvas) -> None:
    table = c.hue(0.35, 0.6)
    c.ground(table, _shade(table, 0.8))
    c.oval(0.14, 0.14, 0.86, 0.86, (245, 245, 242) if c.rng.random() < 0.6 else c.hue(0.5, 0.85))
    c.oval(0.26, 0.26, 0.74, 0.74, (110, 65, 35))
    c.oval(0.38, 0.36, 0.62, 0.6, (215, 185, 150))
    c.oval(0.84, 0.44, 0.96, 0.56, None, (245, 245, 242), 0.03)


def map_(c: Canvas) -> None:
    """A street map with a pin: a map preview."""
    c.ground((236, 232, 224), (230, 226, 218))
    c.oval(c.rng.uniform(-0.2, 0.5), c.rng.uniform(0.5, 0.8), 0.9, 1.3, (200, 228, 190))
    for i in range(5):
        offset = c.rng.uniform(-0.05, 0.05)
        c.line([(0.0, 0.1 + i * 0.2 + offset), (1.0, 0.14 + i * 0.2 + offset)], (255, 255, 255), 0.03)
        c.line([(0.1 + i * 0.2 + offset, 0.0), (0.06 + i * 0.2 + offset, 1.0)], (255, 255, 255), 0.03)
    c.line([(0.0, 0.7), (1.0, 0.3)], (250, 214, 120), 0.05)
    c.oval(0.42, 0.3, 0.58, 0.46, (219, 68, 55))
    c.poly([(0.43, 0.41), (0.57, 0.41), (0.5, 0.55)], (219, 68, 55))
    c.oval(0.47, 0.35, 0.53, 0.41, (255, 255, 255))


def document(c: Canvas) -> None:
    c.ground((232, 236, 240), (220, 224, 230))
    c.rect(0.22, 0.08, 0.78, 0.92, (255, 255, 255), 0.02)
    c.rect(0.3, 0.16, 0.6, 0.22, c.colour)
    for i in range(8):
        c.rect(0.3, 0.3 + i * 0.07, 0.7 - 0.1 * (i % 3 == 2), 0.33 + i * 0.07, (200, 204, 210))


def avatar_head(c: Canvas, x1: float, y1: float, x2: float, y2: float) -> None:
    """A head and shoulders in the box, skin and hair from the key."""
    w, h = x2 - x1, y2 - y1
    skin, hair = c.rng.choice(SKIN), c.rng.choice(HAIR)
    c.d.pieslice(
        c.box(x1 + w * 0.1, y1 + h * 0.62, x2 - w * 0.1, y2 + h * 0.5), 180, 360, fill=c.hue(0.5, 0.75)
    )
    c.oval(x1 + w * 0.28, y1 + h * 0.14, x2 - w * 0.28, y1 + h * 0.66, skin)
    c.d.chord(c.box(x1 + w * 0.26, y1 + h * 0.1, x2 - w * 0.26, y1 + h * 0.5), 180, 360, fill=hair)
    for ex in (0.42, 0.58):
        c.oval(x1 + w * (ex - 0.025), y1 + h * 0.38, x1 + w * (ex + 0.025), y1 + h * 0.43, (50, 40, 40))


def avatar(c: Canvas) -> None:
    c.ground(c.hue(0.35, 0.9), c.hue(0.35, 0.8))
    avatar_head(c, 0.0, 0.0, 1.0, 1.0)


KINDS: dict[str, Callable[[Canvas], None]] = {
    "shoe": shoe, "watch": watch, "laptop": laptop, "phone": phone, "headphones": headphones, "camera": camera,
    "shirt": shirt, "bag": bag, "book": book, "toy": toy, "kitchen": kitchen, "furniture": furniture,
    "beauty": beauty, "grocery": grocery, "hotel": hotel, "room": room, "pool": pool, "restaurant": restaurant,
    "dish": dish, "coffee": coffee, "bar": bar, "park": park, "museum": museum, "landmark": landmark,
    "beach": beach, "mountain": mountain, "city": city, "street": street, "video": video, "short": short,
    "channel": channel, "avatar": avatar, "news": news, "sport": sport, "document": document, "map": map_, "photo": photo,
}  # fmt: skip


def kind_of(image: str) -> tuple[str, str]:
    """(kind, key) of a `kind:key` image; a string without a known kind is a photo keyed by all of it."""
    kind, sep, key = image.partition(":")
    return (kind, key) if sep and kind in KINDS else ("photo", image)


@lru_cache(maxsize=512)
def draw(image: str, w: int, h: int) -> Image.Image:
    """The picture for `image` ("kind:key") at w x h pixels."""
    kind, key = kind_of(image)
    rng = random.Random(hashlib.sha1(f"{kind}:{key}".encode()).digest())
    colour = next(
        (NAMED[word] for word in reversed(key.lower().replace("-", ":").split(":")) if word in NAMED), None
    )
    # supersample thumbnails for smooth edges; large pictures are smooth enough as drawn
    scale = 2 if w * h <= 250_000 else 1
    canvas = Canvas(max(1, w) * scale, max(1, h) * scale, rng, colour)
    KINDS[kind](canvas)
    return canvas.img.reduce(scale) if scale > 1 else canvas.img
