"""Gemini through the official `google-genai` client.

google-genai's own retries are switched off (one attempt per call) so `RetryPolicy` is the only policy and
tests can count attempts. A base URL (argument or `MASBENCH_GEMINI_BASE_URL`) points the client at a proxy,
a gateway or a local test server.
"""

from __future__ import annotations

import importlib
import os
import time
from typing import Any

from google import genai
from google.genai import errors as genai_errors
from google.genai import types as gt

from masbench.llm.base import (
    DEFAULT_GEMINI_MODEL,
    LLM,
    LLMConfigError,
    LLMError,
    RetryPolicy,
    TransientLLMError,
    attempt_timeout,
    is_transient_status,
    parse_retry_after,
    with_retries,
)
from masbench.llm.types import Message, Part, Response

KEY_ENVS = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
BASE_URL_ENV = "MASBENCH_GEMINI_BASE_URL"
MISSING_KEY = (
    "GEMINI_API_KEY is not set; set it (or GOOGLE_API_KEY), or pass --model cassette:PATH to replay "
    "a recorded run, or --model scripted:PATH"
)


def _transport_errors() -> tuple[type[Exception], ...]:
    """Network failures worth retrying, from whichever httpx flavour this google-genai version uses."""
    found: list[type[Exception]] = []
    for name in ("httpx", "httpx2"):
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        found += [mod.TimeoutException, mod.NetworkError, mod.RemoteProtocolError]
    return tuple(found)


_TRANSPORT_ERRORS = _transport_errors()


def api_key_from_env() -> str | None:
    return next((os.environ[k] for k in KEY_ENVS if os.environ.get(k)), None)


class GeminiLLM(LLM):
    def __init__(
        self,
        model: str = DEFAULT_GEMINI_MODEL,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout_s: float = 120.0,
        retry: RetryPolicy | None = None,
    ) -> None:
        key = api_key or api_key_from_env()
        if not key:
            raise LLMConfigError(MISSING_KEY)
        self.name = model
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy()
        http_options = gt.HttpOptions(
            base_url=base_url or os.environ.get(BASE_URL_ENV) or None,
            timeout=round(timeout_s * 1000),
            retry_options=gt.HttpRetryOptions(attempts=1),
        )
        self._client = genai.Client(api_key=key, vertexai=False, http_options=http_options)

    def generate(
        self, messages: list[Message], *, temperature: float = 0.0, max_output_tokens: int | None = None
    ) -> Response:
        system: list[gt.PartUnion] = [_part(p) for m in messages if m.role == "system" for p in m.parts]
        contents = [
            gt.Content(role=m.role, parts=[_part(p) for p in m.parts]) for m in messages if m.role != "system"
        ]

        def attempt() -> Response:
            start = time.monotonic()
            config = gt.GenerateContentConfig(
                system_instruction=system or None,
                temperature=temperature,
                max_output_tokens=max_output_tokens,
                http_options=gt.HttpOptions(timeout=round(attempt_timeout(self.timeout_s) * 1000)),
            )
            try:
                result = self._client.models.generate_content(
                    model=self.name, contents=contents, config=config
                )
            except genai_errors.APIError as e:
                raise self._translate(e) from e
            except _TRANSPORT_ERRORS as e:
                raise TransientLLMError(f"{self.name}: {type(e).__name__}: {e}") from e
            except (ValueError, TypeError) as e:  # a reply the client cannot parse (pydantic's errors too)
                raise LLMError(f"{self.name}: malformed reply: {str(e)[:300]}") from e
            return self._response(result, time.monotonic() - start)

        return with_retries(attempt, self.retry)

    def _translate(self, e: genai_errors.APIError) -> LLMError:
        status = f"HTTP {e.code} {e.status}" if e.status else f"HTTP {e.code}"
        message = f"{self.name}: {status}: {e.message or e.details}"
        if is_transient_status(e.code):
            headers = getattr(e.response, "headers", None) or {}
            return TransientLLMError(message, retry_after_s=parse_retry_after(headers.get("retry-after")))
        return LLMError(message)

    def _response(self, result: gt.GenerateContentResponse, latency_s: float) -> Response:
        usage = result.usage_metadata or gt.GenerateContentResponseUsageMetadata()
        raw: dict[str, Any] = result.model_dump(
            mode="json",
            exclude_none=True,
            include={"model_version", "response_id", "usage_metadata", "prompt_feedback"},
        )
        if result.candidates and result.candidates[0].finish_reason:
            reason = result.candidates[0].finish_reason
            raw["finish_reason"] = str(getattr(reason, "value", reason))
        return Response(
            text=_text(result),
            input_tokens=usage.prompt_token_count or 0,
            output_tokens=(usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0),
            latency_s=latency_s,
            model=self.name,
            raw=raw,
        )


def _text(result: gt.GenerateContentResponse) -> str:
    """The first candidate's text parts, thoughts left out; "" for a reply with no candidate, no content or
    no text (blocked, cut at the token limit, tool calls only): the agent sees an empty answer."""
    content = result.candidates[0].content if result.candidates else None
    parts = (content.parts if content else None) or []
    return "".join(p.text for p in parts if isinstance(p.text, str) and not p.thought)


def _part(part: Part) -> gt.Part:
    if part.image is not None:
        return gt.Part.from_bytes(data=part.image, mime_type=part.mime_type or "")
    return gt.Part.from_text(text=part.text or "")
