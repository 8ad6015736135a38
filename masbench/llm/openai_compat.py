"""Any OpenAI-compatible chat endpoint (vLLM, Ollama, LM Studio, llama.cpp server, OpenAI itself).

Speaks `POST {base_url}/chat/completions` with the standard library's HTTP client, so this backend needs no
extra package: one JSON request per call is all it uses. Images travel as `data:` URLs; text-only messages
use plain string content, which every server accepts.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import time
import urllib.error
import urllib.request
from typing import Any

from masbench.llm.base import (
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

BASE_URL_ENV = "OPENAI_BASE_URL"
KEY_ENV = "OPENAI_API_KEY"
_ROLES = {"system": "system", "user": "user", "model": "assistant"}


class OpenAICompatLLM(LLM):
    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        timeout_s: float = 120.0,
        retry: RetryPolicy | None = None,
    ) -> None:
        base_url = base_url or os.environ.get(BASE_URL_ENV)
        if not base_url:
            raise LLMConfigError(
                f"no endpoint for OpenAI-compatible model {model!r}: use --model openai:{model}@http://HOST:PORT/v1 "
                f"or set {BASE_URL_ENV}"
            )
        if not base_url.startswith(("http://", "https://")):
            raise LLMConfigError(
                f"OpenAI-compatible base URL must start with http:// or https://, got {base_url!r}"
            )
        self.name = model
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.api_key = api_key or os.environ.get(KEY_ENV)
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy()

    def generate(
        self, messages: list[Message], *, temperature: float = 0.0, max_output_tokens: int | None = None
    ) -> Response:
        body: dict[str, Any] = {
            "model": self.name,
            "messages": [{"role": _ROLES[m.role], "content": _content(m)} for m in messages],
            "temperature": temperature,
        }
        if max_output_tokens is not None:
            body["max_tokens"] = max_output_tokens
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(
            self.url, data=json.dumps(body).encode(), headers=headers, method="POST"
        )

        def attempt() -> Response:
            start = time.monotonic()
            payload = self._post(request)
            return self._response(payload, time.monotonic() - start)

        return with_retries(attempt, self.retry)

    def _post(self, request: urllib.request.Request) -> dict[str, Any]:
        try:
            with urllib.request.urlopen(request, timeout=attempt_timeout(self.timeout_s)) as reply:
                return json.loads(reply.read())
        except urllib.error.HTTPError as e:
            message = f"{self.name}: HTTP {e.code} from {self.url}: {e.read().decode(errors='replace')[:500]}"
            if is_transient_status(e.code):
                raise TransientLLMError(
                    message, retry_after_s=parse_retry_after(e.headers.get("Retry-After"))
                ) from e
            raise LLMError(message) from e
        except (urllib.error.URLError, http.client.HTTPException, OSError) as e:
            raise TransientLLMError(f"{self.name}: cannot reach {self.url}: {e}") from e
        except json.JSONDecodeError as e:
            raise LLMError(f"{self.name}: {self.url} did not return JSON: {e}") from e

    def _response(self, payload: dict[str, Any], latency_s: float) -> Response:
        try:
            choice = payload["choices"][0]
        except (KeyError, IndexError, TypeError):
            raise LLMError(f"{self.name}: response has no choices: {str(payload)[:300]}") from None
        usage = payload.get("usage") or {}
        return Response(
            text=choice.get("message", {}).get("content") or "",
            input_tokens=usage.get("prompt_tokens") or 0,
            output_tokens=usage.get("completion_tokens") or 0,
            latency_s=latency_s,
            model=self.name,
            raw={
                "id": payload.get("id"),
                "model": payload.get("model"),
                "finish_reason": choice.get("finish_reason"),
                "usage": usage,
            },
        )


def _content(message: Message) -> str | list[dict[str, Any]]:
    if not message.images:
        return message.text
    return [_part(p) for p in message.parts]


def _part(part: Part) -> dict[str, Any]:
    if part.image is None:
        return {"type": "text", "text": part.text}
    url = f"data:{part.mime_type};base64,{base64.b64encode(part.image).decode('ascii')}"
    return {"type": "image_url", "image_url": {"url": url}}
