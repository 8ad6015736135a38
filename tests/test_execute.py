"""`execute_action` on a virtual phone over ADB: grounding by index and selector, text, scrolling,
shortcuts, and invalid actions that cost a step but execute nothing."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from masbench.actions import Selector, SelectorError, parse_action, select, selectors
from masbench.actions.execute import execute_action
from masbench.device import Device
from masbench.device.elements import UIElement
from masbench.shortcuts import ShortcutExecutor, load_kb

KB_DIR = Path(__file__).parent / "data" / "tasks" / "kb"
INPUT_EVENTS = {"tap", "long_press", "swipe", "key", "text", "start", "home", "back"}


@pytest.fixture
def device(device):
    """The module's phone, reset before each test."""
    device.reset(0)
    return device


def run(device: Device, data: dict, shortcuts=None):
    """Observe, then execute - the way the episode loop does."""
    return execute_action(device, parse_action(data), device.elements(), shortcuts)


def input_events(device: Device, since: int) -> list[str]:
    return [e["kind"] for e in device.events(since) if e["kind"] in INPUT_EVENTS]


def element(device: Device, **match):
    return next(el for el in device.elements() if all(getattr(el, k) == v for k, v in match.items()))


def test_tap_by_index_refers_to_the_list_shown(device):
    elements = device.elements()
    settings = next(el for el in elements if el.content_desc == "Settings")
    outcome = execute_action(device, parse_action({"action": "tap", "index": settings.index}), elements)
    assert outcome.ok and outcome.kind == "gui" and outcome.error is None and outcome.duration_s > 0
    assert device.foreground()[0] == "com.android.settings"


def test_tap_by_selector_and_back_home(device):
    assert run(device, {"action": "tap", "target": {"content_desc": "Settings"}}).ok
    assert run(device, {"action": "tap", "target": {"text": "Display"}}).ok
    assert element(device, resource_id="com.android.settings:id/toolbar_title").text == "Display"
    assert run(device, {"action": "tap", "target": {"text": "Dark theme"}}).ok
    assert device.snapshot()["settings"]["secure"]["ui_night_mode"] == "2"
    assert run(device, {"action": "back"}).ok
    assert device.snapshot()["foreground"]["screen"] == "main"
    assert run(device, {"action": "home"}).ok
    assert device.foreground()[0] == "com.google.android.apps.nexuslauncher"


def test_type_into_a_target_taps_it_first_and_keeps_unicode(device):
    assert run(device, {"action": "open_app", "name": "Settings"}).ok
    text = "Wi-Fi ✓ héllo 日本"
    outcome = run(device, {"action": "type", "target": {"resource_id": "search_action_bar"}, "text": text})
    assert outcome.ok, outcome.error
    assert element(device, resource_id="com.android.settings:id/search_action_bar").text == text


def test_type_with_clear_replaces_the_text(device):
    run(device, {"action": "open_app", "name": "Settings"})
    run(device, {"action": "type", "target": {"resource_id": "search_action_bar"}, "text": "Bluetooth"})
    outcome = run(
        device,
        {"action": "type", "target": {"resource_id": "search_action_bar"}, "text": "Wi", "clear": True},
    )
    assert outcome.ok
    assert element(device, resource_id="com.android.settings:id/search_action_bar").text == "Wi"
    assert run(device, {"action": "tap", "target": {"text": "Wi-Fi"}}).ok  # the search result
    assert device.snapshot()["foreground"]["screen"] == "wifi"


def test_scroll_inside_a_target_and_on_the_screen(device):
    run(device, {"action": "open_app", "name": "Settings"})
    assert not any(el.text == "About phone" for el in device.elements())
    outcome = run(
        device, {"action": "scroll", "direction": "down", "target": {"resource_id": "recycler_view"}}
    )
    assert outcome.ok
    assert any(el.text == "About phone" for el in device.elements())
    assert run(device, {"action": "scroll", "direction": "up"}).ok
    assert not any(el.text == "About phone" for el in device.elements())
    assert run(device, {"action": "swipe", "direction": "up"}).ok
    assert any(el.text == "About phone" for el in device.elements())


def test_long_press_enter_and_wait_execute(device):
    since = len(device.events())
    assert run(device, {"action": "long_press", "target": {"text_contains": "Sunny"}}).ok
    assert run(device, {"action": "enter"}).ok
    assert run(device, {"action": "wait", "seconds": 0}).ok
    assert input_events(device, since) == ["long_press", "key"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"action": "tap", "index": 999}, "element index 999 is out of range 0.."),
        ({"action": "tap", "target": {"text": "Nowhere"}}, "no element matches text='Nowhere' (0 matched)"),
        ({"action": "type", "target": {"text": "Nowhere"}, "text": "x"}, "no element matches"),
        ({"action": "scroll", "index": 999}, "out of range"),
        ({"action": "open_app", "name": "Nonexistent App"}, "no app matches 'Nonexistent App'"),
        (
            {"action": "shortcut", "name": "settings.open_display_settings"},
            "no shortcut knowledge base is loaded",
        ),
    ],
)
def test_invalid_actions_execute_nothing(device, data, message):
    since = len(device.events())
    outcome = run(device, data)
    assert not outcome.ok and outcome.kind == "invalid"
    assert message in outcome.error
    assert input_events(device, since) == []


def test_a_catastrophic_pattern_from_a_model_fails_fast_instead_of_pinning_a_core(monkeypatch):
    long = UIElement(index=0, text="An unusually long product description without the mark it wants " * 3)
    started = time.monotonic()  # Python's `re` backtracks on this for minutes
    with pytest.raises(SelectorError, match="no element matches"):
        select(Selector(text_regex="^(.*.*)*#$"), [long])
    assert time.monotonic() - started < 1
    # and whatever pattern the engine cannot tame is cut by the timeout, failing the step
    monkeypatch.setattr(selectors, "REGEX_TIMEOUT_S", 1e-6)
    with pytest.raises(SelectorError, match="use a simpler pattern"):
        select(Selector(text_regex="(a|b)*c"), [UIElement(index=0, text="ab" * 200_000)])


def test_answer_and_finish_touch_nothing(device):
    since = len(device.events())
    assert run(device, {"action": "answer", "text": "42"}).kind == "answer"
    assert run(device, {"action": "finish", "status": "success"}).kind == "finish"
    assert input_events(device, since) == []


def test_shortcut_calls_go_through_the_executor_and_are_recorded(device):
    shortcuts = ShortcutExecutor(load_kb(KB_DIR), device)
    outcome = run(device, {"action": "shortcut", "call": "settings.open_display_settings()"}, shortcuts)
    assert outcome.ok and outcome.kind == "shortcut"
    assert outcome.shortcut_record["name"] == "settings.open_display_settings"
    assert outcome.shortcut_record["success"] is True
    assert device.snapshot()["foreground"]["screen"] == "display"


def test_a_failed_shortcut_call_is_a_shortcut_step_with_the_reason(device):
    shortcuts = ShortcutExecutor(load_kb(KB_DIR), device)
    outcome = run(device, {"action": "shortcut", "name": "chrome.search_web", "arguments": {}}, shortcuts)
    assert not outcome.ok and outcome.kind == "shortcut"
    assert "query" in outcome.error
    assert outcome.shortcut_record["success"] is False
