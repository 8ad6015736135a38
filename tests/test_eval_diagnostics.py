"""The failure taxonomy and AppBench's F1, each class shown on a constructed episode of amazon-02 (apps:
amazon; hybrid reference: amazon.search_product then 2 taps, 3 steps; GUI reference 5 steps)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from masbench.eval.diagnostics import diagnose, set_f1, shortcut_failure_cause
from masbench.eval.html import write_report
from masbench.eval.metrics import summarise
from masbench.eval.records import EpisodeResult, RunConfig
from masbench.eval.table import failures_table
from masbench.tasks import load_tasks
from masbench.trajectory import StepRecord

TASK = load_tasks().select("amazon-02")[0]
AMAZON = "com.amazon.mShop.android.shopping/.Main"
HOME = "com.google.android.apps.nexuslauncher/.NexusLauncherActivity"
SEARCH = {"action": "shortcut", "name": "amazon.search_product", "arguments": {"query": "mechanical watch"}}
TAP = {"action": "tap", "index": 3}


def step(i: int, action: dict[str, Any] | None, kind: str = "gui", ok: bool = True, **kw: Any) -> StepRecord:
    return StepRecord(index=i, action=action, kind=kind, ok=ok, foreground=kw.pop("fg", AMAZON), **kw)


def call(
    i: int, name: str = "amazon.search_product", ok: bool = True, record: dict | None = None
) -> StepRecord:
    action = {"action": "shortcut", "name": name, "arguments": {"query": "mechanical watch"}}
    shortcut = record or {"name": name, "success": ok, "commands": ["am start ..."]}
    return step(i, action, "shortcut", ok, shortcut=shortcut)


def finish(i: int, fg: str = AMAZON) -> StepRecord:
    return step(i, {"action": "finish", "status": "success"}, "finish", fg=fg)


def result(
    steps: list[StepRecord], success: bool = False, end: str = "finished", repeat: int = 0
) -> EpisodeResult:
    counted = [s for s in steps if s.kind not in ("finish", "fault")]
    return EpisodeResult(
        task_id=TASK.id, repeat=repeat, agent="mas-t3a", kb="predefined", device="vphone-1", device_kind="virtual",
        success=success, end_reason=end, steps=len(counted), gui_actions=sum(s.kind == "gui" for s in counted),
        shortcut_calls=sum(s.kind == "shortcut" for s in counted), shortcut_successes=0, invalid_steps=0,
        optimal_steps=TASK.optimal_steps, wall_s=1.0, started_at=datetime.now(UTC),
        trajectory=f"trajectories/{TASK.id}" + (f"/r{repeat}" if repeat else ""),
    )  # fmt: skip


def classify(steps: list[StepRecord], **kw: Any) -> tuple[str | None, list[str]]:
    d = diagnose(result(steps, **kw), TASK, steps)
    return d.failure, d.labels


def test_a_success_has_no_failure_class_and_full_f1():
    steps = [call(0), step(1, TAP), step(2, TAP), finish(3)]
    d = diagnose(result(steps, success=True), TASK, steps)
    assert d.failure is None and d.labels == []
    assert d.apps_used == ["amazon"] and d.shortcuts_used == ["amazon.search_product"]
    assert set_f1(d.apps_used, d.apps_reference) == (1.0, 1.0, 1.0)


def test_a_shortcut_the_reference_does_not_use_is_a_selection_error():
    steps = [call(0, "amazon.open_deal"), step(1, TAP), step(2, TAP), finish(3)]
    assert classify(steps)[0] == "wrong_shortcut"


def test_the_same_call_three_times_is_a_repeated_call_loop():
    steps = [call(0), step(1, TAP), call(2), call(3), finish(4)]
    assert classify(steps)[0] == "repeated_call_loop"
    assert classify([call(0), step(1, TAP), call(2), step(3, TAP), finish(4)])[0] != "repeated_call_loop"


@pytest.mark.parametrize(
    ("record", "cause"),
    [
        ({"reason": "amazon.search_product: missing argument 'query'"}, "shortcut_bad_arguments"),
        (
            {"commands": ["am start -d x"], "reason": "am start failed: Activity not found"},
            "shortcut_precondition",
        ),
        (
            {"commands": ["am start"], "reason": "postcondition failed: expected X in front"},
            "shortcut_postcondition",
        ),
        (
            {"reason": "step 1 tap {text='Cart'}: no element", "steps": [{"number": 1, "success": False}]},
            "shortcut_precondition",
        ),
        (
            {
                "reason": "step 2 tap {text='Add'}: no element",
                "steps": [{"number": 1, "success": True}, {"number": 2, "success": False}],
            },
            "shortcut_grounding",
        ),
        (
            {"reason": "step 1 tap: grounding 'the cart' failed: none", "steps": [{"number": 1}]},
            "shortcut_grounding",
        ),
    ],
)
def test_a_failed_shortcut_is_classified_by_its_cause(record, cause):
    assert shortcut_failure_cause({"name": "amazon.search_product", "success": False, **record}) == cause
    steps = [call(0, ok=False, record={"name": "amazon.search_product", **record}), step(1, TAP), finish(2)]
    assert classify(steps)[0] == cause


def test_a_call_an_injected_fault_made_fail_is_no_class_of_the_agents():
    """`--faults`: the harness broke the call; the episode is classed by what the agent did after."""
    from masbench.eval.faults import INJECTED

    record = {"name": "amazon.search_product", "success": False, "reason": f"{INJECTED} (api): error"}
    steps = [call(0, ok=False, record=record), step(1, TAP), finish(2)]
    assert classify(steps)[1] == ["stopped_early"]


def test_one_gui_action_three_times_in_a_row_is_a_loop_but_scrolling_is_not():
    scroll = {"action": "scroll", "direction": "down"}
    assert classify([call(0), step(1, TAP), step(2, TAP), step(3, TAP)], end="step_limit") == (
        "repeated_action_loop",
        ["repeated_action_loop", "step_limit"],
    )
    assert (
        classify([call(0), step(1, scroll), step(2, scroll), step(3, scroll)], end="step_limit")[0]
        == "step_limit"
    )


def test_mostly_unusable_replies():
    steps = [step(0, None, "invalid", False), step(1, None, "invalid", False), step(2, TAP)]
    assert classify(steps, end="step_limit")[0] == "unusable_replies"


def test_never_reaching_the_tasks_app():
    steps = [step(0, TAP, fg=HOME), step(1, {"action": "home"}, fg=HOME), finish(2, HOME)]
    assert classify(steps)[0] == "wrong_app"


def test_finishing_before_the_shortest_reference_is_stopping_early_else_a_wrong_state():
    assert classify([step(0, TAP), finish(1)])[0] == "stopped_early"
    assert classify([call(0), step(1, TAP), step(2, {"action": "back"}), finish(3)])[0] == "wrong_final_state"
    assert classify([call(0), step(1, TAP), step(2, {"action": "back"})], end="time_limit")[0] == "time_limit"


def test_a_generated_kb_names_its_own_shortcuts_so_none_is_wrong_and_no_shortcut_f1():
    steps = [call(0, "task_replay.amazon_02"), step(1, TAP), step(2, TAP), finish(3)]
    d = diagnose(result(steps), TASK, steps, predefined_kb=False)
    assert "wrong_shortcut" not in d.labels and d.shortcuts_used == d.shortcuts_reference == []


def test_set_f1_follows_appbench_and_leaves_undefined_parts_out():
    assert set_f1(["amazon", "gmail"], ["amazon"]) == (0.5, 1.0, pytest.approx(2 / 3))
    assert set_f1([], ["amazon"]) == (None, 0.0, 0.0)
    assert set_f1([], []) == (None, None, None)


def write_run(run_dir: Path, episodes: list[tuple[EpisodeResult, list[StepRecord]]]) -> None:
    for r, steps in episodes:
        d = run_dir / r.trajectory
        d.mkdir(parents=True)
        (d / "steps.jsonl").write_text("".join(s.model_dump_json() + "\n" for s in steps))


def test_summary_table_and_report_count_failures_per_class_and_link_the_episodes(tmp_path):
    ok = [call(0), step(1, TAP), step(2, TAP), finish(3)]
    loop = [call(0), call(1), call(2)]
    early = [step(0, TAP), finish(1)]
    episodes = [
        (result(ok, success=True), ok),
        (result(loop, end="step_limit", repeat=1), loop),
        (result(early, repeat=2), early),
    ]
    write_run(tmp_path, episodes)
    results = [r for r, _ in episodes]
    summary = summarise(results, [TASK], run={"kb": "predefined"}, run_dir=tmp_path)
    m = summary.overall
    assert m is not None and m.failures == {"repeated_call_loop": 1, "stopped_early": 1}
    assert summary.failure_episodes == {
        "repeated_call_loop": ["amazon-02/r1"],
        "stopped_early": ["amazon-02/r2"],
    }
    assert m.app_f1 == 1.0 and m.shortcut_f1 == 0.6667  # early called none: F1 0
    assert summary.groups["level"]["level-1"].failures == m.failures
    assert summarise(results, [TASK]).overall.failures == {}  # without the trajectories: nothing read

    console = Console(width=80, record=True, color_system=None)
    console.print(failures_table([("mas-t3a", summary)]))
    console.print(failures_table([("a long run name (mas-t3a)", summary), ("t3a", summary)]))
    text = console.export_text()
    assert all(len(line) <= 80 for line in text.splitlines()) and "…" not in text
    assert re.search(r"repeated_call_loop\s+│\s+1\s+│\s+same shortcut call", text)

    config = RunConfig(agent="mas-t3a", tasks="amazon-02", task_ids=[TASK.id], kb="predefined",
                       devices=["vphone:1"], created_at=datetime.now(UTC))  # fmt: skip
    page = write_report(tmp_path, config, results, [TASK], summary).read_text()
    assert '<a href="#ep-amazon-02-r1">amazon-02/r1</a>' in page and "<details id=ep-amazon-02-r1>" in page
