"""Model agents end to end on a virtual phone: a scripted model answers each step with the task's
reference action in the agent's own output format (AndroidWorld's grammar; summaries when asked), and the agent drives the task to success through its
full prompt → parse → execute path. Also: invalid replies cost a step, usage adds up, and a run recorded
to a cassette replays to the same results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from agent_helpers import CountingLLM, androidworld_action, model_action, typing_submits

from masbench.actions import ShortcutAction
from masbench.agents import make_agent
from masbench.agents.m3a import M3AAgent
from masbench.agents.mas_t3a import MasT3AAgent
from masbench.agents.t3a import T3AAgent
from masbench.device import Device
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.eval.metrics import compute
from masbench.eval.runner import Runner, new_config
from masbench.llm import LLMError, Message, ScriptedLLM
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import Task, load_tasks

DATA = Path(__file__).parent / "data" / "tasks"
SUMMARY_REQUEST = "Summary of this step:"
TEST_TASKS = load_tasks(DATA)
TEST_KB = load_kb(DATA / "kb")
SHIPPED_TASKS = [t for t in load_tasks() if t.kind == "single-app"]
SHIPPED_KB = load_kb() if SHIPPED_TASKS else None
FIRST_PER_APP = list({t.apps[0]: t for t in reversed(SHIPPED_TASKS)}.values())  # one real task per app

CASES = [(t, TEST_KB) for t in TEST_TASKS] + [(t, SHIPPED_KB) for t in FIRST_PER_APP]
AGENTS = {"t3a": (T3AAgent, "gui"), "m3a": (M3AAgent, "gui"), "mas-t3a": (MasT3AAgent, "hybrid")}


class Replayer:
    """A scripted model's brain: the next reference step, with its selector grounded to the index of
    the element the agent was shown (observed again here - nothing changes the screen in between);
    a summary request gets a one-line summary. `garbage_at` spoils that action call."""

    def __init__(self, plan: list, device: Device, garbage_at: int | None = None) -> None:
        self.plan, self.device, self.garbage_at = typing_submits(plan), device, garbage_at
        self.calls = 0
        self.done = 0

    def __call__(self, messages: list[Message]) -> str:
        if SUMMARY_REQUEST in (messages[-1].text or ""):
            return f"Reference step {self.done} done as planned."
        self.calls += 1
        if self.calls == self.garbage_at:
            return "Hmm, I am not sure what to do here."
        if self.done >= len(self.plan):
            return 'Reason: everything is done.\nAction: {"action_type": "status", "goal_status": "complete"}'
        step = self.plan[self.done]
        self.done += 1
        data = androidworld_action(model_action(step, self.device), self.device.observe())
        return f"Reason: reference step {self.done}.\nAction: {json.dumps(data)}"


def episode(device: Device, task: Task, agent, kb, tmp_path: Path, max_steps: int = 30):
    shortcuts = ShortcutExecutor(kb, device) if agent.uses_shortcuts else None
    return run_episode(
        device, task, agent, EpisodeSettings(Limits(max_steps, 120.0), save_screens=False),
        kb=kb, shortcuts=shortcuts, run_dir=tmp_path,
    )  # fmt: skip


@pytest.mark.parametrize("agent_name", list(AGENTS))
@pytest.mark.parametrize(("task", "kb"), CASES, ids=[t.id for t, _ in CASES])
def test_agent_drives_its_task_to_success(device, tmp_path, agent_name, task, kb):
    cls, solution = AGENTS[agent_name]
    plan = typing_submits(getattr(task.solutions, solution))
    llm = CountingLLM(Replayer(plan, device))
    result = episode(device, task, cls(llm=llm), kb, tmp_path)
    assert result.success, (result.end_reason, result.check_details)
    assert result.end_reason == "finished"
    assert result.steps == len(plan) and result.invalid_steps == 0
    # an action call per step plus the finishing one, and a summary call of every step that ran
    assert result.agent_usage.calls == 2 * len(plan) + 1
    metrics = compute([result], {task.id: task})
    assert metrics.calls_per_step == round((2 * len(plan) + 1) / len(plan), 4)
    assert metrics.prompt_tokens_per_step == round(llm.input_tokens / len(plan), 4)
    assert result.agent_usage.input_tokens == llm.input_tokens > 0
    assert result.agent_usage.output_tokens == llm.output_tokens > 0
    if agent_name == "mas-t3a":
        assert result.shortcut_calls == sum(isinstance(s, ShortcutAction) for s in plan) > 0
        assert result.shortcut_successes == result.shortcut_calls
    else:
        assert result.shortcut_calls == 0


@pytest.mark.parametrize("agent_name", list(AGENTS))
def test_garbage_reply_costs_one_invalid_step_and_the_run_goes_on(device, tmp_path, agent_name):
    cls, solution = AGENTS[agent_name]
    task = TEST_TASKS.get("settings-01")
    plan = typing_submits(getattr(task.solutions, solution))
    result = episode(
        device, task, cls(llm=ScriptedLLM(Replayer(plan, device, garbage_at=2))), TEST_KB, tmp_path
    )
    assert result.success and result.invalid_steps == 1
    assert result.steps == len(plan) + 1
    steps = [
        json.loads(line) for line in (tmp_path / result.trajectory / "steps.jsonl").read_text().splitlines()
    ]
    invalid = steps[1]
    assert invalid["kind"] == "invalid" and invalid["action"] is None
    # the step's calls: the summary of step 1, then the unusable action reply
    assert invalid["model_output"].split("\n\n=====\n\n") == [
        "Reference step 1 done as planned.",
        "Hmm, I am not sure what to do here.",
    ]
    assert 'needs a "Reason: ..." part' in invalid["error"]
    label = "Step 2- " if agent_name == "m3a" else "Step 2: "  # as each writes its history
    assert f"{label}The reply was not an action in the required format" in steps[2]["model_input"]


def test_a_failed_model_call_ends_the_episode_as_an_error_not_a_failure(device, tmp_path):
    def flaky(messages):
        raise LLMError("gave up after 5 attempts: HTTP 503")

    task = TEST_TASKS.get("settings-01")
    result = episode(device, task, T3AAgent(llm=ScriptedLLM(flaky)), TEST_KB, tmp_path, max_steps=3)
    assert (result.end_reason, result.error_kind, result.scored) == ("error", "model", False)
    assert not result.success and result.check_passed is None  # nothing is judged after an outage
    assert result.error == "model: gave up after 5 attempts: HTTP 503"
    assert result.steps == 0  # the fault is recorded, but it is not the agent's step
    (fault,) = [
        json.loads(line) for line in (tmp_path / result.trajectory / "steps.jsonl").read_text().splitlines()
    ]
    assert fault["kind"] == "fault" and fault["error"] == "gave up after 5 attempts: HTTP 503"


def test_a_gui_agent_cannot_call_shortcuts(device, tmp_path):
    task = TEST_TASKS.get("settings-01")
    agent = T3AAgent(llm=ScriptedLLM(Replayer(task.solutions.hybrid, device)))
    result = episode(device, task, agent, TEST_KB, tmp_path, max_steps=1)
    assert result.shortcut_calls == 0 and result.invalid_steps == 1
    step = json.loads((tmp_path / result.trajectory / "steps.jsonl").read_text())
    assert step["error"] == "action_type 'shortcut' is not one of the actions listed"


# -- recording and replaying ------------------------------------------------------------------------------
VOLATILE = {"wall_s", "started_at", "device", "model", "observe_s", "agent_s", "execute_s"}


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in VOLATILE and k != "duration_s"}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _run(
    device: Device, tasks: list[Task], agent: str, model: str, run_dir: Path, record_to: Path | None = None
):
    config = new_config(agent=agent, model=model, tasks="test", task_ids=[t.id for t in tasks], kb="test",
                        devices=[str(device.address)], max_steps=20)  # fmt: skip
    runner = Runner(config, tasks, lambda: make_agent(agent, model, record_to=record_to), TEST_KB, run_dir,
                    save_screens=False)  # fmt: skip
    runner.run([device])
    rows = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    steps = {
        r["task_id"]: [
            json.loads(s) for s in (run_dir / r["trajectory"] / "steps.jsonl").read_text().splitlines()
        ]
        for r in rows
    }
    return rows, steps


@pytest.mark.parametrize(
    ("agent_name", "task_ids"), [("mas-t3a", ["settings-01", "cross-01"]), ("m3a", ["settings-01"])]
)
def test_a_recorded_run_replays_to_identical_results(device, tmp_path, agent_name, task_ids):
    tasks = [TEST_TASKS.get(task_id) for task_id in task_ids]
    solution = AGENTS[agent_name][1]
    # 1. what the scripted model will say: replay the reference solutions once and keep the replies
    replies: list[str] = []
    for task in tasks:
        replayer = Replayer(getattr(task.solutions, solution), device)

        def keep(messages, replayer=replayer):
            replies.append(replayer(messages))
            return replies[-1]

        episode(device, task, AGENTS[agent_name][0](llm=ScriptedLLM(keep)), TEST_KB, tmp_path / "dry")
    script = tmp_path / "script.yaml"
    script.write_text(yaml.safe_dump(replies))
    # 2. a "live" run on that script, recorded; 3. the replay from the cassette alone
    cassette = tmp_path / "calls.jsonl"
    live_rows, live_steps = _run(device, tasks, agent_name, f"scripted:{script}", tmp_path / "live", cassette)
    replay_rows, replay_steps = _run(device, tasks, agent_name, f"cassette:{cassette}", tmp_path / "replay")
    assert all(r["success"] for r in live_rows)
    assert _strip(replay_rows) == _strip(live_rows)
    assert _strip(replay_steps) == _strip(live_steps)
    recorded = [json.loads(line) for line in cassette.read_text().splitlines()]
    assert len(recorded) == sum(r["agent_usage"]["calls"] for r in live_rows)
    assert sum(e["response"]["input_tokens"] for e in recorded) == sum(
        r["agent_usage"]["input_tokens"] for r in live_rows
    )
