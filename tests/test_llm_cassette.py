"""Cassettes record a run call by call and replay it exactly; scripted models answer from a list."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from masbench.llm import (
    CassetteLLM,
    CassetteMissError,
    LLMConfigError,
    LLMError,
    Message,
    RecordingLLM,
    Response,
    ScriptedLLM,
    Usage,
    make_llm,
)
from masbench.llm.cassette import canonical_request, request_key
from masbench.llm.scripted import TOKENS_PER_IMAGE

PNG = b"\x89PNG\r\n\x1a\n" + b"screenshot" * 50


def episode(llm, goal: str, steps: int) -> list[dict]:
    """A miniature agent loop: the result rows a runner would write, one per model call."""
    rows = []
    history = [Message.system("You operate a phone.")]
    for step in range(steps):
        history.append(Message.user(f"{goal}; step {step}", PNG))
        response = llm.generate(history, max_output_tokens=128)
        history.append(Message.model(response.text))
        rows.append(response.model_dump(mode="json"))
    return rows


def live_model() -> ScriptedLLM:
    """Stands in for a paid model: varied answers, token counts and latencies."""
    replies = iter(
        Response(
            text=t,
            input_tokens=100 + i,
            output_tokens=i,
            latency_s=0.5 + i,
            model="gemini-2.5-pro",
            raw={"finish_reason": "STOP", "response_id": None},
        )
        for i, t in enumerate(["tap 1", "type hi", "back", "tap 1", "type hi", "back"])
    )
    return ScriptedLLM(lambda messages: next(replies), name="gemini-2.5-pro")


def test_replay_gives_the_recorded_run_exactly(tmp_path):
    path = tmp_path / "run.jsonl"
    recorded = episode(RecordingLLM(live_model(), path), "buy milk", 3)
    replayed = episode(CassetteLLM(path), "buy milk", 3)
    assert replayed == recorded
    assert CassetteLLM(path).name == "gemini-2.5-pro"


def test_a_huge_reply_is_kept_whole_and_compressed(tmp_path):
    """A 2 MB reply (a model gone wrong) is recorded whole, compressed, and replays exactly."""
    path = tmp_path / "run.jsonl"
    huge = "Action: tap 1. " * 140_000
    live = ScriptedLLM([huge, "back"], name="gemini-2.5-pro")
    recorded = episode(RecordingLLM(live, path), "buy milk", 2)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [list(json.loads(line)) for line in lines] == [["key", "zlib"]] * 2  # the 2nd prompt holds it
    assert path.stat().st_size < len(huge) // 20
    assert episode(CassetteLLM(path), "buy milk", 2) == recorded
    assert recorded[0]["text"] == huge


def test_usage_of_a_replay_equals_the_sums_the_backend_reported(tmp_path):
    path = tmp_path / "run.jsonl"
    episode(RecordingLLM(live_model(), path), "buy milk", 3)
    replay = CassetteLLM(path)
    usage = Usage()
    history = [Message.system("You operate a phone.")]
    for step, text in enumerate(["tap 1", "type hi", "back"]):
        history.append(Message.user(f"buy milk; step {step}", PNG))
        usage.add(replay.generate(history, max_output_tokens=128))
        history.append(Message.model(text))
    assert (usage.calls, usage.input_tokens, usage.output_tokens) == (3, 100 + 101 + 102, 0 + 1 + 2)
    assert usage.cost_usd == pytest.approx((303 * 1.25 + 3 * 10.0) / 1e6)


def test_each_call_is_one_jsonl_line_written_before_the_answer_returns(tmp_path):
    path = tmp_path / "sub" / "run.jsonl"
    llm = RecordingLLM(ScriptedLLM(["a", "b"]), path)
    for calls in (1, 2):
        llm.generate([Message.user(f"call {calls}", PNG)])
        lines = path.read_text().splitlines()
        assert len(lines) == calls
    entry = json.loads(lines[-1])
    assert set(entry) == {"key", "request", "response"}
    assert entry["request"]["model"] == "scripted"
    assert entry["request"]["params"] == {"temperature": 0.0, "max_output_tokens": None}
    text, image = entry["request"]["messages"][0]["parts"]
    assert text == {"text": "call 2"}
    assert (
        image["bytes"] == len(PNG) and len(image["image_sha256"]) == 64 and image["mime_type"] == "image/png"
    )
    assert "screenshot" not in path.read_text()  # images are hashed, never stored


def test_identical_requests_replay_in_recorded_order(tmp_path):
    path = tmp_path / "run.jsonl"
    recorder = RecordingLLM(ScriptedLLM(["first", "second"]), path)
    same = [Message.user("what now?")]
    assert [recorder.generate(same).text for _ in range(2)] == ["first", "second"]
    replay = CassetteLLM(path)
    assert [replay.generate(same).text for _ in range(2)] == ["first", "second"]
    with pytest.raises(CassetteMissError, match=r"recorded 2 time\(s\) and all were replayed"):
        replay.generate(same)


def test_a_request_not_in_the_cassette_is_named(tmp_path):
    path = tmp_path / "run.jsonl"
    RecordingLLM(ScriptedLLM(["ok"]), path).generate([Message.user("Open the settings app")])
    replay = CassetteLLM(path)
    request = [Message.system("sys"), Message.user("Open the   clock\napp " + "x" * 200, PNG)]
    key = request_key(canonical_request(request, temperature=0.0, max_output_tokens=None))
    with pytest.raises(CassetteMissError) as info:
        replay.generate(request)
    message = str(info.value)
    assert str(path) in message and key[:16] in message and "never recorded" in message
    assert "'Open the clock app xxx" in message and "x" * 80 not in message


def test_generation_parameters_are_part_of_the_request(tmp_path):
    path = tmp_path / "run.jsonl"
    RecordingLLM(ScriptedLLM(["ok"]), path).generate([Message.user("go")], temperature=0.0)
    with pytest.raises(CassetteMissError):
        CassetteLLM(path).generate([Message.user("go")], temperature=0.7)


def test_a_failed_call_is_recorded_and_fails_the_same_way_on_replay(tmp_path):
    path = tmp_path / "run.jsonl"
    recorder = RecordingLLM(ScriptedLLM([]), path)
    with pytest.raises(LLMError) as live:
        recorder.generate([Message.user("go")])
    with pytest.raises(LLMError) as replayed:
        CassetteLLM(path).generate([Message.user("go")])
    assert str(replayed.value) == str(live.value)


def test_unreadable_cassettes_are_config_errors_naming_the_file(tmp_path):
    with pytest.raises(LLMConfigError, match=r"cannot read cassette .*missing\.jsonl"):
        make_llm(f"cassette:{tmp_path / 'missing.jsonl'}")
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"key": "k", "request": {}, "error": "boom"}\n{"key": "k"\n')
    with pytest.raises(LLMConfigError, match=r"broken.jsonl:2: not a cassette entry"):
        CassetteLLM(broken)


def test_record_to_wraps_any_backend(tmp_path):
    script = tmp_path / "script.yaml"
    script.write_text("- hello\n")
    path = tmp_path / "rec.jsonl"
    llm = make_llm(f"scripted:{script}", record_to=path)
    assert isinstance(llm, RecordingLLM)
    assert llm.generate([Message.user("hi")]).text == "hello"
    assert make_llm(f"cassette:{path}").generate([Message.user("hi")]).text == "hello"


texts = st.text(max_size=40)


@given(
    st.lists(
        st.tuples(st.sampled_from(["system", "user", "model"]), texts, st.binary(max_size=16)), min_size=1
    )
)
def test_request_key_survives_a_json_round_trip_of_the_messages(turns):
    messages = [
        Message(
            role=role, parts=[{"text": text}] + ([{"image": data, "mime_type": "image/jpeg"}] if data else [])
        )
        for role, text, data in turns
    ]
    again = [Message.model_validate_json(m.model_dump_json()) for m in messages]
    key = request_key(canonical_request(messages, temperature=0.0, max_output_tokens=None))
    assert request_key(canonical_request(again, temperature=0.0, max_output_tokens=None)) == key


@given(texts, texts)
def test_different_requests_have_different_keys(a, b):
    def key(text: str) -> str:
        return request_key(canonical_request([Message.user(text)], temperature=0.0, max_output_tokens=None))

    assert (key(a) == key(b)) == (a == b)


# --- scripted ---


def test_scripted_answers_in_order_with_deterministic_token_estimates():
    llm = ScriptedLLM(
        ["tap 1", Response(text="x", input_tokens=5, output_tokens=6, latency_s=1.0, model="m")]
    )
    first = llm.generate([Message.system("12345678"), Message.user("abcd", PNG, PNG)])
    assert first.text == "tap 1"
    assert first.input_tokens == 2 + 1 + 2 * TOKENS_PER_IMAGE  # ceil(chars / 4) per text part
    assert first.output_tokens == 2 and first.model == "scripted" and first.latency_s == 0.0
    assert llm.generate([Message.user("b")]).input_tokens == 5  # a full Response is returned as given
    assert [m[-1].text for m in llm.requests] == ["abcd", "b"]


def test_scripted_running_out_names_the_unanswered_request():
    llm = ScriptedLLM(["only"])
    llm.generate([Message.user("one")])
    with pytest.raises(LLMError, match=r"ran out of replies after 1 call\(s\).*'second question'"):
        llm.generate([Message.user("second question")])


def test_scripted_function_sees_the_messages():
    llm = ScriptedLLM(lambda messages: messages[-1].text.upper())
    assert llm.generate([Message.user("shout")]).text == "SHOUT"


@pytest.mark.parametrize("suffix", ["yaml", "json"])
def test_scripted_file_takes_strings_and_objects(tmp_path, suffix):
    script = [
        "tap 1",
        {"text": "type hi", "input_tokens": 10, "output_tokens": 3, "latency_s": 0.25},
        {"text": "back"},
    ]
    path = tmp_path / f"script.{suffix}"
    path.write_text(json.dumps(script))  # JSON is valid YAML too
    llm = make_llm(f"scripted:{path}")
    out = [llm.generate([Message.user("go")]) for _ in script]
    assert [r.text for r in out] == ["tap 1", "type hi", "back"]
    assert (out[1].input_tokens, out[1].output_tokens, out[1].latency_s) == (10, 3, 0.25)
    assert out[2].input_tokens == 1  # estimated when left out


def test_bad_script_file_says_where(tmp_path):
    path = tmp_path / "script.yaml"
    path.write_text("- ok\n- {text: hi, tokens: 3}\n")
    with pytest.raises(LLMConfigError, match=r"script\.yaml: reply 2: tokens: Extra inputs"):
        ScriptedLLM.from_file(path)
    path.write_text("text: not a list\n")
    with pytest.raises(LLMConfigError, match="expected a list of replies"):
        ScriptedLLM.from_file(path)
    with pytest.raises(LLMConfigError, match="cannot read script"):
        ScriptedLLM.from_file(tmp_path / "none.yaml")
