"""Pillow renderer: draws the status bar, the app window's view tree, the soft keyboard, a toast and the
navigation bar, so vision agents see a screen that reads like a phone's."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Protocol

from PIL import Image, ImageDraw

from . import icons, keyboard, pictures
from .app import Screen
from .display import HEIGHT, NAV_BAR_H, STATUS_BAR_H, WIDTH, Frame
from .eventlog import Event
from .ui import (
    CHECKBOX,
    EDIT,
    RADIO,
    SINGLE_LINE,
    SWITCH,
    Node,
    fit_prefix,
    fit_suffix,
    font,
    line_height,
    placed_runs,
    run_font,
    text_width,
    wrap,
)

TOAST_MS = 3500
Draw = ImageDraw.ImageDraw
Box = tuple[int, int, int, int]


class Shown(Protocol):
    """What the renderer reads of the phone besides its frame: the focused field, the settings the status
    bar shows, the clock and the toasts in the event log (a VirtualPhone)."""

    settings: dict[str, dict[str, str]]
    events: list[Event]

    @property
    def top(self) -> Screen: ...

    def clock_at(self, device_ms: int) -> datetime: ...


# -- the view tree ------------------------------------------------------------------------------------


def _draw_node(img: Image.Image, d: Draw, node: Node, focus: str | None, clip: Box) -> None:
    if not node.visible():
        return
    x1, y1, x2, y2 = node.bounds
    cx1, cy1, cx2, cy2 = node.clip
    fully_visible = node.bounds == node.clip
    if node.bg and len(node.bg) == 9:  # "#RRGGBBAA": a translucent layer such as a dialog scrim
        layer = Image.new("RGBA", (cx2 - cx1, cy2 - cy1), (0, 0, 0, 0))
        ImageDraw.Draw(layer).rounded_rectangle(
            (0, 0, cx2 - cx1 - 1, cy2 - cy1 - 1), radius=node.radius if fully_visible else 0, fill=node.bg
        )
        img.paste(layer, (cx1, cy1), layer)
    elif node.bg or node.border:
        if fully_visible and node.radius:
            d.rounded_rectangle(
                (x1, y1, x2 - 1, y2 - 1),
                radius=node.radius,
                fill=node.bg,
                outline=node.border,
                width=3 if node.border else 0,
            )
        else:
            d.rectangle(
                (cx1, cy1, cx2 - 1, cy2 - 1),
                fill=node.bg,
                outline=node.border if fully_visible else None,
                width=3 if node.border else 0,
            )
    if node.image is not None:
        _draw_picture(img, node)
    if node.cls == EDIT or node.field is not None:
        _draw_field(d, node, focus)
    elif node.cls in (SWITCH, CHECKBOX, RADIO) and node.checkable:
        _draw_toggle(d, node)
    elif node.shown_text() or node.icon:
        if fully_visible:
            _draw_label(d, node)
        else:
            # draw on a layer the size of the node, then paste only its visible part
            bx1, by1, bx2, by2 = node.bounds
            layer = Image.new("RGBA", (max(1, bx2 - bx1), max(1, by2 - by1)), (0, 0, 0, 0))
            _draw_label(ImageDraw.Draw(layer), node, origin=(bx1, by1))
            visible = (cx1 - bx1, cy1 - by1, cx2 - bx1, cy2 - by1)
            part = layer.crop(visible)
            img.paste(part, (cx1, cy1), part)
    for child in node.children:
        _draw_node(img, d, child, focus, node.clip)


def _draw_picture(img: Image.Image, node: Node) -> None:
    """The node's picture (`pictures.draw`, by kind), its visible part only."""
    x1, y1, x2, y2 = node.bounds
    tile = pictures.draw(node.image or "", max(1, x2 - x1), max(1, y2 - y1))
    box = node.clip
    img.paste(tile.crop((box[0] - x1, box[1] - y1, box[2] - x1, box[3] - y1)), box[:2])


