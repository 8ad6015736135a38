"""Icons: tiny vector glyphs drawn with Pillow primitives into a square box, so screens show
recognisable symbols without an icon font. `ICONS` maps the names apps use (`Node(icon=...)`)."""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

Draw = ImageDraw.ImageDraw
Box = tuple[int, int, int, int]


def icon_search(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s = x2 - x1
    w = max(3, s // 10)
    d.ellipse((x1 + s * 0.1, y1 + s * 0.1, x1 + s * 0.65, y1 + s * 0.65), outline=c, width=w)
    d.line((x1 + s * 0.58, y1 + s * 0.58, x2 - s * 0.1, y2 - s * 0.1), fill=c, width=w + 1)


def icon_back(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(3, (x2 - x1) // 10)
    cy = y1 + s / 2
    d.line((x1 + s * 0.15, cy, x2 - s * 0.1, cy), fill=c, width=w)
    d.line((x1 + s * 0.15, cy, x1 + s * 0.5, y1 + s * 0.15), fill=c, width=w)
    d.line((x1 + s * 0.15, cy, x1 + s * 0.5, y2 - s * 0.15), fill=c, width=w)


def icon_menu(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, _ = b
    s, w = x2 - x1, max(3, (x2 - x1) // 10)
    for k in (0.25, 0.5, 0.75):
        d.line((x1 + s * 0.1, y1 + s * k, x2 - s * 0.1, y1 + s * k), fill=c, width=w)


def icon_more(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, _ = b
    s = x2 - x1
    r = max(3, s // 12)
    for k in (0.2, 0.5, 0.8):
        cx, cy = x1 + s / 2, y1 + s * k
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c)


def icon_star(d: Draw, b: Box, c: str, filled: bool = True) -> None:
    x1, y1, x2, _ = b
    s = x2 - x1
    cx, cy, ro, ri = x1 + s / 2, y1 + s / 2, s * 0.48, s * 0.2
    pts = [
        (
            cx + (ro if k % 2 == 0 else ri) * math.sin(k * math.pi / 5),
            cy - (ro if k % 2 == 0 else ri) * math.cos(k * math.pi / 5),
        )
        for k in range(10)
    ]
    d.polygon(pts, fill=c if filled else None, outline=c)


def icon_heart(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, _ = b
    s = x2 - x1
    d.ellipse((x1 + s * 0.05, y1 + s * 0.12, x1 + s * 0.52, y1 + s * 0.55), fill=c)
    d.ellipse((x1 + s * 0.48, y1 + s * 0.12, x2 - s * 0.05, y1 + s * 0.55), fill=c)
    d.polygon(
        [(x1 + s * 0.07, y1 + s * 0.42), (x2 - s * 0.07, y1 + s * 0.42), (x1 + s / 2, y1 + s * 0.92)], fill=c
    )


def icon_cart(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, _ = b
    s, w = x2 - x1, max(3, (x2 - x1) // 12)
    d.line(
        (
            x1 + s * 0.05,
            y1 + s * 0.15,
            x1 + s * 0.22,
            y1 + s * 0.15,
            x1 + s * 0.35,
            y1 + s * 0.65,
            x2 - s * 0.12,
            y1 + s * 0.65,
            x2 - s * 0.05,
            y1 + s * 0.3,
            x1 + s * 0.27,
            y1 + s * 0.3,
        ),
        fill=c,
        width=w,
    )
    for k in (0.4, 0.78):
        d.ellipse((x1 + s * k - s * 0.07, y1 + s * 0.76, x1 + s * k + s * 0.07, y1 + s * 0.9), fill=c)


def icon_home(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(3, (x2 - x1) // 12)
    d.line(
        (x1 + s * 0.1, y1 + s * 0.5, x1 + s / 2, y1 + s * 0.12, x2 - s * 0.1, y1 + s * 0.5), fill=c, width=w
    )
    d.rectangle((x1 + s * 0.22, y1 + s * 0.45, x2 - s * 0.22, y2 - s * 0.1), outline=c, width=w)


def icon_person(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s = x2 - x1
    d.ellipse((x1 + s * 0.3, y1 + s * 0.08, x2 - s * 0.3, y1 + s * 0.48), fill=c)
    d.pieslice((x1 + s * 0.1, y1 + s * 0.55, x2 - s * 0.1, y2 + s * 0.4), 180, 360, fill=c)


def icon_gear(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, _ = b
    s = x2 - x1
    cx, cy = x1 + s / 2, y1 + s / 2
    for k in range(8):
        a = k * math.pi / 4
        d.line(
            (cx, cy, cx + s * 0.46 * math.cos(a), cy + s * 0.46 * math.sin(a)), fill=c, width=max(4, s // 7)
        )
    d.ellipse((cx - s * 0.33, cy - s * 0.33, cx + s * 0.33, cy + s * 0.33), fill=c)
    d.ellipse((cx - s * 0.13, cy - s * 0.13, cx + s * 0.13, cy + s * 0.13), fill="#ffffff")


def icon_wifi(d: Draw, b: Box, c: str) -> None:
    x1, _y1, x2, y2 = b
    s, w = x2 - x1, max(3, (x2 - x1) // 10)
    for k in (0.9, 0.6, 0.3):
        r = s * k / 2 + s * 0.05
        cx, cy = x1 + s / 2, y2 - s * 0.12
        d.arc((cx - r, cy - r, cx + r, cy + r), 225, 315, fill=c, width=w)
    d.ellipse((x1 + s / 2 - w, y2 - s * 0.12 - w, x1 + s / 2 + w, y2 - s * 0.12 + w), fill=c)


def icon_bluetooth(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(3, (x2 - x1) // 12)
    cx = x1 + s / 2
    d.line((cx, y1 + s * 0.05, cx, y2 - s * 0.05), fill=c, width=w)
    d.line((x1 + s * 0.25, y1 + s * 0.3, x2 - s * 0.25, y1 + s * 0.7, cx, y2 - s * 0.05), fill=c, width=w)
    d.line((x1 + s * 0.25, y1 + s * 0.7, x2 - s * 0.25, y1 + s * 0.3, cx, y1 + s * 0.05), fill=c, width=w)


def icon_plane(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s = x2 - x1
    cx = x1 + s / 2
    d.polygon(
        [
            (cx, y1 + s * 0.05),
            (cx + s * 0.08, y1 + s * 0.35),
            (x2 - s * 0.05, y1 + s * 0.58),
            (cx + s * 0.08, y1 + s * 0.52),
            (cx + s * 0.06, y2 - s * 0.2),
            (cx + s * 0.2, y2 - s * 0.05),
            (cx - s * 0.2, y2 - s * 0.05),
            (cx - s * 0.06, y2 - s * 0.2),
            (cx - s * 0.08, y1 + s * 0.52),
            (x1 + s * 0.05, y1 + s * 0.58),
            (cx - s * 0.08, y1 + s * 0.35),
        ],
        fill=c,
    )


def icon_sun(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, _ = b
    s = x2 - x1
    cx, cy = x1 + s / 2, y1 + s / 2
    for k in range(8):
        a = k * math.pi / 4
        d.line(
            (
                cx + s * 0.3 * math.cos(a),
                cy + s * 0.3 * math.sin(a),
                cx + s * 0.47 * math.cos(a),
                cy + s * 0.47 * math.sin(a),
            ),
            fill=c,
            width=max(3, s // 12),
        )
    d.ellipse((cx - s * 0.22, cy - s * 0.22, cx + s * 0.22, cy + s * 0.22), fill=c)


def icon_moon(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s = x2 - x1
    d.ellipse((x1 + s * 0.1, y1 + s * 0.1, x2 - s * 0.1, y2 - s * 0.1), fill=c)
    d.ellipse((x1 + s * 0.35, y1 + s * 0.02, x2 + s * 0.05, y2 - s * 0.3), fill="#ffffff")


def icon_pin(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s = x2 - x1
    d.ellipse((x1 + s * 0.18, y1 + s * 0.02, x2 - s * 0.18, y1 + s * 0.66), fill=c)
    d.polygon(
        [(x1 + s * 0.22, y1 + s * 0.45), (x2 - s * 0.22, y1 + s * 0.45), (x1 + s / 2, y2 - s * 0.02)], fill=c
    )
    d.ellipse((x1 + s * 0.38, y1 + s * 0.22, x2 - s * 0.38, y1 + s * 0.46), fill="#ffffff")


def icon_plus(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(4, (x2 - x1) // 9)
    d.line((x1 + s / 2, y1 + s * 0.15, x1 + s / 2, y2 - s * 0.15), fill=c, width=w)
    d.line((x1 + s * 0.15, y1 + s / 2, x2 - s * 0.15, y1 + s / 2), fill=c, width=w)


def icon_close(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(4, (x2 - x1) // 9)
    d.line((x1 + s * 0.2, y1 + s * 0.2, x2 - s * 0.2, y2 - s * 0.2), fill=c, width=w)
    d.line((x1 + s * 0.2, y2 - s * 0.2, x2 - s * 0.2, y1 + s * 0.2), fill=c, width=w)


def icon_check(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, _ = b
    s, w = x2 - x1, max(4, (x2 - x1) // 8)
    d.line(
        (x1 + s * 0.15, y1 + s * 0.5, x1 + s * 0.42, y1 + s * 0.75, x2 - s * 0.12, y1 + s * 0.25),
        fill=c,
        width=w,
    )


def icon_chevron(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(3, (x2 - x1) // 10)
    d.line(
        (x1 + s * 0.35, y1 + s * 0.15, x2 - s * 0.3, y1 + s / 2, x1 + s * 0.35, y2 - s * 0.15),
        fill=c,
        width=w,
    )


def icon_share(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, _ = b
    s = x2 - x1
    pts = [(x2 - s * 0.2, y1 + s * 0.2), (x1 + s * 0.2, y1 + s / 2), (x2 - s * 0.2, y1 + s * 0.8)]
    d.line(pts, fill=c, width=max(3, s // 12))
    for px, py in pts:
        d.ellipse((px - s * 0.12, py - s * 0.12, px + s * 0.12, py + s * 0.12), fill=c)


def icon_calendar(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(3, (x2 - x1) // 12)
    d.rectangle((x1 + s * 0.1, y1 + s * 0.18, x2 - s * 0.1, y2 - s * 0.08), outline=c, width=w)
    d.rectangle((x1 + s * 0.1, y1 + s * 0.18, x2 - s * 0.1, y1 + s * 0.38), fill=c)


def icon_filter(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, _ = b
    s = x2 - x1
    d.polygon(
        [
            (x1 + s * 0.08, y1 + s * 0.15),
            (x2 - s * 0.08, y1 + s * 0.15),
            (x1 + s * 0.58, y1 + s * 0.52),
            (x1 + s * 0.58, y1 + s * 0.88),
            (x1 + s * 0.42, y1 + s * 0.78),
            (x1 + s * 0.42, y1 + s * 0.52),
        ],
        fill=c,
    )


def icon_mic(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(3, (x2 - x1) // 12)
    d.rounded_rectangle(
        (x1 + s * 0.35, y1 + s * 0.05, x2 - s * 0.35, y1 + s * 0.6), radius=int(s * 0.15), fill=c
    )
    d.arc((x1 + s * 0.22, y1 + s * 0.3, x2 - s * 0.22, y1 + s * 0.75), 0, 180, fill=c, width=w)
    d.line((x1 + s / 2, y1 + s * 0.75, x1 + s / 2, y2 - s * 0.05), fill=c, width=w)


def icon_bell(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s = x2 - x1
    d.pieslice((x1 + s * 0.2, y1 + s * 0.1, x2 - s * 0.2, y1 + s * 1.0), 180, 360, fill=c)
    d.rectangle((x1 + s * 0.2, y1 + s * 0.55, x2 - s * 0.2, y1 + s * 0.75), fill=c)
    d.ellipse((x1 + s * 0.42, y2 - s * 0.22, x2 - s * 0.42, y2 - s * 0.04), fill=c)


def icon_play(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s = x2 - x1
    d.polygon(
        [(x1 + s * 0.25, y1 + s * 0.15), (x2 - s * 0.15, y1 + s / 2), (x1 + s * 0.25, y2 - s * 0.15)], fill=c
    )


def icon_bookmark(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s = x2 - x1
    d.polygon(
        [
            (x1 + s * 0.22, y1 + s * 0.08),
            (x2 - s * 0.22, y1 + s * 0.08),
            (x2 - s * 0.22, y2 - s * 0.05),
            (x1 + s / 2, y2 - s * 0.3),
            (x1 + s * 0.22, y2 - s * 0.05),
        ],
        fill=c,
    )


def icon_grid(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, _ = b
    s = x2 - x1
    for i in range(3):
        for j in range(3):
            cx, cy, r = x1 + s * (0.2 + 0.3 * i), y1 + s * (0.2 + 0.3 * j), s * 0.08
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c)


def icon_phone(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(4, (x2 - x1) // 7)
    d.arc((x1 + s * 0.1, y1 + s * 0.1, x2 - s * 0.1, y2 - s * 0.1), 100, 260, fill=c, width=w)
    d.rounded_rectangle(
        (x1 + s * 0.1, y1 + s * 0.05, x1 + s * 0.42, y1 + s * 0.3), radius=int(s * 0.08), fill=c
    )
    d.rounded_rectangle(
        (x1 + s * 0.1, y2 - s * 0.3, x1 + s * 0.42, y2 - s * 0.05), radius=int(s * 0.08), fill=c
    )


def icon_directions(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s = x2 - x1
    cx, cy = x1 + s / 2, y1 + s / 2
    d.polygon([(cx, y1), (x2, cy), (cx, y2), (x1, cy)], fill=c)
    w = max(3, s // 12)
    d.line(
        (cx - s * 0.15, cy + s * 0.15, cx - s * 0.15, cy - s * 0.02, cx + s * 0.15, cy - s * 0.02),
        fill="#ffffff",
        width=w,
    )
    d.polygon(
        [(cx + s * 0.12, cy - s * 0.14), (cx + s * 0.25, cy - s * 0.02), (cx + s * 0.12, cy + s * 0.1)],
        fill="#ffffff",
    )


def icon_globe(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(3, (x2 - x1) // 14)
    d.ellipse((x1 + s * 0.08, y1 + s * 0.08, x2 - s * 0.08, y2 - s * 0.08), outline=c, width=w)
    d.ellipse((x1 + s * 0.32, y1 + s * 0.08, x2 - s * 0.32, y2 - s * 0.08), outline=c, width=w)
    d.line((x1 + s * 0.08, y1 + s / 2, x2 - s * 0.08, y1 + s / 2), fill=c, width=w)


def icon_swap(d: Draw, b: Box, c: str) -> None:
    x1, y1, x2, y2 = b
    s, w = x2 - x1, max(3, (x2 - x1) // 10)
    for x, up in ((x1 + s * 0.32, True), (x1 + s * 0.68, False)):
        d.line((x, y1 + s * 0.15, x, y2 - s * 0.15), fill=c, width=w)
        tip = y1 + s * 0.12 if up else y2 - s * 0.12
        back = tip + (s * 0.2 if up else -s * 0.2)
        d.polygon([(x, tip), (x - s * 0.14, back), (x + s * 0.14, back)], fill=c)


# Icons drawn from a few strokes on Material's 24-unit grid, as data: (shape, coordinates...) with
# "line" x1 y1 x2 y2 ..., "box" x1 y1 x2 y2 (outlined), "fill" x1 y1 x2 y2 (filled), "ring" cx cy r,
# "dot" cx cy r, "poly" x1 y1 x2 y2 ... (filled), "arc" cx cy r start end (degrees, clockwise from 3 o'clock).
Stroke = tuple[str, *tuple[float, ...]]
STROKES: dict[str, tuple[Stroke, ...]] = {
    "thumb_up": (("poly", 3, 10, 7, 10, 7, 21, 3, 21), ("poly", 9, 10, 13, 3, 15, 4, 14, 9, 20, 9, 21, 11, 18, 20, 9, 20)),
    "thumb_down": (("poly", 3, 3, 7, 3, 7, 14, 3, 14), ("poly", 9, 4, 18, 4, 21, 13, 20, 15, 14, 15, 15, 20, 13, 21, 9, 14)),
    "subscriptions": (("box", 4, 8, 20, 20), ("line", 6, 5, 18, 5), ("line", 8, 2, 16, 2), ("poly", 10, 11, 10, 17, 15, 14)),
    "library": (("box", 7, 3, 21, 17), ("line", 3, 7, 3, 21, 17, 21), ("poly", 12, 7, 12, 13, 17, 10)),
    "history": (("arc", 12, 12, 9, 200, 500), ("poly", 1, 9, 6, 9, 3.5, 13), ("line", 12, 7, 12, 12, 15, 15)),
    "playlist_add": (("line", 3, 6, 15, 6), ("line", 3, 11, 15, 11), ("line", 3, 16, 11, 16), ("line", 18, 12, 18, 20), ("line", 14, 16, 22, 16)),
    "watch_later": (("ring", 12, 12, 9), ("line", 12, 7, 12, 12, 16, 14)),
    "schedule": (("ring", 12, 12, 9), ("line", 12, 7, 12, 12, 16, 14)),
    "captions": (("box", 3, 5, 21, 19), ("line", 6, 11, 10, 11), ("line", 12, 11, 18, 11), ("line", 6, 15, 14, 15), ("line", 16, 15, 18, 15)),
    "speed": (("arc", 12, 14, 9, 180, 360), ("line", 12, 14, 17, 8), ("dot", 12, 14, 1.5)),
    "shorts": (("poly", 8, 3, 17, 8, 8, 13, 16, 13, 7, 21, 16, 16, 7, 11),),
    "explore": (("ring", 12, 12, 9), ("poly", 15, 9, 13, 13, 9, 15, 11, 11)),
    "cast": (("line", 3, 8, 3, 5, 21, 5, 21, 19, 14, 19), ("arc", 3, 19, 5, 270, 360), ("arc", 3, 19, 9, 270, 360), ("dot", 3.5, 18.5, 1.5)),
    "notifications": (("poly", 6, 16, 6, 10, 9, 5, 15, 5, 18, 10, 18, 16, 20, 18, 4, 18), ("dot", 12, 20, 2)),
    "mail": (("box", 3, 5, 21, 19), ("line", 3, 6, 12, 13, 21, 6)),
    "email": (("box", 3, 5, 21, 19), ("line", 3, 6, 12, 13, 21, 6)),
    "inbox": (("box", 3, 3, 21, 21), ("line", 3, 14, 8, 14, 9, 17, 15, 17, 16, 14, 21, 14)),
    "send": (("poly", 3, 3, 21, 12, 3, 21, 5, 13, 13, 12, 5, 11),),
    "attach": (("line", 16, 6, 16, 17), ("arc", 12, 17, 4, 0, 180), ("line", 8, 17, 8, 5), ("arc", 10, 5, 2, 180, 360), ("line", 12, 5, 12, 16)),
    "archive": (("box", 3, 4, 21, 9), ("box", 5, 9, 19, 20), ("line", 10, 13, 14, 13)),
    "delete": (("box", 6, 7, 18, 21), ("line", 4, 5, 20, 5), ("line", 9, 3, 15, 3), ("line", 10, 10, 10, 18), ("line", 14, 10, 14, 18)),
    "label": (("line", 3, 6, 16, 6, 21, 12, 16, 18, 3, 18, 3, 6),),
    "reply": (("poly", 3, 10, 10, 4, 10, 16), ("arc", 10, 20, 10, 270, 360)),
    "reply_all": (("poly", 7, 10, 13, 5, 13, 15), ("line", 8, 5, 3, 10, 8, 15), ("arc", 13, 20, 8, 270, 360)),
    "forward": (("poly", 21, 10, 14, 4, 14, 16), ("arc", 14, 20, 10, 180, 270)),
    "edit": (("poly", 4, 20, 5, 15, 16, 4, 20, 8, 9, 19),),
    "undo": (("poly", 3, 9, 9, 4, 9, 14), ("arc", 12, 16, 8, 220, 360)),
    "refresh": (("arc", 12, 12, 8, 30, 330), ("poly", 17, 2, 21, 7, 15, 9)),
    "event": (("box", 3, 5, 21, 21), ("line", 3, 9, 21, 9), ("line", 8, 3, 8, 6), ("line", 16, 3, 16, 6), ("fill", 12, 13, 17, 18)),
    "today": (("box", 3, 5, 21, 21), ("line", 3, 9, 21, 9), ("line", 8, 3, 8, 6), ("line", 16, 3, 16, 6), ("fill", 7, 12, 11, 16)),
    "contacts": (("box", 4, 3, 20, 21), ("ring", 12, 10, 3), ("line", 7, 18, 9, 15, 15, 15, 17, 18)),
    "person_add": (("ring", 10, 8, 4), ("line", 3, 20, 5, 15, 15, 15, 17, 20), ("line", 20, 6, 20, 12), ("line", 17, 9, 23, 9)),
    "call": (("poly", 5, 3, 9, 3, 10, 8, 8, 10, 14, 16, 16, 14, 21, 15, 21, 19, 18, 21, 10, 18, 5, 12, 3, 6),),
    "message": (("poly", 3, 3, 21, 3, 21, 16, 7, 16, 3, 20),),
    "location": (("poly", 12, 22, 5, 12, 5, 8, 8, 4, 12, 2, 16, 4, 19, 8, 19, 12), ("dot", 12, 9, 3)),
    "cake": (("box", 4, 13, 20, 21), ("line", 4, 17, 20, 17), ("line", 12, 9, 12, 13), ("dot", 12, 6, 2)),
    "work": (("box", 3, 7, 21, 20), ("box", 9, 4, 15, 7), ("line", 3, 12, 21, 12)),
    "fitness": (("fill", 2, 9, 5, 15), ("fill", 19, 9, 22, 15), ("fill", 5, 7, 8, 17), ("fill", 16, 7, 19, 17), ("line", 8, 12, 16, 12)),
    "run": (("dot", 14, 4, 2), ("line", 13, 7, 10, 13, 13, 16, 12, 22), ("line", 10, 13, 6, 21), ("line", 12, 8, 17, 11, 20, 10), ("line", 11, 9, 7, 10, 5, 13)),
    "water": (("poly", 12, 2, 6, 11, 5, 15, 7, 19, 12, 21, 17, 19, 19, 15, 18, 11),),
    "sleep": (("arc", 12, 12, 9, 60, 300), ("arc", 16, 8, 8, 90, 270)),
    "heart_rate": (("poly", 12, 21, 3, 12, 3, 7, 7, 4, 12, 7, 17, 4, 21, 7, 21, 12), ),
    "favorite": (("poly", 12, 21, 3, 12, 3, 7, 7, 4, 12, 7, 17, 4, 21, 7, 21, 12), ),
    "food": (("line", 7, 3, 7, 21), ("line", 5, 3, 5, 8, 9, 8, 9, 3), ("line", 16, 21, 16, 3, 19, 8, 19, 13, 16, 13)),
    "scale": (("box", 3, 3, 21, 21), ("arc", 12, 13, 5, 180, 360), ("line", 12, 13, 14, 9)),
    "trophy": (("poly", 7, 3, 17, 3, 16, 11, 12, 14, 8, 11), ("line", 12, 14, 12, 18), ("line", 8, 21, 16, 21), ("arc", 6, 7, 3, 90, 270), ("arc", 18, 7, 3, 270, 450)),
    "tab": (("box", 3, 5, 21, 19), ("line", 3, 9, 12, 9, 12, 5)),
    "tabs": (("box", 6, 6, 21, 19), ("line", 3, 16, 3, 3, 17, 3)),
    "incognito": (("line", 3, 11, 21, 11), ("poly", 6, 11, 8, 4, 16, 4, 18, 11), ("ring", 8, 16, 3), ("ring", 16, 16, 3), ("line", 11, 16, 13, 16)),
    "download": (("line", 12, 3, 12, 15), ("line", 7, 10, 12, 15, 17, 10), ("line", 5, 20, 19, 20)),
    "text_size": (("line", 3, 5, 13, 5), ("line", 8, 5, 8, 20), ("line", 14, 11, 21, 11), ("line", 17.5, 11, 17.5, 20)),
    "translate": (("line", 3, 6, 13, 6), ("line", 8, 4, 8, 6), ("line", 5, 6, 11, 14), ("line", 11, 6, 5, 15), ("line", 13, 21, 17, 11, 21, 21), ("line", 14.5, 17, 19.5, 17)),
    "open_in_new": (("line", 11, 4, 4, 4, 4, 20, 20, 20, 20, 13), ("line", 14, 4, 20, 4, 20, 10), ("line", 20, 4, 11, 13)),
    "link": (("box", 2, 8, 11, 16), ("box", 13, 8, 22, 16), ("line", 8, 12, 16, 12)),
    "copy": (("box", 8, 7, 20, 21), ("line", 4, 17, 4, 3, 16, 3)),
    "visibility": (("arc", 12, 16, 11, 200, 340), ("arc", 12, 8, 11, 20, 160), ("dot", 12, 12, 3)),
    "lock": (("fill", 5, 10, 19, 21), ("arc", 12, 10, 5, 180, 360)),
    "info": (("ring", 12, 12, 9), ("line", 12, 11, 12, 17), ("dot", 12, 7.5, 1.3)),
    "help": (("ring", 12, 12, 9), ("arc", 12, 9, 3, 180, 400), ("line", 12, 12, 12, 14), ("dot", 12, 17, 1.3)),
    "sort": (("line", 3, 6, 21, 6), ("line", 3, 12, 15, 12), ("line", 3, 18, 9, 18)),
    "list": (("dot", 4, 6, 1.5), ("dot", 4, 12, 1.5), ("dot", 4, 18, 1.5), ("line", 8, 6, 21, 6), ("line", 8, 12, 21, 12), ("line", 8, 18, 21, 18)),
    "grid": (("fill", 4, 4, 10, 10), ("fill", 14, 4, 20, 10), ("fill", 4, 14, 10, 20), ("fill", 14, 14, 20, 20)),
    "flag": (("line", 5, 21, 5, 3), ("poly", 5, 4, 19, 4, 16, 9, 19, 14, 5, 14)),
    "news": (("box", 3, 4, 21, 20), ("fill", 6, 7, 11, 12), ("line", 13, 8, 18, 8), ("line", 13, 11, 18, 11), ("line", 6, 15, 18, 15)),
    "video": (("box", 3, 6, 16, 18), ("poly", 16, 10, 21, 7, 21, 17, 16, 14)),
    "live": (("dot", 12, 12, 3), ("arc", 12, 12, 7, 135, 225), ("arc", 12, 12, 7, 315, 405), ("arc", 12, 12, 10.5, 135, 225), ("arc", 12, 12, 10.5, 315, 405)),
    "more_vert": (("dot", 12, 5, 2), ("dot", 12, 12, 2), ("dot", 12, 19, 2)),
    "arrow_forward": (("line", 4, 12, 20, 12), ("line", 13, 5, 20, 12, 13, 19)),
    "expand_more": (("line", 6, 9, 12, 15, 18, 9),),
    "expand_less": (("line", 6, 15, 12, 9, 18, 15),),
    "chevron_left": (("line", 15, 5, 8, 12, 15, 19),),
    "chevron_right": (("line", 9, 5, 16, 12, 9, 19),),
}  # fmt: skip


def _strokes(strokes: tuple[Stroke, ...]) -> Callable[[Draw, Box, str], None]:
    """A painter for an icon given as strokes on the 24-unit grid."""

    def paint(d: Draw, b: Box, c: str) -> None:
        x1, y1, x2, _ = b
        k = (x2 - x1) / 24
        w = max(2, round(2 * k))

        def p(*xy: float) -> list[tuple[float, float]]:
            return [(x1 + xy[i] * k, y1 + xy[i + 1] * k) for i in range(0, len(xy), 2)]

        for shape, *v in strokes:
            if shape == "line":
                d.line(p(*v), fill=c, width=w, joint="curve")
            elif shape in ("box", "fill"):
                (ax, ay), (bx, by) = p(*v)
                d.rounded_rectangle((ax, ay, bx, by), radius=k, outline=c if shape == "box" else None,
                                    fill=c if shape == "fill" else None, width=w)  # fmt: skip
            elif shape in ("ring", "dot"):
                (cx, cy), r = p(v[0], v[1])[0], v[2] * k
                d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=c if shape == "ring" else None,
                          fill=c if shape == "dot" else None, width=w)  # fmt: skip
            elif shape == "poly":
                d.polygon(p(*v), fill=c)
            elif shape == "arc":
                (cx, cy), r = p(v[0], v[1])[0], v[2] * k
                d.arc((cx - r, cy - r, cx + r, cy + r), v[3], v[4], fill=c, width=w)

    return paint


ICONS: dict[str, Callable[[Draw, Box, str], None]] = {
    "search": icon_search, "back": icon_back, "menu": icon_menu, "more": icon_more, "star": icon_star,
    "star_outline": lambda d, b, c: icon_star(d, b, c, filled=False), "heart": icon_heart, "cart": icon_cart,
    "home": icon_home, "person": icon_person, "settings": icon_gear, "wifi": icon_wifi,
    "bluetooth": icon_bluetooth, "airplane": icon_plane, "brightness": icon_sun, "moon": icon_moon,
    "pin": icon_pin, "plus": icon_plus, "close": icon_close, "check": icon_check, "chevron": icon_chevron,
    "share": icon_share, "calendar": icon_calendar, "filter": icon_filter, "mic": icon_mic, "bell": icon_bell,
    "play": icon_play, "phone": icon_phone, "directions": icon_directions, "globe": icon_globe, "swap": icon_swap, "bookmark": icon_bookmark, "apps": icon_grid,
    **{name: _strokes(strokes) for name, strokes in STROKES.items()},
}  # fmt: skip


def draw_icon(d: Draw, name: str, box: Box, colour: str) -> None:
    painter = ICONS.get(name)
    if painter is not None:
        painter(d, box, colour)
