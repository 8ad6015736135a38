"""Generated shortcuts as the paper runs them, end to end: M3A (a scripted model) does a task, a model writes a
dynamic shortcut from that run, and `kb eval` runs MAS-T3A with the KB, the dynamic shortcut's described
targets grounded by a model at call time, so its SSR is measured above 0. Also: grounding by a model, the
clear refusals when a KB needs grounding and no model is given, `shortcuts replay --task`, and the reasons
`shortcuts generate` gives when a run holds nothing to learn from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_helpers import androidworld_action, model_action
from typer.testing import CliRunner

from masbench.actions import Selector, select
from masbench.agents import make_agent
from masbench.agents.m3a import M3AAgent
from masbench.cli import app
from masbench.device import UIElement, start_virtual_phones
from masbench.eval.runner import Runner, new_config, prepare_run_dir
from masbench.generation import load_trajectories, write_kb
from masbench.generation.written import written_subtask_replays, written_task_replays
from masbench.llm import Message, ScriptedLLM
from masbench.shortcuts import KnowledgeBase, Shortcut, ShortcutExecutor, load_kb
from masbench.shortcuts.grounding import check_grounding, model_ground
from masbench.tasks import load_tasks
from masbench.tasks.checks import check_device
from masbench.tasks.player import prepare

TASK = load_tasks().get("yelp-02")  # open Yelp, See all, Jazz Night, Interested
PLAN = {
    "name": "mark_event_interested",
    "description": "Open Yelp's upcoming events and mark yourself as Interested in one.",
    "parameters": [{"name": "event", "type": "string", "required": True, "description": "the event's name"}],
    "steps": [
        {"open_app": "Yelp"},
        {"tap": "the link that shows all events"},
        {"tap": "the event called {event}"},
        {"tap": "the Interested button"},
    ],
}
TARGETS = [Selector(resource_id="see_all_events"), Selector(text="Jazz Night"), Selector(resource_id="interested_button")]  # fmt: skip
CALL = {"action_type": "shortcut", "name": "yelp.mark_event_interested", "arguments": {"event": "Jazz Night"}}
COMPLETE = {"action_type": "status", "goal_status": "complete"}
cli = CliRunner(env={"COLUMNS": "200"})


@pytest.fixture(scope="module")
def phone():
    with start_virtual_phones(1) as phones:
        yield phones.devices[0]


@pytest.fixture(scope="module")
def m3a_run(tmp_path_factory, phone) -> Path:
    """M3A on yelp-02, its model scripted to answer each step with the task's reference action."""
    plan, done = list(TASK.solutions.gui), []

    def brain(messages: list[Message]) -> str:
        if "Summary of this step:" in (messages[-1].text or ""):
            return "The step went as planned."
        if len(done) == len(plan):
            return f"Reason: the event is marked.\nAction: {json.dumps(COMPLETE)}"
        step = plan[len(done)]
        done.append(step)
        action = androidworld_action(model_action(step, phone), phone.observe())
        return f"Reason: step {len(done)} of the plan.\nAction: {json.dumps(action)}"

    out = tmp_path_factory.mktemp("m3a")
    config = new_config(agent="m3a", model="scripted", tasks=TASK.id, task_ids=[TASK.id], kb="none", devices=["vphone"])  # fmt: skip
    runner = Runner(prepare_run_dir(out, config, False), [TASK], lambda: M3AAgent(llm=ScriptedLLM(brain)), None, out)  # fmt: skip
    assert [r.success for r in runner.run([phone])] == [True]
    return out


def grounding_answers(phone) -> list[str]:
    """What a grounding model answers for the plan's three taps: the number of the element each describes,
    read off the same screens the shortcut will meet (a virtual phone is deterministic)."""
    prepare(phone, TASK)
    phone.open_app("Yelp")
    answers = []
    for target in TARGETS:
        found = select(target, phone.elements())
        answers.append(f"[{found.index}]")
        phone.tap_element(found)
    return answers


