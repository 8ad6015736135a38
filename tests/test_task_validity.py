"""The task rules of docs/tasks.md that a machine can prove, for every shipped task:

- the hybrid solution with its GUI steps removed fails, and no single call of the task's relevant
  shortcuts with the task's own values (`masbench.tasks.proofs.candidate_calls`) finishes it;
- a task that adds or filters names a near miss of `kind: extra`;
- display tasks follow the display policy (filters not asked for are `unset`; a result opened from the
  asked-for screen counts);
- checks match places, products and people by id, not by label, and what the task creates as new, not by
  the number it happens to get.

The replays reuse one virtual phone per module (worker) through the player; `test_task_suite` proves the
rest (both solutions pass, no-op and near misses fail).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from task_helpers import shipped_tasks

from masbench.actions import Selector, TapAction
from masbench.catalog import package_of
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import SnapshotState, Task, play
from masbench.tasks.checks import leaves
from masbench.tasks.player import prepare
from masbench.tasks.proofs import candidate_calls, shortcut_steps

SHIPPED = shipped_tasks()
KB = load_kb()


def adds_or_filters(task: Task) -> bool:
    """Its check counts items on a list or reads a screen's filter args."""
    return any(
        leaf.items is not None or (leaf.foreground is not None and bool(leaf.foreground.args))
        for leaf in leaves(task.check)
    )


class OneLookExecutor(ShortcutExecutor):
    """A virtual phone has settled by the time a command returns, so one look at the screen is enough: a
    call that cannot work fails at once instead of after its RPA steps' real-device timeouts."""

    def _poll(self, selector, timeout):
        return super()._poll(selector, 0)


@pytest.fixture(scope="module")
def shortcuts(device):
    return OneLookExecutor(KB, device, step_timeout=0, poll_interval=0)


@pytest.mark.parametrize("task", SHIPPED, ids=lambda t: t.id)
def test_shortcut_steps_alone_fail(device, shortcuts, task):
    result = play(device, task, shortcut_steps(task), shortcuts)
    assert not result.check_passed, "the hybrid's shortcut calls alone finish the task:\n" + "\n".join(
        result.details
    )


@pytest.mark.parametrize("task", SHIPPED, ids=lambda t: t.id)
def test_no_single_shortcut_call_finishes(device, shortcuts, task):
    calls = candidate_calls(task, KB)
    assert calls, "no relevant shortcut can be called with the task's values"
    finishing = [c.call_text() for c in calls if play(device, task, [c], shortcuts).check_passed]
    assert not finishing, f"one call finishes the task: {finishing}"


@pytest.mark.parametrize("task", [t for t in SHIPPED if adds_or_filters(t)], ids=lambda t: t.id)
def test_tasks_that_add_or_filter_have_an_extra_near_miss(task):
    assert any(m.kind == "extra" for m in task.near_misses), "needs a near miss with `kind: extra`"


def _results_checks(task) -> list:
    shown = [leaf.foreground for leaf in leaves(task.check) if leaf.foreground is not None]
    return [spec for spec in shown if spec.screen == "results"]


@pytest.mark.parametrize("task", [t for t in SHIPPED if _results_checks(t)], ids=lambda t: t.id)
def test_display_checks_allow_a_result_opened_from_the_list(task):
    lists = _results_checks(task)
    assert all(spec.or_beneath for spec in lists), (
        "a results check must name the result screen in `or_beneath`"
    )
    assert all(spec.unset for spec in lists), "a results check must list the filters not asked for in `unset`"


LABELS = {"name", "hotel", "title", "address"}  # how a thing is shown or typed, not which thing it is
USER_LIST_NAME = re.compile(r"lists\.\d+\.name")  # a list the user names is identified by that name


@pytest.mark.parametrize("task", SHIPPED, ids=lambda t: t.id)
def test_checks_match_things_by_id_not_label(task):
    read = [
        path
        for leaf in leaves(task.check)
        for path in (
            [f"{leaf.items.path}.{key}" for key in leaf.items.where] if leaf.items is not None else []
        )
        + ([leaf.value.path] if leaf.value is not None else [])
    ]
    by_label = [p for p in read if p.split(".")[-1] in LABELS and not USER_LIST_NAME.fullmatch(p)]
    assert not by_label, f"matched by label: {by_label}; use the id in app state (docs/tasks.md, rule 4)"


@pytest.mark.parametrize("task", SHIPPED, ids=lambda t: t.id)
def test_new_items_are_matched_as_new_not_by_the_id_they_happen_to_get(device, task):
    """An agent that deletes a wrong attempt and creates the item again has done the task, but its item
    gets the next number: an exact numeric id in a check must name something the initial state has.
    (Ids that name a thing, as a place's or an article's do, stay the same however it was added.)"""
    prepare(device, task)
    state = SnapshotState.of(device, task.check)
    for leaf in leaves(task.check):
        wanted = leaf.items.where.get("id", {}).get("eq") if leaf.items is not None else None
        if not isinstance(wanted, int):
            continue
        known = set(_ids(state.app_state(package_of(leaf.items.app))))
        numbers = [i for i in known if isinstance(i, int)]
        numbered_next = bool(numbers) and 0 < wanted - max(numbers) <= NUMBERED_NEXT
        assert wanted in known or not numbered_next, (
            f"{leaf.items.app} {leaf.items.path}: id {wanted} is numbered on creation, so it names a new "
            "item by the number it gets first; match it as new instead (id: {gt: <the last seeded id>})"
        )


NUMBERED_NEXT = 10  # an id this close above every id of the app's state is a counter's next number


def _ids(data: object) -> Iterator[object]:
    """Every value of an "id" key anywhere in an app's state."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "id":
                yield value
            yield from _ids(value)
    elif isinstance(data, list):
        for value in data:
            yield from _ids(value)


# A verifying agent opens what it found before it finishes: each of these routes is the hybrid solution
# plus that one step, and must still pass (docs/tasks.md, display tasks).
OPENED_FROM_THE_RESULT = {
    "booking-02": {"resource_id": "sr_property_card_header_property_name"},
    "booking-03": {"resource_id": "sr_property_card_header_property_name"},
    "booking-04": {"resource_id": "sr_property_card_header_property_name"},
    "booking-05": {"resource_id": "select_room_cta"},
    "yelp-01": {"resource_id": "business_name"},
    "maps-03": {"resource_id": "result_item"},
}


@pytest.mark.parametrize("task_id", OPENED_FROM_THE_RESULT)
def test_opening_a_result_to_double_check_still_passes(device, shortcuts, task_id):
    task = next(t for t in SHIPPED if t.id == task_id)
    steps = [*task.solutions.hybrid, TapAction(target=Selector(**OPENED_FROM_THE_RESULT[task_id]))]
    result = play(device, task, steps, shortcuts)
    assert result.passed, "\n".join(result.failures + result.details)


def test_adds_or_filters_reads_items_and_screen_args():
    by_id = {t.id: t for t in SHIPPED}
    assert adds_or_filters(by_id["amazon-01"])  # items
    assert adds_or_filters(by_id["booking-03"])  # results args
    assert not adds_or_filters(by_id["maps-02"])  # values only
