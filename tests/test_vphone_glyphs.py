"""Every character the apps show has a real glyph: Roboto, or the Noto fallback for what Roboto lacks
(★ ☆ ✓ arrows, CJK), chosen glyph by glyph, so no text renders as a notdef box."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from masbench.vphone import render
from masbench.vphone.ui import FALLBACK, ROBOTO, covered, font_runs, run_font, text_width

APPS = Path(__file__).resolve().parents[1] / "masbench" / "vphone" / "apps"
SAMPLE = "Zürich Montjuïc Café € £ • – ★☆ ✓ → 東京 서울"
DATA = sorted(p for p in APPS.rglob("*") if p.suffix in (".yaml", ".json", ".py"))


def shown(text: str, size: int = 40) -> bytes:
    img = Image.new("L", (40 * len(text) + 40, 80), 0)
    render.draw_text(ImageDraw.Draw(img), (10, 10), text, size, 255)
    return img.tobytes()


@pytest.mark.parametrize("path", DATA, ids=lambda p: str(p.relative_to(APPS)))
def test_every_character_of_the_app_data_has_a_glyph(path):
    have = covered(ROBOTO) | covered(FALLBACK)
    text = path.read_text(encoding="utf-8")
    missing = sorted({ch for ch in text if ord(ch) not in have and ch.isprintable() and not ch.isspace()})
    assert missing == [], f"{path.name}: no font has {missing}"


def test_the_sample_is_fully_covered_and_split_where_the_font_changes():
    have = covered(ROBOTO) | covered(FALLBACK)
    assert all(ord(ch) in have for ch in SAMPLE if not ch.isspace())
    runs = font_runs(SAMPLE)
    assert "".join(run for run, _ in runs) == SAMPLE
    assert ("★☆", True) in runs and any("東京" in run and fallback for run, fallback in runs)
    assert all(not fallback for run, fallback in runs if "Zürich" in run)
    expected = sum(run_font(40, fallback).getlength(run) for run, fallback in runs)
    assert text_width(SAMPLE, 40) == int(expected) + 1


def test_a_star_is_drawn_as_a_star_not_as_a_missing_glyph_box():
    box = shown("\U0010fffd")  # a private-use code point no font has: Roboto's notdef box
    assert shown("★") != box and shown("東") != box and shown("★") != shown("☆")
    assert shown("★") != shown("\u2605\u2605")  # and it has a width of its own
