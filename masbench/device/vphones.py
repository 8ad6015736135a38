"""Start virtual phones and hand them out as `Device`s: the one seam between the device layer and
`masbench.vphone`, used by `masbench run`, `tasks verify`, the vphone CLI, the tests and the scripts.

Phones run either in this process (a server thread: cheap to start, and tests can reach the phone
objects) or in child processes (`masbench vphone serve`): one per core, at most one per phone, the phones
shared out between them, since drawing and encoding a screen is CPU work that one process (one GIL) would
serialise. Either way they are `vphone-1`..`vphone-N` on loopback ADB servers, reached through the ADB
protocol like any other device.
"""

from __future__ import annotations

import base64
import os
import re
import signal
import subprocess
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from . import commands as C
from .address import DeviceAddress, no_adb_spawn
from .device import Device
from .elements import UIElement, elements_of
from .errors import DeviceCommandError
from .inprocess import InProcessPhone, PhoneSnapshot
from .transport import ShellOutput

if TYPE_CHECKING:
    from types import TracebackType

    from masbench.vphone.adb_server import AdbServer
    from masbench.vphone.direct import DirectPhone

LOOPBACK = "127.0.0.1"
VPHONE_SPEC = re.compile(r"vphone(?::(\d+))?")
VPhoneMode = Literal["thread", "process"]


def parse_vphone_spec(text: str) -> int | None:
    """How many phones `vphone` (one) or `vphone:N` asks for; None when `text` names something else."""
    match = VPHONE_SPEC.fullmatch(text.strip().lower())
    return None if match is None else int(match.group(1) or 1)


