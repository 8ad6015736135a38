"""What an image costs in prompt tokens, by the model family's published rule, for the figures shown
where no API count exists (the scripted backend, `scripts/bench_prompts.py`, docs/agents.md).

- Gemini 2.x: an image no larger than 384 px either way is 258 tokens; a larger one is cut into tiles of
  768x768 px, 258 tokens each (so a 1080x2400 screenshot is 2 x 4 tiles, 2,064 tokens).
- OpenAI-compatible servers (an estimate: the common high-detail tile rule, which such servers need not
  follow): the image is fitted within 2048x2048, its short side scaled to 768, and it costs 85 tokens plus
  170 per 512x512 tile (1,445 for a 1080x2400 screenshot).

A real run's counts are the API's; these estimates never replace them.
"""

from __future__ import annotations

import io
import math
from typing import Literal

from PIL import Image

Family = Literal["gemini", "openai"]
GEMINI_TILE, GEMINI_SMALL, GEMINI_TOKENS = 768, 384, 258
OPENAI_FIT, OPENAI_SHORT, OPENAI_TILE, OPENAI_BASE, OPENAI_PER_TILE = 2048, 768, 512, 85, 170


def family_of(model: str) -> Family:
    """The rule a `--model` value is billed by: `openai:...` servers by OpenAI's, everything else (Gemini
    names, and scripts and cassettes standing in for the paper's Gemini) by Gemini's."""
    return "openai" if model.startswith("openai:") else "gemini"


def image_size(data: bytes) -> tuple[int, int]:
    """(width, height) from the image's header, without decoding its pixels; (1, 1) for bytes no image
    reader accepts (an estimate must not end a run), which cost what the smallest image costs."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except (OSError, ValueError, AttributeError, SyntaxError):  # Pillow's errors for a broken header
        return 1, 1


def image_tokens(width: int, height: int, family: Family = "gemini") -> int:
    """The prompt tokens one `width` x `height` image costs under `family`'s rule."""
    if family == "openai":
        scale = min(1.0, OPENAI_FIT / max(width, height))
        w, h = width * scale, height * scale
        scale = OPENAI_SHORT / min(w, h) if min(w, h) > OPENAI_SHORT else 1.0
        tiles = math.ceil(w * scale / OPENAI_TILE) * math.ceil(h * scale / OPENAI_TILE)
        return OPENAI_BASE + OPENAI_PER_TILE * tiles
    if width <= GEMINI_SMALL and height <= GEMINI_SMALL:
        return GEMINI_TOKENS
    return math.ceil(width / GEMINI_TILE) * math.ceil(height / GEMINI_TILE) * GEMINI_TOKENS
