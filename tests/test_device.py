"""The device layer: pure command builders, and `Device` driving a real virtual phone over ADB (port 0)."""

from __future__ import annotations

import os
import shlex
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pyproject_helpers import declared, installed_in_declared_range
from typer.testing import CliRunner

from masbench.device import (
    AppNotFoundError,
    Device,
    DeviceAddress,
    DeviceCommandError,
    DeviceGoneError,
    DeviceSpecError,
    NotVirtualError,
    UnsupportedTextError,
    VirtualPhones,
    list_devices,
    no_adb_spawn,
    open_devices,
    parse_server,
    parse_vphone_spec,
    start_virtual_phones,
)
from masbench.device import commands as C
from masbench.device.apps import resolve_app
from masbench.device.connect import parse_specs
from masbench.device.transport import CachedVersionClient

HOSTILE = "héllo \"wörld\" 'x' $(rm -rf /) ; ls"
SETTINGS = "com.android.settings"


# -- addresses -----------------------------------------------------------------------------------------


def test_parse_serial_uses_default_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANDROID_ADB_SERVER_HOST", raising=False)
    monkeypatch.delenv("ANDROID_ADB_SERVER_PORT", raising=False)
    assert DeviceAddress.parse("emulator-5554") == DeviceAddress("127.0.0.1", 5037, "emulator-5554")
    assert DeviceAddress.parse("192.168.1.7:5555").serial == "192.168.1.7:5555"
    monkeypatch.setenv("ANDROID_ADB_SERVER_HOST", "10.0.0.2")
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", "5038")
    assert str(DeviceAddress.parse("emulator-5556")) == "10.0.0.2:5038/emulator-5556"
    assert DeviceAddress.parse("x", default_host="h", default_port=7).server == ("h", 7)


def test_parse_host_port_serial_round_trips() -> None:
    addr = DeviceAddress.parse(" 127.0.0.1:40123/vphone-1 ")
    assert (addr.host, addr.port, addr.serial) == ("127.0.0.1", 40123, "vphone-1")
    assert DeviceAddress.parse(str(addr)) == addr
    v6 = DeviceAddress.parse("[::1]:5037/emulator-5554")
    assert v6.host == "::1" and str(v6) == "[::1]:5037/emulator-5554"
    assert v6.is_default_local_server and not addr.is_default_local_server
    assert parse_server("farm.example:5037") == ("farm.example", 5037)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("127.0.0.1:5037/", "empty serial"),
        ("127.0.0.1/vphone-1", "HOST:PORT"),
        ("127.0.0.1:http/vphone-1", "not a number"),
        ("127.0.0.1:70000/vphone-1", "out of range"),
        ("127.0.0.1:5037/a/b", "serial"),
        ("emulator 5554", "whitespace"),
    ],
)
def test_bad_addresses_raise_clear_value_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DeviceAddress.parse(text)


def test_no_adb_spawn_sets_and_restores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/opt/adb")
    with no_adb_spawn() as guard:
        assert os.environ["ADBUTILS_ADB_PATH"] == guard.path != "/opt/adb"
    assert os.environ["ADBUTILS_ADB_PATH"] == "/opt/adb"


# -- pure command builders -----------------------------------------------------------------------------


def test_start_intent_args_are_quoted_one_argument_each() -> None:
    uri = "https://www.amazon.com/s?k=a&b=1;reboot $(id) `id` 'q' \"dq\""
    args = C.am_start_args(
        action="android.intent.action.VIEW",
        data=uri,
        package="com.amazon.mShop.android.shopping",
        categories=["android.intent.category.BROWSABLE"],
        extras={
            "q": HOSTILE,
            "n": 3,
            "big": 2**40,
            "on": True,
            "f": 0.5,
            "tags": ["a,b", "c"],
            "ids": [1, 2],
            "x": None,
        },
    )
    assert shlex.split(C.join(args)) == args
    assert args[:3] == ["am", "start", "-W"]
    assert args[args.index("-d") + 1] == uri
    line = " ".join(args)
    for flag, value in [("--ei", "n 3"), ("--el", f"big {2**40}"), ("--ez", "on true"), ("--ef", "f 0.5")]:
        assert f"{flag} {value}" in line
    assert args[args.index("--esa") + 2] == "a\\,b,c"
    assert "--eia ids 1,2" in line and "--esn x" in line
    with pytest.raises(ValueError, match="at least one"):
        C.am_start_args()
    with pytest.raises(ValueError, match="empty list"):
        C.extra_args({"e": []})
    with pytest.raises(ValueError, match="PACKAGE/ACTIVITY"):
        C.am_start_args(component="nope")


