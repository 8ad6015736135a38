"""Matchers for values in free text (docs/tasks.md, "Matchers") and the `mentions` op that ties each value
to its item: accept/reject tables per matcher, the same-sentence tying, operand validation, and the rule
that task checks use matchers rather than hand-written lookahead regexes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from masbench.tasks import Check, SnapshotState, Task, default_tasks_dir, evaluate, load_tasks, ops, textmatch
from masbench.tasks.checks import leaves


def mentions(text: str, group: Any) -> bool:
    """Does `text` mention every group of the `mentions` operand?"""
    return not textmatch.missing(text, textmatch.normalize(group))


def table(matcher: dict[str, Any], accept: list[str], reject: list[str]) -> list[Any]:
    return [pytest.param(matcher, text, True, id=f"+{text}") for text in accept] + [
        pytest.param(matcher, text, False, id=f"-{text}") for text in reject
    ]


MATCHERS = [
    *table(
        {"money": 47.99},
        accept=[
            "$47.99",
            "47.99 USD",
            "USD 47.99",
            "US$47.99",
            "It is 47.99 dollars.",
            "total: 47.99.",
            "47.99$",
        ],
        reject=["$147.99", "147.99 USD", "$47.990", "$47.9", "$48", "47.99 mi", "47.99 km away", "$32.99"],
    ),
    *table({"money": 1299}, accept=["$1,299", "$1299.00", "1,299 USD"], reject=["$1,2990", "$299"]),
    *table(
        {"time": "09:00"},
        accept=[
            "9:00",
            "9am",
            "9:00 AM",
            "09:00",
            "9 a.m.",
            "9 AM",
            "9:00 in the morning",
            "9 o'clock",
            "9.00 am",
        ],
        reject=["9:00 PM", "21:00", "19:00", "9 pm", "9.00", "at 9", "9:30", "09:001", "9 amazing"],
    ),
    *table(
        {"time": "21:00"},
        accept=["9 pm", "9:00 PM", "21:00", "9 p.m.", "9:00 in the evening", "9 at night"],
        reject=["9:00 AM", "9:00", "9am", "09:00", "21:30", "11:00 PM"],
    ),
    *table({"time": "12:00"}, accept=["noon", "12 pm", "12:00"], reject=["12 am", "midnight"]),
    *table(
        {"date": "2025-06-07"},
        accept=[
            "June 7",
            "Jun 7",
            "Jun. 7",
            "7 June",
            "June 7th",
            "7th of June",
            "the 7th of June",
            "2025-06-07",
            "6/7",
            "6/7/2025",
            "06/07/25",
            "Saturday, June 7",
            "Sat, Jun 7",
            "June 7, 2025",
        ],
        reject=[
            "June 17",
            "June 27",
            "7 July",
            "17 June",
            "2024-06-07",
            "June 7, 2024",
            "Sunday, June 7",
            "6/17",
            "16/7",
            "6/7/2024",
            "Saturday",
            "June 7:30",
        ],
    ),
    *table(
        {"date": {"value": "2025-06-07", "weekday": True}},
        accept=["this Saturday", "Saturday, June 7", "June 7"],
        reject=["this Sunday", "Sunday, June 7", "June 8"],
    ),
    *table(
        {"date": "--10-23"},
        accept=[
            "October 23",
            "Oct 23rd",
            "23 Oct",
            "23rd of October",
            "10/23",
            "10/23/1984",
            "October 23, 2025",
        ],
        reject=["October 22", "December 22", "10/24", "Oct 3", "23/10"],
    ),
    *table(
        {"distance": {"value": 5.22, "unit": "mi"}},
        accept=[
            "5.22 mi",
            "5.22 miles",
            "5.22mi",
            "5.220 mi",
            "8.4 km",
            "8.40 km",
            "8.40 kilometres",
            "8.4 kilometers",
        ],
        reject=["15.22 mi", "5.2 mi", "8 km", "8.41 km", "5.22 km", "4.41 mi", "18.4 km", "8.4 kg"],
    ),
    *table(
        {"duration": 29},
        accept=["29 min", "29 minutes", "29 mins", "a 29-minute walk", "29min", "29 Minutes"],
        reject=["129 min", "1 h 29 min", "29 hours", "28 min", "29", "2.9 min"],
    ),
    *table(
        {"duration": 90},
        accept=["1 h 30 min", "1 hour and 30 minutes", "1.5 hours", "90 min"],
        reject=["1 h"],
    ),
    *table(
        {"number": "3860449126"},
        accept=["3860 449 126", "3860.449.126", "3860449126", "3860-449-126", "number #3860449126."],
        reject=[
            "13860449126",
            "38604491267",
            "3860 449 1267",
            "3860.449.12",
            "3860..449.126",
            "3860449126.5",
        ],
    ),
    *table(
        {"number": "113-0256674-9043336"},
        accept=["113-0256674-9043336", "11302566749043336", "order 113 0256674 9043336"],
        reject=["114-4489829-4807667", "113-0256674-904333"],
    ),
    *table(
        {"url": "youtu.be/vbJ8_sCKVFy"},
        accept=[
            "https://youtu.be/vbJ8_sCKVFy",
            "youtu.be/vbJ8_sCKVFy",
            "http://YOUTU.BE/vbJ8_sCKVFy",
            "(https://youtu.be/vbJ8_sCKVFy).",
            "Watch:https://youtu.be/vbJ8_sCKVFy!",
        ],
        reject=[
            "youtu.be/vbj8_sckvfy",
            "youtu.be/vbJ8_sCKVFyX",
            "notyoutu.be/vbJ8_sCKVFy",
            "youtu.be/vbJ8_sCKVFy?t=30",
            "youtu.be vbJ8_sCKVFy",
        ],
    ),
    *table(
        {"url": {"value": "https://duckduckgo.com/?q=sourdough+starter", "query_ignore_case": True}},
        accept=[
            "https://duckduckgo.com/?q=Sourdough+starter",
            "https://duckduckgo.com/?q=sourdough%20starter",
            "https://www.duckduckgo.com/?q=SOURDOUGH+STARTER",
        ],
        reject=[
            "duckduckgo.com/?q=sourdough+starter",
            "https://duckduckgo.com/?q=sourdough",
            "https://duckduckgo.com/?q=sourdough+starter&ia=web",
        ],
    ),
    *table(
        {"url": "https://duckduckgo.com/?q=sourdough+starter"},
        accept=["https://duckduckgo.com/?q=sourdough%20starter"],
        reject=["https://duckduckgo.com/?q=Sourdough+starter"],
    ),
    *table(
        {"text": "Hydro Flask"},
        accept=["hydro flask", "HYDRO FLASK bottle", "Hydro-Flask", "the Hydro Flask, 32 oz"],
        reject=["Hydro Flasks", "Hydro and Flask", "HydroFlask", "hydro"],
    ),
    *table(
        {"text": "Rue Saint-Honoré 177"},
        accept=[
            "rue saint-honore 177",
            "Rue St-Honoré 177",
            "Rue Saint Honoré 177, Paris",
            "RUE SAINT-HONORÉ 177",
        ],
        reject=["Rue Saint-Honoré 17", "Rue Saint-Honoré 1770", "Rue Saint-Denis 177"],
    ),
    *table(
        {"text": "2160 Mission St"},
        accept=["2160 Mission Street", "2160 mission st.", "at 2160 Mission St, San Francisco"],
        reject=["2160 Valencia St", "1260 Mission St"],
    ),
    *table({"text": "32 oz"}, accept=["32oz", "32-oz", "32 ounce"], reject=["132 oz", "32 lb"]),
]


@pytest.mark.parametrize(("matcher", "text", "expected"), MATCHERS)
def test_matcher_accepts_and_rejects(matcher: dict[str, Any], text: str, expected: bool) -> None:
    assert mentions(text, matcher) is expected


GARMINS = [{"text": "Forerunner", "money": 429.99}, {"text": "Venu", "money": 262.99}]
BOTTLE = {"text": ["Hydro Flask", "32 oz"], "money": 47.99}
SATURDAY_9 = {"date": {"value": "2025-06-07", "weekday": True}, "time": "09:00"}


@pytest.mark.parametrize(
    ("groups", "text", "expected"),
    [
        (
            GARMINS,
            "Should we get the Garmin Forerunner 265 ($429.99) or the Garmin Venu Sq 2 ($262.99)?",
            True,
        ),
        (
            GARMINS,
            "Should we get the Garmin Forerunner 265 ($262.99) or the Garmin Venu Sq 2 ($429.99)?",
            False,
        ),
        (GARMINS, "- Forerunner 265: $429.99\n- Venu Sq 2: $262.99", True),
        (GARMINS, "- Forerunner 265: $262.99\n- Venu Sq 2: $429.99", False),
        (GARMINS, "Forerunner 265\n$429.99\nVenu Sq 2\n$262.99", True),
        (GARMINS, "Forerunner 265\n$262.99\nVenu Sq 2\n$429.99", False),
        (GARMINS, "$429.99 for the Forerunner and $262.99 for the Venu.", True),
        (GARMINS, "The Forerunner is $429.99. The Venu is $262.99.", True),
        (GARMINS, "The Forerunner is $262.99. The Venu is $429.99.", False),
        (GARMINS, "The Forerunner is $429.99.", False),  # every group must be there
        ([BOTTLE], "The Hydro Flask 32 oz Wide Mouth Water Bottle is $47.99 on Amazon.", True),
        ([BOTTLE], "I looked up the Hydro Flask 32 oz Wide Mouth bottle. It costs $47.99.", True),
        ([BOTTLE], "Product: Hydro Flask 32 oz Wide Mouth\nPrice: $47.99", True),
        ([BOTTLE], "Hydro Flask 32 oz: $32.99, Hydro Flask 21 oz: $47.99", False),
        ([BOTTLE], "The Hydro Flask 21 oz is $47.99. A 32 oz one is sold out.", False),  # 32 oz elsewhere
        ([SATURDAY_9], "Let's do it together this Saturday at 9:00!", True),
        ([SATURDAY_9], "See you Saturday, June 7. We start at 9 a.m. sharp.", True),
        ([SATURDAY_9], "Saturday at 9 PM!", False),
        ([SATURDAY_9], "Saturday at 10:00, Sunday at 9:00.", False),
        ([SATURDAY_9], "Sunday at 10:00, Saturday at 9:00.", True),
        ([{"date": "2025-06-07", "time": "21:00"}], "June 7 at 9:00 AM", False),
        ([{"date": "2025-06-07", "time": "21:00"}], "June 7 at 9:00 PM", True),
    ],
)
def test_values_are_tied_to_their_item(groups: list[dict[str, Any]], text: str, expected: bool) -> None:
    assert mentions(text, groups) is expected


def test_sentences_end_at_stops_not_at_abbreviations() -> None:
    text = "We meet at 9 a.m. on Jun. 7 at St. Louis Park. Then lunch\nBye.\n\nNew"
    layout = textmatch.Layout(text)
    assert layout.sentence(text.index("Park")) == layout.sentence(text.index("9 a.m."))
    assert layout.sentence(text.index("Then")) == layout.sentence(text.index("Park")) + 1
    assert layout.sentence(text.index("Bye")) == layout.sentence(text.index("Then"))  # one line break: same
    assert layout.sentence(text.index("New")) == layout.sentence(text.index("Then")) + 1


@pytest.mark.parametrize(
    ("operand", "message"),
    [
        ({"time": 1260}, "mentions group 1: time: got the number 1260 (YAML reads an unquoted 21:00 so)"),
        ({"time": "9am"}, "time: needs a 24-hour time 'HH:MM'"),
        ({"money": "47,99"}, "money: needs an amount"),
        ([{"text": "x"}, {"dates": "2025-06-07"}], "mentions group 2: unknown matcher 'dates'"),
        ({"date": "June 7"}, "date: 'June 7' is not a date"),
        ({"date": {"value": "--06-07", "weekday": True}}, "has no year, so it has no weekday"),
        ({"distance": {"value": 5.22}}, "distance: needs {value: NUMBER, unit: mi|km}"),
        ({"distance": {"value": 5.22, "unit": "miles"}}, "distance: needs {value: NUMBER, unit: mi|km}"),
        ({"duration": 29.5}, "duration: needs whole minutes"),
        ({"number": "38A0"}, "number: needs digits"),
        ({"url": "vbJ8_sCKVFy"}, "has no host"),
        ({"url": {"value": "youtu.be/x", "case": True}}, "url: needs a link or"),
        ({"text": "--"}, "text: needs a phrase"),
        ({"text": []}, "text: needs at least one value"),
        ([], "needs at least one group"),
        ({}, "mentions group 1: needs matchers"),
    ],
)
def test_bad_operands_are_refused_naming_the_matcher(operand: Any, message: str) -> None:
    with pytest.raises(ValueError) as error:
        textmatch.normalize(operand)
    assert message in str(error.value)


def test_a_task_file_with_a_bad_matcher_fails_to_load_naming_the_field() -> None:
    leaf = {"items": {"app": "gmail", "path": "sent", "where": {"body": {"mentions": {"money": "$47.99"}}}}}
    with pytest.raises(ValidationError) as error:
        Check.model_validate(leaf)
    assert "items.where.body" in str(error.value)
    assert "mentions group 1: money: needs an amount such as 47.99, got '$47.99'" in str(error.value)


def test_normalized_operands_normalize_to_themselves() -> None:
    groups = textmatch.normalize(
        [
            "Hydro Flask",
            {"date": {"value": "2025-06-07", "weekday": True}, "time": "9:00", "url": "youtu.be/x"},
        ]
    )
    assert groups[1]["time"] == ["09:00"]
    assert textmatch.normalize(groups) == groups


def test_mentions_op_in_a_check_reports_the_group_it_misses() -> None:
    state = SnapshotState(
        {"apps": {"com.google.android.gm": {"sent": [{"body": "The Venu Sq 2 is $262.99."}]}}}
    )
    leaf = {"value": {"app": "gmail", "path": "sent.0.body", "mentions": GARMINS}}
    result = evaluate(Check.model_validate(leaf), state)
    assert not result.passed
    assert "not mentions text 'Forerunner' + money 429.99" in result.details[0]
    cond = ops.validate_ops({"mentions": GARMINS})
    assert ops.describe(cond) == "mentions text 'Forerunner' + money 429.99; text 'Venu' + money 262.99"
    assert not ops.holds(["The Venu Sq 2 is $262.99."], {"mentions": cond["mentions"]})  # text only


# -- the shipped tasks ---------------------------------------------------------------------------------
def _tasks() -> list[Task]:
    return list(load_tasks(default_tasks_dir()))


def _regexes(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "regex" and isinstance(value, str):
                yield value
            else:
                yield from _regexes(value)
    elif isinstance(data, list):
        for item in data:
            yield from _regexes(item)


def test_task_checks_use_matchers_not_lookahead_regexes() -> None:
    """Lookarounds in a check's regex are free-text matching by hand: use `mentions` (docs/tasks.md)."""
    found = [
        f"{task.id}: {pattern}"
        for task in _tasks()
        for pattern in _regexes(task.check.model_dump(by_alias=True))
        if any(look in pattern for look in ("(?=", "(?!", "(?<"))
    ]
    assert not found, "hand-written lookaround regexes in checks:\n" + "\n".join(found)


