"""The phone's display: a Pixel 7 screen's geometry and the laid-out frame it shows.

It sits at the bottom of the virtual phone's layers so the toolkit, the renderer, apps and commands read
the geometry without importing the phone model."""

from __future__ import annotations

from dataclasses import dataclass

from .ui import Node

WIDTH, HEIGHT, DENSITY = 1080, 2400, 420
STATUS_BAR_H = 63
NAV_BAR_H = 126


@dataclass
class Frame:
    """The laid-out screen for the current state, cached until the next change."""

    window: Node  # the app window: what `uiautomator dump` reports and taps hit
    package: str
    keyboard: bool  # the soft keyboard is up
    at_ms: int = 0  # the device time it shows (status bar clock, toasts): when the screen last changed
    png: bytes | None = None
    xml: str | None = None