def test_a_model_grounds_a_description_to_the_element_it_numbers():
    elements = [UIElement(index=i, text=t) for i, t in enumerate(["Search", "Save"])]
    seen: list[str] = []

    def model(messages: list[Message]) -> str:
        seen.append(messages[-1].text or "")
        return "[1]" if len(seen) == 1 else "none of these"

    ground = model_ground(ScriptedLLM(model))
    assert ground("the Save button", elements) == elements[1]
    assert "Description: the Save button" in seen[0] and '[1] View "Save"' in seen[0]
    assert ground("the Delete button", elements) is None


def test_a_kb_with_dynamic_shortcuts_is_refused_before_the_run_without_a_grounding_model(tmp_path):
    fields = {k: v for k, v in PLAN.items() if k != "steps"}
    dynamic = Shortcut.model_validate({**fields, "app": "yelp", "type": "dynamic", "dynamic": {"steps": PLAN["steps"]}})  # fmt: skip
    kb = KnowledgeBase([dynamic])
    with pytest.raises(
        ValueError, match=r"1 dynamic shortcuts \(yelp.mark_event_interested\).*--grounding-model"
    ):
        check_grounding(kb, None, "--kb dyn")
    check_grounding(kb, "scripted:x", "--kb dyn")  # a model is enough
    check_grounding(load_kb(), None, "--kb predefined")  # no dynamic shortcut, nothing to ground
    path = write_kb([dynamic], tmp_path / "kb")
    result = cli.invoke(app, ["run", "--agent", "oracle", "--kb", str(path), "--tasks", TASK.id, "--devices", "vphone:1", "--out", str(tmp_path / "run")])  # fmt: skip
    assert result.exit_code == 2 and "--grounding-model" in result.output, result.output
    assert not (tmp_path / "run").exists()


def test_held_out_kb_eval_refuses_a_kb_generated_from_an_evaluated_task_and_paper_allows_it(tmp_path):
    fields = {k: v for k, v in PLAN.items() if k != "steps"}
    source = "generated from run r, task yelp-03, steps 0-3; generated from run r, task yelp-02, steps 0-3"
    shortcut = Shortcut.model_validate({**fields, "app": "yelp", "type": "dynamic", "source": source, "dynamic": {"steps": PLAN["steps"]}})  # fmt: skip
    kb = write_kb([shortcut], tmp_path / "kb")
    args = [
        "kb",
        "eval",
        str(kb),
        "--model",
        "scripted:x",
        "--tasks",
        TASK.id,
        "--out",
        str(tmp_path / "eval"),
    ]
    result = cli.invoke(app, args)  # the second source task is the evaluated one
    assert (
        result.exit_code == 2 and "generated from tasks it would be evaluated on (yelp-02)" in result.output
    )
    assert "--protocol paper" in result.output and not (tmp_path / "eval").exists()
    result = cli.invoke(app, [*args, "--protocol", "nope"])
    assert result.exit_code == 2 and "use held-out or paper" in result.output


def test_generate_says_why_each_episode_was_skipped_and_which_runs_work(tmp_path, phone):
    config = new_config(
        agent="oracle", tasks=TASK.id, task_ids=[TASK.id], kb="predefined", devices=["vphone"]
    )
    out = tmp_path / "oracle"
    runner = Runner(prepare_run_dir(out, config, False), [TASK], lambda: make_agent("oracle"), load_kb(), out)
    assert [r.success for r in runner.run([phone])] == [True]
    result = cli.invoke(app, ["shortcuts", "generate", "mined-task-replay", "--from", str(out), "--out", str(tmp_path / "kb"), "--protocol", "paper"])  # fmt: skip
    assert result.exit_code == 1
    assert f"{TASK.id}: it called shortcuts, which a GUI replay cannot reproduce" in result.output
    assert "oracle-gui" in result.output and "m3a" in result.output


