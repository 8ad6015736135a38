"""Frame conditions (masbench/tasks/frame.py): what a task did not ask to change must be left as it was.

Pure tests over snapshot dicts shaped like `Device.snapshot()`; the task suite (tests/test_task_suite.py)
and the slips (tests/test_task_slips.py) prove the frame on every shipped task."""

from __future__ import annotations

import copy

import pytest

from masbench.catalog import package_of
from masbench.tasks.frame import diff, snapshot_changes, unexpected
from masbench.tasks.schema import Task

YT, FIT, GM = package_of("youtube"), package_of("fitbit"), package_of("gmail")


def _snapshot() -> dict:
    return {
        "apps": {
            YT: {
                "subscriptions": [
                    {"channel_id": "UCa", "name": "Sunday Sourdough"},
                    {"channel_id": "UCb", "name": "Space Hour"},
                ],
                "history": [{"video_id": "v1", "title": "One"}, {"video_id": "v2", "title": "Two"}],
                "searches": ["guitar"],
                "watch_later": [],
            },
            FIT: {"goals": {"weight_kg": 70, "water_ml": 2000}, "challenges_joined": ["a", "b"]},
            GM: {"threads": [{"id": "t1", "unread": True, "labels": []}], "sent": []},
        },
        "settings": {"system": {"screen_brightness": "102"}},
        "clipboard": "",
    }


def _task(check: dict, may_change: list[str] | None = None, apps: list[str] | None = None) -> Task:
    return Task.model_validate(
        {
            "id": "test-01",
            "instruction": "Do the thing.",
            "apps": apps or ["youtube"],
            "level": 1,
            "optimal_steps": 1,
            "solutions": {"gui": [{"action": "back"}], "hybrid": [{"action": "back"}]},
            "check": check,
            "rubric": ["done"],
            "may_change": may_change or [],
        }
    )


def _changed(edit) -> tuple[dict, dict]:
    before = _snapshot()
    after = copy.deepcopy(before)
    edit(after["apps"])
    return before, after


def test_diff_names_items_by_id_and_says_what_changed():
    before, after = _changed(
        lambda a: (
            a[YT]["subscriptions"].pop(0),
            a[FIT]["goals"].update(water_ml=2500),
            a[YT]["history"].reverse(),
        )
    )
    lines = [c.describe() for c in snapshot_changes(before, after)]
    assert "youtube.subscriptions[-] UCa (Sunday Sourdough)" in lines
    assert "fitbit.goals.water_ml: 2000 -> 2500" in lines
    assert "youtube.history reordered" in lines
    assert len(lines) == 3


def test_diff_of_scalar_lists_is_a_multiset():
    changes = list(diff(["a", "b"], ["b", "c"], ("x",)))
    assert {(c.kind, c.path) for c in changes} == {("removed", ("x", "[a]")), ("added", ("x", "[c]"))}
    assert [c.kind for c in diff(["a", "b"], ["b", "a"], ("x",))] == ["reordered"]


def test_no_change_no_verdict():
    state = _snapshot()
    assert (
        unexpected(_task({"value": {"app": "fitbit", "path": "goals.weight_kg", "eq": 65}}), state, state)
        == []
    )


def test_a_value_leaf_allows_only_its_path():
    task = _task({"value": {"app": "fitbit", "path": "goals.weight_kg", "eq": 65}}, apps=["fitbit"])
    before, after = _changed(lambda a: a[FIT]["goals"].update(weight_kg=65))
    assert unexpected(task, before, after) == []
    before, after = _changed(lambda a: a[FIT]["goals"].update(weight_kg=65, water_ml=2500))
    assert [c.describe() for c in unexpected(task, before, after)] == ["fitbit.goals.water_ml: 2000 -> 2500"]


def test_an_items_leaf_allows_only_the_items_it_selects():
    """Removing the asked video passes; removing a second one too is unexpected (pin, don't count)."""
    task = _task({"items": {"app": "youtube", "path": "history", "where": {"video_id": "v1"}, "count": 0}})
    before, after = _changed(lambda a: a[YT]["history"].pop(0))
    assert unexpected(task, before, after) == []
    before, after = _changed(lambda a: a[YT]["history"].clear())
    assert [c.describe() for c in unexpected(task, before, after)] == ["youtube.history[-] v2 (Two)"]


def test_a_contains_leaf_on_a_scalar_list_allows_that_element_only():
    task = _task({"value": {"app": "fitbit", "path": "challenges_joined", "contains": "c"}}, apps=["fitbit"])
    before, after = _changed(lambda a: a[FIT]["challenges_joined"].append("c"))
    assert unexpected(task, before, after) == []
    before, after = _changed(lambda a: a[FIT]["challenges_joined"].__setitem__(slice(None), ["b", "c"]))
    assert [c.describe() for c in unexpected(task, before, after)] == ["fitbit.challenges_joined[-] a"]


