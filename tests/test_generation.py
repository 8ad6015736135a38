"""Shortcut generation from an oracle-gui run on the generation split: task- and subtask-level replay KBs are
built without a model, every generated shortcut replays on a fresh phone to the state its source reached,
leakage of the held-out split is refused, and `kb eval` prints the Table-3 comparison."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from masbench.actions import Selector, select
from masbench.actions.execute import execute_action
from masbench.actions.schema import parse_call
from masbench.agents import make_agent
from masbench.catalog import APPS
from masbench.cli import app
from masbench.device import start_virtual_phones
from masbench.eval.runner import Runner, new_config, prepare_run_dir
from masbench.generation import load_trajectories, subtask_replays, task_replays, write_kb
from masbench.generation.protocol import source_tasks
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import load_tasks
from masbench.tasks.checks import check_device
from masbench.tasks.player import prepare

TASKS = load_tasks()
TRAIN = list(TASKS.select("generation-train"))
SOURCE = re.compile(r"task (\S+), steps (\d+)-(\d+)")
DATA = Path(__file__).parent / "data" / "tasks"


@pytest.fixture(scope="module")
def phone():
    with start_virtual_phones(1) as phones:
        yield phones.devices[0]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, phone):
    """An oracle-gui run over the generation-train split, with screens and UI dumps saved."""
    out = tmp_path_factory.mktemp("run")
    config = new_config(agent="oracle-gui", tasks="generation-train", task_ids=[t.id for t in TRAIN], kb="none", devices=["vphone"])  # fmt: skip
    runner = Runner(prepare_run_dir(out, config, False), TRAIN, lambda: make_agent("oracle-gui"), None, out)
    assert all(r.success for r in runner.run([phone]))
    return out


@pytest.fixture(scope="module")
def trajectories(run_dir):
    found, skipped = load_trajectories(run_dir)
    assert skipped == [] and {t.task_id for t in found} == {t.id for t in TRAIN}
    return {t.task_id: t for t in found}


def call_example(executor: ShortcutExecutor, shortcut) -> None:
    name, arguments = parse_call(shortcut.example)
    record = executor.call(name, arguments)
    assert record.success, f"{name}: {record.reason}"


def state(device) -> dict:
    """The phone's state without what only says *when*: the clock, and the time stamps (and ids made from
    them) apps put on what they record (a replay is quicker than its source, so its entries are stamped earlier)."""
    return _timeless(
        {k: v for k, v in device.snapshot().items() if k not in ("clock", "device_ms", "serial")}
    )


TIME_ID = re.compile(r"^[0-9a-f]{16}$")  # Gmail's message and thread ids are made from the clock


def _timeless(value):
    if isinstance(value, dict):
        return {
            k: _timeless(v)
            for k, v in value.items()
            if k not in ("time", "date", "added") and not k.endswith("_at")
        }
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return "<time id>" if isinstance(value, str) and TIME_ID.match(value) else value


def play(device, trajectory, upto: int) -> None:
    for step in trajectory.steps[:upto]:
        assert execute_action(device, step.action, device.observe(screenshot=False).elements).ok


def test_every_task_replay_reproduces_its_task_on_a_fresh_phone(trajectories, phone, tmp_path):
    kb = load_kb(
        write_kb(task_replays(list(trajectories.values()), {t.id: t.instruction for t in TASKS}), tmp_path)
    )
    assert len(kb) == len(TRAIN)
    executor = ShortcutExecutor(kb, phone)
    for shortcut in kb:
        task_id = SOURCE.search(shortcut.source).group(1)
        prepare(phone, TASKS.get(task_id))
        call_example(executor, shortcut)
        assert check_device(TASKS.get(task_id).check, phone).passed, shortcut.qualified_name


def test_every_subtask_replay_reaches_the_state_its_source_reached(trajectories, phone, tmp_path):
    kb = load_kb(write_kb(subtask_replays(list(trajectories.values())), tmp_path))
    assert len(kb) >= 5 and all(s.type == "replay" and len(s.replay.actions) >= 2 for s in kb)
    assert any(s.parameters for s in kb)  # runs that typed different texts take the text as a parameter
    assert all(len(SOURCE.findall(s.source)) >= 2 for s in kb)  # every occurrence's task is recorded
    executor = ShortcutExecutor(kb, phone)
    for shortcut in kb:
        task_id, first, last = SOURCE.search(shortcut.source).groups()
        task, trajectory = TASKS.get(task_id), trajectories[task_id]
        prepare(phone, task)
        play(phone, trajectory, int(last) + 1)
        reached = state(phone)
        prepare(phone, task)
        play(phone, trajectory, int(first))
        call_example(executor, shortcut)
        assert state(phone) == reached, shortcut.qualified_name


def test_subtask_replays_stay_in_the_app_they_act_on_and_say_what_they_fill(trajectories):
    shortcuts = {s.qualified_name: s for s in subtask_replays(list(trajectories.values()))}
    for shortcut in shortcuts.values():
        for task_id, first, last in SOURCE.findall(shortcut.source):
            steps = trajectories[task_id].steps[int(first) : int(last) + 1]
            in_front = {s.app for s in steps if s.action.action != "open_app"}
            opened = {APPS[shortcut.app].label} | {
                s.action.name for s in steps if s.action.action == "open_app"
            }
            assert in_front <= {shortcut.app} and len(opened) == 1, shortcut.qualified_name  # no app switch
        assert "\n" not in shortcut.description and f"In {APPS[shortcut.app].label}: " in shortcut.description
        assert not any(re.fullmatch(r"text_\d+", p.name) for p in shortcut.parameters)
    send = shortcuts["gmail.open_gmail_to_send"]  # recorded in five tasks, from any screen
    assert [p.name for p in send.parameters] == ["to", "subject", "body"]
    assert send.description.endswith("type {body} into body, tap send. Starts from any screen.")


def test_generating_from_held_out_tasks_is_refused(tmp_path):
    held_out = list(TASKS.select("generation-eval"))[:2]
    out = tmp_path / "run"
    config = new_config(
        agent="oracle-gui", tasks="x", task_ids=[t.id for t in held_out], kb="none", devices=["vphone"]
    )
    runner = Runner(
        prepare_run_dir(out, config, False), held_out, lambda: make_agent("oracle-gui"), None, out
    )
    with start_virtual_phones(1) as phones:
        runner.run(phones.devices)
    cli = CliRunner(env={"COLUMNS": "200"})
    result = cli.invoke(
        app, ["shortcuts", "generate", "mined-task-replay", "--from", str(out), "--out", str(tmp_path / "kb")]
    )
    assert (
        result.exit_code == 2 and "generation-eval tasks" in result.output and held_out[0].id in result.output
    )
    result = cli.invoke(
        app,
        [
            "shortcuts",
            "generate",
            "mined-task-replay",
            "--from",
            str(out),
            "--out",
            str(tmp_path / "kb"),
            "--protocol",
            "paper",
        ],
    )
    assert result.exit_code == 0 and "2 mined-task-replay shortcuts from 2 episodes" in result.output


def test_kb_eval_prints_the_table_3_comparison(run_dir, tmp_path):
    cli = CliRunner(env={"COLUMNS": "200"})
    kb = tmp_path / "subtask-kb"
    result = cli.invoke(
        app, ["shortcuts", "generate", "mined-subtask-replay", "--from", str(run_dir), "--out", str(kb)]
    )
    assert result.exit_code == 0, result.output
    script = tmp_path / "finish.yaml"  # a model that declares the task done at once
    script.write_text(json.dumps([json.dumps({"action": "finish", "status": "success"})] * 40))
    args = [
        "kb",
        "eval",
        str(kb),
        "--model",
        f"scripted:{script}",
        "--tasks",
        "amazon-02,yelp-02",
        "--devices",
        "vphone:1",
    ]
    result = cli.invoke(app, [*args, "--out", str(tmp_path / "eval")])
    assert result.exit_code == 0, result.output
    table = result.output[result.output.index("Shortcut knowledge bases") :]
    for row in ("no KB", "predefined", "subtask-kb"):
        assert row in table
    summaries = json.loads((tmp_path / "eval" / "kb_eval.json").read_text())
    assert set(summaries) == {"no KB", "predefined", "subtask-kb"}
    assert all(s["overall"]["episodes"] == 2 for s in summaries.values())


def test_a_recorded_session_becomes_a_run_that_generates_a_working_replay(phone, tmp_path):
    """A 'person' (a thread executing a task's GUI steps) is recorded; the recording is a run directory
    whose trajectory generates a task replay that does the task again on a fresh phone."""
    import threading

    from masbench.generation.record import record

    task = TASKS.get("yelp-02")
    stop, ready = threading.Event(), threading.Semaphore(0)

    def person() -> None:
        time.sleep(0.3)  # the recorder has reset the phone and taken its first dump
        for step in task.solutions.gui:
            assert execute_action(phone, step, phone.observe(screenshot=False).elements).ok
            assert ready.acquire(timeout=30)  # the recorder has read the screen this step left
        stop.set()

    worker = threading.Thread(target=person)
    worker.start()
    result = record(phone, tmp_path / "rec", task, stop, on_step=lambda step: ready.release())
    worker.join()
    assert result.success and result.steps == task.optimal_steps
    (trajectory,) = load_trajectories(tmp_path / "rec")[0]
    assert all(s.action.action != "tap" or s.action.target is not None for s in trajectory.steps)  # grounded
    kb = load_kb(write_kb(task_replays([trajectory], {task.id: task.instruction}), tmp_path / "kb"))
    prepare(phone, task)
    call_example(ShortcutExecutor(kb, phone), next(iter(kb)))
    assert check_device(task.check, phone).passed


def test_a_tap_on_a_launcher_icon_is_one_tap_not_also_an_app_start():
    from masbench.generation.record import action_for

    assert (
        action_for(
            {"kind": "start", "action": "android.intent.action.MAIN", "package": "com.yelp.android"}, []
        ).name
        == "Yelp"
    )
    assert action_for({"kind": "broadcast", "action": "ADB_INPUT_B64"}, []) is None
    assert action_for({"kind": "key", "key": "BACK"}, []).action == "back"


def test_recording_a_launcher_tap_gives_one_step(phone, tmp_path):
    import threading

    from masbench.generation.record import record

    stop = threading.Event()

    def person() -> None:
        time.sleep(0.3)
        icon = select(Selector(content_desc="Settings"), phone.elements())
        phone.tap(*icon.center)
        time.sleep(0.5)
        stop.set()

    worker = threading.Thread(target=person)
    phone.home()
    worker.start()
    result = record(phone, tmp_path / "rec", None, stop)
    worker.join()
    (trajectory,) = load_trajectories(tmp_path / "rec")[0]
    assert result.steps == 1 and trajectory.steps[0].action.target.content_desc == "Settings"


def test_a_model_writes_a_dynamic_shortcut_that_runs_by_grounding_and_bad_plans_are_reported(phone, tmp_path):
    from masbench.generation.dynamic import dynamic_shortcuts
    from masbench.generation.trajectories import Step, Trajectory
    from masbench.llm import ScriptedLLM

    task = TASKS.get("yelp-02")
    good = Trajectory("run", task.id, tuple(Step(a, "yelp") for a in task.solutions.gui))
    bad = Trajectory("run", "yelp-03", good.steps)
    plan = {
        "name": "mark_event_interested",
        "description": "Open an event from Yelp's upcoming events and mark yourself as interested.",
        "parameters": [
            {"name": "event", "type": "string", "required": True, "description": "the event's name"}
        ],
        "steps": [{"open_app": "Yelp"}, {"tap": "See all"}, {"tap": "{event}"}, {"tap": "Interested"}],
    }
    seen = []

    def model(messages):
        seen.append(messages[-1].text)
        return "Here it is:\n" + json.dumps(plan) if len(seen) == 1 else '{"name": "x", "steps": []}'

    shortcuts, problems = dynamic_shortcuts([good, bad], {task.id: task.instruction}, ScriptedLLM(model))
    assert "1. open_app name='Yelp'" in seen[0] and task.instruction in seen[0]
    assert [s.qualified_name for s in shortcuts] == ["yelp.mark_event_interested"]
    assert problems == ["yelp-03: the plan is not a valid shortcut: description: Field required"]
    kb = load_kb(write_kb(shortcuts, tmp_path))

    def ground(description, elements):  # a stand-in for the grounding model: an exact label
        return next((e for e in elements if description in (e.text, e.content_desc)), None)

    prepare(phone, task)
    record = ShortcutExecutor(kb, phone, ground=ground).call(
        "yelp.mark_event_interested", {"event": "Jazz Night"}
    )
    assert record.success, record.reason
    assert check_device(task.check, phone).passed


def test_generate_dynamic_asks_the_model_through_the_cli(run_dir, tmp_path):
    plan = {
        "name": "open_first_result",
        "description": "Open the app and tap its first result.",
        "parameters": [],
        "steps": [{"open_app": "Yelp"}, {"tap": "See all"}],
    }
    script = tmp_path / "plans.yaml"
    script.write_text(json.dumps([json.dumps(plan)] + ["no plan"] * 40))
    kb = tmp_path / "dynamic-kb"
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        app,
        [
            "shortcuts",
            "generate",
            "dynamic",
            "--from",
            str(run_dir),
            "--out",
            str(kb),
            "--model",
            f"scripted:{script}",
        ],
    )
    assert result.exit_code == 0, result.output
    (shortcut,) = load_kb(kb)
    assert shortcut.type == "dynamic" and shortcut.name == "open_first_result"
    assert "its answer holds no JSON object" in result.output  # the other trajectories, reported


def test_generate_mobileagent_e_takes_the_shortcuts_its_run_learnt(phone, tmp_path):
    from masbench.agents.mobileagent_e import Experience, shortcut_from

    learnt = Experience(tips="- be brief")
    learnt.kb.add(
        shortcut_from(
            {
                "app": "settings",
                "name": "search_settings",
                "description": "Open Settings, search for a setting and open the first result.",
                "parameters": [{"name": "query", "type": "string", "required": True, "description": "what"}],
                "actions": [
                    {"action": "open_app", "name": "Settings"},
                    {"action": "type", "target": {"resource_id": "search_action_bar"}, "text": "{query}"},
                    {"action": "tap", "target": {"resource_id": "search_result"}},
                ],
            }
        )
    )
    run = tmp_path / "run"
    (run / "memory").mkdir(parents=True)
    lines = [
        {"task_id": "t1", "repeat": 0, "memory": Experience().data()},
        {"task_id": "t2", "repeat": 0, "memory": learnt.data()},
    ]
    (run / "memory" / "chain-0.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (run / "results.jsonl").write_text("")
    cli = CliRunner(env={"COLUMNS": "200"})
    result = cli.invoke(
        app, ["shortcuts", "generate", "mobileagent-e", "--from", str(run), "--out", str(tmp_path / "kb")]
    )
    assert result.exit_code == 0, result.output
    kb = load_kb(tmp_path / "kb")
    assert [s.qualified_name for s in kb] == ["settings.search_settings"]
    assert "run/chain-0.jsonl" in kb["settings.search_settings"].source
    assert source_tasks(kb) == {"t1", "t2"}  # every task its memory learnt over, for the leakage guard
    phone.reset(0, None)
    assert ShortcutExecutor(kb, phone).call("settings.search_settings", {"query": "Bluetooth"}).success
    (run / "memory" / "chain-0.jsonl").unlink()
    result = cli.invoke(
        app, ["shortcuts", "generate", "mobileagent-e", "--from", str(run), "--out", str(tmp_path / "kb2")]
    )
    assert result.exit_code == 2 and "no learnt memory" in result.output
