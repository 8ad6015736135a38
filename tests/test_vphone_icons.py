"""Every icon name draws a glyph of its own (an unknown name draws nothing, so a typo shows as a gap)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from masbench.vphone.icons import ICONS, draw_icon

ALIASES = {
    frozenset({"watch_later", "schedule"}),
    frozenset({"mail", "email"}),
    frozenset({"heart_rate", "favorite"}),
}


def glyph(name: str) -> bytes:
    img = Image.new("L", (48, 48), 0)
    draw_icon(ImageDraw.Draw(img), name, (0, 0, 48, 48), 255)
    return img.tobytes()


@pytest.mark.parametrize("name", sorted(ICONS))
def test_every_icon_draws_something(name):
    assert any(glyph(name)), name


def test_icons_are_distinct_except_declared_aliases():
    seen: dict[bytes, str] = {}
    for name in sorted(ICONS):
        other = seen.setdefault(glyph(name), name)
        assert other == name or frozenset({name, other}) in ALIASES, (name, other)
    assert not any(glyph("no_such_icon"))
