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


ICONS: dict[str, Callable[[Draw, Box, str], None]] = {
    "search": icon_search, "back": icon_back, "menu": icon_menu, "more": icon_more, "star": icon_star,
    "star_outline": lambda d, b, c: icon_star(d, b, c, filled=False), "heart": icon_heart, "cart": icon_cart,
    "home": icon_home, "person": icon_person, "settings": icon_gear, "wifi": icon_wifi,
    "bluetooth": icon_bluetooth, "airplane": icon_plane, "brightness": icon_sun, "moon": icon_moon,
    "pin": icon_pin, "plus": icon_plus, "close": icon_close, "check": icon_check, "chevron": icon_chevron,
    "share": icon_share, "calendar": icon_calendar, "filter": icon_filter, "mic": icon_mic, "bell": icon_bell,
    "play": icon_play, "phone": icon_phone, "directions": icon_directions, "globe": icon_globe, "swap": icon_swap, "bookmark": icon_bookmark, "apps": icon_grid,
}  # fmt: skip


def draw_icon(d: Draw, name: str, box: Box, colour: str) -> None:
    painter = ICONS.get(name)
    if painter is not None:
        painter(d, box, colour)
