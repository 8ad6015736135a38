"""Mobile-Agent-v2's perception from pixels: text read off the screenshot by OCR, and icons captioned by
their look.

v2 runs an OCR detector and recogniser on every screenshot, merges the lines of one paragraph into one
block (`merge_lines`), and has an icon detector whose crops a captioning model describes ("the shape and
colour of this icon"). Here the OCR is RapidOCR (`pip install 'masbench[ocr]'`): ONNX detection and
recognition models shipped inside its wheel, so nothing is downloaded at run time and it runs on the CPU.
No detection or captioning model can run offline, so the icons are the tree's operable elements without
text (where a detector would find them), each captioned from its pixels with its shape and main colours
(`caption`): what a captioner that cannot read gives, never the accessibility label. OCR reads what is
drawn, so it errs the way v2 errs: split or merged lines, misread glyphs, text inside pictures; that is
the point of perceiving from pixels.
"""

from __future__ import annotations

import functools
import io
from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from PIL.Image import Image

    from masbench.device import Observation

MIN_SCORE = 0.5  # recognitions below this confidence are dropped, as v2's pipeline drops empty ones
MIN_ICON = 10  # v2 skips detected boxes this small or smaller (its `crop`)
CONTAINERS = ("Layout", "ScrollView", "RecyclerView", "ListView", "ViewGroup", "ViewPager", "WebView")
# v2's paragraph merge: left edges this close, the next line starting this far below, heights this alike
MERGE_X, MERGE_GAP, MERGE_HEIGHT = 10, (-10, 30), 10
COLOURS = {
    "black": (0, 0, 0), "white": (255, 255, 255), "gray": (128, 128, 128), "red": (220, 40, 40),
    "orange": (245, 140, 30), "yellow": (245, 215, 50), "green": (50, 170, 80), "blue": (40, 110, 230),
    "purple": (140, 70, 190), "pink": (240, 120, 180), "brown": (130, 80, 40),
}  # fmt: skip


class OcrUnavailable(ValueError):
    """The OCR package is not installed: a setup problem, reported before a run starts."""


class TextBox(NamedTuple):
    """A line (or merged block) of text read off the screenshot, with its box in pixels."""

    x1: int
    y1: int
    x2: int
    y2: int
    text: str

    @property
    def center(self) -> tuple[int, int]:
        return (self.x1 + self.x2) // 2, (self.y1 + self.y2) // 2


@functools.cache
def _engine() -> Any:
    try:
        from rapidocr_onnxruntime import RapidOCR
    except ImportError:
        raise OcrUnavailable(
            "mobileagent-v2 and mas-mobileagent perceive the screen by OCR, which needs the ocr extra: "
            "pip install 'masbench[ocr]' (or use their -tree variants, which read the UI tree)"
        ) from None
    return RapidOCR()


def check_available() -> None:
    """Raise OcrUnavailable now, so a run fails before its first episode rather than during it."""
    _engine()


def _image(png: bytes) -> Image:
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("RGB")


def read_text(png: bytes) -> list[TextBox]:
    """Each line of text OCR finds on the screenshot, top to bottom."""
    import numpy as np

    found, _ = _engine()(np.asarray(_image(png))[:, :, ::-1])  # RapidOCR takes BGR
    lines = []
    for box, text, score in found or []:
        if float(score) < MIN_SCORE or not str(text).strip():
            continue
        xs, ys = [int(p[0]) for p in box], [int(p[1]) for p in box]
        lines.append(TextBox(min(xs), min(ys), max(xs), max(ys), " ".join(str(text).split())))
    return sorted(lines, key=lambda line: (line.y1, line.x1))


def merge_lines(lines: list[TextBox]) -> list[TextBox]:
    """v2's `merge_text_blocks`: a line that starts under the previous line of a block, left-aligned with
    it and as tall, joins that block (texts joined by a line break, boxes united)."""
    lines = sorted(lines, key=lambda line: (line.y1, line.x1))
    merged = [False] * len(lines)
    blocks = []
    for i, first in enumerate(lines):
        if merged[i]:
            continue
        group, anchor = [first], first
        for j in range(i + 1, len(lines)):
            line = lines[j]
            if (
                not merged[j]
                and abs(anchor.x1 - line.x1) < MERGE_X
                and MERGE_GAP[0] <= line.y1 - anchor.y2 < MERGE_GAP[1]
                and abs((anchor.y2 - anchor.y1) - (line.y2 - line.y1)) < MERGE_HEIGHT
            ):
                group.append(line)
                merged[j], anchor = True, line
        xs, ys = [b.x1 for b in group] + [b.x2 for b in group], [b.y1 for b in group] + [b.y2 for b in group]
        blocks.append(TextBox(min(xs), min(ys), max(xs), max(ys), "\n".join(b.text for b in group)))
    return blocks


def _colour_name(rgb: tuple[int, int, int]) -> str:
    return min(COLOURS, key=lambda name: sum((a - b) ** 2 for a, b in zip(rgb, COLOURS[name], strict=True)))


def caption(image: Image, box: tuple[int, int, int, int]) -> str:
    """A caption from the pixels alone: the icon's shape and its two main colours."""
    x1, y1, x2, y2 = box
    ratio = (x2 - x1) / max(1, y2 - y1)
    shape = "square" if 0.8 <= ratio <= 1.25 else "wide" if ratio > 1.25 else "tall"
    data = image.crop(box).resize((16, 16)).tobytes()
    pixels = [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]
    colours = Counter(_colour_name(p) for p in pixels).most_common(2)
    if len(colours) == 2 and colours[1][1] >= 26:  # the second colour covers a tenth of the icon or more
        return f"a {shape} icon, {colours[1][0]} on {colours[0][0]}"
    return f"a {shape} {colours[0][0]} icon"


def icon_boxes(observation: Observation) -> list[tuple[int, int, int, int]]:
    """Where v2's icon detector would find icons: operable elements without text, not layout containers."""
    return [
        el.bounds
        for el in observation.elements
        if (el.clickable or el.checkable or el.long_clickable)
        and not el.text
        and not el.short_class.endswith(CONTAINERS)
        and el.bounds[2] - el.bounds[0] > MIN_ICON
        and el.bounds[3] - el.bounds[1] > MIN_ICON
    ]


def ocr_perception(observation: Observation, lines: list[TextBox]) -> list[str]:
    """v2's screenshot information: `[x, y]; text: ...` per merged block of the OCR `lines`, then
    `[x, y]; icon: ...` per icon with its caption from the pixels."""
    image = _image(observation.screenshot_png)
    infos = [f"[{b.center[0]}, {b.center[1]}]; text: {b.text}" for b in merge_lines(lines)]
    for box in icon_boxes(observation):
        infos.append(f"[{(box[0] + box[2]) // 2}, {(box[1] + box[3]) // 2}]; icon: {caption(image, box)}")
    return infos
