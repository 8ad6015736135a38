"""Which devices do these adb servers have? (`masbench devices`, and the runner's device pool)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from .address import DeviceAddress, default_server, no_adb_spawn
from .errors import DeviceError
from .transport import CachedVersionClient, translate_errors

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DeviceInfo:
    """One serial on one adb server: its adb state (`device`, `offline`, ...) and kind."""

    address: DeviceAddress
    kind: str  # virtual | emulator | physical | unknown
    state: str
    path: str = "-"  # how the UI hierarchy is read: uiautomator2 (its server answers) or adb


def scan_server(host: str, port: int, detect_kind: bool = True) -> list[DeviceInfo]:
    """Devices on one adb server; DeviceGoneError when the server cannot be reached."""
    from .device import Device  # device imports this module's siblings; keep the import cycle-free
    from .u2 import server_running

    if not DeviceAddress(host, port, "probe").is_default_local_server:
        no_adb_spawn()
    client = CachedVersionClient(host, port)
    with translate_errors(f"{host}:{port}", "host:devices"):
        entries = client.list()
    infos = []
    for entry in entries:
        address = DeviceAddress(host, port, entry.serial)
        kind, path = "unknown", "-"
        if detect_kind and entry.state == "device":
            try:
                device = Device(address)
                kind = device.kind
                path = "uiautomator2" if server_running(device.adb) else "adb"
            except DeviceError as exc:
                log.warning("%s: could not tell the device kind: %s", address, exc)
        elif entry.serial.startswith("emulator-"):
            kind = "emulator"
        infos.append(DeviceInfo(address, kind, entry.state, path))
    return infos


def list_devices(
    servers: Iterable[tuple[str, int]] | None = None, strict: bool = False, detect_kind: bool = True
) -> list[DeviceInfo]:
    """Devices on every server (the default adb server when none is given).

    An unreachable server is logged and skipped, or raises DeviceGoneError with `strict=True`.
    """
    found: list[DeviceInfo] = []
    for host, port in list(servers or []) or [default_server()]:
        try:
            found += scan_server(host, port, detect_kind)
        except DeviceError as exc:
            if strict:
                raise
            log.warning("adb server %s:%s: %s", host, port, exc)
    return found


__all__ = ["DeviceInfo", "list_devices", "scan_server"]
