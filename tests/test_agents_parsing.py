"""Model output parsing: the action is found through fences, prose and minor slips, aliases map onto
the action space, and anything still unusable is an error - never an exception."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from masbench.agents.parsing import parse_model_action


def action(text: str, *, shortcuts: bool = True) -> dict | None:
    parsed = parse_model_action(text, allow_shortcuts=shortcuts)
    return parsed.action.model_dump(mode="json", exclude_none=True) if parsed.action else None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"action": "tap", "index": 3}', {"action": "tap", "index": 3}),
        ('```json\n{"action": "tap", "index": 3}\n```', {"action": "tap", "index": 3}),
        ('Reason: the search box.\nAction: {"action": "tap", "index": 3}', {"action": "tap", "index": 3}),
        ('**Action:** `{"action": "back"}`', {"action": "back"}),
        ('I will tap it now: {"action": "tap", "index": 3}. Done.', {"action": "tap", "index": 3}),
        ('Example: {"action": "tap", "index": 0}\nAction: {"action": "home"}', {"action": "home"}),
        ('{"action": "tap", "index": 3,}', {"action": "tap", "index": 3}),
        ("{'action': 'tap', 'index': 3}", {"action": "tap", "index": 3}),
        ('{action: "tap", index: 3}', {"action": "tap", "index": 3}),
        (
            '{"action": "type", "text": "hi", "clear": True}',
            {"action": "type", "text": "hi", "clear": True, "enter": False},
        ),
        (
            '{"action": "type", "text": "hi", "index": null}',
            {"action": "type", "text": "hi", "clear": False, "enter": False},
        ),
        ('{"action": "tap", "index": "7"}', {"action": "tap", "index": 7}),
        ('{"action": "tap", "index": 3', {"action": "tap", "index": 3}),
        ('{"action": "tap", "index": 3, "reason": "the button"}', {"action": "tap", "index": 3}),
        ('{"reason": "x", "action": {"action": "enter"}}', {"action": "enter"}),
        ('{"action": "scroll", "direction": "DOWN"}', {"action": "scroll", "direction": "down"}),
        ('{"action": "tap", "coordinate": [10, 20]}', {"action": "tap", "x": 10, "y": 20}),
        ("Action: tap(4)", {"action": "tap", "index": 4}),
        ('Action: open_app("Maps")', {"action": "open_app", "name": "Maps"}),
    ],
)
def test_the_action_is_found_through_fences_prose_and_slips(text, expected):
    assert action(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"action_type": "click", "index": 5}', {"action": "tap", "index": 5}),
        ('{"action_type": "input_text", "text": "shoes", "index": 2}',
         {"action": "type", "text": "shoes", "index": 2, "clear": False, "enter": False}),
        ('{"action_type": "navigate_back"}', {"action": "back"}),
        ('{"action_type": "navigate_home"}', {"action": "home"}),
        ('{"action_type": "keyboard_enter"}', {"action": "enter"}),
        ('{"action_type": "long_click", "index": 1}', {"action": "long_press", "index": 1}),
        ('{"action_type": "open_app", "app_name": "Amazon"}', {"action": "open_app", "name": "Amazon"}),
        ('{"action_type": "status", "goal_status": "complete"}', {"action": "finish", "status": "success"}),
        ('{"action_type": "status", "goal_status": "infeasible"}', {"action": "finish", "status": "infeasible"}),
        ('{"action": "done"}', {"action": "finish", "status": "success"}),
        ('{"action_type": "answer", "text": "42"}', {"action": "answer", "text": "42"}),
        ('{"type": "click", "element_index": 2}', {"action": "tap", "index": 2}),
    ],
)  # fmt: skip
def test_aliases_map_onto_the_action_space(text, expected):
    assert action(text) == expected


SEARCH = {
    "action": "shortcut",
    "name": "amazon.search_product",
    "arguments": {"query": "x", "max_price": 100},
}


@pytest.mark.parametrize(
    "text",
    [
        '{"action": "shortcut", "name": "amazon.search_product", "arguments": {"query": "x", "max_price": 100}}',
        "Reason: a shortcut does it.\nAction: amazon.search_product(query='x', max_price=100)",
        '```python\namazon.search_product(query="x", max_price=100)\n```',
        '{"action": "shortcut", "call": "amazon.search_product(query=\\"x\\", max_price=100)"}',
        '{"action": "amazon.search_product", "query": "x", "max_price": 100}',
        '{"action": "call_shortcut", "shortcut": "amazon.search_product", "args": {"query": "x", "max_price": 100}}',
    ],
)
def test_shortcut_calls_in_any_usual_spelling(text):
    assert action(text) == SEARCH


def test_a_shortcut_is_an_error_for_a_gui_only_agent():
    parsed = parse_model_action('amazon.search_product(query="x")', allow_shortcuts=False)
    assert parsed.action is None
    assert parsed.error == "shortcut amazon.search_product is not available: this agent has GUI actions only"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "empty reply"),
        ("I don't know what to do.", "no action found"),
        ('{"action": "fly", "to": "moon"}', "unknown action 'fly'; use one of: answer, back"),
        ('{"action": "tap"}', "invalid tap action: needs an element index"),
        ('{"action": "tap", "index": 1, "x": 3, "y": 4}', "give only one of index"),
        ('{"action": "scroll", "direction": "sideways"}', "invalid scroll action: direction"),
        ('{"action": "type"}', "invalid type action: text: Field required"),
        ('{"action": "tap", "index": -2}', "index: Input should be greater than or equal to 0"),
    ],
)
def test_unusable_output_is_an_error_that_says_why(text, error):
    parsed = parse_model_action(text, allow_shortcuts=True)
    assert parsed.action is None
    assert error in parsed.error


def test_the_stated_reason_is_kept():
    parsed = parse_model_action(
        'Reason: open the cart first.\nAction: {"action": "tap", "index": 9}', allow_shortcuts=False
    )
    assert parsed.reason == "open the cart first."
    assert (
        parse_model_action('{"action": "back", "thought": "wrong page"}', allow_shortcuts=False).reason
        == "wrong page"
    )


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text):
    parsed = parse_model_action(text, allow_shortcuts=True)
    assert (parsed.action is None) != (parsed.error is None)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["tap", "click", "type", "shortcut", "status", "scroll", "open_app", "x.y"]),
       st.dictionaries(st.sampled_from(["index", "text", "name", "arguments", "direction", "x", "goal_status"]), JSONISH),
       st.sampled_from(["{}", "```json\n{}\n```", "Reason: r\nAction: {}", "prose {} prose"]))  # fmt: skip
def test_action_like_objects_never_raise(kind, fields, frame):
    import json

    text = frame.replace("{}", json.dumps({"action": kind, **fields}))
    parsed = parse_model_action(text, allow_shortcuts=True)
    assert (parsed.action is None) != (parsed.error is None)


@pytest.mark.parametrize(
    "text",
    ["{" * 50_000, "a(" * 25_000, "{'a': " * 10_000, "{a:b," * 10_000, "'" * 50_000 + "{", "Action: " * 10_000,
     "x" * 200_000, '{"action": "tap", "index": 1}' * 5_000],
)  # fmt: skip
def test_runaway_replies_are_handled_without_raising(text):
    parsed = parse_model_action(text, allow_shortcuts=True)
    assert (parsed.action is None) != (parsed.error is None)
