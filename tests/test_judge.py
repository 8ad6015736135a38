"""The LLM judge: its prompt, tolerant verdict parsing, the episode's judge modes, metrics and the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import yaml
from PIL import Image
from typer.testing import CliRunner

from masbench.agents import make_agent
from masbench.cli import app
from masbench.device import Device
from masbench.eval.episode import (
    NO_CHECK_ON_REAL_DEVICE,
    EpisodeSettings,
    Limits,
    effective_judge_mode,
    run_episode,
)
from masbench.eval.judge import Judge, parse_verdict
from masbench.eval.metrics import compute
from masbench.eval.records import EpisodeResult
from masbench.llm import Response, ScriptedLLM
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import load_tasks
from masbench.trajectory import StepRecord

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = {t.id: t for t in load_tasks(DATA)}
KB = load_kb(DATA / "kb")
COMMON = ["--tasks-dir", str(DATA), "--kb", str(DATA / "kb"), "--vphone-mode", "thread"]
YES = '{"success": true, "reason": "Dark theme is on in the final screenshot."}'
NO = '{"success": false, "reason": "The dark theme switch is off."}'


def png(color: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), color).save(buf, format="PNG")
    return buf.getvalue()


class CountingLLM(ScriptedLLM):
    """A scripted model that sums the usage it reported, to compare with the episode's judge_usage."""

    def __init__(self, script) -> None:
        super().__init__(script)
        self.input_tokens = self.output_tokens = 0

    def generate(self, messages, **kwargs) -> Response:
        response = super().generate(messages, **kwargs)
        self.input_tokens += response.input_tokens
        self.output_tokens += response.output_tokens
        return response


class EmulatorLike(Device):
    """A virtual phone that reports itself as an emulator: the episode must judge it as a real device (the
    phone still resets, which a real emulator's task setup will do its own way)."""

    kind = "emulator"
    is_virtual = True


def episode(device, tmp_path, judge=None, mode="check", task="settings-01", max_steps=30):
    agent = make_agent("oracle")
    return run_episode(
        device, TASKS[task], agent, EpisodeSettings(Limits(max_steps, 120.0), save_screens=False, judge=judge, judge_mode=mode),
        kb=KB, shortcuts=ShortcutExecutor(KB, device), run_dir=tmp_path,
    )  # fmt: skip


# -- the prompt and the parsing ----------------------------------------------------------------------------
def test_prompt_holds_instruction_rubric_described_steps_and_screenshots():
    steps = [
        StepRecord(
            index=0,
            action={"action": "shortcut", "name": "settings.open_display_settings", "arguments": {}},
            kind="shortcut",
            ok=True,
            foreground="com.android.settings/.Settings",
        ),
        StepRecord(
            index=1,
            action={"action": "shortcut", "name": "settings.set_theme", "arguments": {"mode": "dark"}},
            kind="shortcut",
            ok=False,
            error="Dark theme not on screen within 2s",
        ),
        StepRecord(index=2, action={"action": "tap", "index": 7}, kind="gui", ok=True),
        StepRecord(index=3, action=None, kind="invalid", ok=False, error="no JSON action in the reply"),
        StepRecord(index=4, action={"action": "finish", "status": "success"}, kind="finish", ok=True),
    ]
    llm = ScriptedLLM([YES])
    verdict = Judge(llm).judge(TASKS["settings-02"], steps, [png("red"), png("blue")])
    assert verdict.success and "Dark theme" in verdict.reason and verdict.raw == YES
    (system, user), text = llm.requests[0], llm.requests[0][1].text
    assert system.role == "system" and user.role == "user"
    assert "Turn off Wi-Fi, then make the display size Large." in text
    assert "1. Wi-Fi is off.\n2. The display size is Large." in text
    assert "1. shortcut call settings.open_display_settings() (in Settings) -> succeeded" in text
    assert '2. shortcut call settings.set_theme(mode="dark") -> FAILED: Dark theme not on screen' in text
    assert "3. tap index=7 -> done" in text and "4. INVALID" in text and "finish" in text
    assert '"success": true or false' in text and "$" not in text
    assert len(user.images) == 2 and user.images[0].image == png("red")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (YES, (True, "Dark theme is on in the final screenshot.")),
        ('```json\n{"success": false, "reason": "nope"}\n```', (False, "nope")),
        ('Looking at the screen... {"reason": "all met", "success": "true"} That is my verdict.', (True, "all met")),
        ("{'success': False, 'reason': 'wifi still on'}", (False, "wifi still on")),
        ("Verdict: success = yes", (True, "")),
        ("I think the agent did fine.", None),
        ('{"reason": "no verdict here"}', None),
    ],
)  # fmt: skip
def test_verdicts_are_parsed_tolerantly(text, expected):
    assert parse_verdict(text) == expected


def test_garbage_or_a_failed_call_is_a_failure_verdict_not_an_exception():
    task = TASKS["settings-01"]
    verdict = Judge(ScriptedLLM(["I cannot tell."])).judge(task, [], [png("red")])
    assert verdict.success is False and "unparsable" in verdict.reason and verdict.usage.calls == 1
    verdict = Judge(ScriptedLLM([])).judge(task, [], [png("red")])  # runs out: LLMError
    assert verdict.success is False and "judge call failed" in verdict.reason and verdict.usage.calls == 0


