"""The emulator console client: what `adb emu COMMAND` does, from Python. An emulator `emulator-5554` serves
its console on port 5554 of the adb server's host; a session authenticates with the token in
`~/.emulator_console_auth_token` and sends one command per line, each answered by `OK` or `KO: reason`.

Used for the snapshot reset (`masbench run --reset snapshot:NAME`): load the snapshot, then wait until adb
sees the device ready again.
"""

from __future__ import annotations

import contextlib
import re
import socket
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import DeviceError

if TYPE_CHECKING:
    from .device import Device

TOKEN_FILE = Path.home() / ".emulator_console_auth_token"
EMULATOR_SERIAL = re.compile(r"emulator-(\d+)")


class ConsoleError(DeviceError):
    """The console refused a command or could not be reached."""


def console_port(serial: str) -> int | None:
    """The console port of an emulator serial (`emulator-5554` -> 5554); None for other devices."""
    match = EMULATOR_SERIAL.fullmatch(serial)
    return int(match.group(1)) if match else None


class EmulatorConsole:
    """One authenticated console session (a context manager)."""

    def __init__(self, host: str, port: int, token: str | None = None, timeout: float = 30.0) -> None:
        try:
            self._sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise ConsoleError(f"no emulator console at {host}:{port}: {exc}") from None
        self._file = self._sock.makefile("rb")
        banner = self._reply()
        if "Authentication required" in banner:
            if token is None:
                token = TOKEN_FILE.read_text().strip() if TOKEN_FILE.exists() else ""
            self.command(f"auth {token}")

    def _reply(self) -> str:
        """Lines up to the closing OK; ConsoleError with the reason on KO."""
        lines: list[str] = []
        for raw in self._file:
            line = raw.decode(errors="replace").rstrip("\r\n")
            if line == "OK" or line.startswith("OK:"):
                return "\n".join(lines)
            if line.startswith("KO"):
                raise ConsoleError(line.removeprefix("KO:").strip() or "refused")
            lines.append(line)
        raise ConsoleError("the console closed the session")

    def command(self, line: str) -> str:
        """Send one command; its output (without the OK)."""
        self._sock.sendall(line.encode() + b"\r\n")
        return self._reply()

    def snapshot_load(self, name: str) -> None:
        self.command(f"avd snapshot load {name}")

    def snapshot_save(self, name: str) -> None:
        self.command(f"avd snapshot save {name}")

    def close(self) -> None:
        with contextlib.suppress(OSError):  # the emulator may already be gone
            self._sock.sendall(b"quit\r\n")
        self._file.close()
        self._sock.close()

    def __enter__(self) -> EmulatorConsole:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def load_snapshot(device: Device, name: str, timeout_s: float = 120.0) -> None:
    """Load emulator snapshot `name` through the device's console, then wait until adb sees it booted: the
    reset an emulator run uses between episodes."""
    port = console_port(device.serial)
    if port is None:
        raise ConsoleError(
            f"{device.serial} is not an emulator (emulator-PORT), so it has no snapshots to load"
        )
    with EmulatorConsole(device.address.host, port) as console:
        console.snapshot_load(name)
    deadline = time.monotonic() + timeout_s
    while device.shell(["getprop", "sys.boot_completed"]).output.strip() != "1":
        if time.monotonic() > deadline:
            raise ConsoleError(
                f"{device.serial} did not come back within {timeout_s:g} s of loading {name!r}"
            )
        time.sleep(0.5)
