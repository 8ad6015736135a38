"""The web viewer drives a virtual phone from a real browser: headless Chromium loads the page, a mouse
click on the picture of the Settings icon opens Settings, the page's Back button goes back, typed text
arrives. Chromium is driven over the DevTools protocol; without a Chromium the test is skipped."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
import urllib.request

import pytest

from masbench.actions import Selector, select
from masbench.device import start_virtual_phones
from masbench.device.viewer import Viewer

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (apt install chromium)")


class Page:
    """One browser tab over the DevTools protocol."""

    def __init__(self, ws) -> None:
        self.ws, self.next_id = ws, 0

    def call(self, method: str, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.recv(timeout=20))
            if reply.get("id") == self.next_id:
                assert "error" not in reply, reply
                return reply.get("result", {})

    def js(self, expression: str):
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)[
            "result"
        ].get("value")

    def click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)


@pytest.fixture
def browser(tmp_path):
    with start_virtual_phones(1) as phones:
        device = phones.devices[0]
        viewer = Viewer.of(device)
        proc = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--remote-debugging-port=0", "--window-size=1200,1400",
             viewer.url],
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            port = None
            deadline = time.monotonic() + 30
            while port is None and time.monotonic() < deadline:
                match = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", proc.stderr.readline())
                port = match and int(match.group(1))
            assert port, "Chromium did not start its DevTools server"
            targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=10).read())
            from websockets.sync.client import connect

            with connect(
                next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page"), max_size=None
            ) as ws:
                yield Page(ws), device
        finally:
            proc.kill()
            proc.wait()
            viewer.stop()


def wait_for(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_a_person_drives_the_phone_from_the_browser(browser):
    page, device = browser
    device.home()
    assert wait_for(
        lambda: (
            page.js(
                "document.getElementById('screen').complete && document.getElementById('screen').naturalWidth"
            )
            == 1080
        )
    )
    icon = select(Selector(content_desc="Settings"), device.elements())
    box = page.js(
        "(() => { const r = document.getElementById('screen').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()"
    )
    left, top, width, height = box
    page.click(left + icon.center[0] * width / 1080, top + icon.center[1] * height / 2400)
    assert wait_for(lambda: device.foreground()[0] == "com.android.settings"), (
        "the click did not open Settings"
    )
    page.js("document.getElementById('back').click()")
    assert wait_for(lambda: device.foreground()[0] != "com.android.settings"), "Back did not leave Settings"
    page.js("document.getElementById('text').value = 'héllo'; document.getElementById('send').click()")
    assert wait_for(
        lambda: any(
            e.get("kind") == "text" and "héllo" in json.dumps(e, ensure_ascii=False) for e in device.events()
        )
    )
