"""An outage is not the agent's failure: a model server that refuses, fails, hangs or answers garbage, a
cassette miss, errors in a row and `--resume` after them, each reproduced against a local server and a
virtual phone."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest
from llm_server import Reply, openai_ok

from masbench.agents import make_agent
from masbench.agents.t3a import T3AAgent
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.eval.metrics import summarise
from masbench.eval.runner import Runner, latest, load_results, new_config, prepare_run_dir
from masbench.llm import CassetteLLM, LLMError, RetryPolicy, ScriptedLLM
from masbench.llm.openai_compat import OpenAICompatLLM
from masbench.shortcuts import load_kb
from masbench.tasks import load_tasks

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = load_tasks(DATA)
KB = load_kb(DATA / "kb")
TASK = TASKS.get("settings-01")


def agent_on(url: str, *, timeout_s: float = 120.0, attempts: int = 3) -> T3AAgent:
    """T3A on an OpenAI-compatible endpoint, retrying without waiting (the waits are tested elsewhere)."""
    retry = RetryPolicy(max_attempts=attempts, sleep=lambda s: None)
    return T3AAgent(llm=OpenAICompatLLM("local", url + "/v1", timeout_s=timeout_s, retry=retry))


def play(device, agent, tmp_path: Path, *, max_steps: int = 3, timeout_s: float = 60.0):
    return run_episode(
        device, TASK, agent, EpisodeSettings(Limits(max_steps, timeout_s), save_screens=False),
        kb=None, shortcuts=None, run_dir=tmp_path,
    )  # fmt: skip


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_model_is_an_error_not_a_failure(device, tmp_path):
    result = play(device, agent_on(f"http://127.0.0.1:{closed_port()}"), tmp_path)
    assert (result.end_reason, result.error_kind, result.scored, result.steps) == ("error", "model", False, 0)
    assert "gave up after 3 attempts" in result.error and "cannot reach" in result.error


def test_a_failing_model_is_an_error_with_the_server_message(device, tmp_path, server):
    server.queue(*[Reply(503, {"error": "overloaded"})] * 3)
    result = play(device, agent_on(server.url), tmp_path)
    assert (result.end_reason, result.error_kind) == ("error", "model")
    assert "HTTP 503" in result.error and "overloaded" in result.error and len(server.seen) == 3


def test_garbage_from_a_model_costs_steps_and_is_scored(device, tmp_path, server):
    server.queue(*[openai_ok("I would rather not say.", prompt=900, output=8)] * 3)
    result = play(device, agent_on(server.url), tmp_path)
    assert (result.end_reason, result.scored, result.success) == ("step_limit", True, False)
    assert result.steps == result.invalid_steps == 3 and result.agent_usage.input_tokens == 2700


def test_a_hung_model_cannot_hold_an_episode_past_its_time_limit(device, tmp_path, server):
    server.queue(Reply(delay_s=30, body={}))  # answers in 30 s; the episode has 1.5 s
    t0 = time.monotonic()
    result = play(device, agent_on(server.url), tmp_path, timeout_s=1.5)
    assert time.monotonic() - t0 < 5
    # asked and silent until the deadline: an outage, whatever the per-attempt timeout (120 s here)
    assert (result.end_reason, result.error_kind, result.scored) == ("error", "model", False)


def test_a_model_that_keeps_timing_out_is_an_error_at_the_time_limit(device, tmp_path, server):
    server.queue(*[Reply(delay_s=30, body={})] * 20)  # every attempt times out on its own 0.3 s
    t0 = time.monotonic()
    result = play(device, agent_on(server.url, timeout_s=0.3, attempts=20), tmp_path, timeout_s=1.5)
    assert time.monotonic() - t0 < 5
    assert (result.end_reason, result.error_kind) == ("error", "model") and "time limit" in result.error


def test_a_cassette_miss_is_an_error_not_an_invalid_step(device, tmp_path):
    cassette = tmp_path / "empty.jsonl"
    cassette.write_text("")
    result = play(device, T3AAgent(llm=CassetteLLM(cassette)), tmp_path)
    assert (result.end_reason, result.error_kind, result.invalid_steps) == ("error", "model", 0)
    assert "cassette" in result.error


def runner(tmp_path: Path, make_agent, **kw) -> Runner:
    config = new_config(
        agent="t3a", tasks="all", task_ids=[t.id for t in TASKS], kb="test", devices=["vphone:1"]
    )
    config = prepare_run_dir(tmp_path, config, resume=True)
    return Runner(config, list(TASKS), make_agent, KB, tmp_path, save_screens=False, **kw)


def outage(messages):
    raise LLMError("gave up after 5 attempts: HTTP 503")


def test_errors_in_a_row_stop_the_run_and_resume_runs_them_again(tmp_path, vphones):
    broken = runner(tmp_path, lambda: T3AAgent(llm=ScriptedLLM(outage)), max_consecutive_errors=2)
    broken.run(vphones.devices)
    assert broken.aborted and "2 episodes in a row" in broken.aborted and "HTTP 503" in broken.aborted
    errored = load_results(tmp_path)
    assert len(errored) == 2 and all(r.error_kind == "model" for r in errored)
    summary = summarise(broken.results, list(TASKS))
    assert summary.overall is None and summary.errors == 2 and summary.error_kinds == {"model": 2}

    fixed = runner(tmp_path, lambda: make_agent("oracle"))
    assert len(fixed.pending()) == len(TASKS)  # the errored episodes are not done
    fixed.run(vphones.devices)
    lines = load_results(tmp_path)
    assert len(lines) == len(TASKS) + 2  # history kept; the reruns supersede the errors
    final = latest(lines)
    assert len(final) == len(TASKS) and all(r.scored and r.success for r in final)
    assert summarise(final, list(TASKS)).errors == 0


def test_errors_are_in_no_metric(tmp_path, vphones):
    results = runner(tmp_path, lambda: make_agent("oracle")).run(vphones.devices)
    down = results[0].model_copy(update={"success": False, "end_reason": "error", "error_kind": "device"})
    summary = summarise([down, *results[1:]], list(TASKS))
    assert summary.overall.episodes == len(TASKS) - 1 and summary.overall.SR == 1.0
    assert summary.errors == 1 and summary.error_kinds == {"device": 1}


@pytest.mark.parametrize(
    "attempts, answered, ending",
    [(0, False, "time_limit"), (1, False, "error"), (2, False, "error"), (1, True, "time_limit")],
)
def test_a_deadline_is_the_time_limit_only_for_a_model_that_answered(attempts, answered, ending):
    from masbench.eval.episode import fault_ending
    from masbench.llm import DeadlineExceeded

    end, _, _ = fault_ending(DeadlineExceeded("late", attempts=attempts), answered=answered)
    assert end == ending


def test_agents_receive_only_the_instruction_and_apps_the_oracle_the_whole_task(device, tmp_path):
    from masbench.tasks import Task, TaskView

    seen = []

    class Spy(T3AAgent):
        def reset(self, task, kb, *, seed=0):
            seen.append(task)
            super().reset(task, kb, seed=seed)

    play(device, Spy(llm=ScriptedLLM(lambda messages: "finish")), tmp_path, max_steps=1)
    (view,) = seen
    assert isinstance(view, TaskView) and set(TaskView.model_fields) == {"id", "instruction", "apps"}
    assert view.instruction == TASK.instruction and not hasattr(view, "solutions")
    with pytest.raises(ValueError):
        view.__setattr__("instruction", "something else")  # frozen

    oracle = make_agent("oracle")
    play(device, oracle, tmp_path)
    assert isinstance(oracle.task, Task)
