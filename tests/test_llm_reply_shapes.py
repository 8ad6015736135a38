"""Every reply shape the model APIs allow reaches the agent as text; a malformed reply is an `LLMError` (a
fault of the model service, never a harness error); and every call, good or bad, is in the cassette so a
replay fails or succeeds at the same point. Served by the local fake model server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from llm_server import Reply

from masbench.agents.t3a import T3AAgent
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.llm import CassetteLLM, LLMError, Message, RecordingLLM, RetryPolicy
from masbench.llm.gemini import GeminiLLM
from masbench.llm.openai_compat import OpenAICompatLLM
from masbench.tasks import load_tasks

TASK = load_tasks(Path(__file__).parent / "data" / "tasks").get("settings-01")
ONE_TRY = RetryPolicy(max_attempts=1)


def openai(server) -> OpenAICompatLLM:
    return OpenAICompatLLM("served", server.url + "/v1", retry=ONE_TRY)


def gemini(server) -> GeminiLLM:
    return GeminiLLM("gemini-2.5-flash", api_key="k", base_url=server.url, retry=ONE_TRY)


def chat(message: Any, **extra: Any) -> Reply:
    return Reply(body={"choices": [{"index": 0, "message": message, "finish_reason": "stop"}], **extra})


@pytest.mark.parametrize(
    "message, text",
    [
        ({"role": "assistant", "content": [{"type": "text", "text": "Reason: go\n"}, {"type": "text", "text": "Action: x"}]},
         "Reason: go\nAction: x"),
        ({"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}, {"type": "text", "text": "ok"}]}, "ok"),
        ({"role": "assistant", "content": None, "refusal": "I can't help with that."}, ""),
        ({"role": "assistant", "content": None, "tool_calls": [{"id": "1", "type": "function",
          "function": {"name": "tap", "arguments": "{}"}}]}, ""),
        ({"role": "assistant"}, ""),
    ],
    ids=["content-parts", "refusal-part", "refusal", "tool-calls-only", "no-content"],
)  # fmt: skip
def test_openai_accepts_every_legal_message_shape(server, message, text):
    server.queue(chat(message, usage={"prompt_tokens": 7, "completion_tokens": None}))
    response = openai(server).generate([Message.user("go")])
    assert (response.text, response.input_tokens, response.output_tokens) == (text, 7, 0)


@pytest.mark.parametrize(
    "body",
    [
        {"choices": "x"},
        {"choices": [1]},
        {"choices": []},
        {"choices": [{"finish_reason": "stop"}]},
        {"choices": [{"message": {"content": 5}}]},
        {"choices": [{"message": {"content": ["a", "b"]}}]},
        [1, 2],
    ],
    ids=[
        "choices-str",
        "choice-int",
        "no-choice",
        "no-message",
        "content-int",
        "content-bare-strings",
        "array",
    ],
)
def test_a_malformed_openai_reply_is_a_model_error_on_record(server, tmp_path, body):
    cassette = tmp_path / "c.jsonl"
    server.queue(Reply(body=body))
    with pytest.raises(LLMError, match=r"served: (response has no choices|malformed message content)"):
        RecordingLLM(openai(server), cassette).generate([Message.user("go")])
    (entry,) = [json.loads(line) for line in cassette.read_text().splitlines()]
    assert "response" not in entry and "served:" in entry["error"]
    with pytest.raises(LLMError, match="served:"):  # the replay fails at the same call, the same way
        CassetteLLM(cassette).generate([Message.user("go")])


@pytest.mark.parametrize(
    "candidates, text, reason",
    [
        ([{"finishReason": "MAX_TOKENS", "index": 0}], "", "MAX_TOKENS"),
        ([{"content": {"role": "model"}, "finishReason": "SAFETY"}], "", "SAFETY"),
        ([], "", None),
        ([{"content": {"role": "model", "parts": [{"text": "a"}, {"functionCall": {"name": "f", "args": {}}},
          {"text": "b"}]}, "finishReason": "STOP"}], "ab", "STOP"),
        ([{"content": {"role": "model", "parts": [{"text": "hmm", "thought": True}, {"text": "b"}]}}], "b", None),
    ],
    ids=["no-content", "no-parts", "no-candidates", "function-call", "thought"],
)  # fmt: skip
def test_gemini_accepts_empty_candidates_and_non_text_parts(server, candidates, text, reason):
    server.queue(Reply(body={"candidates": candidates, "usageMetadata": {"promptTokenCount": 3}}))
    response = gemini(server).generate([Message.user("go")])
    assert (response.text, response.input_tokens) == (text, 3)
    assert (response.raw or {}).get("finish_reason") == reason


@pytest.mark.parametrize(
    "body",
    [{"candidates": [{"content": {"parts": "x"}}]}, {"usageMetadata": {"promptTokenCount": "many"}}],
    ids=["parts-str", "usage-str"],
)
def test_a_malformed_gemini_reply_is_a_model_error_on_record(server, tmp_path, body):
    cassette = tmp_path / "c.jsonl"
    server.queue(Reply(body=body))
    with pytest.raises(LLMError, match="malformed reply"):
        RecordingLLM(gemini(server), cassette).generate([Message.user("go")])
    assert "malformed reply" in json.loads(cassette.read_text())["error"]


def play(device, server, tmp_path: Path):
    cassette = tmp_path / "llm_cassette.jsonl"
    agent = T3AAgent(llm=RecordingLLM(openai(server), cassette))
    result = run_episode(
        device, TASK, agent, EpisodeSettings(Limits(2, 30.0), save_screens=False),
        kb=None, shortcuts=None, run_dir=tmp_path,
    )  # fmt: skip
    return result, [json.loads(line) for line in cassette.read_text().splitlines()]


def test_an_episode_reads_content_parts_and_acts(device, server, tmp_path):
    parts = [{"type": "text", "text": "Reason: the status is wanted.\n"}, {"type": "text", "text": 'Action: {"action_type": "status", "goal_status": "complete"}'}]  # fmt: skip
    server.queue(chat({"role": "assistant", "content": parts}))
    result, calls = play(device, server, tmp_path)
    assert (result.end_reason, result.invalid_steps, result.error_kind) == ("finished", 0, None)
    assert len(calls) == 1 and "Action:" in calls[0]["response"]["text"]


def test_an_episode_with_a_malformed_reply_is_a_model_error_not_a_harness_error(device, server, tmp_path):
    server.queue(Reply(body={"choices": [None]}))
    result, calls = play(device, server, tmp_path)
    assert (result.end_reason, result.error_kind, result.scored) == ("error", "model", False)
    assert "response has no choices" in result.error and "response has no choices" in calls[0]["error"]
