"""Mobile-Agent-v2's perception from pixels: text read off the screenshot by OCR, with its boxes.

v2 runs an OCR detector and recogniser on every screenshot and an icon detector whose crops a captioning
model describes. Here the OCR is RapidOCR (`pip install 'masbench[ocr]'`): ONNX detection and recognition
models shipped inside its wheel, so nothing is downloaded at run time and it runs on the CPU. No
captioning model can run offline, so icons come from the accessibility tree instead: each clickable
element without text, described by its content description (docs/agents.md says what this changes).
OCR reads what is drawn, so it errs the way v2 errs: split or merged lines, misread glyphs, text inside
pictures; that is the point of perceiving from pixels.
"""

from __future__ import annotations

import functools
import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from masbench.device import Observation

MIN_SCORE = 0.5  # recognitions below this confidence are dropped, as v2's pipeline drops empty ones


class OcrUnavailable(ValueError):
    """The OCR package is not installed: a setup problem, reported before a run starts."""


@functools.cache
def _engine() -> Any:
    try:
        from rapidocr_onnxruntime import RapidOCR
    except ImportError:
        raise OcrUnavailable(
            "mobileagent-v2 perceives the screen by OCR, which needs the ocr extra: "
            "pip install 'masbench[ocr]' (or use mas-mobileagent, which reads the UI tree)"
        ) from None
    return RapidOCR()


def check_available() -> None:
    """Raise OcrUnavailable now, so a run fails before its first episode rather than during it."""
    _engine()


def read_text(png: bytes) -> list[tuple[int, int, str]]:
    """(centre x, centre y, text) of each line of text OCR finds on the screenshot, top to bottom."""
    import numpy as np
    from PIL import Image

    image = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))[:, :, ::-1]  # RapidOCR takes BGR
    found, _ = _engine()(image)
    lines = []
    for box, text, score in found or []:
        if float(score) < MIN_SCORE or not str(text).strip():
            continue
        xs, ys = [p[0] for p in box], [p[1] for p in box]
        lines.append(
            (int((min(xs) + max(xs)) / 2), int((min(ys) + max(ys)) / 2), " ".join(str(text).split()))
        )
    return sorted(lines, key=lambda line: (line[1], line[0]))


def ocr_perception(observation: Observation) -> list[str]:
    """v2's screenshot information: `[x, y]; text: ...` from OCR, then `[x, y]; icon: ...` for the
    controls without text (from the tree, in place of v2's icon detector and captioner)."""
    lines = [f"[{x}, {y}]; text: {text}" for x, y, text in read_text(observation.screenshot_png)]
    for el in observation.elements:
        if (el.clickable or el.checkable) and not el.text and (el.content_desc or el.hint):
            x, y = el.center
            lines.append(f"[{x}, {y}]; icon: {' '.join((el.content_desc or el.hint).split())}")
    return lines
