"""The route search's in-process path (masbench/vphone/direct.py through `open_in_process_phone`): its
restore brings back the very state it saved, its search reaches the verdicts the ADB path reaches, and a
route it finds replays over ADB with the same check result. Also that no pruning rule changes what it finds."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from task_helpers import shipped_tasks, sushi_task

from masbench.actions import TypeAction
from masbench.actions.execute import execute_action
from masbench.device import InProcessPhone, open_in_process_phone, parse_ui_dump
from masbench.tasks import load_tasks
from masbench.tasks.player import play, prepare
from masbench.tasks.routes import Pruning, _explorer, search_routes

# The shipped tasks and settings-01, the test tasks' one whose check reads the phone's settings (no
# shipped task does; it is not in tasks/, which is why looking it up among the shipped ones failed).
TASKS = {
    t.id: t
    for t in [*shipped_tasks(), load_tasks(Path(__file__).parent / "data" / "tasks").get("settings-01")]
}
# Level-1 tasks of each kind of check (foreground screen, app data, phone settings, two apps), searched
# on both paths to the same depth.
COMPARED = ("yelp-01", "gmail-01", "settings-01", "cross-25")


@pytest.fixture(scope="module")
def phone() -> InProcessPhone:
    return open_in_process_phone()


def test_elements_are_the_ones_the_dump_gives(phone):
    prepare(phone.device, sushi_task())
    for app in ("Yelp", "Gmail", "Settings"):
        phone.device.open_app(app)
        assert phone.elements() == parse_ui_dump(phone.device.ui_dump(), screen=phone.device.screen_size())


def test_restore_undoes_every_move_and_a_saved_state_comes_back_with_its_key(phone):
    device = phone.device
    prepare(device, sushi_task())
    device.open_app("Yelp")
    start = phone.save()
    before, screen = _timeless(device.snapshot()), phone.elements()
    search = TypeAction(target={"resource_id": "search_bar_text"}, text="ramen")
    keys = set()
    for _ in range(2):  # an undo of the move, then a switch back from the state it reached
        phone.restore(start)
        assert execute_action(device, search, phone.elements()).ok
        device.enter()
        assert device.snapshot()["foreground"]["screen"] == "results"
        results = phone.save()
        keys.add(results.key)
        assert results.key != start.key
        phone.restore(start)
        assert _timeless(device.snapshot()) == before and phone.elements() == screen
        assert phone.save().key == start.key
        phone.restore(results)
        assert device.snapshot()["foreground"]["screen"] == "results" and phone.save().key == results.key
    assert len(keys) == 1  # the same state reached twice, by a move from a restored state


@pytest.mark.parametrize("task_id", ("yelp-01", "cross-25"))
def test_every_state_a_search_saved_comes_back_as_it_was_with_its_key(phone, task_id):
    """States saved along a search, switched to in another order (undoing and redoing along the tree of
    saved states), read as they did when saved and hash to the key they had."""
    task = TASKS[task_id]
    explorer = _explorer(phone, task, budget=10**6)
    prepare(phone.device, task)
    start = explorer.observe()
    root = explorer.node(start, [], "start")
    reached = [(seen.screen, _timeless(phone.device.snapshot()), phone.elements())
               for _, seen in explorer.breadth_first(root, 2, {start.key}, screen_at_last=True)]  # fmt: skip
    for saved, snapshot, elements in reached[::-3]:
        phone.restore(saved)
        assert _timeless(phone.device.snapshot()) == snapshot and phone.elements() == elements
        assert phone.save().key == saved.key


def _timeless(snapshot: dict) -> dict:
    return {k: v for k, v in snapshot.items() if k not in ("clock", "device_ms")}


@pytest.mark.parametrize("task_id", COMPARED)
def test_in_process_search_reaches_the_adb_verdict(phone, device, task_id):
    task = TASKS[task_id]
    over_adb = search_routes(device, task, max_depth=2)
    direct = search_routes(phone, task, max_depth=2)
    assert direct.verdict == over_adb.verdict and direct.exhausted


@pytest.mark.parametrize("task_id", ("youtube-02", "youtube-03", "yelp-02", "settings-01"))
def test_a_route_found_in_process_replays_over_adb(phone, device, task_id):
    """Searched as deep as the reference, the in-process path finds a route as long as it, and that route
    passes the check played over ADB as it does played in process."""
    task = TASKS[task_id]
    found = search_routes(phone, task, max_depth=task.optimal_steps, budget=10**6)
    assert found.route is not None and len(found.route) == task.optimal_steps
    assert play(device, task, found.route).passed and play(phone.device, task, found.route).passed


@pytest.mark.parametrize("task_id", ("yelp-01", "cross-25"))
def test_the_reference_plays_the_same_in_process_and_over_adb(phone, device, task_id):
    task = TASKS[task_id]
    assert play(phone.device, task).passed == play(device, task).passed is True


@pytest.mark.parametrize("rule", [rule.name for rule in fields(Pruning)])
@pytest.mark.parametrize("task_id", ("youtube-03", "settings-01", "yelp-01"))
def test_no_pruning_rule_changes_what_the_search_finds(phone, rule, task_id):
    """With and without each rule, the same verdict: the same shortest route length where one is found
    (youtube-03, settings-01, searched as deep as their reference), none where the task is proved that
    deep (yelp-01, three moves); the rule only saves moves."""
    task = TASKS[task_id]
    depth = min(task.optimal_steps, 3 if task_id == "yelp-01" else 4)
    pruned = search_routes(phone, task, max_depth=depth, budget=10**6)
    unpruned = search_routes(phone, task, max_depth=depth, budget=10**6, pruning=Pruning(**{rule: False}))
    assert pruned.verdict == unpruned.verdict and pruned.observed <= unpruned.observed