def _text_origin(node: Node, content_w: int, lines_h: int) -> tuple[int, int]:
    x1, y1, x2, y2 = node.bounds
    left, top, right, bottom = node.padding
    inner_w = x2 - x1 - left - right
    inner_h = y2 - y1 - top - bottom
    if node.align == "center":
        x = x1 + left + max(0, (inner_w - content_w) // 2)
    elif node.align == "end":
        x = x2 - right - content_w
    else:
        x = x1 + left
    if node.valign == "center":
        y = y1 + top + max(0, (inner_h - lines_h) // 2)
    elif node.valign == "end":
        y = y2 - bottom - lines_h
    else:
        y = y1 + top
    return x, y


def _draw_label(d: Draw, node: Node, origin: tuple[int, int] = (0, 0)) -> None:
    lines = node.lines or ((node.shown_text(),) if node.shown_text() else ())
    lh = line_height(node.size)
    icon_w = node.size + (12 if lines else 0) if node.icon else 0
    content_w = icon_w + max((text_width(line, node.size) for line in lines), default=0)
    lines_h = lh * max(1, len(lines)) if lines else node.size
    x, y = _text_origin(node, content_w, lines_h)
    x, y = x - origin[0], y - origin[1]
    if node.icon:
        iy = y + (lines_h - node.size) // 2
        icons.draw_icon(d, node.icon, (x, iy, x + node.size, iy + node.size), node.fg)
        x += icon_w
    for i, line in enumerate(lines):
        lx = x
        if node.align == "center" and len(lines) > 1:
            lx = x + (content_w - icon_w - text_width(line, node.size)) // 2
        draw_text(d, (lx, y + i * lh + (lh - node.size) // 2), line, node.size, node.fg, node.bold)


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, tuple[int, int]]:
    """Antialiased coverage mask of one line and its offset from the draw origin (the top of Roboto's
    ascender). Rasterising text is the renderer's main cost and screens redraw the same strings every frame,
    so masks are cached. Runs Roboto lacks (★, CJK) are drawn in the fallback font on Roboto's baseline, each
    run where `placed_runs` puts it (tabs at their stops)."""
    stroke = 1 if bold else 0
    runs, advance = placed_runs(text, size)
    if len(runs) == 1 and not runs[0][1] and runs[0][2] == 0:
        run = runs[0][0]
        x1, y1, x2, y2 = (int(v) for v in font(size).getbbox(run, stroke_width=stroke))  # ints at run time
        mask = Image.new("L", (max(1, x2 - x1), max(1, y2 - y1)), 0)
        ImageDraw.Draw(mask).text(
            (-x1, -y1), run, fill=255, font=font(size), stroke_width=stroke, stroke_fill=255
        )
        return mask, (x1, y1)
    pad = size
    baseline = pad + font(size).getmetrics()[0]
    canvas = Image.new("L", (int(advance) + 1 + 2 * pad, 3 * size + 2 * pad), 0)
    draw = ImageDraw.Draw(canvas)
    for run, fallback, x in runs:
        face = run_font(size, fallback)
        draw.text(
            (pad + x, baseline), run, fill=255, font=face, anchor="ls", stroke_width=stroke, stroke_fill=255
        )
    box = canvas.getbbox() or (pad, pad, pad + 1, pad + 1)
    return canvas.crop(box), (box[0] - pad, box[1] - pad)


def draw_text(
    d: Draw, xy: tuple[float, float], text: str, size: int, colour: str, bold: bool = False
) -> None:
    """`ImageDraw.text` with an anchor at the top-left, through the mask cache."""
    if not text:
        return
    mask, (ox, oy) = _text_mask(text, size, bold)
    x, y = int(xy[0]) + ox, int(xy[1]) + oy
    d.bitmap((x, y), mask, fill=colour)


def _half_line(size: int) -> int:
    """From a text's vertical middle up to the top of its ascender: how "centred on y" becomes a top."""
    ascent, descent = font(size).getmetrics()
    return (ascent + descent) // 2


def _draw_field(d: Draw, node: Node, focus: str | None) -> None:
    """An EditText as Android draws it: a single-line field shows its text on one line (line breaks as
    spaces) scrolled to the cursor at the end; a multi-line one wraps it, breaks lines where the text does
    and, when focused, scrolls to keep the cursor's line in view."""
    x1, y1, x2, y2 = node.bounds
    focused = focus is not None and node.field == focus
    if not node.bg:
        d.line(
            (x1 + 8, y2 - 4, x2 - 8, y2 - 4),
            fill="#1a73e8" if focused else "#9aa0a6",
            width=4 if focused else 2,
        )
    value = node.text
    shown = node.shown_text()
    colour = node.fg if value else "#80868b"
    left, top, right, bottom = node.padding
    text_x = x1 + left + (node.size + 16 if node.icon else 0)
    if node.icon:
        iy = (y1 + y2 - node.size) // 2
        icons.draw_icon(d, node.icon, (x1 + left, iy, x1 + left + node.size, iy + node.size), "#5f6368")
    room = x2 - right - text_x - 10
    if node.multiline:
        lh = line_height(node.size)
        lines = wrap(shown, node.size, room, None)
        fits = max(1, (y2 - y1 - top - bottom) // lh)
        lines = lines[-fits:] if focused and value else lines[:fits]
        ty = y1 + top + (lh - node.size) // 2
        for i, line in enumerate(lines):
            draw_text(d, (text_x, ty + i * lh), line, node.size, colour)
        cursor_y = ty + (len(lines) - 1) * lh + _half_line(node.size)
        visible = lines[-1] if value else ""
    else:
        line = shown.translate(SINGLE_LINE)
        visible = fit_suffix(line, node.size, room) if value else line[: fit_prefix(line, node.size, room)]
        cursor_y = (y1 + y2) // 2
        draw_text(d, (text_x, cursor_y - _half_line(node.size)), visible, node.size, colour)
    if focused:
        cx = text_x + (text_width(visible, node.size) if value else 0) + 2
        d.line((cx, cursor_y - node.size * 0.6, cx, cursor_y + node.size * 0.6), fill="#1a73e8", width=4)


def _draw_toggle(d: Draw, node: Node) -> None:
    x1, y1, x2, y2 = node.bounds
    cy = (y1 + y2) // 2
    left, _, right, _ = node.padding
    on = node.checked
    accent = "#1a73e8"
    if node.cls == SWITCH:
        tx2 = x2 - right
        tx1 = tx2 - 120
        d.rounded_rectangle(
            (tx1, cy - 34, tx2, cy + 34),
            radius=34,
            fill=accent if on else "#e0e3e7",
            outline=None if on else "#79747e",
            width=3,
        )
        knob = (tx2 - 62, cy - 26, tx2 - 10, cy + 26) if on else (tx1 + 16, cy - 18, tx1 + 52, cy + 18)
        d.ellipse(knob, fill="#ffffff" if on else "#79747e")
        text_right = tx1 - 20
        text_x = x1 + left
    else:
        bx = x1 + left
        if node.cls == RADIO:
            d.ellipse((bx, cy - 26, bx + 52, cy + 26), outline=accent if on else "#5f6368", width=5)
            if on:
                d.ellipse((bx + 13, cy - 13, bx + 39, cy + 13), fill=accent)
        else:
            d.rounded_rectangle(
                (bx, cy - 26, bx + 52, cy + 26),
                radius=6,
                fill=accent if on else None,
                outline=accent if on else "#5f6368",
                width=5,
            )
            if on:
                icons.icon_check(d, (bx + 4, cy - 22, bx + 48, cy + 22), "#ffffff")
        text_x = bx + 76
        text_right = x2 - right
    if node.text:
        line = node.text.translate(SINGLE_LINE)
        shown = line[: fit_prefix(line, node.size, text_right - text_x)]
        draw_text(d, (text_x, cy - _half_line(node.size)), shown, node.size, node.fg)


# -- system chrome ------------------------------------------------------------------------------------


def _status_bar(d: Draw, phone: Shown, clock: datetime, dark: bool) -> None:

    bg, fg = ("#202124", "#ffffff") if dark else ("#f1f3f4", "#202124")
    d.rectangle((0, 0, WIDTH, STATUS_BAR_H), fill=bg)
    d.text((48, STATUS_BAR_H // 2), clock.strftime("%H:%M"), fill=fg, font=font(34), anchor="lm")
    x = WIDTH - 60
    d.rounded_rectangle((x, 18, x + 26, 46), radius=4, outline=fg, width=3)  # battery
    d.rectangle((x + 5, 23, x + 21, 41), fill=fg)
    x -= 56
    if phone.settings["global"].get("airplane_mode_on") == "1":
        icons.icon_plane(d, (x, 12, x + 40, 52), fg)
    elif phone.settings["global"].get("wifi_on") == "1":
        icons.icon_wifi(d, (x, 12, x + 40, 52), fg)
    if phone.settings["global"].get("bluetooth_on") == "1":
        x -= 50
        icons.icon_bluetooth(d, (x, 14, x + 36, 50), fg)


def _nav_bar(d: Draw, dark: bool) -> None:

    top = HEIGHT - NAV_BAR_H
    bg, fg = ("#000000", "#e8eaed") if dark else ("#f1f3f4", "#3c4043")
    d.rectangle((0, top, WIDTH, HEIGHT), fill=bg)
    cy = top + NAV_BAR_H // 2
    third = WIDTH // 3
    bx = third // 2
    d.polygon([(bx + 22, cy - 26), (bx + 22, cy + 26), (bx - 24, cy)], outline=fg, width=5)
    d.ellipse((WIDTH // 2 - 28, cy - 28, WIDTH // 2 + 28, cy + 28), outline=fg, width=5)
    rx = third * 2 + third // 2
    d.rounded_rectangle((rx - 24, cy - 24, rx + 24, cy + 24), radius=6, outline=fg, width=5)


def _keyboard(d: Draw, top: int) -> None:

    d.rectangle((0, top, WIDTH, top + keyboard.HEIGHT), fill="#e8eaed")
    for key, (x1, y1, x2, y2) in keyboard.key_boxes(WIDTH):
        box = (x1 + 6, top + y1 + 10, x2 - 6, top + y2 - 10)
        special = key in ("⌫", "⏎", ",", ".")
        d.rounded_rectangle(box, radius=14, fill="#c9ccd1" if special else "#ffffff")
        cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
        if key == "⌫":
            icons.icon_back(d, (cx - 26, cy - 26, cx + 26, cy + 26), "#202124")
        elif key == "⏎":
            icons.icon_check(d, (cx - 28, cy - 28, cx + 28, cy + 28), "#1a73e8")
        elif key != "space":
            d.text((cx, cy), key, fill="#202124", font=font(48), anchor="mm")


def _toast(d: Draw, phone: Shown, at_ms: int, bottom: int) -> None:

    recent = [e for e in phone.events if e.kind == "toast" and at_ms - e.t_ms < TOAST_MS]
    if not recent:
        return
    size, lh = 38, line_height(38)
    lines = wrap(recent[-1].data["text"], size, WIDTH - 200, 2)  # a toast wraps to two lines at most
    w = min(WIDTH - 120, max(text_width(line, size) for line in lines) + 80)
    h = 100 + lh * (len(lines) - 1)
    x1 = (WIDTH - w) // 2
    d.rounded_rectangle((x1, bottom - 130 - h, x1 + w, bottom - 130), radius=50, fill="#3c4043")
    for i, line in enumerate(lines):
        y = bottom - 130 - h + 50 + i * lh - _half_line(size)
        draw_text(d, ((WIDTH - text_width(line, size)) // 2, y), line, size, "#ffffff")


def draw(phone: Shown, frame: Frame) -> Image.Image:

    dark = phone.settings["secure"].get("ui_night_mode") == "2"
    img = Image.new("RGB", (WIDTH, HEIGHT), "#121212" if dark else "#ffffff")
    d = ImageDraw.Draw(img)
    _draw_node(img, d, frame.window, phone.top.ui.get("focus"), (0, STATUS_BAR_H, WIDTH, HEIGHT))
    _status_bar(d, phone, phone.clock_at(frame.at_ms), dark)
    bottom = HEIGHT - NAV_BAR_H
    if frame.keyboard:
        bottom -= keyboard.HEIGHT
        _keyboard(d, bottom)
    _toast(d, phone, frame.at_ms, bottom)
    _nav_bar(d, dark)
    return img


class _Deflater(Protocol):
    """A zlib compressor object (zlib's or ISA-L's)."""

    def compress(self, data: bytes | memoryview, /) -> bytes: ...

    def flush(self) -> bytes: ...


_deflater: Callable[[int], _Deflater]
try:  # ISA-L's deflate writes the same zlib stream format about 9x faster at level 1 (1.4 vs 12.8 ms a frame)
    from isal.isal_zlib import compressobj as _deflater
except ImportError:  # pragma: no cover - isal is a dependency; a platform without a wheel still works
    from zlib import compressobj as _deflater


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes of an RGB image with filter "None" on every row and deflate level 1 (ISA-L when present).

    Pillow's encoder tries every row filter (adaptive filtering), which costs more than the deflate itself
    on a 1080x2400 frame; flat UI compresses about as well without filters. The rows are streamed into the
    deflater, each after its filter-type byte, from a view of the pixels: no full-frame copy is built, and
    fresh 8 MB buffers (page faults) were most of the cost."""
    w, h = img.size
    stride = w * 3
    pixels = memoryview(img.tobytes())
    deflater = _deflater(1)
    parts = []
    for top in range(0, h * stride, stride):
        parts.append(deflater.compress(b"\x00"))
        parts.append(deflater.compress(pixels[top : top + stride]))
    parts.append(deflater.flush())

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(parts)) + chunk(b"IEND", b"")
    )


def to_png(phone: Shown, frame: Frame) -> bytes:
    """The screen as PNG bytes (what `screencap -p` writes)."""
    return encode_png(draw(phone, frame))
