"""`--grounding-model` is kept in run.json like the other options that shape scores: a resumed run grounds
dynamic shortcuts with the model it started with, and a resume given another one is refused naming both.
A grounding model's calls count in the episode's tokens and model calls, as the agent's own."""

from __future__ import annotations

import json
from pathlib import Path

from test_generation_e2e import CALL, COMPLETE, PLAN, TASK, grounding_answers
from typer.testing import CliRunner

from masbench.agents import make_agent
from masbench.cli import app
from masbench.device import start_virtual_phones
from masbench.eval.records import read_config
from masbench.eval.runner import Runner, new_config, prepare_run_dir
from masbench.shortcuts import KnowledgeBase, Shortcut
from masbench.shortcuts.grounding import make_ground

cli = CliRunner(env={"COLUMNS": "200"})


def _run(out: Path, grounding: Path, *extra: str):
    args = ["run", "--agent", "oracle-gui", "--kb", "none", "--tasks", "yelp-02", "--devices", "vphone:1",
            "--out", str(out), "--grounding-model", f"scripted:{grounding}", *extra]  # fmt: skip
    return cli.invoke(app, args)


def test_a_run_keeps_its_grounding_model_and_refuses_a_resume_with_another(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for path in (first, second):
        path.write_text(json.dumps(["[0]"]))
    out = tmp_path / "run"
    result = _run(out, first)
    assert result.exit_code == 0, result.output
    assert read_config(out / "run.json").grounding_model == f"scripted:{first}"

    result = _run(out, first, "--resume")
    assert result.exit_code == 0, result.output

    result = _run(out, second, "--resume")
    assert result.exit_code == 2
    said = " ".join(result.output.split())  # the console wraps long lines
    assert f"--grounding-model scripted:{first} (this command: scripted:{second})" in said, said
    assert read_config(out / "run.json").grounding_model == f"scripted:{first}"


def test_a_grounded_dynamic_shortcut_counts_its_model_calls_in_the_episode_tokens(tmp_path):
    """The agent's replies cost 100 input tokens each, the grounding model's 7: the episode counts both."""
    fields = {k: v for k, v in PLAN.items() if k != "steps"}
    dynamic = Shortcut.model_validate({**fields, "app": "yelp", "type": "dynamic", "dynamic": {"steps": PLAN["steps"]}})  # fmt: skip
    kb = KnowledgeBase([dynamic])
    agent, grounding = tmp_path / "agent.json", tmp_path / "grounding.json"
    replies = [f"Reason: a shortcut does it.\nAction: {json.dumps(CALL)}"] + [f"Reason: done.\nAction: {json.dumps(COMPLETE)}"] * 20  # fmt: skip
    agent.write_text(json.dumps([{"text": r, "input_tokens": 100, "output_tokens": 10} for r in replies]))
    with start_virtual_phones(1) as phones:
        phone = phones.devices[0]
        answers = grounding_answers(phone)
        grounding.write_text(
            json.dumps([{"text": a, "input_tokens": 7, "output_tokens": 1} for a in answers])
        )
        out = tmp_path / "run"
        config = new_config(agent="mas-t3a", model=f"scripted:{agent}", tasks=TASK.id, task_ids=[TASK.id], kb="dyn", devices=["vphone"])  # fmt: skip
        runner = Runner(
            prepare_run_dir(out, config, False), [TASK], lambda: make_agent("mas-t3a", f"scripted:{agent}"), kb, out,
            make_ground=lambda: make_ground(f"scripted:{grounding}"),
        )  # fmt: skip
        (result,) = runner.run([phone])
    assert result.success and result.shortcut_successes == 1, result
    usage = result.agent_usage
    agent_calls = usage.calls - 3  # the three taps grounded once each
    assert agent_calls >= 2 and usage.input_tokens == agent_calls * 100 + 3 * 7, usage
    assert usage.output_tokens == agent_calls * 10 + 3 * 1
    steps = [json.loads(line) for line in (out / result.trajectory / "steps.jsonl").read_text().splitlines()]
    assert steps[0]["shortcut"]["usage"]["calls"] == 3 and steps[0]["usage"]["input_tokens"] % 100 == 3 * 7
    assert all(
        step["usage"]["input_tokens"] % 100 == 0 for step in steps[1:]
    )  # no grounding: the agent's alone


def test_a_run_json_from_before_grounding_was_kept_grounds_with_the_agents_model():
    from datetime import UTC, datetime

    from masbench.eval.records import RunConfig

    old = {"agent": "t3a", "model": "gemini-2.5-pro", "tasks": "all", "task_ids": [], "kb": "predefined",
           "devices": ["vphone:1"], "created_at": datetime.now(UTC).isoformat()}  # fmt: skip
    assert RunConfig.model_validate(old).grounding_model == "gemini-2.5-pro"
