"""The reference-solution player and `verify_task` on the test tasks in tests/data/tasks, over ADB."""

from __future__ import annotations

from pathlib import Path

import pytest

from masbench.actions import parse_action
from masbench.device import Device, DeviceAddress, start_virtual_phones
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import Task, load_tasks, play, prepare, verify_task
from masbench.tasks.checks import check_device
from masbench.tasks.verify import verify_tasks

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = load_tasks(DATA)
KB = load_kb(DATA / "kb")


@pytest.fixture(scope="module")
def phones():
    with start_virtual_phones(2) as phones:
        yield phones


@pytest.fixture(scope="module")
def device(phones):
    return phones.devices[0]


@pytest.fixture(scope="module")
def shortcuts(device):
    return ShortcutExecutor(KB, device)


def variant(task: Task, **changes) -> Task:
    data = task.model_dump(mode="json", by_alias=True, exclude_none=True, exclude={"kind"})
    data.update(changes)
    return Task.model_validate(data)


@pytest.mark.parametrize("task", list(TASKS), ids=lambda t: t.id)
def test_both_reference_solutions_pass(device, shortcuts, task):
    for which in ("gui", "hybrid"):
        result = play(device, task, which, shortcuts)
        assert result.passed, (which, result.failures, result.details)
        assert result.steps == len(getattr(task.solutions, which))
    assert result.steps < task.optimal_steps


@pytest.mark.parametrize("task", list(TASKS), ids=lambda t: t.id)
def test_doing_nothing_and_near_misses_fail(device, shortcuts, task):
    assert not play(device, task, [], shortcuts).passed
    for miss in task.near_misses:
        result = play(device, task, miss.steps(task.solutions), shortcuts)
        assert not result.failures, result.failures  # the near miss runs through ...
        assert not result.check_passed, (miss.name, result.details)  # ... and still fails the check


@pytest.mark.parametrize("task", list(TASKS), ids=lambda t: t.id)
def test_verify_task_passes_every_rule(device, task):
    report = verify_task(device, task, KB)
    assert report.passed, report.failures
    names = [item.name for item in report.items]
    assert {"initial state fails", "no-op fails", "gui passes", "hybrid passes"} <= set(names)
    assert sum(n.startswith("near miss") for n in names) == len(task.near_misses)


def test_prepare_applies_setup_patches_and_starts_home(device):
    task = variant(
        TASKS.get("cross-01"),
        initial_state={
            "seed": 7,
            "setup": {
                "chrome": {
                    "history": [{"url": "https://www.google.com/search?q=curiosity+rover", "time": "t"}]
                }
            },
        },
    )
    device.open_app("Settings")
    prepare(device, task)
    assert device.foreground()[0] == "com.google.android.apps.nexuslauncher"
    result = check_device(task.check.all[0], device)
    assert result.passed, result.details


def test_a_failing_step_stops_the_replay_and_is_reported(device, shortcuts):
    task = TASKS.get("settings-01")
    nowhere = parse_action({"action": "tap", "target": {"text": "Nowhere"}})
    steps = [task.solutions.gui[0], nowhere, *task.solutions.gui[1:]]
    result = play(device, task, steps, shortcuts)
    assert not result.passed and result.steps == 2
    assert result.failures == ["step 1 (tap text='Nowhere'): no element matches text='Nowhere' (0 matched)"]


def test_verify_reports_each_broken_rule(device):
    task = TASKS.get("settings-01")
    broken = variant(
        task,
        # the hybrid calls a shortcut the KB lacks, and does not do the job
        solutions={
            "gui": [s.model_dump(exclude_none=True) for s in task.solutions.gui],
            "hybrid": [{"action": "shortcut", "call": "settings.open_sound_settings()"}, {"action": "back"}],
        },
        # a check that already holds: the initial state and the no-op pass it
        check={"setting": {"namespace": "global", "key": "wifi_on", "eq": "1"}},
        near_misses=[{"name": "harmless", "from": "gui", "replace": {2: {"action": "back"}}}],
    )
    report = verify_task(device, broken, KB)
    failed = {item.name: item.reason for item in report.items if not item.ok}
    assert set(failed) == {
        "shortcuts in KB",
        "initial state fails",
        "no-op fails",
        "gui passes",  # it changes the setting the task is about, which this check does not read
        "hybrid passes",
        "near miss 'harmless' fails",
        "slips",  # played after the hybrid, which does not run
    }
    assert "unexpected change: settings." in failed["gui passes"]
    assert failed["slips"].startswith("the hybrid reference does not run")
    assert failed["shortcuts in KB"] == "not in the KB: settings.open_sound_settings"
    assert failed["initial state fails"].startswith(
        "passes before anything is done: PASS setting global wifi_on"
    )
    assert "unknown shortcut 'settings.open_sound_settings'" in failed["hybrid passes"]


def test_static_rules_without_a_kb(device):
    task = variant(TASKS.get("settings-01"), near_misses=[])
    report = verify_task(device, task, None)
    failed = {item.name for item in report.items if not item.ok}
    assert failed == {"shortcuts in KB", "hybrid passes", "has near miss", "slips"}  # no KB runs no hybrid


def test_verify_tasks_spreads_tasks_over_devices(phones):
    phones = phones.devices
    tasks = TASKS.select("settings-01,settings-03")
    seen: list[str] = []
    reports = verify_tasks(tasks, phones, KB, on_report=lambda r: seen.append(r.task_id))
    assert [r.task_id for r in reports] == ["settings-01", "settings-03"]
    assert sorted(seen) == ["settings-01", "settings-03"]
    assert all(r.passed for r in reports), [r.failures for r in reports]


def test_a_vanished_device_leaves_the_pool_and_its_task_is_retried(phones):
    gone = Device(DeviceAddress("127.0.0.1", phones.port, "vphone-9"))  # not on this server
    good = phones.devices[1]
    tasks = TASKS.select("settings-01,settings-03")
    assert [r.passed for r in verify_tasks(tasks, [gone, good], KB)] == [True, True]
    reports = verify_tasks(tasks, [gone], KB)
    assert not any(r.passed for r in reports)
    assert reports[0].failures[0].startswith("run: no device left to run it; vphone-9 went away: ")
