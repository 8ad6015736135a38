"""The executor on a virtual phone behind a real ADB server: intents, deep links, scripts, and safety."""

from __future__ import annotations

import shlex
import socket
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from pydantic import ValidationError

from masbench.actions import Selector, select
from masbench.deadlines import deadline
from masbench.device import Device, DeviceAddress, UIElement
from masbench.device.errors import DeviceGoneError
from masbench.shortcuts import KnowledgeBase, Shortcut, ShortcutExecutor, load_kb
from masbench.shortcuts.schema import MAX_REPLAY_ACTIONS

KB = load_kb(Path(__file__).parent / "data" / "kb")
META = """'; rm -rf /sdcard; echo "$(id)" `&&` | > x"""
# Well-formed shell if pasted unquoted: it would create two files in /sdcard (checked against the phone).
META_VALID = "a b; echo pwned > /sdcard/pwned.txt; id > /sdcard/id.txt && echo $(id) | cat"
SETTINGS = "com.android.settings"
CHROME = "com.android.chrome"


@pytest.fixture
def device(vphones):
    return vphones.devices[0]


@pytest.fixture
def executor(device):
    return ShortcutExecutor(KB, device, step_timeout=1.0, poll_interval=0.05)


def night_mode(device: Device) -> str:
    return device.shell(["settings", "get", "secure", "ui_night_mode"]).output.strip()


def element(device: Device, **selector) -> UIElement:
    return select(Selector(**selector), device.elements())


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- intents and deep links ------------------------------------------------------------------------


def test_api_intent_opens_the_page_and_checks_the_foreground(executor, device):
    record = executor.call("settings.open_display")
    assert record.success, record.reason
    assert record.type == "api" and record.reason is None
    assert record.commands == ["am start -W -a android.settings.DISPLAY_SETTINGS -p com.android.settings"]
    assert device.foreground() == (SETTINGS, "com.android.settings.Settings$DisplaySettingsActivity")
    assert record.duration_s > 0 and record.started_at.tzinfo is not None


def test_an_intent_android_cannot_resolve_fails_with_its_error(executor):
    record = executor.call("settings.open_missing_page")
    assert not record.success
    assert record.reason is not None
    assert record.reason.startswith("am start failed: Error: Activity not started, unable to resolve Intent")
    assert len(record.commands) == 1


def test_postcondition_names_the_app_in_front(device):
    shortcut = Shortcut.model_validate(
        {"app": "settings", "name": "wifi", "type": "api", "description": "d",
         "api": {"action": "android.settings.WIFI_SETTINGS"}, "expect": {"package": CHROME}}
    )  # fmt: skip
    record = ShortcutExecutor(KnowledgeBase([shortcut]), device, step_timeout=0.2).call("settings.wifi")
    assert not record.success
    assert record.reason == f"postcondition failed: expected {CHROME} in front, found {SETTINGS}"


def test_deeplink_opens_chrome_with_the_encoded_url(executor, device):
    record = executor.call("chrome.search", {"query": "mechanical watch", "count": 20})
    assert record.success, record.reason
    url = "https://www.google.com/search?q=mechanical%20watch&num=20"
    assert record.commands == [f"am start -W -a android.intent.action.VIEW -d '{url}' -p com.android.chrome"]
    assert device.foreground()[0] == CHROME
    assert element(device, resource_id="page_url").text == url
    assert device.app_state(CHROME)["history"][-1]["url"] == url


# -- shell safety ----------------------------------------------------------------------------------


def root_listing(device: Device) -> tuple[str, str]:
    return device.shell("ls -a /").output, device.shell("ls -a /sdcard").output