def _where(task_id: str, app: str, path: str, field: str) -> dict[str, Any]:
    """The condition on `field` in the task's `items` leaf over app.path that has one."""
    task = next(t for t in _tasks() if t.id == task_id)
    spec = next(
        leaf.items
        for leaf in leaves(task.check)
        if leaf.items and (leaf.items.app, leaf.items.path) == (app, path) and field in leaf.items.where
    )
    return spec.where[field]


@pytest.mark.parametrize(
    ("task_id", "app", "path", "field", "text", "expected"),
    [
        ("chrome-07", "chrome", "history", "url", "https://duckduckgo.com/?q=Sourdough+starter", True),
        ("chrome-07", "chrome", "history", "url", "https://duckduckgo.com/?q=sourdough+starters", False),
        ("cross-37", "gmail", "sent", "body", "My last run was 8.40 kilometres.", True),
        ("cross-37", "gmail", "sent", "body", "My last run was 15.22 miles.", False),
        ("cross-39", "calendar", "events", "description", "9.3 kilometers", True),
        ("cross-46", "gmail", "sent", "body", "youtu.be/vbJ8_sCKVFy - this Saturday, 9 AM?", True),
        ("cross-46", "gmail", "sent", "body", "https://youtu.be/vbJ8_sCKVFy this Saturday at 9 PM", False),
        ("cross-47", "gmail", "sent", "body", "Oct 23rd! Forerunner 265 $429.99, Venu Sq 2 $262.99", True),
        ("cross-47", "gmail", "sent", "body", "Oct 23rd! Forerunner 265 $262.99, Venu Sq 2 $429.99", False),
        ("cross-10", "gmail", "sent", "body", "164 Pike Street, a 29-minute walk", True),
        ("cross-13", "gmail", "sent", "body", "It is 3860 449 126.", True),
        ("cross-22", "calendar", "events", "location", "Rue St-Honoré 177, Paris", True),
    ],
)
def test_task_checks_accept_equivalent_wording(
    task_id: str, app: str, path: str, field: str, text: str, expected: bool
) -> None:
    assert ops.holds(text, _where(task_id, app, path, field)) is expected
