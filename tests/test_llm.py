"""The model interface: messages, retries, prices, `--model` parsing and the missing-key message.
HTTP backends are in test_llm_http.py, cassettes and scripts in test_llm_cassette.py."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from masbench.llm import (
    MODEL_FORMS,
    CassetteLLM,
    LLMConfigError,
    LLMError,
    Message,
    Part,
    RecordingLLM,
    Response,
    RetryPolicy,
    ScriptedLLM,
    TransientLLMError,
    Usage,
    cost_usd,
    load_prices,
    make_llm,
    with_retries,
)
from masbench.llm.base import parse_retry_after
from masbench.llm.gemini import MISSING_KEY, GeminiLLM
from masbench.llm.openai_compat import OpenAICompatLLM

PNG = b"\x89PNG\r\n\x1a\n\x00\x00"
JPEG = b"\xff\xd8\xff\xe0\x00\x10"


# --- messages ---


def test_user_message_sniffs_png_and_jpeg():
    message = Message.user("look", PNG, JPEG)
    assert message.role == "user" and message.text == "look"
    assert [p.mime_type for p in message.images] == ["image/png", "image/jpeg"]


def test_images_are_standard_base64_in_json_and_round_trip():
    message = Message.user("look", PNG)
    data = json.loads(message.model_dump_json())
    assert data["parts"][1]["image"] == base64.b64encode(PNG).decode()
    assert Message.model_validate_json(message.model_dump_json()) == message


def test_a_part_is_text_or_a_typed_image():
    with pytest.raises(ValidationError, match="exactly one of text or image"):
        Part(text="a", image=PNG, mime_type="image/png")
    with pytest.raises(ValidationError, match="needs mime_type"):
        Part(image=PNG)
    with pytest.raises(ValueError, match="neither PNG nor JPEG"):
        Message.user("gif", b"GIF89a")


# --- retries ---


def flaky(*outcomes):
    """A call that raises or returns each outcome in turn, counting attempts."""
    queue = list(outcomes)

    def call():
        call.attempts += 1
        outcome = queue.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    call.attempts = 0
    return call


def policy(waits: list[float], **kwargs) -> RetryPolicy:
    return RetryPolicy(sleep=waits.append, random=lambda: 1.0, **kwargs)


def test_transient_errors_back_off_exponentially_with_jitter():
    waits: list[float] = []
    call = flaky(TransientLLMError("429"), TransientLLMError("503"), TransientLLMError("timeout"), "ok")
    assert with_retries(call, policy(waits, initial_delay_s=1.0, jitter=0.5)) == "ok"
    assert call.attempts == 4
    assert waits == [1.5, 3.0, 6.0]  # initial * 2^n, plus up to 50% jitter (random() == 1 here)


def test_retry_after_replaces_backoff_but_never_exceeds_the_cap():
    waits: list[float] = []
    call = flaky(
        TransientLLMError("429", retry_after_s=4.0), TransientLLMError("429", retry_after_s=3600), "ok"
    )
    assert with_retries(call, policy(waits, max_delay_s=30.0)) == "ok"
    assert waits == [4.0, 30.0]


def test_non_transient_errors_fail_at_once():
    waits: list[float] = []
    call = flaky(LLMError("400 bad request"), "never")
    with pytest.raises(LLMError, match="400 bad request"):
        with_retries(call, policy(waits))
    assert call.attempts == 1 and waits == []


def test_exhausted_retries_name_the_attempts_and_keep_the_cause():
    waits: list[float] = []
    last = TransientLLMError("503 unavailable")
    with pytest.raises(LLMError, match="gave up after 2 attempts: 503 unavailable") as info:
        with_retries(flaky(TransientLLMError("500"), last), policy(waits, max_attempts=2))
    assert info.value.__cause__ is last and len(waits) == 1


@given(st.integers(1, 20), st.floats(0, 1))
def test_backoff_stays_within_bounds(attempt, r):
    retry = RetryPolicy(initial_delay_s=0.5, max_delay_s=20.0, jitter=0.5, random=lambda: r)
    base = min(20.0, 0.5 * 2 ** (attempt - 1))
    assert min(base, 20.0) <= retry.delay_s(attempt, None) <= min(20.0, base * 1.5)


def test_retry_after_header_forms():
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("12", now=now) == 12.0
    assert parse_retry_after("Wed, 01 Jan 2025 12:00:30 GMT", now=now) == 30.0
    assert parse_retry_after("soon", now=now) is None
    assert parse_retry_after(None) is None


def test_policy_needs_at_least_one_attempt():
    with pytest.raises(ValueError, match="at least 1"):
        RetryPolicy(max_attempts=0)


# --- prices ---


def test_known_models_cost_dollars_and_unknown_ones_are_none():
    assert cost_usd("gemini-2.5-flash", 1_000_000, 1_000_000) == pytest.approx(0.30 + 2.50)
    assert cost_usd("gemini-2.5-flash-lite", 1_000_000, 0) == pytest.approx(0.10)
    assert cost_usd("models/gemini-2.5-pro-preview-06-05", 0, 1_000_000) == pytest.approx(10.0)
    assert cost_usd("llava:13b", 10, 10) is None


def test_price_file_from_the_environment_overrides_and_extends(tmp_path, monkeypatch):
    path = tmp_path / "prices.yaml"
    path.write_text(
        "gemini-2.5-flash: {input_usd_per_1m: 1, output_usd_per_1m: 2}\n"
        "llava:13b: {input_usd_per_1m: 0, output_usd_per_1m: 0}\n"
    )
    monkeypatch.setenv("MASBENCH_PRICES", str(path))
    assert cost_usd("gemini-2.5-flash", 1_000_000, 1_000_000) == pytest.approx(3.0)
    assert cost_usd("llava:13b", 5, 5) == 0.0
    assert cost_usd("gemini-2.5-pro", 1_000_000, 0) == pytest.approx(1.25)


def test_bad_price_file_names_the_model_and_field(tmp_path):
    path = tmp_path / "prices.yaml"
    path.write_text("my-model: {input_usd_per_1m: -1, output_usd_per_1m: 2}\n")
    with pytest.raises(
        LLMConfigError, match=r"prices.yaml: model my-model: input_usd_per_1m: .*greater than or equal"
    ):
        load_prices(path)


def test_usage_adds_calls_tokens_and_cost():
    usage = Usage()
    for tokens in (1000, 3000):
        usage.add(
            Response(text="", input_tokens=tokens, output_tokens=10, latency_s=0.5, model="gemini-2.5-pro")
        )
    assert (usage.calls, usage.input_tokens, usage.output_tokens, usage.latency_s) == (2, 4000, 20, 1.0)
    assert usage.cost_usd == pytest.approx((4000 * 1.25 + 20 * 10.0) / 1e6)
    usage.add(Response(text="", input_tokens=1, output_tokens=1, latency_s=0, model="local-model"))
    assert usage.cost_usd is None and usage.input_tokens == 4001


def test_usage_merges_totals_and_an_unknown_cost_stays_unknown():
    step = Usage(calls=2, input_tokens=10, output_tokens=5, latency_s=1.0, cost_usd=0.5)
    episode = Usage()
    episode.merge(step)
    episode.merge(step)
    assert (episode.calls, episode.total_tokens, episode.latency_s, episode.cost_usd) == (4, 30, 2.0, 1.0)
    episode.merge(Usage(calls=1, cost_usd=None))
    episode.merge(step)
    assert episode.calls == 7 and episode.cost_usd is None


# --- --model parsing ---


@pytest.fixture
def no_keys(monkeypatch):
    for name in (
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "MASBENCH_GEMINI_BASE_URL",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("spec", "model"),
    [
        ("gemini-2.5-pro", "gemini-2.5-pro"),
        ("gemini:gemma-3-27b-it", "gemma-3-27b-it"),
        ("", "gemini-2.0-flash"),
    ],
)
def test_gemini_specs(spec, model, no_keys, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", "k")
    llm = make_llm(spec, default_model="gemini-2.0-flash")
    assert isinstance(llm, GeminiLLM) and llm.name == model


def test_openai_spec_splits_model_and_endpoint_at_the_first_at(no_keys):
    llm = make_llm("openai:llava:13b@http://localhost:11434/v1/")
    assert isinstance(llm, OpenAICompatLLM)
    assert (llm.name, llm.url) == ("llava:13b", "http://localhost:11434/v1/chat/completions")


def test_cassette_and_scripted_specs(tmp_path):
    script = tmp_path / "s.yaml"
    script.write_text("- hi\n")
    cassette = tmp_path / "c.jsonl"
    RecordingLLM(ScriptedLLM(["hi"]), cassette).generate([Message.user("x")])
    assert isinstance(make_llm(f"scripted:{script}"), ScriptedLLM)
    assert isinstance(make_llm(f"cassette:{cassette}"), CassetteLLM)


@pytest.mark.parametrize("spec", ["gpt-4o", "cassette:", "openai:@http://h/v1", "claude:opus"])
def test_unknown_specs_list_the_accepted_forms(spec):
    with pytest.raises(LLMConfigError) as info:
        make_llm(spec)
    assert repr(spec) in str(info.value) and MODEL_FORMS in str(info.value)


def test_missing_key_is_one_message_naming_the_variable_and_the_alternatives(no_keys):
    with pytest.raises(LLMConfigError) as info:
        make_llm("gemini-2.5-pro")
    assert str(info.value) == MISSING_KEY
    for hint in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "--model cassette:PATH", "--model scripted:PATH"):
        assert hint in MISSING_KEY
