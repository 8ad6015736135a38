"""Call validation and planning: everything decided before a device is touched."""

from __future__ import annotations

import shlex
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from masbench.actions.schema import parse_call
from masbench.shortcuts import (
    CallError,
    KnowledgeBase,
    Parameter,
    Shortcut,
    coerce_cli_arguments,
    load_kb,
    validate_call,
)
from masbench.shortcuts.plan import api_args, build_plan

KB = load_kb(Path(__file__).parent / "data" / "kb")


def plan(name: str, **arguments):
    return build_plan(KB, validate_call(KB, name, arguments), can_ground=False)


def test_valid_call_fills_defaults_and_keeps_parameter_order():
    bound = validate_call(KB, "chrome.open_tab", {"tab": 2, "query": "watch"})
    assert bound.arguments == {"query": "watch", "tab": 2, "incognito": False}
    assert bound.text() == 'chrome.open_tab(query="watch", tab=2, incognito=False)'
    assert parse_call(bound.text()) == (bound.name, bound.arguments)


def test_missing_argument():
    with pytest.raises(CallError, match=r"^chrome.search: missing required argument 'query' \(string\)$"):
        validate_call(KB, "chrome.search", {})


def test_unknown_argument_lists_the_parameters():
    with pytest.raises(
        CallError, match=r"unknown argument 'colour' \(parameters: query, after, count, safe\)"
    ):
        validate_call(KB, "chrome.search", {"query": "x", "colour": "red"})


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"count": "20"}, "argument 'count' must be an integer, got \"20\""),
        ({"count": 2.5}, "argument 'count' must be an integer, got 2.5"),
        ({"count": True}, "argument 'count' must be an integer, got true"),
        ({"safe": "strict"}, 'argument \'safe\' must be one of "active", "off", got "strict"'),
        ({"after": "2025-13-01"}, "argument 'after' must be a date YYYY-MM-DD, got \"2025-13-01\""),
        ({"after": "1 June 2025"}, "argument 'after' must be a date YYYY-MM-DD"),
    ],
)
def test_ill_typed_arguments(arguments, message):
    with pytest.raises(CallError, match=r"^chrome\.search: ") as info:
        validate_call(KB, "chrome.search", {"query": "x", **arguments})
    assert message in str(info.value)


def test_every_problem_is_reported_at_once():
    with pytest.raises(CallError) as info:
        validate_call(KB, "chrome.search", {"colour": 1, "count": "x"})
    assert str(info.value).count(";") == 2


def test_none_means_omitted():
    assert validate_call(KB, "chrome.search", {"query": "x", "count": None}).arguments == {"query": "x"}


def test_unknown_shortcut_suggests_close_names():
    with pytest.raises(CallError, match=r"unknown shortcut 'chrome.serch'; did you mean chrome.search\?"):
        validate_call(KB, "chrome.serch", {"query": "x"})


@pytest.mark.parametrize(
    ("ptype", "good", "bad"),
    [
        ("integer", [3, 4.0, -7], ["3", 3.5, True, None]),
        ("number", [3, 2.5], ["2.5", False, float("nan"), float("inf")]),
        ("boolean", [True, False], ["true", 1, 0]),
        ("date", ["2025-06-02", "2024-02-29"], ["2025-02-30", "2025-6-2", "2025-06-02T09:00", 20250602]),
        ("time", ["09:30", "23:59", "00:00"], ["24:00", "9:30", "09:60", "09:30:00"]),
        (
            "datetime",
            ["2025-06-02T09:30", "2025-06-02T09:30:00+00:00", "2025-06-02 09:30:15Z"],
            ["2025-06-02", "2025-06-02T25:00", "tomorrow"],
        ),
        ("string", ["", "x"], [1, None, ["a"]]),
    ],
)
def test_parameter_types(ptype, good, bad):
    param = Parameter(name="p", type=ptype)
    for value in good:
        param.check(value)
    for value in bad:
        with pytest.raises(ValueError, match="must be"):
            param.check(value)


def test_cli_arguments_are_converted_to_the_declared_types():
    shortcut = KB["chrome.open_tab"]
    args = coerce_cli_arguments(
        shortcut, ["query=red shoes=cheap", "tab=3", "incognito=yes", "zoom=1.5", "when=2025-06-02T09:30"]
    )
    assert args == {
        "query": "red shoes=cheap",
        "tab": 3,
        "incognito": True,
        "zoom": 1.5,
        "when": "2025-06-02T09:30",
    }
    assert coerce_cli_arguments(shortcut, ["zoom=2"]) == {"zoom": 2}
    with pytest.raises(
        CallError, match="argument 'tab' must be an integer"
    ):  # unconverted: validation reports it
        validate_call(KB, shortcut.qualified_name, coerce_cli_arguments(shortcut, ["query=x", "tab=three"]))
    with pytest.raises(CallError, match="'query' is not NAME=VALUE"):
        coerce_cli_arguments(shortcut, ["query"])
    with pytest.raises(CallError, match="'tab' is given twice"):
        coerce_cli_arguments(shortcut, ["tab=1", "tab=2"])