def test_m3a_run_to_dynamic_shortcut_grounded_and_called_in_kb_eval(m3a_run, phone, tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps([json.dumps(PLAN)]))
    kb = tmp_path / "dynamic-kb"
    result = cli.invoke(app, ["shortcuts", "generate", "dynamic", "--from", str(m3a_run), "--out", str(kb), "--model", f"scripted:{plan}", "--protocol", "paper"])  # fmt: skip
    assert result.exit_code == 0, result.output
    (shortcut,) = load_kb(kb)
    assert shortcut.type == "dynamic" and TASK.id in (shortcut.source or "")

    grounding = tmp_path / "grounding.json"
    grounding.write_text(json.dumps(grounding_answers(phone)))
    replay = ["shortcuts", "replay", "yelp.mark_event_interested", "event=Jazz Night", "--kb-dir", str(kb), "--device", "vphone"]  # fmt: skip
    result = cli.invoke(app, replay)
    assert (
        result.exit_code == 1
        and "needs a grounding model" in result.output
        and "--grounding-model" in result.output
    )
    result = cli.invoke(app, [*replay, "--task", TASK.id, "--grounding-model", f"scripted:{grounding}"])
    assert result.exit_code == 0 and "success" in result.output, (
        result.output
    )  # from the task's state, on its own phone
    agent = tmp_path / "agent.json"  # call the shortcut, then declare the task done
    replies = [f"Reason: a shortcut does it.\nAction: {json.dumps(CALL)}"]
    agent.write_text(json.dumps(replies + [f"Reason: done.\nAction: {json.dumps(COMPLETE)}"] * 20))
    args = ["kb", "eval", f"dynamic={kb}", "--model", f"scripted:{agent}", "--grounding-model", f"scripted:{grounding}",
            "--tasks", TASK.id, "--devices", "vphone:1", "--protocol", "paper", "--out", str(tmp_path / "eval")]  # fmt: skip
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    summaries = json.loads((tmp_path / "eval" / "kb_eval.json").read_text())
    dynamic = summaries["dynamic-kb"]["overall"]
    assert dynamic["MSC"] == 1 and dynamic["SSR"] == 1 and dynamic["SR"] == 1
    assert summaries["predefined"]["overall"]["SSR"] == 0  # the predefined KB has no such shortcut
    table = result.output[result.output.index("Shortcut knowledge bases") :]
    lines = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]] for line in table.splitlines() if line.count("│") > 3}  # fmt: skip
    assert lines["dynamic-kb"][:4] == ["1", "1", "1.000", "1.000"]  # 1 shortcut, 1 episode, SR, SSR
    assert lines["dynamic · paper"][:4] == ["45", "-", "0.380", "0.750"]  # Table 8's count, Table 3's row
    assert lines["baseline · paper"][2] == "0.430" and lines["Human · paper"][4] == "1.000"


def test_a_model_writes_task_and_subtask_replays_from_the_episode_and_its_reasoning(m3a_run, phone, tmp_path):
    task_reply = {
        "name": "mark_jazz_night_interested",
        "description": "Marks Interested in Jazz Night on Yelp.",
    }
    subtask_reply = {"shortcuts": [
        {"name": "open_events", "description": "Opens Yelp's event list from any screen.", "first_step": 1, "last_step": 2},
        {"name": "too_short", "description": "One step.", "first_step": 3, "last_step": 3},
        {"name": "bad_param", "description": "x", "first_step": 2, "last_step": 4, "parameters": [{"name": "e", "step": 3}]},
    ]}  # fmt: skip
    seen: list[str] = []

    def model(messages: list[Message]) -> str:
        seen.append(messages[-1].text or "")
        return json.dumps(task_reply if "ONE task-level replay" in seen[-1] else subtask_reply)

    found, _ = load_trajectories(m3a_run)
    instructions = {TASK.id: TASK.instruction}
    task_kb = written_task_replays(found, instructions, ScriptedLLM(model))
    subtask_kb = written_subtask_replays(found, instructions, ScriptedLLM(model))
    assert (
        TASK.instruction in seen[0]
        and "1. open_app name='Yelp'\n   reasoning: step 1 of the plan." in seen[0]
    )
    assert [s.qualified_name for s in task_kb.shortcuts] == ["yelp.mark_jazz_night_interested"]
    assert [s.qualified_name for s in subtask_kb.shortcuts] == ["yelp.open_events"]
    assert subtask_kb.problems == [
        f"{TASK.id}: shortcut 2: a subtask has at least 2 steps",
        f"{TASK.id}: shortcut 3: parameter 'e': step 3 types nothing",
    ]
    assert "steps 0-1" in subtask_kb.shortcuts[0].source
    kb = KnowledgeBase(task_kb.shortcuts)  # the replay does the task again on a fresh phone
    prepare(phone, TASK)
    assert ShortcutExecutor(kb, phone).call("yelp.mark_jazz_night_interested").success
    assert check_device(TASK.check, phone).passed


