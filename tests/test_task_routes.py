"""The route search (masbench/tasks/routes.py) and the proofs it gives: no level-1 task passes in fewer
steps than its `optimal_steps` under the search's moves.

Fast tier: the phone's save/restore, the typed strings, selectors, a search that finds a known route, and
for every level-1 task that no route of up to FAST_DEPTH steps passes (over ADB, the cross-check). The
full proofs (every route up to `optimal_steps - 1`) run in process, take seconds to minutes per task and
are marked `slow`; tasks whose search space is too large are listed in NOT_PROVED with the depth
PROOF_BUDGET moves do cover, and proved that far, so the gap is visible, and no detour of up to two moves
from any state along their reference reaches a later state of it sooner. Also slow: no task's reference
can be shortened by splicing in a one-move detour (`shorten_reference`).
"""

from __future__ import annotations

import pytest
import yaml
from task_helpers import shipped_tasks, sushi_task

from masbench.actions import TypeAction
from masbench.actions.execute import execute_action
from masbench.actions.selectors import select
from masbench.device import Device, DeviceCommandError, InProcessPhone, open_in_process_phone
from masbench.tasks.player import play, prepare
from masbench.tasks.routes import (
    SpliceSearch,
    _explorer,
    instruction_strings,
    route_yaml,
    search_routes,
    search_strings,
    selector_for,
    shorten_reference,
)
from masbench.tasks.schema import Solutions, Task

FAST_DEPTH = 2
PROOF_BUDGET = 1_000_000  # booking-03, the largest proof, takes 856k moves (about 3 min in process)


SHIPPED = shipped_tasks()
LEVEL_1 = [t for t in SHIPPED if t.level == 1]
# Level-1 tasks whose full proof is out of reach (about tenfold more moves per level: 10^7 to 10^9 moves
# for the depth still missing): the depth their proof does finish within PROOF_BUDGET in process, measured
# 2026-11-27 (docs/tasks.md section 6 says, task by task, what is missing). No shorter route was found up
# to there. Cross-app level-1 tasks open two apps, so both apps' first screens widen the search.
NOT_PROVED: dict[str, int] = {
    "contacts-01": 5,
    "cross-01": 5, "cross-02": 5, "cross-03": 5, "cross-13": 5, "cross-14": 5, "cross-15": 5,
    "cross-25": 5, "cross-26": 5, "cross-37": 5, "cross-38": 5,
}  # fmt: skip


# Level-1 cross-app tasks whose reference types a value it read in the first app (a distance, a number, an
# address, a title): the search types it only on routes that have shown it (`screen_values`).
READS_A_SCREEN_VALUE = ("cross-02", "cross-13", "cross-14", "cross-15", "cross-37", "cross-38")


@pytest.fixture(scope="module")
def in_process() -> InProcessPhone:
    """The slow tier's phone: the same search in process, tens of times faster than over ADB (the fast
    tier and tests/test_routes_in_process.py hold the two paths to the same verdicts and routes)."""
    return open_in_process_phone()


def _masbench(device: Device, *args: str) -> None:
    device.shell(["cmd", "masbench", *args], check=True)


def test_restore_brings_back_the_whole_phone_as_saved(device):
    prepare(device, sushi_task())
    device.open_app("Yelp")
    _masbench(device, "save", "start")
    before, screen = device.snapshot(), device.ui_dump()
    search = TypeAction(target={"resource_id": "search_bar_text"}, text="ramen")
    for _ in range(2):  # a saved state can be restored again and again
        assert execute_action(device, search, device.elements()).ok
        device.enter()
        device.patch_state("com.yelp.android", {"location": "Chicago, IL"})
        assert device.snapshot()["foreground"]["screen"] == "results"
        _masbench(device, "restore", "start")
        assert device.snapshot() == before
        assert device.ui_dump() == screen


def test_restore_of_an_unknown_name_fails(device):
    with pytest.raises(DeviceCommandError, match="nothing saved as 'never-saved'"):
        _masbench(device, "restore", "never-saved")


def test_typed_strings_come_from_the_instruction():
    strings = instruction_strings(
        'Write a review for Hanok Tofu House in Seattle saying "Great stew" and save mechanical watches '
        "for 1450 Valencia St, San Francisco on Yelp.",
        app_names=("Yelp",),
    )
    assert {"Great stew", "Hanok Tofu House", "Seattle", "1450 Valencia St, San Francisco"} <= set(strings)
    assert "mechanical watches" in strings and "review" in strings
    assert "Yelp" not in strings and "for" not in strings and "save" not in strings


def test_the_search_types_what_the_reference_types_from_the_instruction():
    maps_03 = next(t for t in SHIPPED if t.id == "maps-03")
    assert "museums in Chicago" in search_strings(maps_03)  # words of the instruction, not one phrase of it
    assert "Samuel Okafor" in instruction_strings("Look up Samuel Okafor's address in Contacts.")
    # what the search cannot type: a value the reference read off a screen (the instruction only
    # points at it), so no route of any length passes these tasks; the splice search covers them
    read_off_screen = {
        task.id
        for task in LEVEL_1
        for action in task.solutions.gui
        if isinstance(action, TypeAction) and action.text not in search_strings(task)
    }
    assert read_off_screen == set(READS_A_SCREEN_VALUE)