def test_side_effects_in_apps_the_task_does_not_name_fail():
    task = _task({"value": {"app": "fitbit", "path": "goals.weight_kg", "eq": 65}}, apps=["fitbit"])
    before, after = _changed(lambda a: (a[FIT]["goals"].update(weight_kg=65), a[YT]["subscriptions"].pop()))
    assert [c.describe() for c in unexpected(task, before, after)] == [
        "youtube.subscriptions[-] UCb (Space Hour)"
    ]
    after["settings"]["system"]["screen_brightness"] = "255"
    assert "settings.system.screen_brightness: '102' -> '255'" in [
        c.describe() for c in unexpected(task, before, after)
    ]


def test_incidental_state_is_not_a_side_effect():
    """Watching adds to history, searching to recent searches, reading a mail marks it read."""
    task = _task({"value": {"app": "fitbit", "path": "goals.weight_kg", "exists": True}}, apps=["fitbit"])

    def use(apps):
        apps[YT]["history"].insert(0, {"video_id": "v9", "title": "Nine"})
        apps[YT]["searches"].append("sourdough")
        apps[GM]["threads"][0]["unread"] = False

    assert unexpected(task, *_changed(use)) == []


def test_incidental_kinds_are_respected():
    """History may grow, but removing from it, or labelling a mail, is deliberate."""
    task = _task({"value": {"app": "fitbit", "path": "goals.weight_kg", "exists": True}}, apps=["fitbit"])
    before, after = _changed(lambda a: a[YT]["history"].pop())
    assert [c.describe() for c in unexpected(task, before, after)] == ["youtube.history[-] v2 (Two)"]
    before, after = _changed(lambda a: a[GM]["threads"][0]["labels"].append("Travel"))
    assert [c.describe() for c in unexpected(task, before, after)] == ["gmail.threads[t1].labels[+] Travel"]


def test_may_change_declares_what_a_route_touches_on_the_way():
    check = {"items": {"app": "youtube", "path": "watch_later", "where": {"video_id": "v1"}}}
    before, after = _changed(
        lambda a: (a[YT]["watch_later"].append({"video_id": "v1"}), a[YT]["subscriptions"].pop())
    )
    assert len(unexpected(_task(check), before, after)) == 1
    assert unexpected(_task(check, may_change=["youtube.subscriptions.[UCb]"]), before, after) == []
    assert unexpected(_task(check, may_change=["youtube.subscriptions.*"]), before, after) == []


def test_an_integer_index_in_a_check_path_names_the_item():
    """`lists.0.places` allows the places of that list, not another list's."""
    before = _snapshot()
    before["apps"][YT]["lists"] = [{"id": "L1", "videos": []}, {"id": "L2", "videos": []}]
    after = copy.deepcopy(before)
    after["apps"][YT]["lists"][0]["videos"].append("v1")
    task = _task({"value": {"app": "youtube", "path": "lists.0.videos", "contains": "v1"}})
    assert unexpected(task, before, after) == []
    after["apps"][YT]["lists"][1]["videos"].append("v1")
    assert [c.describe() for c in unexpected(task, before, after)] == ["youtube.lists[L2].videos[+] v1"]


def test_a_container_the_check_reads_may_be_made():
    """Setting Home for the first time replaces null by a place: the check reads `home.id`."""
    before = _snapshot()
    before["apps"][YT]["home"] = None
    after = copy.deepcopy(before)
    after["apps"][YT]["home"] = {"id": "p1", "address": "1 Main St"}
    assert (
        unexpected(_task({"value": {"app": "youtube", "path": "home.id", "eq": "p1"}}), before, after) == []
    )


@pytest.mark.parametrize("pattern", ["youtube", "youtube.", "nosuchapp.x", "youtube..x"])
def test_bad_may_change_patterns_are_refused(pattern):
    with pytest.raises(ValueError, match="may_change"):
        _task({"value": {"app": "youtube", "path": "searches", "exists": True}}, may_change=[pattern])


def test_an_item_made_with_more_than_was_asked_is_unexpected():
    """A new event with an unasked guest or repeat fails (created.yaml: what a new event holds)."""
    cal = package_of("calendar")
    before = _snapshot()
    before["apps"][cal] = {"events": [{"id": 1, "summary": "Stand-up", "guests": [], "rrule": ""}]}
    asked = {"id": 2, "summary": "Run", "guests": [], "rrule": "", "location": "", "description": ""}
    task = _task(
        {"items": {"app": "calendar", "path": "events", "where": {"id": {"gt": 1}, "summary": "Run"}}}
    )
    after = copy.deepcopy(before)
    after["apps"][cal]["events"].append(asked)
    assert unexpected(task, before, after) == []
    after["apps"][cal]["events"][-1] = {**asked, "guests": ["sam@x.io"], "rrule": "FREQ=DAILY"}
    [change] = unexpected(task, before, after)
    assert change.describe() == (
        "calendar.events[+] 2 (Run): not asked for: rrule 'FREQ=DAILY', guests ['sam@x.io']"
    )
    named = _task({"items": {"app": "calendar", "path": "events", "where": {"summary": "Run", "rrule": "FREQ=DAILY", "guests": {"exists": True}}}})  # fmt: skip
    assert unexpected(named, before, after) == []  # what the where names is asked for