def test_text_entry_commands() -> None:
    assert C.input_text_args("hi there's") == ["input", "text", "hi%sthere's"]
    with pytest.raises(UnsupportedTextError, match="ADBKeyboard"):
        C.input_text_args("héllo")
    args = C.adb_keyboard_text_args(HOSTILE)
    assert args[:4] == ["am", "broadcast", "-a", "ADB_INPUT_B64"]
    assert shlex.quote(args[-1]) == args[-1]  # base64 needs no quoting at all


def test_am_error_and_broadcast_parsing() -> None:
    ok = "Starting: Intent { act=android.intent.action.VIEW }\nStatus: ok\nLaunchState: COLD\nWaitTime: 420"
    assert C.am_error(ok) is None
    assert C.am_error("Warning: Activity not started, its current task has been brought to the front") is None
    bad = "Starting: Intent { ... }\nError: Activity not started, unable to resolve Intent { act=X }"
    assert C.am_error(bad).startswith("Error: Activity not started")
    assert C.am_error("** No activities found to run, monkey aborted.")
    assert C.am_error("java.lang.SecurityException: Permission Denial: starting Intent")
    assert C.parse_broadcast('Broadcast completed: result=-1, data="done"') == (-1, "done")
    assert C.parse_broadcast("Broadcast completed: result=0") == (0, None)


def test_scroll_down_moves_the_finger_up() -> None:
    x1, y1, x2, y2 = C.scroll_gesture("down", (0, 200, 1000, 1200))
    assert x1 == x2 == 500 and y1 > y2 and y2 >= 200 and y1 <= 1200
    x1, y1, x2, y2 = C.scroll_gesture("right", (0, 0, 1000, 100))
    assert x1 > x2 and y1 == y2
    with pytest.raises(ValueError, match="direction"):
        C.scroll_gesture("sideways", (0, 0, 10, 10))


def test_parse_focus_from_real_dumpsys_lines() -> None:
    window = (
        "  mCurrentFocus=Window{8c1a2e6 u0 com.google.android.apps.nexuslauncher/"
        "com.google.android.apps.nexuslauncher.NexusLauncherActivity}\n"
        "  mFocusedApp=ActivityRecord{4f2 u0 com.google.android.apps.nexuslauncher/.NexusLauncherActivity t12}\n"
    )
    assert C.parse_focus(window) == (
        "com.google.android.apps.nexuslauncher",
        "com.google.android.apps.nexuslauncher.NexusLauncherActivity",
    )
    popup = (
        "  mCurrentFocus=Window{1 u0 PopupWindow:e4b1c2}\n"
        "  mFocusedApp=ActivityRecord{2 u0 com.yelp.android/.ui.activities.ActivityHome t7}"
    )
    assert C.parse_focus(popup) == ("com.yelp.android", "com.yelp.android.ui.activities.ActivityHome")
    resumed = (
        "    mResumedActivity: ActivityRecord{9 u0 com.android.chrome/com.google.android.apps.chrome.Main t3}"
    )
    assert C.parse_focus(resumed) == ("com.android.chrome", "com.google.android.apps.chrome.Main")
    assert C.parse_focus("mCurrentFocus=null\nmFocusedApp=null") is None
    assert C.parse_wm_size("Physical size: 1080x2400\nOverride size: 720x1600") == (720, 1600)
    assert C.parse_wm_size("Physical size: 1080x2400") == (1080, 2400)


