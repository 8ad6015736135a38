"""A learning agent (Mobile-Agent-E) learns in task order whatever the devices: its memory lives in the run
directory, one chain per repeat; a run recorded on 2 devices replays identically on 1 and on 3; an
interrupted chain resumes from the memory of the last task it finished; repeats learn apart unless asked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from masbench.agents.mobileagent_e import MobileAgentE
from masbench.device import start_virtual_phones
from masbench.eval.memory import MemoryLog
from masbench.eval.runner import Runner, new_config, prepare_run_dir
from masbench.llm import LLMError, Message, ScriptedLLM
from masbench.llm.cassette import CassetteLLM, RecordingLLM
from masbench.tasks import load_tasks

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = [load_tasks(DATA).get(i) for i in ("settings-01", "settings-02", "settings-03")]
VOLATILE = {"wall_s", "started_at", "device", "observe_s", "agent_s", "execute_s", "duration_s", "device_ms"}


def learner(messages: list[Message]) -> str:
    """Every task: one wait, judged A, then the Manager declares it finished (Mobile-Agent-E reflects on a
    task only after an action); the Tips Reflector appends a line naming the task to the tips it was
    shown, so each task's prompts reveal everything learned before it."""
    text = messages[-1].text or ""
    if "make a high-level plan" in text:
        return "Thought: t.\nPlan: 1. wait\nCurrent subgoal: wait"
    if (messages[0].text or "").startswith("You are the Operator"):
        return 'Thought: t.\nAction: {"action": "wait", "seconds": 0}\nDescription: the page loads'
    if "You are the Action Reflector" in text:
        return "Outcome: A\nError description: None\nProgress status: waited"
    if "You are the Notetaker" in text:
        return "Important notes: None"
    if "You are the Tips Reflector" in text:
        tips = text.split("Existing tips:\n", 1)[1].split("\n\nReply in exactly", 1)[0]
        goal = re.search(r"The task: (.*)", text).group(1)
        return f"Updated tips:\n{tips}\n- learned from: {goal[:40]}"
    if "You are the Shortcut Reflector" in text:
        return "None"
    return "Thought: nothing left to do.\nPlan: done.\nCurrent subgoal: Finished"


def failing_on(goal_start: str):
    """The learner, but the model is unreachable during the task whose goal starts with `goal_start`."""

    def answer(messages: list[Message]) -> str:
        if any(goal_start in (m.text or "") for m in messages):
            raise LLMError("HTTP 503")
        return learner(messages)

    return answer


def run(
    run_dir: Path, llm_factory, devices: int, repeats: int = 1, across: bool = False, resume: bool = False
):
    config = new_config(agent="mobileagent-e", tasks="test", task_ids=[t.id for t in TASKS], kb="none",
                        devices=[f"vphone:{devices}"], repeats=repeats, learn_across_repeats=across)  # fmt: skip
    config = prepare_run_dir(run_dir, config, resume=resume)
    runner = Runner(config, TASKS, lambda: MobileAgentE(llm=llm_factory()), None, run_dir, save_screens=False,
                    learning=True)  # fmt: skip
    with start_virtual_phones(devices) as phones:
        runner.run(phones.devices)
    return runner


def rows(run_dir: Path) -> list[dict]:
    lines = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    return sorted(
        ({k: v for k, v in r.items() if k not in VOLATILE} for r in lines),
        key=lambda r: (r["repeat"], r["task_id"]),
    )


def tips_after(run_dir: Path, chain: int = 0) -> list[str]:
    lines = (run_dir / "memory" / f"chain-{chain}.jsonl").read_text().splitlines()
    return [json.loads(line)["memory"]["tips"] for line in lines]


def test_memory_grows_in_task_order_and_a_recording_on_2_devices_replays_on_1_and_3(tmp_path):
    cassette = tmp_path / "calls.jsonl"
    run(tmp_path / "live", lambda: RecordingLLM(ScriptedLLM(learner), cassette), devices=2)
    learned = tips_after(tmp_path / "live")
    assert [t.count("- learned from:") for t in learned] == [1, 2, 3]  # each task saw all before it
    assert learned[-1].index("Turn on the dark theme") < learned[-1].index(TASKS[1].instruction[:20])
    for devices in (1, 3):
        replay = tmp_path / f"replay-{devices}"
        run(replay, lambda: CassetteLLM(cassette), devices=devices)  # a miss would be an error row
        assert rows(replay) == rows(tmp_path / "live")
        assert tips_after(replay) == learned
    assert all(r["end_reason"] == "finished" for r in rows(tmp_path / "live"))


def test_an_interrupted_chain_resumes_from_the_memory_of_the_last_task_it_finished(tmp_path):
    run_dir = tmp_path / "run"
    run(run_dir, lambda: ScriptedLLM(failing_on(TASKS[1].instruction[:30])), devices=2)
    first = rows(run_dir)
    assert [(r["task_id"], r["end_reason"]) for r in first] == [
        ("settings-01", "finished"),
        ("settings-02", "error"),
    ]
    # settings-03 never ran: it must start from what settings-02 leaves
    run(run_dir, lambda: ScriptedLLM(learner), devices=2, resume=True)
    run(tmp_path / "straight", lambda: ScriptedLLM(learner), devices=1)
    assert tips_after(run_dir) == tips_after(tmp_path / "straight")
    final = {r["task_id"]: r for r in rows(run_dir) if r["end_reason"] != "error"}
    assert set(final) == {t.id for t in TASKS}


@pytest.mark.parametrize(
    ("across", "expected"), [(False, [[1, 2, 3], [1, 2, 3]]), (True, [[1, 2, 3, 4, 5, 6]])]
)
def test_repeats_learn_apart_unless_asked(tmp_path, across, expected):
    run(tmp_path, lambda: ScriptedLLM(learner), devices=2, repeats=2, across=across)
    chains = sorted(p.name for p in (tmp_path / "memory").iterdir())
    assert [
        [t.count("- learned from:") for t in tips_after(tmp_path, int(c[6:-6]))] for c in chains
    ] == expected


def test_a_damaged_memory_file_is_named_with_its_line(tmp_path):
    log = MemoryLog(tmp_path, TASKS, 1, across_repeats=False)
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "chain-0.jsonl").write_text(
        '{"task_id": "settings-01", "repeat": 0, "memory": {}}\nnot json\n'
    )

    class Item:
        task, repeat = TASKS[1], 0

    with pytest.raises(ValueError, match=r"chain-0\.jsonl:2: not a memory line"):
        log.before(Item())