# -- planning --------------------------------------------------------------------------------------


def test_deeplink_encodes_values_and_appends_only_given_optional_query():
    p = plan("chrome.search", query="red & blue shoes/boots", count=20)
    assert p.command is not None and p.command[:4] == ["am", "start", "-W", "-a"]
    uri = p.command[p.command.index("-d") + 1]
    assert uri == "https://www.google.com/search?q=red%20%26%20blue%20shoes%2Fboots&num=20"
    assert p.command[-2:] == ["-p", "com.android.chrome"]
    assert p.expect == "com.android.chrome"
    with_after = plan("chrome.search", query="x", after="2025-01-02", safe="off").command
    assert with_after is not None
    query = parse_qs(urlsplit(with_after[with_after.index("-d") + 1]).query)
    assert query == {"q": ["x"], "tbs": ["cdr:1,cd_min:2025-01-02"], "safe": ["off"]}


def test_api_extras_are_typed():
    p = plan("chrome.open_tab", query="watch", tab=3, when="2025-06-02T09:30:00+00:00", zoom=2, label="a b")
    assert p.command is not None
    line = shlex.join(p.command)
    assert "-n com.android.chrome/com.google.android.apps.chrome.Main" in line
    assert "-c android.intent.category.BROWSABLE" in line
    assert (
        "--ez create_new_tab true --ei tab_index 3 --ez incognito false --el opened_at 1748856600000" in line
    )
    assert "--ef zoom 2.0 --es label 'Label: a b'" in line
    assert p.expect == "com.android.chrome"  # from the component


def test_extras_with_unset_placeholders_are_left_out():
    p = plan("chrome.open_tab", query="watch")
    assert p.command is not None
    assert not {"tab_index", "opened_at", "zoom", "label"} & set(p.command)


def test_extra_that_cannot_convert_fails_before_the_device():
    big = plan("chrome.open_tab", query="x", tab=2**40).command
    assert big is not None and "--el" in big  # an integer beyond 32 bits becomes a long
    shortcut = KB["chrome.open_tab"]
    assert shortcut.api is not None
    with pytest.raises(
        CallError, match=r"extra 'opened_at': 'not a date' is not an integer, a date or a date-time"
    ):
        api_args(shortcut, shortcut.api, {"query": "x", "incognito": False, "when": "not a date"})


def test_rpa_plan_fills_steps_validates_nested_calls_and_skips_unset_optionals():
    p = plan("settings.find_on_display", entry="Auto-rotate screen")
    assert [s.number for s in p.steps] == [1, 2, 4]  # step 3 types the unset optional `note`
    assert p.steps[0].call is not None and p.steps[0].call.command is not None
    assert p.steps[1].label == "scroll down until {text='Auto-rotate screen'}"
    with_note = plan("settings.find_on_display", entry="x", note="hello")
    assert [s.label for s in with_note.steps][2] == "type 'hello'"


def test_nested_call_arguments_keep_their_type_and_cannot_inject():
    p = plan("chrome.address_bar_search", query='say "hi") or x=1')
    nested = p.steps[2].call
    assert nested is not None and nested.call.arguments == {"text": 'say "hi") or x=1'}


def test_regex_selector_values_are_escaped():
    shortcut = Shortcut.model_validate(
        {"app": "settings", "name": "find", "type": "rpa", "description": "d",
         "parameters": [{"name": "q", "required": True}],
         "rpa": {"steps": [{"assert": {"text_regex": "^{q}$"}}]}}
    )  # fmt: skip
    kb = KnowledgeBase([shortcut])
    p = build_plan(kb, validate_call(kb, "settings.find", {"q": "a.b(c"}), can_ground=False)
    assert p.steps[0].label == "assert {text_regex='^a\\\\.b\\\\(c$'}"


def test_dynamic_shortcut_needs_a_grounding_model():
    bound = validate_call(KB, "settings.enable_dark_theme_dynamic", {})
    with pytest.raises(CallError, match="is a dynamic shortcut and needs a grounding model"):
        build_plan(KB, bound, can_ground=False)
    assert len(build_plan(KB, bound, can_ground=True).steps) == 2
