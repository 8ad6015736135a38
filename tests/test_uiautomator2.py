"""uiautomator2, the library, works unchanged against a virtual phone: `u2.connect()` pushes its jar,
starts its server with `app_process` and talks JSON-RPC over ADB's `tcp:9008`; its common calls (device
info, hierarchy, selectors, clicks, keys, screenshots, clipboard) act on the phone as on an emulator."""

from __future__ import annotations

import adbutils
import pytest

from masbench.vphone.adb_server import serve_phones

u2 = pytest.importorskip("uiautomator2")


@pytest.fixture(scope="module")
def d():
    server = serve_phones(1, port=0)
    device = adbutils.AdbClient(host="127.0.0.1", port=server.port).device("vphone-1")
    d = u2.connect(device)
    yield d
    d.stop_uiautomator()
    server.stop()


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
