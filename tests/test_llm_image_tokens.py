"""Image tokens by the model family's rule, where no API count exists: Gemini's 768-px tiles of 258
tokens, OpenAI's 85 + 170 per 512-px tile (an estimate), and a scripted call billed by Gemini's rule."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from masbench.llm import Message, ScriptedLLM
from masbench.llm.image_tokens import family_of, image_size, image_tokens


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), "white").save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize(
    ("size", "gemini", "openai"),
    [
        ((1080, 2400), 8 * 258, 85 + 8 * 170),  # a phone screenshot: 2 x 4 tiles either way
        ((384, 384), 258, 85 + 170),  # small enough for one Gemini image
        ((385, 100), 258, 85 + 170),  # just over: one 768-px tile
        ((1536, 769), 4 * 258, 85 + 170 * 6),  # 769 px is two tiles high for Gemini
    ],
)
def test_each_family_bills_an_image_by_its_own_tiles(size, gemini, openai):
    assert image_tokens(*size, "gemini") == gemini
    assert image_tokens(*size, "openai") == openai


def test_the_size_comes_from_the_header_and_broken_bytes_cost_the_smallest_image():
    assert image_size(png(1080, 2400)) == (1080, 2400)
    assert image_size(b"\x89PNG\r\n\x1a\nnot really") == (1, 1)


def test_openai_servers_are_billed_by_openais_rule_everything_else_by_geminis():
    assert family_of("openai:qwen@http://localhost:8000/v1") == "openai"
    assert {family_of(m) for m in ("gemini-2.5-pro", "scripted:x.yaml", "cassette:c.jsonl")} == {"gemini"}


def test_a_scripted_call_counts_a_screenshot_as_gemini_bills_it():
    llm = ScriptedLLM(["ok"])
    response = llm.generate([Message.user("abcd", png(1080, 2400))])
    assert response.input_tokens == 1 + 8 * 258