def test_resolve_app_names() -> None:
    installed = {
        "com.amazon.mShop.android.shopping": "Amazon Shopping",
        "com.google.android.apps.maps": "Maps",
        "com.google.android.youtube": "YouTube",
        "com.android.settings": "Settings",
        "com.whatsapp": "",
    }
    assert resolve_app("Amazon", installed) == "com.amazon.mShop.android.shopping"
    assert resolve_app("amazon shopping", installed) == "com.amazon.mShop.android.shopping"
    assert resolve_app("Google Maps", installed) == "com.google.android.apps.maps"
    assert resolve_app("settings", installed) == SETTINGS
    assert resolve_app("WhatsApp", installed) == "com.whatsapp"
    assert resolve_app("com.google.android.youtube", installed) == "com.google.android.youtube"
    with pytest.raises(AppNotFoundError, match=r"candidates: .*Maps") as info:
        resolve_app("google", installed)
    assert len(info.value.candidates) == 2
    with pytest.raises(AppNotFoundError, match="Amazon Shopping"):
        resolve_app("Tinder", installed)


# -- against a virtual phone -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[VirtualPhones]:
    with start_virtual_phones(1) as phones:
        yield phones


@pytest.fixture
def device(server: VirtualPhones) -> Device:
    dev = server.devices[0]
    dev.reset(seed=0)
    return dev


def test_vphone_specs_have_one_parser() -> None:
    assert [parse_vphone_spec(t) for t in ("vphone", " VPHONE:3 ", "vphone:0", "vphones", "emulator-5554")] == [
        1, 3, 0, None, None,
    ]  # fmt: skip
    phones, addresses = parse_specs(["vphone:2,emulator-5554", "vphone", "h:5037/x"])
    assert phones == 3 and [a.serial for a in addresses] == ["emulator-5554", "x"]
    with pytest.raises(DeviceSpecError, match="vphone:N"):
        parse_specs(["h:notaport/x"])
    with pytest.raises(DeviceSpecError, match="no devices"), open_devices([]):
        pass


@pytest.mark.parametrize("mode", ["thread", "process"])
def test_start_virtual_phones_in_process_or_in_a_child(mode: str) -> None:
    with start_virtual_phones(2, mode=mode, seed=3) as phones:
        assert [d.serial for d in phones.devices] == ["vphone-1", "vphone-2"]
        assert (phones.server is not None) == (mode == "thread")
        assert all(d.shell("echo hi").output.strip() == "hi" for d in phones.devices)
        device = phones.devices[1]
    with pytest.raises(DeviceGoneError):  # stopped: the port is closed
        device.shell("echo hi")


def _events(device: Device, kind: str, since: int = 0) -> list[dict]:
    return [e for e in device.events(since) if e.get("kind") == kind]


def test_kind_and_observe(device: Device) -> None:
    assert device.kind == "virtual" and device.is_virtual
    obs = device.observe()
    assert (obs.width, obs.height) == (1080, 2400) == obs.screenshot.size
    assert obs.screenshot.mode == "RGB" and obs.screenshot_png.startswith(b"\x89PNG")
    assert obs.xml.startswith("<?xml") and obs.xml.rstrip().endswith("</hierarchy>")
    assert obs.elements and [el.index for el in obs.elements] == list(range(len(obs.elements)))
    assert obs.package and obs.activity
    assert (obs.package, obs.activity) == device.foreground()
    assert device.screen_size() == (1080, 2400)
    assert obs.wall_ms > 0 and obs.timestamp <= time.time()


def test_open_app_settings_and_type_hostile_text(device: Device) -> None:
    assert device.open_app("Settings") == SETTINGS
    obs = device.observe()
    assert obs.package == SETTINGS
    field = next(el for el in obs.elements if el.editable)
    device.tap_element(field)
    since = len(device.events())
    device.type_text(HOSTILE)
    typed = _events(device, "text", since)
    assert [e["text"] for e in typed] == [HOSTILE]
    after = device.observe()
    focused = next(el for el in after.elements if el.editable)
    assert focused.text == HOSTILE
    device.clear_text()
    assert (
        next(el for el in device.observe().elements if el.editable).text == field.text
    )  # empty (hint shown)