@pytest.mark.parametrize("task_id", READS_A_SCREEN_VALUE)
def test_a_value_read_off_a_screen_is_typed_once_the_route_has_shown_it(in_process, task_id):
    """Along the reference, every screen value's words have been shown by the time it is typed, so the
    search can finish these tasks; none is typeable before its first screen of the task's apps."""
    task = next(t for t in LEVEL_1 if t.id == task_id)
    explorer = _explorer(in_process, task, budget=1)
    assert explorer.values
    prepare(in_process.device, task)
    read: frozenset[str] = frozenset()
    for action in task.solutions.gui:
        node = explorer.node(explorer.observe(), [], "along", read)
        elements = explorer.expand(node)
        if node.package not in explorer.packages:
            assert node.read == read
        read = node.read
        if isinstance(action, TypeAction) and action.text in explorer.values:
            assert explorer.values[action.text] <= read
        assert execute_action(in_process.device, action, elements).ok


def test_selectors_designate_exactly_the_element(device):
    prepare(device, sushi_task())
    device.open_app("Yelp")
    elements = device.elements()
    for element in elements:
        if element.clickable:
            assert select(selector_for(element, elements), elements).index == element.index


def test_search_finds_the_shortest_route_and_prints_it_as_a_solution(device):
    task = sushi_task()
    found = search_routes(device, task, max_depth=3)
    assert found.route is not None and len(found.route) == 3
    assert found.verdict.startswith("route of 3 steps")
    steps = Solutions.model_validate(
        {"gui": yaml.safe_load(route_yaml(found.route)), "hybrid": [{"action": "back"}]}
    )
    assert play(device, task, list(steps.gui)).passed


def test_splicing_cuts_a_detour_out_of_the_reference(device):
    task = sushi_task(detour=True)  # open Yelp, type ramen, type sushi over it, enter
    spliced = shorten_reference(device, task, depth=1)
    route = spliced.route
    assert spliced.complete and route is not None
    assert [a.action for a in route] == ["open_app", "type", "enter"]
    assert route[1].text == "sushi" and play(device, task, route).passed
    cut = shorten_reference(device, task, depth=1, budget=3)
    assert not cut.complete and cut.observed == 3


def test_search_reports_when_its_budget_runs_out(device):
    found = search_routes(device, sushi_task(), max_depth=3, budget=5)
    assert found.route is None and not found.exhausted and found.verdict.startswith("not proved")
    assert found.observed == 5


@pytest.mark.parametrize("task", LEVEL_1, ids=lambda t: t.id)
def test_no_level_1_task_passes_within_a_few_steps(device, task):
    found = search_routes(device, task, max_depth=min(FAST_DEPTH, task.optimal_steps - 1))
    assert found.exhausted, found.verdict + ("\n" + route_yaml(found.route) if found.route else "")


@pytest.mark.slow
@pytest.mark.parametrize("task", [t for t in LEVEL_1 if t.id not in NOT_PROVED], ids=lambda t: t.id)
def test_level_1_optimal_steps_are_minimal(in_process, task):
    found = search_routes(in_process, task, budget=PROOF_BUDGET)
    assert found.proves_minimal, found.verdict + ("\n" + route_yaml(found.route) if found.route else "")


@pytest.mark.slow
@pytest.mark.parametrize("task", [t for t in LEVEL_1 if t.id in NOT_PROVED], ids=lambda t: t.id)
def test_level_1_tasks_too_large_to_prove_have_no_shorter_route_as_deep_as_the_budget_reaches(
    in_process, task
):
    found = search_routes(in_process, task, max_depth=NOT_PROVED[task.id], budget=PROOF_BUDGET)
    assert found.exhausted, found.verdict + ("\n" + route_yaml(found.route) if found.route else "")


@pytest.mark.slow
@pytest.mark.parametrize("task", SHIPPED, ids=lambda t: t.id)
def test_no_reference_can_be_shortened_by_splicing(in_process, task):
    _assert_unshortened(shorten_reference(in_process, task, depth=1, budget=10**6), task)


@pytest.mark.slow
@pytest.mark.parametrize("task", [t for t in LEVEL_1 if t.id in NOT_PROVED], ids=lambda t: t.id)
def test_level_1_tasks_too_large_to_prove_have_no_two_move_shortcut_anywhere_along_the_reference(
    in_process, task
):
    _assert_unshortened(shorten_reference(in_process, task, depth=2, budget=10**6), task)


def _assert_unshortened(spliced: SpliceSearch, task: Task) -> None:
    assert spliced.complete, f"budget spent after {spliced.observed} moves"
    route = spliced.route
    assert route is None, f"{len(route)} steps, not {task.optimal_steps}:\n{route_yaml(route)}"


def test_routes_command_reports_each_task():
    from typer.testing import CliRunner

    from masbench.tasks.cli import tasks_app

    runner = CliRunner()
    for path in ([], ["--over-adb"]):  # in process by default; over ADB the same verdicts
        result = runner.invoke(
            tasks_app, ["routes", LEVEL_1[0].id, "--max-depth", "1", "--splice", "1", *path]
        )
        assert result.exit_code == 0, result.output
        assert f"{LEVEL_1[0].id} no route of 1 steps or fewer passes" in result.output
        assert f"{LEVEL_1[0].id} no detour of up to 1 moves shortens the reference" in result.output
    assert runner.invoke(tasks_app, ["routes"]).exit_code == 2  # neither ids nor --all
