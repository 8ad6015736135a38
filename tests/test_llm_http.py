"""The HTTP backends against local servers started by the tests: the real google-genai client path and the
OpenAI-compatible path, with images, usage, retries and failures. One test calls the real Gemini API and is
skipped without a key."""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from llm_server import Reply, openai_ok
from PIL import Image

from masbench.llm import LLM, LLMConfigError, LLMError, Message, RetryPolicy, TransientLLMError, make_llm
from masbench.llm.gemini import GeminiLLM, api_key_from_env
from masbench.llm.openai_compat import OpenAICompatLLM

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(40))
JPEG = b"\xff\xd8\xff\xe0" + bytes(range(40))
GEMINI_PATH = re.compile(r"/v1(beta)?/models/(?P<model>[\w.\-]+):generateContent")


def b64decode_any(text: str) -> bytes:
    """google-genai sends URL-safe base64 without padding; the API takes either alphabet."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Sleeps:
    """Records backoff waits instead of sleeping."""

    waits: list[float] = field(default_factory=list)

    def policy(self, attempts: int = 5) -> RetryPolicy:
        return RetryPolicy(max_attempts=attempts, sleep=self.waits.append, random=lambda: 0.0)


def gemini_ok(text: str, prompt: int = 0, output: int = 0, thoughts: int | None = None) -> Reply:
    usage = {"promptTokenCount": prompt, "candidatesTokenCount": output, "totalTokenCount": prompt + output}
    if thoughts is not None:
        usage["thoughtsTokenCount"] = thoughts
    return Reply(
        body={
            "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}],
            "usageMetadata": usage,
            "modelVersion": "gemini-test-001",
        }
    )


def error(code: int, status: str = "ERROR", headers: dict[str, str] | None = None) -> Reply:
    return Reply(
        code, {"error": {"code": code, "message": f"fake {status}", "status": status}}, headers or {}
    )


@dataclass
class Backend:
    make: Callable[..., LLM]  # (url, retry, timeout_s=...) -> LLM
    ok: Callable[..., Reply]


BACKENDS = {
    "gemini": Backend(
        lambda url, retry, timeout_s=30.0: GeminiLLM(
            "gemini-2.5-flash", api_key="k", base_url=url, retry=retry, timeout_s=timeout_s
        ),
        gemini_ok,
    ),
    "openai": Backend(
        lambda url, retry, timeout_s=30.0: OpenAICompatLLM(
            "served-model", url + "/v1", retry=retry, timeout_s=timeout_s
        ),
        openai_ok,
    ),
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest) -> Backend:
    return BACKENDS[request.param]


# --- behaviour shared by both HTTP backends ---


def test_rate_limit_is_retried_honouring_retry_after_then_backoff(server, backend):
    sleeps = Sleeps()
    llm = backend.make(server.url, sleeps.policy())
    server.queue(
        error(429, "RESOURCE_EXHAUSTED", {"Retry-After": "7"}),
        error(429, "RESOURCE_EXHAUSTED"),
        backend.ok("done", 3, 1),
    )
    assert llm.generate([Message.user("go")]).text == "done"
    assert len(server.seen) == 3
    assert sleeps.waits == [7.0, 2.0]  # the server's Retry-After, then the policy's second backoff step


def test_bad_request_fails_at_once_with_the_server_message(server, backend):
    sleeps = Sleeps()
    llm = backend.make(server.url, sleeps.policy())
    server.queue(error(400, "INVALID_ARGUMENT"))
    with pytest.raises(LLMError, match=r"400.*fake INVALID_ARGUMENT") as info:
        llm.generate([Message.user("go")])
    assert not isinstance(info.value, TransientLLMError)
    assert len(server.seen) == 1 and sleeps.waits == []


def test_server_errors_exhaust_the_retry_budget(server, backend):
    sleeps = Sleeps()
    llm = backend.make(server.url, sleeps.policy(attempts=3))
    server.queue(
        error(500, "INTERNAL"), error(503, "UNAVAILABLE"), error(500, "INTERNAL"), backend.ok("too late")
    )
    with pytest.raises(LLMError, match="gave up after 3 attempts") as info:
        llm.generate([Message.user("go")])
    assert isinstance(info.value.__cause__, TransientLLMError)
    assert len(server.seen) == 3 and sleeps.waits == [1.0, 2.0]


def test_timeout_is_retried(server, backend):
    sleeps = Sleeps()
    llm = backend.make(server.url, sleeps.policy(), timeout_s=0.2)
    server.queue(Reply(delay_s=1.0), backend.ok("after timeout"))
    assert llm.generate([Message.user("go")]).text == "after timeout"
    assert len(server.seen) == 2 and len(sleeps.waits) == 1


def test_unreachable_endpoint_is_retried_then_reported(backend):
    sleeps = Sleeps()
    llm = backend.make("http://127.0.0.1:9", sleeps.policy(attempts=2))  # discard port: nothing listens
    with pytest.raises(LLMError, match="gave up after 2 attempts"):
        llm.generate([Message.user("go")])
    assert len(sleeps.waits) == 1


# --- Gemini through google-genai ---


def test_gemini_sends_system_text_history_and_images_and_reads_usage(server):
    llm = GeminiLLM("gemini-2.5-flash", api_key="secret", base_url=server.url, retry=Sleeps().policy())
    server.queue(gemini_ok("tap 3", prompt=1234, output=7, thoughts=40))
    messages = [
        Message.system("You operate a phone."),
        Message.user("example task"),
        Message.model("example answer"),
        Message.user("Open settings", PNG, JPEG),
    ]
    response = llm.generate(messages, temperature=0.3, max_output_tokens=256)

    (seen,) = server.seen
    assert GEMINI_PATH.fullmatch(seen.path).group("model") == "gemini-2.5-flash"
    assert seen.headers["x-goog-api-key"] == "secret"
    assert seen.body["systemInstruction"]["parts"] == [{"text": "You operate a phone."}]
    assert [c["role"] for c in seen.body["contents"]] == ["user", "model", "user"]
    text, png, jpeg = seen.body["contents"][2]["parts"]
    assert text == {"text": "Open settings"}
    for part, data, mime in [(png, PNG, "image/png"), (jpeg, JPEG, "image/jpeg")]:
        inline = part["inlineData"]
        assert b64decode_any(inline["data"]) == data
        assert inline.get("mimeType", inline.get("mime_type")) == mime
    assert seen.body["generationConfig"] == {"temperature": 0.3, "maxOutputTokens": 256}

    assert response.text == "tap 3"
    assert (response.input_tokens, response.output_tokens) == (1234, 7 + 40)  # thinking is billed as output
    assert response.model == "gemini-2.5-flash" and response.latency_s > 0
    assert response.raw["model_version"] == "gemini-test-001" and response.raw["finish_reason"] == "STOP"


def test_gemini_blocked_prompt_gives_empty_text_not_a_crash(server):
    llm = GeminiLLM(api_key="k", base_url=server.url)
    server.queue(
        Reply(body={"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 9}})
    )
    response = llm.generate([Message.user("go")])
    assert (response.text, response.input_tokens, response.output_tokens) == ("", 9, 0)
    assert response.raw["prompt_feedback"]["block_reason"] == "SAFETY"


def test_gemini_key_and_base_url_come_from_the_environment(server, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.setenv("GOOGLE_API_KEY", "from-google-env")
    monkeypatch.setenv("MASBENCH_GEMINI_BASE_URL", server.url)
    server.queue(gemini_ok("ok"))
    assert make_llm("gemini-2.5-pro").generate([Message.user("go")]).text == "ok"
    assert server.seen[0].headers["x-goog-api-key"] == "from-google-env"
    assert GEMINI_PATH.fullmatch(server.seen[0].path).group("model") == "gemini-2.5-pro"


# --- OpenAI-compatible ---


def test_openai_sends_data_urls_and_roles_and_reads_usage(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    llm = make_llm(f"openai:llava:13b@{server.url}/v1")
    server.queue(openai_ok("swipe up", prompt=900, output=5))
    messages = [Message.system("You operate a phone."), Message.model("ok"), Message.user("Scroll", PNG)]
    response = llm.generate(messages, temperature=0.7, max_output_tokens=64)

    (seen,) = server.seen
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == "Bearer sk-local"
    assert seen.body["model"] == "llava:13b"
    assert (seen.body["temperature"], seen.body["max_tokens"]) == (0.7, 64)
    system, assistant, user = seen.body["messages"]
    assert system == {"role": "system", "content": "You operate a phone."}
    assert assistant == {"role": "assistant", "content": "ok"}
    assert user["content"] == [
        {"type": "text", "text": "Scroll"},
        {
            "type": "image_url",
            "image_url": {"url": "data:image/png;base64," + base64.b64encode(PNG).decode()},
        },
    ]
    assert (response.text, response.input_tokens, response.output_tokens) == ("swipe up", 900, 5)
    assert response.model == "llava:13b"


def test_openai_base_url_from_environment_and_no_key_means_no_auth_header(server, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1/")
    server.queue(openai_ok("ok"))
    assert make_llm("openai:qwen2.5-vl").generate([Message.user("go")]).text == "ok"
    assert server.seen[0].path == "/v1/chat/completions"
    assert "authorization" not in server.seen[0].headers


def test_openai_without_endpoint_says_how_to_give_one(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(LLMConfigError, match=r"openai:m@http://HOST:PORT/v1 or set OPENAI_BASE_URL"):
        make_llm("openai:m")


def test_openai_answer_without_choices_is_a_clear_error(server):
    llm = OpenAICompatLLM("m", server.url)
    server.queue(Reply(body={"object": "error"}))
    with pytest.raises(LLMError, match="response has no choices"):
        llm.generate([Message.user("go")])


# --- the real API, only with a key ---


@pytest.mark.gemini
@pytest.mark.skipif(not api_key_from_env(), reason="needs GEMINI_API_KEY or GOOGLE_API_KEY")
def test_real_gemini_answers_with_usage():
    red = io.BytesIO()
    Image.new("RGB", (64, 64), "red").save(red, format="PNG")
    llm = GeminiLLM()
    response = llm.generate(
        [Message.system("Answer with one word."), Message.user("What colour is this image?", red.getvalue())]
    )
    assert response.text.strip()
    assert response.input_tokens > 0 and response.output_tokens > 0