def test_type_text_without_adb_keyboard_uses_input_text(device: Device) -> None:
    device.shell(
        ["settings", "put", "secure", "default_input_method", "com.android.inputmethod.latin/.LatinIME"]
    )
    plain = Device(device.address)  # a fresh Device: the IME choice is cached per device
    assert not plain.has_adb_keyboard
    plain.open_app("Settings")
    field = next(el for el in plain.observe().elements if el.editable)
    plain.tap_element(field)
    since = len(plain.events())
    plain.type_text("it's 5 o'clock; ls $(id)")
    assert "".join(e["text"] for e in _events(plain, "text", since)) == "it's 5 o'clock; ls $(id)"
    with pytest.raises(UnsupportedTextError, match="ADBKeyboard"):
        plain.type_text("héllo")
    plain.clear_text()  # no keycombination on this phone: MOVE_END + DEL fallback
    cleared = next(el for el in plain.observe().elements if el.editable)
    assert cleared.focused and cleared.text == field.text


def test_open_uri_reaches_the_phone_verbatim(device: Device) -> None:
    uri = "https://example.com/search?q=a&b=c;reboot $(id) 'x'"
    since = len(device.events())
    device.open_uri(uri, package="com.android.chrome")
    starts = _events(device, "start", since)
    assert starts and starts[-1]["data"] == uri
    assert device.foreground()[0] == "com.android.chrome"


def test_start_intent_failure_raises_with_android_text(device: Device) -> None:
    with pytest.raises(DeviceCommandError, match="unable to resolve") as info:
        device.start_intent(action="masbench.NO_SUCH_ACTION", extras={"q": HOSTILE})
    assert "am start" in info.value.command


def test_open_app_unknown_lists_candidates(device: Device) -> None:
    with pytest.raises(AppNotFoundError, match="Settings"):
        device.open_app("Tinder")


def test_gestures_and_keys_are_logged(device: Device) -> None:
    since = len(device.events())
    device.tap(10.4, 500.6)
    device.swipe(500, 1500, 500, 700, ms=300)
    device.scroll("down")
    device.long_press(540, 1200, ms=800)
    device.back()
    device.home()
    kinds = [e["kind"] for e in device.events(since)]
    assert kinds[0] == "tap" and device.events(since)[0]["x"] == 10
    for kind in ("swipe", "long_press", "back", "home"):
        assert kind in kinds
    with pytest.raises(ValueError):
        device.keyevent("BACK; reboot")


def test_wait_advances_the_modelled_clock_not_wall_time(device: Device) -> None:
    before = device.device_time()["device_ms"]
    t0 = time.perf_counter()
    device.wait(2.5)
    assert time.perf_counter() - t0 < 1
    assert device.device_time()["device_ms"] - before >= 2500
    with pytest.raises(ValueError):
        device.wait(-1)


def test_reset_restores_the_initial_state(device: Device) -> None:
    initial = device.snapshot()
    device.open_app("Settings")
    assert device.snapshot()["foreground"]["package"] == SETTINGS
    device.reset(seed=0)
    assert device.snapshot() == initial
    device.reset(seed=3, clock="2025-01-02T03:04:05+00:00")
    assert device.device_time()  # answers with the modelled clock
    assert device.snapshot()["seed"] == 3
    assert device.app_state(SETTINGS) == device.snapshot()["apps"][SETTINGS]


def test_a_snapshot_can_hold_only_some_apps_and_a_digest_of_the_whole_state(device: Device) -> None:
    device.reset(seed=0)
    whole = device.snapshot()
    part = device.snapshot([SETTINGS, "not.installed"], digest=True)
    assert list(part["apps"]) == [SETTINGS] and part["apps"][SETTINGS] == whole["apps"][SETTINGS]
    assert part["foreground"] == whole["foreground"] and part["settings"] == whole["settings"]
    device.wait(1)  # the clocks move: the state does not
    assert device.snapshot([], digest=True)["digest"] == part["digest"]
    device.open_app("Settings")
    opened = device.snapshot([], digest=True)["digest"]
    assert opened != part["digest"]
    device.reset(seed=0)
    assert device.snapshot([], digest=True)["digest"] == part["digest"]
    with pytest.raises(DeviceCommandError, match="unknown argument '--app'"):
        device.shell(["cmd", "masbench", "state", "--app", SETTINGS], check=True)