@pytest.mark.parametrize("text", [META, META_VALID])
def test_metacharacters_in_a_deeplink_argument_arrive_verbatim_and_run_nothing(executor, device, text):
    before = root_listing(device)
    since = len(device.events())
    record = executor.call("chrome.search", {"query": text})
    assert record.success, record.reason
    url = device.app_state(CHROME)["history"][-1]["url"]
    assert parse_qs(urlsplit(url).query)["q"] == [text]
    assert element(device, resource_id="page_url").text == url
    assert root_listing(device) == before  # no `x`, nothing removed from /sdcard
    kinds = {event["kind"] for event in device.events(since)}
    assert kinds <= {"start", "launch"}, kinds


@pytest.mark.parametrize("text", [META, META_VALID])
def test_metacharacters_in_an_extra_arrive_verbatim_and_run_nothing(executor, device, text):
    assert executor.call("chrome.search", {"query": "x"}).success
    device.tap_element(element(device, resource_id="url_bar"))
    device.clear_text()
    before = root_listing(device)
    record = executor.call("chrome.type_text", {"text": text})
    assert record.success, record.reason
    broadcast = [
        "am",
        "broadcast",
        "-a",
        "ADB_INPUT_TEXT",
        "-p",
        "com.android.adbkeyboard",
        "--es",
        "msg",
        text,
    ]
    assert record.commands == [shlex.join(broadcast)]
    assert element(device, resource_id="url_bar").text == text
    assert root_listing(device) == before


# -- the device is not touched by a bad call ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "arguments", "reason"),
    [
        ("chrome.search", {}, "chrome.search: missing required argument 'query'"),
        ("chrome.search", {"query": "x", "colour": "red"}, "chrome.search: unknown argument 'colour'"),
        (
            "chrome.search",
            {"query": "x", "count": "20"},
            "chrome.search: argument 'count' must be an integer",
        ),
        ("chrome.search", {"query": "x", "safe": "strict"}, "chrome.search: argument 'safe' must be one of"),
        ("chrome.nope", {}, "unknown shortcut 'chrome.nope'"),
        ("settings.enable_dark_theme_dynamic", {}, "needs a grounding model"),
    ],
)
def test_a_bad_call_fails_before_the_device_is_touched(executor, device, name, arguments, reason):
    since = len(device.events())
    record = executor.call(name, arguments)
    assert not record.success and record.commands == [] and record.steps == []
    assert record.reason is not None and reason in record.reason
    assert record.arguments == arguments
    assert device.events(since) == []


def test_a_bad_call_never_reaches_a_device_that_is_not_there():
    nowhere = ShortcutExecutor(KB, Device(DeviceAddress("127.0.0.1", closed_port(), "vphone-1")))
    record = nowhere.call("chrome.search", {"query": 5})
    assert not record.success and "must be a string" in (record.reason or "")
    with pytest.raises(DeviceGoneError):  # whereas a valid call does go to the device
        nowhere.call("chrome.search", {"query": "x"})


# -- RPA scripts -----------------------------------------------------------------------------------


def test_rpa_script_turns_the_dark_theme_on(executor, device):
    assert night_mode(device) != "2"
    record = executor.call("settings.enable_dark_theme")
    assert record.success, record.reason
    assert [(s.number, s.step, s.success) for s in record.steps] == [
        (1, "shortcut settings.open_display()", True),
        (2, "tap {text='Dark theme', checked=False}", True),
        (3, "assert {text='Dark theme', checked=True}", True),
    ]
    assert record.steps[0].call is not None and record.steps[0].call.success
    assert record.commands == ["am start -W -a android.settings.DISPLAY_SETTINGS -p com.android.settings"]
    assert record.steps[1].element is not None and "Dark theme" in record.steps[1].element
    assert night_mode(device) == "2"


def test_broken_rpa_script_stops_at_the_failing_step_with_its_reason(executor, device):
    record = executor.call("settings.enable_dark_theme_broken")
    assert not record.success
    assert (
        record.reason
        == "step 3 tap {text='Darkest theme'}: no element matches text='Darkest theme' (0 matched) within 0.3s"
    )
    assert [s.success for s in record.steps] == [True, True, False]  # step 4 never ran
    assert record.steps[-1].reason == "no element matches text='Darkest theme' (0 matched) within 0.3s"
    assert night_mode(device) != "2"


