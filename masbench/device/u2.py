"""uiautomator2 as the device layer's fast path: the UI hierarchy over its JSON-RPC server instead of
`uiautomator dump`, which on a real device costs one to three seconds a call (it starts a new
UiAutomation each time) where the resident server answers in tens of milliseconds.

`U2Session.start(device)` starts (or finds) the server through the `uiautomator2` library, which pushes its
jar and launches it over ADB as on any device; without the library (`pip install 'masbench[u2]'`), or
when the server cannot start, the device stays on plain adb. `server_running(adb_device)` only asks,
starting nothing, which is what `masbench devices` shows.
"""

from __future__ import annotations

import http.client
import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import adbutils

log = logging.getLogger(__name__)
PORT = 9008


class U2Session:
    """A started uiautomator2 server on one device."""

    def __init__(self, client: Any) -> None:
        self.client = client

    @classmethod
    def start(cls, adb_device: adbutils.AdbDevice) -> U2Session | None:
        """The server on this device, started if need be; None when uiautomator2 is not installed or its
        server does not come up (the reason is logged)."""
        try:
            import uiautomator2
        except ImportError:
            return None
        try:
            return cls(uiautomator2.connect(adb_device))
        except Exception as exc:  # the library raises many kinds; any of them means: use plain adb
            log.warning("%s: uiautomator2 server unavailable, using adb: %s", adb_device.serial, exc)
            return None

    def dump(self) -> str:
        """The window hierarchy, the same XML `uiautomator dump` writes."""
        xml: str = self.client.dump_hierarchy()  # uiautomator2 is untyped
        return xml

    def stop(self) -> None:
        self.client.stop_uiautomator(wait=False)


def server_running(adb_device: adbutils.AdbDevice, timeout: float = 2.0) -> bool:
    """Does a uiautomator2 server answer on the device's port (without starting one)?"""
    try:
        sock = adb_device.create_connection("tcp", PORT)
    except Exception:  # closed port, offline device: no server
        return False
    try:
        sock.settimeout(timeout)
        conn = http.client.HTTPConnection("localhost", PORT, timeout=timeout)
        conn.sock = sock
        conn.request("GET", "/ping")
        return conn.getresponse().read() == b"pong"
    except (OSError, http.client.HTTPException):
        return False
    finally:
        sock.close()
