"""uiautomator2, the library, works unchanged against a virtual phone: `u2.connect()` pushes its jar,
starts its server with `app_process` and talks JSON-RPC over ADB's `tcp:9008`; its common calls (device
info, hierarchy, selectors, clicks, keys, screenshots, clipboard) act on the phone as on an emulator."""

from __future__ import annotations

import adbutils
import pytest

from masbench.vphone.adb_server import serve_phones

u2 = pytest.importorskip("uiautomator2")


@pytest.fixture(scope="module")
def server():
    server = serve_phones(1, port=0)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def d(server):
    d = u2.connect(adbutils.AdbClient(host="127.0.0.1", port=server.port).device("vphone-1"))
    yield d
    d.stop_uiautomator()


def test_connect_pushes_the_jar_and_starts_the_server(d):
    assert d.shell("ls /data/local/tmp/u2.jar").output.strip() == "/data/local/tmp/u2.jar"
    info = d.info
    assert (info["displayWidth"], info["displayHeight"], info["sdkInt"]) == (1080, 2400, 35)
    assert d.window_size() == (1080, 2400)


def test_selectors_clicks_and_keys_drive_the_phone(d):
    d.press("home")
    assert d(text="Settings").exists and not d(text="No such app").exists
    assert d(text="Settings").info["clickable"] in (True, False)
    d(text="Settings").click()
    assert d.app_current()["package"] == "com.android.settings"
    assert "com.android.settings" in d.dump_hierarchy()
    assert d(textContains="Display").exists
    d.press("back")
    assert d.app_current()["package"] != "com.android.settings"


def test_screenshot_and_clipboard(d):
    image = d.screenshot()
    assert image.size == (1080, 2400)
    d.clipboard = "hello from u2"
    assert d.clipboard == "hello from u2"
    assert d.shell("cmd masbench clipboard").output.count("hello from u2") == 1


def test_a_missing_element_is_the_servers_not_found_error(d):
    with pytest.raises(u2.UiObjectNotFoundError):
        d(text="Nothing like this").click(timeout=0.1)
    with pytest.raises(u2.UiObjectNotFoundError):
        _ = d(text="Nothing like this").info  # the server's own error, as uiautomator2 decodes it


def test_the_device_layer_reads_the_ui_through_uiautomator2_when_asked(server, d):
    from masbench.device import Device, DeviceAddress
    from masbench.device.listing import scan_server

    host, port = "127.0.0.1", server.port
    fast = Device(DeviceAddress(host, port, "vphone-1"), fast_path=True)
    plain = Device(DeviceAddress(host, port, "vphone-1"), fast_path=False)
    assert (fast.path, plain.path) == ("uiautomator2", "adb")
    fast.home()
    seen_fast, seen_plain = fast.observe(), plain.observe()
    assert [e.describe() for e in seen_fast.elements] == [e.describe() for e in seen_plain.elements]
    assert seen_fast.package == seen_plain.package
    (info,) = scan_server(host, port)
    assert info.path == "uiautomator2"  # its server answers on tcp:9008
