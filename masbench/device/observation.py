"""What one `Device.observe()` returns: the screen as pixels and as a parsed UI tree, plus where we are."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from .elements import UIElement


@dataclass
class Observation:
    """A screenshot, the raw and parsed UI dump, the foreground app and how long it took to get them.

    ``timestamp`` is wall-clock seconds since the epoch when the observation started; ``wall_ms`` is how
    long the observation took, so reports can separate device latency from model latency.
    ``screenshot`` is an RGB Pillow image that may decode its pixels lazily on first use (a text-only
    agent never pays for decoding); ``screenshot_png`` holds the bytes as the device sent them.
    """

    screenshot: Image.Image | None  # None when observed without a screenshot
    screenshot_png: bytes
    xml: str
    elements: list[UIElement]
    package: str
    activity: str
    width: int
    height: int
    timestamp: float
    wall_ms: float
    timings_ms: dict[str, float] = field(default_factory=dict)

    def describe_elements(self) -> str:
        """The element list as prompt text, one `UIElement.describe()` line each."""
        return "\n".join(el.describe() for el in self.elements)

    def element(self, index: int) -> UIElement:
        """The element the agent means by `index`; IndexError names the valid range."""
        if not 0 <= index < len(self.elements):
            raise IndexError(f"element index {index} is out of range 0..{len(self.elements) - 1}")
        return self.elements[index]

    def save(self, directory: str | Path) -> dict[str, Path]:
        """Write screenshot.png, window_dump.xml and elements.json into `directory` (created if needed)."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        paths = {
            "screenshot": out / "screenshot.png",
            "xml": out / "window_dump.xml",
            "elements": out / "elements.json",
        }
        paths["screenshot"].write_bytes(self.screenshot_png)
        paths["xml"].write_text(self.xml, encoding="utf-8")
        meta = {
            "package": self.package,
            "activity": self.activity,
            "width": self.width,
            "height": self.height,
            "timestamp": self.timestamp,
            "wall_ms": round(self.wall_ms, 2),
            "elements": [el.model_dump(mode="json") for el in self.elements],
        }
        paths["elements"].write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
        return paths


__all__ = ["Observation"]
