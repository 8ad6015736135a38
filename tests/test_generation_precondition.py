"""A mined subtask replay records the screen it starts from as its precondition; the executor checks it
before acting, so a call from another screen fails with a clear reason, classed `shortcut_precondition`."""

from __future__ import annotations

import pytest

from masbench.actions import Selector, parse_action, select
from masbench.catalog import APPS
from masbench.device import start_virtual_phones
from masbench.eval.diagnostics import shortcut_failure_cause
from masbench.generation import subtask_replays, write_kb
from masbench.generation.trajectories import Step, Trajectory
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import load_tasks
from masbench.tasks.player import prepare

YELP = APPS["yelp"].package
SEE_ALL = {"resource_id": "see_all_events"}


def _trajectory(task_id: str, *, opens: bool) -> Trajectory:
    """Yelp's event list opened and Jazz Night picked; `opens` starts it with opening Yelp."""
    actions = [{"action": "tap", "target": SEE_ALL}, {"action": "tap", "target": {"text": "Jazz Night"}}]
    steps = [Step(parse_action(a), "yelp") for a in actions]
    if opens:
        steps.insert(0, Step(parse_action({"action": "open_app", "name": "Yelp"}), None))
    return Trajectory("r", task_id, tuple(steps))


@pytest.fixture(scope="module")
def phone():
    with start_virtual_phones(1) as phones:
        yield phones.devices[0]


def test_a_subtask_replay_records_its_start_screen_and_fails_clearly_elsewhere(phone, tmp_path):
    found = subtask_replays([_trajectory("a", opens=False), _trajectory("b", opens=False)])
    (shortcut,) = load_kb(write_kb(found, tmp_path / "kb"))  # the precondition survives the KB file
    assert shortcut.precondition is not None
    assert shortcut.precondition.package == YELP
    assert shortcut.precondition.shows == Selector(**SEE_ALL)
    kb = load_kb(tmp_path / "kb")
    executor = ShortcutExecutor(kb, phone)

    prepare(phone, load_tasks().get("yelp-02"))  # the home screen: not where the replay starts
    record = executor.call(shortcut.qualified_name)
    assert not record.success and record.steps == [] and record.commands == []
    assert record.reason.startswith(f"precondition not met: expected {YELP} in front, found ")
    assert shortcut_failure_cause(record.model_dump(mode="json")) == "shortcut_precondition"

    phone.open_app("Yelp")
    phone.tap_element(select(Selector(**SEE_ALL), phone.elements()))
    record = executor.call(shortcut.qualified_name)  # Yelp in front, but no longer on its start screen
    assert not record.success and record.steps == []
    assert record.reason == "precondition not met: expected resource_id='see_all_events' on screen", (
        record.reason
    )
    assert shortcut_failure_cause(record.model_dump(mode="json")) == "shortcut_precondition"

    phone.back()
    record = executor.call(shortcut.qualified_name)
    assert record.success, record.reason
    assert [s.success for s in record.steps] == [True, True]


def test_a_subtask_replay_that_opens_its_app_runs_from_any_screen():
    found = subtask_replays([_trajectory("a", opens=True), _trajectory("b", opens=True)])
    opening = [s for s in found if s.replay.actions[0].action == "open_app"]
    assert opening and all(s.precondition is None for s in opening)
