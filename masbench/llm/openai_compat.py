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

    def _post(self, request: urllib.request.Request) -> Any:
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
        except ValueError as e:  # not JSON, or not even UTF-8
            raise LLMError(f"{self.name}: {self.url} did not return JSON: {e}") from e

    def _response(self, payload: Any, latency_s: float) -> Response:
        """The reply in any shape the API allows: `content` as a string, null (a refusal or tool calls
        only) or a list of parts; anything else is a malformed reply, an `LLMError` (a fault of the model
        service, recorded like any failed call), never an exception the harness did not expect."""
        choices = payload.get("choices") if isinstance(payload, dict) else None
        choice = choices[0] if isinstance(choices, list) and choices else None
        if not (isinstance(choice, dict) and isinstance(message := choice.get("message"), dict)):
            raise LLMError(f"{self.name}: response has no choices with a message: {str(payload)[:300]}")
        text = _reply_text(message.get("content"))
        if text is None:
            raise LLMError(f"{self.name}: malformed message content: {str(message)[:300]}")
        usage = payload.get("usage") if isinstance(payload.get("usage"), dict) else {}
        return Response(
            text=text,
            input_tokens=_count(usage.get("prompt_tokens")),
            output_tokens=_count(usage.get("completion_tokens")),
            latency_s=latency_s,
            model=self.name,
            raw={
                "id": payload.get("id"),
                "model": payload.get("model"),
                "finish_reason": choice.get("finish_reason"),
                "refusal": message.get("refusal"),
                "usage": usage,
            },
        )


def _reply_text(content: Any) -> str | None:
    """A message's text: a string as is, null as "", a list of parts as its text parts joined (images,
    refusals and other part types carry no text for the agent); None for a shape the API does not have."""
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list) or not all(isinstance(p, dict) for p in content):
        return None
    texts = [p.get("text") for p in content if p.get("type") in ("text", "output_text", None)]
    return "".join(t for t in texts if isinstance(t, str))


def _count(value: Any) -> int:
    """A token count as reported, 0 when a server leaves it out or sends something else."""
    return value if isinstance(value, int) and value >= 0 else 0


def _content(message: Message) -> str | list[dict[str, Any]]:
    if not message.images:
        return message.text
    return [_part(p) for p in message.parts]


def _part(part: Part) -> dict[str, Any]:
    if part.image is None:
        return {"type": "text", "text": part.text}
    url = f"data:{part.mime_type};base64,{base64.b64encode(part.image).decode('ascii')}"
    return {"type": "image_url", "image_url": {"url": url}}
