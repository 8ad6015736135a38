"""Pictures by kind: every kind draws, the same key is the same picture at any size, keys and kinds differ."""

from __future__ import annotations

import pytest
from PIL import ImageChops, ImageStat

from masbench.vphone.pictures import KINDS, draw, kind_of


def difference(a, b) -> float:
    """Mean absolute pixel difference, 0-255."""
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_draws_deterministically_and_varies_by_key(kind):
    first = draw(f"{kind}:one", 120, 160)
    colours = first.getcolors(maxcolors=100_000) or []
    assert first.size == (120, 160) and len(colours) > 4  # a drawing, not a flat fill
    draw.cache_clear()
    assert draw(f"{kind}:one", 120, 160).tobytes() == first.tobytes()
    assert any(
        draw(f"{kind}:{key}", 120, 160).tobytes() != first.tobytes() for key in ("two", "three", "four")
    )


@pytest.mark.parametrize("kind", ["shoe", "hotel", "avatar", "dish", "video"])
def test_the_same_key_is_the_same_picture_in_a_list_and_on_the_detail_page(kind):
    thumbnail, detail = draw(f"{kind}:item-7", 150, 150), draw(f"{kind}:item-7", 600, 600)
    other = draw(f"{kind}:item-8", 600, 600)
    shrunk = detail.resize((150, 150))
    assert difference(shrunk, thumbnail) < 12
    assert difference(other.resize((150, 150)), thumbnail) > difference(shrunk, thumbnail)


def test_kinds_look_different_from_each_other():
    pictures = {
        kind: draw(f"{kind}:same-key", 96, 96)
        for kind in ("shoe", "watch", "laptop", "hotel", "dish", "avatar")
    }
    names = list(pictures)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert difference(pictures[a], pictures[b]) > 8, (a, b)


def test_a_key_without_a_known_kind_is_a_photo_and_a_colour_word_colours_a_product():
    assert kind_of("B0ABC:Black") == ("photo", "B0ABC:Black") and kind_of("shoe:B0ABC:Navy") == (
        "shoe",
        "B0ABC:Navy",
    )
    navy, red = draw("shoe:B0ABC:Navy", 200, 200), draw("shoe:B0ABC:Red", 200, 200)
    assert difference(navy, red) > 2