def test_rpa_types_into_a_selected_field(executor, device):
    record = executor.call("settings.search", {"query": "dark"})
    assert record.success, record.reason
    assert element(device, resource_id="title", text_contains="dark").text == "Dark theme"


def test_rpa_scrolls_until_an_entry_is_visible(executor):
    assert executor.call("settings.find_on_display", {"entry": "Auto-rotate screen"}).success
    record = executor.call("settings.find_on_display", {"entry": "Teleport"})
    assert (
        record.reason
        == "step 2 scroll down until {text='Teleport'}: text='Teleport' not on screen after 3 scrolls down"
    )


def test_rpa_calls_another_shortcut_and_reports_its_failure(executor, device):
    shortcut = Shortcut.model_validate(
        {"app": "settings", "name": "wrapper", "type": "rpa", "description": "d",
         "rpa": {"steps": [{"shortcut": "settings.open_missing_page()"}, {"key": "home"}]}}
    )  # fmt: skip
    kb = KnowledgeBase([*KB, shortcut])
    record = ShortcutExecutor(kb, device).call("settings.wrapper")
    assert record.reason is not None
    assert record.reason.startswith("step 1 shortcut settings.open_missing_page(): am start failed: Error:")
    assert record.steps[0].call is not None and not record.steps[0].call.success
    assert len(record.commands) == 1


def test_rpa_with_a_broadcast_and_keys_in_chrome(executor, device):
    record = executor.call("chrome.address_bar_search", {"query": "masbench shortcuts"})
    assert record.success, record.reason
    assert (
        element(device, resource_id="page_url").text == "https://www.google.com/search?q=masbench+shortcuts"
    )


def test_launcher_script_goes_home(executor, device):
    assert executor.call("settings.open_display").success
    record = executor.call("launcher.go_home")
    assert record.success, record.reason
    assert device.foreground()[0] == "com.google.android.apps.nexuslauncher"


# -- replay and dynamic ------------------------------------------------------------------------------


def test_replay_by_selector(executor, device):
    record = executor.call("settings.open_display_replay")
    assert record.success, record.reason
    assert [s.step for s in record.steps] == [
        "open_app name='Settings'",
        "tap {text='Display'}",
        "wait seconds=0.01",
    ]
    assert device.foreground() == (SETTINGS, "com.android.settings.Settings$DisplaySettingsActivity")


def test_replay_by_index_and_by_coordinates(device):
    device.home()
    icon = element(device, content_desc="Settings")
    replays = [
        {"name": "by_index", "type": "replay", "description": "d",
         "replay": {"actions": [{"action": "home"}, {"action": "tap", "index": icon.index}]}},
        {"name": "by_point", "type": "replay", "description": "d",
         "replay": {"actions": [{"action": "home"}, {"action": "tap", "x": icon.center[0], "y": icon.center[1]}]}},
        {"name": "bad_index", "type": "replay", "description": "d",
         "replay": {"actions": [{"action": "home"}, {"action": "tap", "index": 999}]}},
    ]  # fmt: skip
    kb = KnowledgeBase(Shortcut.model_validate({"app": "settings", **r}) for r in replays)
    executor = ShortcutExecutor(kb, device)
    for name in ("settings.by_index", "settings.by_point"):
        record = executor.call(name)
        assert record.success, record.reason  # replays expect nothing unless told
        assert device.foreground()[0] == SETTINGS
    record = executor.call("settings.bad_index")
    assert (record.reason or "").startswith("step 2 tap index=999: element index 999 is out of range 0..")


