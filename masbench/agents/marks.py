"""Set-of-marks: the screenshot with a numbered box on every listed element, so a vision model can name
an element by the same index the element list and the action space use (M3A's SoM input)."""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable

from PIL import Image, ImageDraw, ImageFont

from masbench.device import UIElement

PALETTE = ((230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180), (0, 128, 128))
LINE_WIDTH = 4
FONT_SIZE = 30


@functools.cache
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def draw_marks(image: Image.Image, elements: Iterable[UIElement]) -> Image.Image:
    """A copy of `image` with each element's bounds outlined and its index in a filled tag inside its top-left corner."""
    marked = image.convert("RGB")
    draw = ImageDraw.Draw(marked)
    font = _font(FONT_SIZE)
    for el in elements:
        colour = PALETTE[el.index % len(PALETTE)]
        x1, y1, x2, y2 = el.bounds
        draw.rectangle((x1, y1, x2 - 1, y2 - 1), outline=colour, width=LINE_WIDTH)
        label = str(el.index)
        left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
        w, h = right - left + 10, bottom - top + 8
        draw.rectangle((x1, y1, x1 + w, y1 + h), fill=colour)
        draw.text((x1 + 5 - left, y1 + 4 - top), label, fill=(255, 255, 255), font=font)
    return marked


def label_corner(image: Image.Image, label: str) -> Image.Image:
    """`image` with `label` in a dark tag at its bottom-right corner (M3A tells "before" from "after")."""
    draw = ImageDraw.Draw(image)
    font = _font(FONT_SIZE * 2)
    left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
    w, h = right - left + 24, bottom - top + 16
    x, y = image.width - w, image.height - h
    draw.rectangle((x, y, image.width, image.height), fill=(0, 0, 0))
    draw.text((x + 12 - left, y + 8 - top), label, fill=(255, 255, 255), font=font)
    return image


def png(image: Image.Image) -> bytes:
    """PNG bytes; deterministic for the same pixels, so recorded model calls replay by content hash.
    Light compression: a full-resolution screenshot encodes in well under half the default time."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()