class VirtualPhones:
    """Virtual phones being served: their `devices`, the loopback `port` (of the first phone's server)
    and, for in-process phones, the `server` (tests reach its phone objects). `stop()`, or leaving the
    `with` block, ends them."""

    def __init__(self, count: int, *, mode: VPhoneMode = "thread", seed: int = 0, port: int = 0) -> None:
        if count < 1:
            raise ValueError(f"need at least one virtual phone, got {count}")
        self.server: AdbServer | None = None
        self.devices: list[Device] = []
        self._children: list[subprocess.Popen[str]] = []
        self._guard = no_adb_spawn()  # a refused loopback port must fail, not start a real adb daemon
        try:
            if mode == "thread":
                ports = [self._serve_in_process(count, seed, port)] * count
            else:
                ports = self._serve_in_children(count, seed, port)
        except BaseException:
            self.stop()
            raise
        self.port = ports[0]
        self.devices = [Device(DeviceAddress(LOOPBACK, p, f"vphone-{i}")) for i, p in enumerate(ports, 1)]

    def _serve_in_process(self, count: int, seed: int, port: int) -> int:
        from masbench.vphone.adb_server import serve_phones

        self.server = serve_phones(count, port=port, host=LOOPBACK, seed=seed)
        return self.server.port

    def _serve_in_children(self, count: int, seed: int, port: int) -> list[int]:
        """Start one server process per core (at most one per phone), all at once; each phone's port."""
        processes = max(1, min(count, os.cpu_count() or 1))
        sizes = [count // processes + (1 if k < count % processes else 0) for k in range(processes)]
        first = 1
        for k, size in enumerate(sizes):
            command = ["vphone", "serve", "--count", str(size), "--first", str(first), "--seed", str(seed)]
            # A session of its own: Ctrl-C in a terminal signals the whole foreground process group, and the
            # phones must outlive it so the run can stop cleanly (and record that it was interrupted, not
            # that its devices were lost). Its stdin is our pipe, so it still ends if we are killed.
            command += ["--port", str(port if k == 0 else 0), "--exit-with-stdin"]
            child = subprocess.Popen(
                [sys.executable, "-m", "masbench.cli", *command],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                start_new_session=True,
            )
            self._children.append(child)
            first += size
        ports = []
        for child, size in zip(self._children, sizes, strict=True):
            line = child.stdout.readline() if child.stdout else ""
            match = re.search(rf"on {re.escape(LOOPBACK)}:(\d+)", line)
            if not match:
                raise RuntimeError(f"virtual phone server did not start: {line.strip() or 'no output'}")
            ports += [int(match.group(1))] * size
        return ports

    def stop(self) -> None:
        """Close the devices and end the phones; safe to call twice."""
        for device in self.devices:
            device.close()
        self.devices = []
        if self.server is not None:
            self.server.stop()
            self.server = None
        for child in self._children:
            child.terminate()
            if hasattr(signal, "SIGCONT"):  # a stopped (frozen) server acts on SIGTERM only once continued
                child.send_signal(signal.SIGCONT)
        for child in self._children:
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
            for pipe in (child.stdin, child.stdout):
                if pipe is not None:
                    pipe.close()
        self._children = []
        self._guard.__exit__(None, None, None)

    def __enter__(self) -> VirtualPhones:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def start_virtual_phones(
    count: int, *, mode: VPhoneMode = "thread", seed: int = 0, port: int = 0
) -> VirtualPhones:
    """Start `vphone-1`..`vphone-N` (all from `seed`) on a loopback port (0: a free one) and connect to
    them; use the result as a context manager or call its `stop()`."""
    return VirtualPhones(count, mode=mode, seed=seed, port=port)


class _InProcessDevice(Device):
    """A `Device` whose shell commands run on a phone in this process: every action is the command line a
    `Device` sends over ADB, run by the phone's own shell, with no socket in between; taps, swipes, keys
    and the ADB keyboard's text skip the command line too (tests/test_routes_in_process.py replays the
    routes the search finds this way over ADB)."""

    def __init__(self, direct: DirectPhone) -> None:
        super().__init__(DeviceAddress(LOOPBACK, 1, direct.phone.serial))  # never connected to
        self.direct, self.phone = direct, direct.phone

    def shell(self, cmd: str | Sequence[str], timeout: float = 60, check: bool = False) -> ShellOutput:
        line = cmd if isinstance(cmd, str) else C.join(cmd)
        result = self.phone.shell(line)
        out = ShellOutput((result.stdout + result.stderr).decode("utf-8", errors="replace"), result.exit_code)
        if check and out.exit_code != 0:
            raise DeviceCommandError(line, out.output, out.exit_code)
        return out

    def shell_bytes(self, cmd: str | Sequence[str], timeout: float = 60) -> bytes:
        return self.phone.shell(cmd if isinstance(cmd, str) else C.join(cmd)).stdout

    # The route search's moves, straight to the phone (what their command lines run, unparsed).
    def tap(self, x: float, y: float) -> None:
        _check_coords(x, y)
        self.direct.tap(round(x), round(y))

    def swipe(self, x1: float, y1: float, x2: float, y2: float, ms: int = 300) -> None:
        _check_coords(x1, y1)
        _check_coords(x2, y2)
        self.direct.swipe(round(x1), round(y1), round(x2), round(y2), int(ms))

    def keyevent(self, name: str | int) -> None:
        key = C.keycode(name)
        if not self.direct.key(key):
            raise DeviceCommandError(f"input keyevent {key}", f"Error: Unknown keycode: {key}", 255)

    def type_text(self, text: str) -> None:
        if text and self.has_adb_keyboard:
            self.direct.broadcast("ADB_INPUT_B64", {"msg": base64.b64encode(text.encode()).decode("ascii")})
        else:
            super().type_text(text)

    def clear_text(self) -> None:
        if self.has_adb_keyboard:
            self.direct.broadcast("ADB_CLEAR_TEXT", {})
        else:
            super().clear_text()


def _check_coords(x: float, y: float) -> None:
    if x < 0 or y < 0:
        raise ValueError(f"coordinates must be non-negative, got ({x}, {y})")


class _InProcessPhone:
    """`InProcessPhone` over `masbench.vphone.direct.DirectPhone`."""

    def __init__(self, direct: DirectPhone) -> None:
        self.direct = direct
        self._device = _InProcessDevice(direct)
        self._screen = (direct.phone.width, direct.phone.height)

    @property
    def device(self) -> Device:
        return self._device

    def elements(self) -> list[UIElement]:
        return elements_of(self.direct.nodes(), self._screen)

    def report(self, packages: list[str]) -> dict[str, Any]:
        return self.direct.report(packages)

    def report_key(self, packages: list[str], rehash: bool = False) -> bytes | None:
        return self.direct.report_key(packages, rehash)

    def save(self) -> PhoneSnapshot:
        return self.direct.save()

    def restore(self, snapshot: PhoneSnapshot) -> None:
        from masbench.vphone.direct import Saved

        assert isinstance(snapshot, Saved), "a snapshot of another kind of phone"
        self.direct.restore(snapshot)


def open_in_process_phone(seed: int = 0) -> InProcessPhone:
    """A virtual phone (`vphone-1`, from `seed`) in this process, driven directly: no ADB server."""
    from masbench.vphone.build import build_phone
    from masbench.vphone.direct import DirectPhone

    return _InProcessPhone(DirectPhone(build_phone("vphone-1", seed=seed)))


__all__ = [
    "VPHONE_SPEC",
    "VPhoneMode",
    "VirtualPhones",
    "open_in_process_phone",
    "parse_vphone_spec",
    "start_virtual_phones",
]