def test_virtual_controls_refuse_other_devices(server) -> None:
    dev = Device(DeviceAddress("127.0.0.1", server.port, "vphone-1"))
    dev._kind = "emulator"  # what a real AVD would report
    with pytest.raises(NotVirtualError):
        dev.snapshot()


def test_vanished_device_and_refused_server_raise_device_gone() -> None:
    with start_virtual_phones(1) as phones:
        dev = phones.devices[0]
        assert dev.shell("echo hi").output.strip() == "hi"
        phones.server.remove_phone("vphone-1")
        with pytest.raises(DeviceGoneError):
            dev.tap(1, 1)
        with pytest.raises(DeviceGoneError):
            dev.observe()
    with socket.socket() as s:  # a port nobody listens on: refused at once, no adb daemon spawned
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    t0 = time.perf_counter()
    with pytest.raises(DeviceGoneError):
        Device(DeviceAddress("127.0.0.1", free, "vphone-1")).shell("echo hi")
    assert time.perf_counter() - t0 < 2
    assert list_devices([("127.0.0.1", free)]) == []


def test_adbutils_is_in_the_range_transport_was_checked_against() -> None:
    """device/transport.py marks a connection closed through adbutils' private `__conn` (no public way):
    the installed adbutils must be in the range pyproject.toml declares, the one that line was checked on."""
    inside, installed, checked_on = installed_in_declared_range("adbutils")
    assert inside, (installed, checked_on)
    assert not declared("adbutils").specifier.contains("3.0"), (
        "a new major version needs transport.py checked again"
    )


def test_a_prompt_connection_closes_for_good(server) -> None:
    conn = CachedVersionClient("127.0.0.1", server.port).make_connection()
    assert not conn.closed
    conn.close()
    assert conn.closed
    conn.close()  # closing twice is harmless


def test_list_devices(server) -> None:
    (info,) = list_devices([("127.0.0.1", server.port)])
    assert (info.address.serial, info.kind, info.state) == ("vphone-1", "virtual", "device")


# -- CLI ---------------------------------------------------------------------------------------------------


def _cli():
    import typer

    from masbench.device.cli import device_app, devices_command

    app = typer.Typer()
    app.add_typer(device_app, name="device")
    app.command("devices")(devices_command)
    return app


def test_cli_devices_lists_the_virtual_phone_and_reports_a_dead_server(server) -> None:
    runner = CliRunner()
    result = runner.invoke(_cli(), ["devices", "--adb", f"127.0.0.1:{server.port}"])
    assert result.exit_code == 0, result.output
    assert "vphone-1" in result.output and "virtual" in result.output
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    result = runner.invoke(
        _cli(), ["devices", "--adb", f"127.0.0.1:{server.port}", "--adb", f"127.0.0.1:{free}"]
    )
    assert result.exit_code == 0 and "unreachable" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_observe_saves_files(server, tmp_path: Path) -> None:
    out = tmp_path / "obs"
    result = CliRunner().invoke(
        _cli(), ["device", "observe", f"127.0.0.1:{server.port}/vphone-1", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert (out / "screenshot.png").read_bytes().startswith(b"\x89PNG")
    assert (out / "window_dump.xml").read_text().startswith("<?xml")
    assert '"elements"' in (out / "elements.json").read_text()
    result = CliRunner().invoke(_cli(), ["device", "observe", "nohost:xx/vphone-1"])
    assert result.exit_code == 2 and "not a number" in result.output


def test_cli_help_texts() -> None:
    runner = CliRunner()
    for args in (["devices", "--help"], ["device", "--help"], ["device", "observe", "--help"]):
        result = runner.invoke(_cli(), args)
        assert result.exit_code == 0 and "Usage" in result.output
