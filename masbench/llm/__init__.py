"""Models behind one small interface: `LLM.generate(messages) -> Response`.

`make_llm` turns a `--model` value into a backend:

- `gemini-2.5-pro` (any `gemini-*` name), or `gemini:NAME` for other models the Gemini API serves; the key
  comes from `GEMINI_API_KEY` or `GOOGLE_API_KEY`, an optional proxy/gateway from `MASBENCH_GEMINI_BASE_URL`;
- `openai:MODEL@BASE_URL`, e.g. `openai:qwen2.5-vl-7b@http://localhost:8000/v1`, or `openai:MODEL` with the
  endpoint in `OPENAI_BASE_URL`; `OPENAI_API_KEY` is sent when set;
- `cassette:PATH` replays a recorded run: same answers, tokens and latencies, no key, no network;
- `scripted:PATH` answers from a YAML/JSON list (see `masbench.llm.scripted`).

Recording: `make_llm(spec, default_model=..., record_to=PATH)` wraps the backend in a `RecordingLLM` that
appends every call to the JSONL cassette at PATH; `--model cassette:PATH` then replays that run. The runner
passes `record_to` (e.g. `<run dir>/llm_cassette.jsonl`) so every live run can be re-scored without paying
again. The Gemini and OpenAI-compatible backends are imported only when asked for.
"""

from __future__ import annotations

from pathlib import Path

from masbench.llm.base import (
    DEFAULT_GEMINI_MODEL,
    LLM,
    DeadlineExceeded,
    LLMConfigError,
    LLMError,
    RetryPolicy,
    TransientLLMError,
    with_retries,
)
from masbench.llm.cassette import CassetteLLM, CassetteMissError, RecordingLLM
from masbench.llm.prices import cost_usd, load_prices
from masbench.llm.scripted import ScriptedLLM
from masbench.llm.types import Message, Part, Response, Usage

MODEL_FORMS = (
    "gemini-NAME (e.g. gemini-2.5-pro), gemini:NAME, openai:MODEL@BASE_URL, openai:MODEL (with OPENAI_BASE_URL), "
    "cassette:PATH, scripted:PATH"
)

__all__ = [
    "DEFAULT_GEMINI_MODEL",
    "LLM",
    "MODEL_FORMS",
    "CassetteLLM",
    "CassetteMissError",
    "DeadlineExceeded",
    "LLMConfigError",
    "LLMError",
    "Message",
    "Part",
    "RecordingLLM",
    "Response",
    "RetryPolicy",
    "ScriptedLLM",
    "TransientLLMError",
    "Usage",
    "cost_usd",
    "load_prices",
    "make_llm",
    "with_retries",
]


def make_llm(
    spec: str | None, *, default_model: str = DEFAULT_GEMINI_MODEL, record_to: str | Path | None = None
) -> LLM:
    """The backend a `--model` value names (Gemini `default_model` when empty), recorded to `record_to` if given."""
    llm = _backend((spec or "").strip() or default_model)
    return RecordingLLM(llm, record_to) if record_to else llm


def _backend(spec: str) -> LLM:
    kind, _, rest = spec.partition(":")
    if spec.startswith("gemini-") or (kind == "gemini" and rest):
        from masbench.llm.gemini import GeminiLLM

        return GeminiLLM(rest if kind == "gemini" else spec)
    model, _, base_url = rest.partition("@")
    if kind == "openai" and model:
        from masbench.llm.openai_compat import OpenAICompatLLM

        return OpenAICompatLLM(model, base_url or None)
    if kind == "cassette" and rest:
        return CassetteLLM(rest)
    if kind == "scripted" and rest:
        return ScriptedLLM.from_file(rest)
    raise LLMConfigError(f"unknown model {spec!r}; use one of: {MODEL_FORMS}")
