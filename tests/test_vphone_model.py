"""The virtual phone's model: apps, input, scrolling, the back stack, text entry and determinism."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from masbench.vphone.apps import default_apps
from masbench.vphone.build import build_phone
from masbench.vphone.intents import ACTION_VIEW, Intent
from masbench.vphone.phone import VirtualPhone

APPS = {app.package for app in default_apps()}
SHARED_PHONE = build_phone("vphone-9")  # hypothesis examples share one phone: booting per example is slow


def nodes(phone: VirtualPhone) -> list[dict[str, str]]:
    root = etree.fromstring(phone.ui_dump_xml().encode())
    return [dict(n.attrib) for n in root.iter("node")]


def find(phone: VirtualPhone, **attrs: str) -> dict[str, str]:
    for node in nodes(phone):
        if all(node.get(k.replace("_", "-")) == v for k, v in attrs.items()):
            return node
    raise AssertionError(f"no node with {attrs} on {phone.top.name}")


def centre(node: dict[str, str]) -> tuple[int, int]:
    left, right = node["bounds"][1:-1].split("][")
    x1, y1 = map(int, left.split(","))
    x2, y2 = map(int, right.split(","))
    return (x1 + x2) // 2, (y1 + y2) // 2


def open_settings(phone: VirtualPhone) -> None:
    phone.tap(*centre(find(phone, content_desc="Settings")))
    assert phone.current_focus() == ("com.android.settings", "com.android.settings.Settings")


def test_home_screen_shows_launchable_apps_only():
    phone = build_phone("vphone-1")
    descs = {n["content-desc"] for n in nodes(phone) if n["clickable"] == "true"}
    assert {"Settings", "Chrome"} <= descs
    assert "Pixel Launcher" not in descs


def test_tapping_an_icon_opens_the_app_and_back_returns_home(phone):
    open_settings(phone)
    phone.keyevent("BACK")
    assert phone.current_focus()[0] == "com.google.android.apps.nexuslauncher"


def test_home_key_keeps_the_app_task_and_relaunch_resumes_it(phone):
    open_settings(phone)
    phone.tap(*centre(find(phone, text="Display")))
    assert phone.top.name == "display"
    phone.keyevent("KEYCODE_HOME")
    assert phone.top.name == "home"
    phone.keyevent("KEYCODE_BACK")
    assert phone.top.name == "home"  # Back on the home screen goes nowhere
    phone.launch("com.android.settings")
    assert phone.top.name == "display"  # the task comes back where it was left, as on Android
    phone.keyevent("KEYCODE_BACK")
    assert phone.top.name == "main"


def test_dark_theme_switch_writes_the_shared_settings_table(phone):
    assert phone.start_activity(Intent("android.settings.DISPLAY_SETTINGS")) is None
    switch = find(phone, text="Dark theme")
    assert switch["checked"] == "false" and switch["checkable"] == "true"
    phone.tap(*centre(switch))
    assert phone.settings["secure"]["ui_night_mode"] == "2"
    assert find(phone, text="Dark theme")["checked"] == "true"


def test_typing_into_a_focused_field_changes_it_and_filters(phone):
    open_settings(phone)
    field = find(phone, resource_id="com.android.settings:id/search_action_bar")
    phone.tap(*centre(field))
    assert find(phone, resource_id="com.android.settings:id/search_action_bar")["focused"] == "true"
    phone.input_text("Bluetooth")
    assert find(phone, resource_id="com.android.settings:id/search_action_bar")["text"] == "Bluetooth"
    phone.tap(*centre(find(phone, text="Bluetooth", resource_id="com.android.settings:id/title")))
    assert phone.top.name == "connected"


def test_soft_keyboard_keys_type_and_back_hides_the_keyboard(phone):
    open_settings(phone)
    phone.tap(*centre(find(phone, resource_id="com.android.settings:id/search_action_bar")))
    # keyboard rows start 780 px above the navigation bar; "w" is the second key of the second row
    phone.tap(162, 2400 - 126 - 780 + 156 + 78)
    assert phone.top.ui["search"] == "w"
    phone.keyevent("BACK")
    assert "focus" not in phone.top.ui and phone.top.name == "main"


def test_swiping_a_long_list_scrolls_it(phone):
    open_settings(phone)
    assert not any(n["text"] == "About phone" for n in nodes(phone))
    phone.swipe(540, 2000, 540, 600, 300)
    assert any(n["text"] == "About phone" for n in nodes(phone))
    phone.swipe(540, 600, 540, 2100, 300)
    assert any(n["text"] == "Network & internet" for n in nodes(phone))


def test_same_seed_gives_byte_identical_dumps_and_screenshots():
    runs = []
    for _ in range(2):
        phone = build_phone("vphone-1", seed=7, clock=datetime(2025, 3, 4, 10, 0, tzinfo=UTC))
        open_settings(phone)
        phone.swipe(540, 1800, 540, 900, 300)
        runs.append((phone.ui_dump_xml(), phone.screencap_png()))
    assert runs[0] == runs[1]


def test_reset_restores_the_initial_state(phone):
    first = (phone.ui_dump_xml(), phone.snapshot())
    open_settings(phone)
    phone.settings["global"]["wifi_on"] = "0"
    phone.reset(0)
    assert (phone.ui_dump_xml(), phone.snapshot()) == first


def test_web_links_open_in_the_browser(phone):
    assert phone.start_activity(Intent(ACTION_VIEW, data="https://example.com/a?b=1&c=2")) is None
    assert phone.current_focus()[0] == "com.android.chrome"
    assert (
        find(phone, resource_id="com.android.chrome:id/page_url")["text"] == "https://example.com/a?b=1&c=2"
    )


def test_unresolvable_intent_reports_androids_error(phone):
    error = phone.start_activity(Intent(ACTION_VIEW, data="nosuchscheme://x"))
    assert error is not None and error.startswith("Error: Activity not started, unable to resolve Intent")


def test_device_time_advances_per_action(phone):
    before = phone.device_ms
    phone.tap(10, 500)
    assert phone.device_ms > before


@given(data=st.text(max_size=60), package=st.sampled_from(sorted(APPS)))
@settings(max_examples=120, deadline=None)
def test_hostile_intent_data_never_crashes_the_phone(data, package):
    phone = SHARED_PHONE
    result = phone.start_activity(Intent(ACTION_VIEW, data=data, package=package))
    assert result is None or result.startswith("Error: Activity not started")
    phone.ui_dump_xml()  # whatever opened still draws