@pytest.mark.parametrize("targets", ["coordinates", "selectors"])
def test_replays_touch_points_as_the_paper_or_elements_as_ours_and_both_do_the_task(
    m3a_run, phone, tmp_path, targets
):
    kb_dir = tmp_path / "kb"
    args = ["shortcuts", "generate", "mined-task-replay", "--from", str(m3a_run), "--out", str(kb_dir), "--protocol", "paper", "--targets", targets]  # fmt: skip
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    (shortcut,) = load_kb(kb_dir)
    taps = [a for a in shortcut.replay.actions if a.action == "tap"]
    assert len(taps) == 3
    if targets == "coordinates":
        assert all(a.target is None and a.x is not None for a in taps)
    else:
        assert all(a.target is not None and a.x is None for a in taps)
    prepare(phone, TASK)
    assert ShortcutExecutor(load_kb(kb_dir), phone).call(shortcut.qualified_name).success
    assert check_device(TASK.check, phone).passed


def test_targets_coordinates_is_for_replays_only(m3a_run, tmp_path):
    args = ["shortcuts", "generate", "dynamic", "--from", str(m3a_run), "--out", str(tmp_path / "kb"), "--model", "scripted:x", "--targets", "coordinates"]  # fmt: skip
    result = cli.invoke(app, args)
    assert result.exit_code == 2 and "--targets coordinates is for replays" in result.output


def test_a_ray_worker_grounds_dynamic_shortcuts_with_its_grounding_model(phone, tmp_path):
    from masbench.eval.ray_executor import EpisodeWorker, WorkerSpec

    fields = {k: v for k, v in PLAN.items() if k != "steps"}
    dynamic = Shortcut.model_validate({**fields, "app": "yelp", "type": "dynamic", "dynamic": {"steps": PLAN["steps"]}})  # fmt: skip
    kb = write_kb([dynamic], tmp_path / "kb")
    grounding, agent = tmp_path / "grounding.json", tmp_path / "agent.json"
    grounding.write_text(json.dumps(grounding_answers(phone)))
    agent.write_text(json.dumps(["unused"]))
    config = new_config(agent="mas-t3a", model=f"scripted:{agent}", tasks=TASK.id, task_ids=[TASK.id], kb=str(kb), devices=["vphone"])  # fmt: skip
    spec = WorkerSpec(
        device="vphone", agent="mas-t3a", model=f"scripted:{agent}", judge=None, kb=str(kb), tasks_dir=None,
        config_json=config.model_dump_json(), save_screens=False, record=False, grounding_model=f"scripted:{grounding}",
    )  # fmt: skip
    worker = EpisodeWorker(spec)
    try:
        prepare(worker.device, TASK)
        assert worker.shortcuts is not None
        record = worker.shortcuts.call("yelp.mark_event_interested", {"event": "Jazz Night"})
        assert record.success, record.reason
        assert check_device(TASK.check, worker.device).passed
    finally:
        worker.close()