def test_dynamic_shortcut_runs_with_a_grounding_model(device):
    asked: list[str] = []

    def ground(description: str, elements: list[UIElement]) -> UIElement | None:
        asked.append(description)
        return next((e for e in elements if e.text == "Dark theme" and "dark theme" in description), None)

    record = ShortcutExecutor(KB, device, ground=ground).call("settings.enable_dark_theme_dynamic")
    assert record.success, record.reason
    assert asked == ["the switch that turns the dark theme on"]
    assert night_mode(device) == "2"

    blind = ShortcutExecutor(KB, device, ground=lambda description, elements: None)
    record = blind.call("settings.enable_dark_theme_dynamic")
    assert record.reason == (
        "step 2 tap 'the switch that turns the dark theme on': "
        "the grounding model found no element for 'the switch that turns the dark theme on'"
    )


# -- limits ------------------------------------------------------------------------------------------
WAITS_FOREVER = {
    "app": "settings", "name": "waits", "type": "rpa", "description": "waits for a screen that never comes",
    "rpa": {"steps": [{"wait_for": {"text": "A screen that never comes"}, "timeout": 30}]},
}  # fmt: skip


@pytest.mark.parametrize("limit", ["call_timeout", "episode deadline"])
def test_a_call_stops_at_its_time_limit_or_the_episodes(device, limit):
    kb = KnowledgeBase([Shortcut.model_validate(WAITS_FOREVER)])
    started = time.monotonic()
    if limit == "call_timeout":
        record = ShortcutExecutor(kb, device, poll_interval=0.05, call_timeout=0.3).call("settings.waits")
    else:
        with deadline(time.monotonic() + 0.3):
            record = ShortcutExecutor(kb, device, poll_interval=0.05).call("settings.waits")
    assert time.monotonic() - started < 2 and not record.success
    assert "no element matches text='A screen that never comes'" in record.reason


def test_a_replay_longer_than_a_shortcut_is_refused_naming_the_field():
    actions = [{"action": "wait", "seconds": 0.01}] * (MAX_REPLAY_ACTIONS + 1)
    with pytest.raises(ValidationError, match=rf"replay.actions\n.*at most {MAX_REPLAY_ACTIONS} items"):
        Shortcut.model_validate(
            {
                "app": "settings",
                "name": "long",
                "type": "replay",
                "description": "d",
                "replay": {"actions": actions},
            }
        )


def test_a_call_that_lands_on_a_not_found_page_fails_its_postcondition(device):
    shown = {
        "app": "settings", "name": "open_display_titled", "type": "api", "description": "d",
        "parameters": [{"name": "title", "type": "string", "required": True, "description": "d"}],
        "api": {"action": "android.settings.DISPLAY_SETTINGS"}, "expect": {"shows": {"text": "{title}"}},
    }  # fmt: skip
    kb = KnowledgeBase([Shortcut.model_validate(shown)])
    assert kb.get("settings.open_display_titled").expect.package == SETTINGS  # the default stays
    executor = ShortcutExecutor(kb, device, step_timeout=0.3, poll_interval=0.05)
    assert executor.call("settings.open_display_titled", {"title": "Dark theme"}).success
    record = executor.call("settings.open_display_titled", {"title": "No such page"})
    assert (
        not record.success and record.reason == "postcondition failed: expected text='No such page' on screen"
    )


def test_a_postcondition_placeholder_must_be_a_parameter():
    bad = {**WAITS_FOREVER, "expect": {"shows": {"text": "{nope}"}}}
    with pytest.raises(ValidationError, match=r"expect.shows.text: placeholder \{nope\} is not a parameter"):
        Shortcut.model_validate(bad)


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("booking.open_booking_details", {"booking_number": "9999999999"}),
        ("booking.open_hotel", {"hotel_id": 1}),
        ("amazon.open_product", {"asin": "B000000000"}),
        ("yelp.open_business", {"business_id": "no-such-place"}),
        ("maps.open_place", {"query": "zzqx nowhere"}),
    ],
)
def test_shipped_shortcuts_opening_a_made_up_id_fail(device, name, arguments):
    record = ShortcutExecutor(load_kb(), device, step_timeout=0.3, poll_interval=0.05).call(name, arguments)
    assert not record.success and record.reason.startswith("postcondition failed: expected resource_id=")
