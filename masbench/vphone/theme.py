"""One theme per app: its colours and named text styles, so screens say `text(name, "title")` instead of
sizes and colours, and every app reads like one app.

The phone makes an app's theme current while it builds and lays out that app's window (`use_theme`), so
widgets take their defaults from `theme()` without every call passing them on. Sizes are pixels of the
1080x2400 screen at 420 dpi (1 sp = 2.625 px), following Material 3's type scale.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Literal

Role = Literal["ink", "muted", "primary", "on_primary", "accent", "error", "success"]


@dataclass(frozen=True)
class TextStyle:
    size: int
    bold: bool = False
    role: Role = "ink"


def _default_styles() -> dict[str, TextStyle]:
    return {
        "display": TextStyle(84, bold=True),
        "headline": TextStyle(60, bold=True),
        "title": TextStyle(50, bold=True),  # app bar titles, dialog titles
        "heading": TextStyle(46, bold=True),  # section headers
        "subtitle": TextStyle(42, bold=True),  # card and list-item titles
        "body": TextStyle(42),
        "body_small": TextStyle(37),
        "label": TextStyle(38, bold=True),  # buttons, chips, tabs
        "caption": TextStyle(33, role="muted"),  # meta lines under titles
        "overline": TextStyle(29, role="muted"),
        "price": TextStyle(46, bold=True),
        "link": TextStyle(40, bold=True, role="primary"),
        "positive": TextStyle(34, bold=True, role="success"),
        "negative": TextStyle(34, bold=True, role="error"),
    }


@dataclass(frozen=True)
class Theme:
    """An app's palette and type scale."""

    primary: str = "#1a73e8"  # app bar, buttons, selected tabs and chips
    on_primary: str = "#ffffff"  # text and icons on `primary`
    accent: str = "#1a73e8"  # links, stars, highlights
    surface: str = "#ffffff"  # cards, sheets, dialogs, bars of inner screens
    background: str = "#ffffff"  # behind the content
    ink: str = "#202124"  # main text
    muted: str = "#5f6368"  # secondary text and icons
    divider: str = "#e0e0e0"
    pale: str = "#f1f3f4"  # search fields, placeholders, selected backgrounds
    error: str = "#d93025"
    success: str = "#188038"
    star: str = "#f9ab00"
    app_bar: Literal["primary", "surface"] = "surface"  # which colour inner screens' bars take
    styles: dict[str, TextStyle] = field(default_factory=_default_styles)

    def colour(self, role: Role) -> str:
        value: str = getattr(self, role)  # every Role names a str field
        return value

    def style(self, name: str) -> TextStyle:
        try:
            return self.styles[name]
        except KeyError:
            raise KeyError(f"no text style {name!r}; known: {', '.join(self.styles)}") from None


DEFAULT_THEME = Theme()
_current: ContextVar[Theme] = ContextVar("theme", default=DEFAULT_THEME)


def theme() -> Theme:
    """The theme of the app whose window is being built."""
    return _current.get()


@contextmanager
def use_theme(value: Theme) -> Iterator[Theme]:
    token = _current.set(value)
    try:
        yield value
    finally:
        _current.reset(token)