# -- the episode ---------------------------------------------------------------------------------------------
def test_both_mode_records_the_judge_beside_the_check(device, tmp_path):
    llm = CountingLLM([YES])
    result = episode(device, tmp_path, Judge(llm), "both")
    assert result.success and result.check_passed and result.judge_success is True
    assert result.judge_reason == "Dark theme is on in the final screenshot."
    assert result.judge_usage.calls == 1 and result.judge_usage.input_tokens == llm.input_tokens > 0
    assert result.judge_usage.output_tokens == llm.output_tokens > 0
    images = llm.requests[0][1].images
    assert len(images) == 2 and images[0] != images[1]  # in memory although --no-screens
    assert "shortcut call settings.open_display_settings()" in llm.requests[0][1].text
    m = compute([result], TASKS)
    assert m.judge_accuracy == 1.0 and m.judge_false_positive_rate is None and m.MToC_judge > 0


def test_a_judge_that_disagrees_lowers_accuracy_but_not_success(device, tmp_path):
    result = episode(device, tmp_path, Judge(ScriptedLLM([NO])), "both")
    assert result.success and result.judge_success is False
    assert compute([result], TASKS).judge_accuracy == 0.0


def test_garbage_judge_output_is_a_failure_with_a_reason(device, tmp_path):
    result = episode(device, tmp_path, Judge(ScriptedLLM(["no idea, sorry"])), "both")
    assert result.success and result.judge_success is False and "unparsable" in result.judge_reason


def test_false_positive_rate_counts_failures_the_judge_passed(device, tmp_path):
    failed = episode(device, tmp_path / "a", Judge(ScriptedLLM([YES])), "both", max_steps=1)
    assert not failed.success and failed.check_passed is False and failed.judge_success is True
    passed = episode(device, tmp_path / "b", Judge(ScriptedLLM([YES])), "both")
    m = compute([failed, passed], TASKS)
    assert m.judge_accuracy == 0.5 and m.judge_false_positive_rate == 1.0


def test_llm_mode_and_real_devices_are_judged_by_the_llm(device, tmp_path):
    result = episode(device, tmp_path / "a", Judge(ScriptedLLM([NO])), "llm")
    assert result.success is False and result.check_passed is None and result.judge_success is False
    assert compute([result], TASKS).judge_accuracy is None
    real = EmulatorLike(device.address)
    try:
        result = episode(real, tmp_path / "b", Judge(ScriptedLLM([YES])), "check")
        assert result.success and result.check_passed is None and result.judge_success is True
        result = episode(real, tmp_path / "c")
        assert result.end_reason == "error" and result.error == NO_CHECK_ON_REAL_DEVICE and not result.success
    finally:
        real.close()
    assert effective_judge_mode("both", "physical", True) == "llm"
    assert effective_judge_mode("both", "virtual", True) == "both"
    with pytest.raises(ValueError, match="needs an LLM judge"):
        effective_judge_mode("llm", "virtual", False)


def test_old_results_without_judge_fields_still_load():
    old = {
        "task_id": "settings-01", "agent": "oracle", "kb": "test", "device": "x", "device_kind": "virtual",
        "success": True, "end_reason": "finished", "steps": 2, "gui_actions": 1, "shortcut_calls": 1,
        "shortcut_successes": 1, "invalid_steps": 0, "optimal_steps": 3, "wall_s": 1.0,
        "started_at": "2025-01-01T00:00:00Z", "trajectory": "t",
    }  # fmt: skip
    result = EpisodeResult.model_validate(old)
    assert result.judge_success is None and compute([result], TASKS).judge_accuracy is None


# -- the CLI -------------------------------------------------------------------------------------------------
def test_cli_run_with_a_scripted_judge_in_both_mode(tmp_path):
    script = tmp_path / "judge.yaml"
    script.write_text(yaml.safe_dump([YES] * len(TASKS)))
    out = tmp_path / "run"
    cli = CliRunner(env={"COLUMNS": "200"})
    args = ["run", "--agent", "oracle", "--devices", "vphone:1", "--out", str(out), "--no-screens", *COMMON]
    result = cli.invoke(app, [*args, "--judge", f"scripted:{script}", "--judge-mode", "both"])
    assert result.exit_code == 0, result.output
    assert "judge accuracy" in result.output
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(lines) == len(TASKS) and all(r["success"] and r["judge_success"] for r in lines)
    assert all(r["judge_usage"]["calls"] == 1 for r in lines)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"]["judge_accuracy"] == 1.0 and summary["overall"]["MToC_judge"] > 0
    assert summary["run"]["judge"] == f"scripted:{script}" and summary["run"]["judge_mode"] == "both"
    assert len((out / "judge_cassette.jsonl").read_text().splitlines()) == len(TASKS)

    resumed = cli.invoke(app, [*args, "--resume"])  # without the judge: a different configuration
    assert resumed.exit_code == 2 and "judge" in resumed.output


def test_cli_judge_options_fail_fast_and_clearly(monkeypatch, tmp_path):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    cli = CliRunner(env={"COLUMNS": "200"})
    base = ["run", "--agent", "oracle", "--devices", "vphone:1", "--no-screens", *COMMON]
    result = cli.invoke(app, [*base, "--out", str(tmp_path / "a"), "--judge", "gemini-2.5-pro"])
    assert result.exit_code == 2 and "GEMINI_API_KEY is not set" in " ".join(result.output.split())
    assert "Traceback" not in result.output and not (tmp_path / "a").exists()
    result = cli.invoke(app, [*base, "--out", str(tmp_path / "b"), "--judge-mode", "llm"])
    assert result.exit_code == 2 and "needs --judge" in " ".join(result.output.split())
    result = cli.invoke(app, [*base, "--out", str(tmp_path / "c"), "--judge-mode", "maybe"])
    assert result.exit_code == 2
