"""Set-of-marks: the screenshot with a numbered box on every listed element, so a vision model can name
an element by the same index the element list and the action space use (M3A's SoM input)."""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable

from PIL import Image, ImageDraw, ImageFont

from masbench.device import UIElement

BOX = (0, 255, 0)  # AndroidWorld's marks: a green box, the index in black on a white tag at its top left
LINE_WIDTH = 2
FONT_SIZE = 20
TAG = (34, 24)
LABEL_BOX = (150, 30)  # the white "before"/"after" box at the bottom right
LABEL_FONT_SIZE = 26


@functools.cache
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def draw_marks(image: Image.Image, elements: Iterable[UIElement]) -> Image.Image:
    """A copy of `image` with each element's bounds outlined and its index on a tag inside its top-left
    corner, drawn as AndroidWorld's M3A draws them."""
    marked = image.convert("RGB")
    draw = ImageDraw.Draw(marked)
    font = _font(FONT_SIZE)
    for el in elements:
        x1, y1, x2, y2 = el.bounds
        draw.rectangle((x1, y1, x2 - 1, y2 - 1), outline=BOX, width=LINE_WIDTH)
        draw.rectangle((x1 + 1, y1 + 1, x1 + TAG[0], y1 + TAG[1]), fill=(255, 255, 255))
        draw.text((x1 + 2, y1 + 2), str(el.index), fill=(0, 0, 0), font=font)
    return marked


def label_corner(image: Image.Image, label: str) -> Image.Image:
    """`image` with `label` in black on a white box at its bottom-right corner (M3A tells "before" from
    "after")."""
    draw = ImageDraw.Draw(image)
    w, h = LABEL_BOX
    draw.rectangle((image.width - w, image.height - h, image.width, image.height), fill=(255, 255, 255))
    left, top, _, bottom = draw.textbbox((0, 0), label, font=_font(LABEL_FONT_SIZE))
    y = image.height - h + (h - (bottom - top)) // 2 - top
    draw.text((image.width - 120 - left, y), label, fill=(0, 0, 0), font=_font(LABEL_FONT_SIZE))
    return image


def png(image: Image.Image) -> bytes:
    """PNG bytes; deterministic for the same pixels, so recorded model calls replay by content hash.
    Light compression: a full-resolution screenshot encodes in well under half the default time."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()
