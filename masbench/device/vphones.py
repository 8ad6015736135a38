"""Start virtual phones and hand them out as `Device`s: the one seam between the device layer and
`masbench.vphone`, used by `masbench run`, `tasks verify`, the vphone CLI, the tests and the scripts.

Phones run either in this process (a server thread: cheap to start, and tests can reach the phone
objects) or in a child process (`masbench vphone serve`, which puts them on another core). Either way
they are `vphone-1`..`vphone-N` on one loopback ADB server, reached through the ADB protocol like any
other device.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import TYPE_CHECKING, Literal

from .address import DeviceAddress, no_adb_spawn
from .device import Device

if TYPE_CHECKING:
    from types import TracebackType

    from masbench.vphone.adb_server import AdbServer

LOOPBACK = "127.0.0.1"
VPHONE_SPEC = re.compile(r"vphone(?::(\d+))?")
VPhoneMode = Literal["thread", "process"]


def parse_vphone_spec(text: str) -> int | None:
    """How many phones `vphone` (one) or `vphone:N` asks for; None when `text` names something else."""
    match = VPHONE_SPEC.fullmatch(text.strip().lower())
    return None if match is None else int(match.group(1) or 1)


class VirtualPhones:
    """Virtual phones being served: their `devices`, the loopback `port` and, for in-process phones, the
    `server` (tests reach its phone objects). `stop()`, or leaving the `with` block, ends them."""

    def __init__(self, count: int, *, mode: VPhoneMode = "thread", seed: int = 0, port: int = 0) -> None:
        if count < 1:
            raise ValueError(f"need at least one virtual phone, got {count}")
        self.server: AdbServer | None = None
        self.devices: list[Device] = []
        self._child: subprocess.Popen[str] | None = None
        self._guard = no_adb_spawn()  # a refused loopback port must fail, not start a real adb daemon
        try:
            self.port = (
                self._serve_in_process(count, seed, port)
                if mode == "thread"
                else self._serve_in_child(count, seed, port)
            )
        except BaseException:
            self.stop()
            raise
        self.devices = [
            Device(DeviceAddress(LOOPBACK, self.port, f"vphone-{i}")) for i in range(1, count + 1)
        ]

    def _serve_in_process(self, count: int, seed: int, port: int) -> int:
        from masbench.vphone.adb_server import serve_phones

        self.server = serve_phones(count, port=port, host=LOOPBACK, seed=seed)
        return self.server.port

    def _serve_in_child(self, count: int, seed: int, port: int) -> int:
        command = ["vphone", "serve", "--count", str(count), "--seed", str(seed), "--port", str(port)]
        # A session of its own: Ctrl-C in a terminal signals the whole foreground process group, and the
        # phones must outlive it so the run can stop cleanly (and record that it was interrupted, not that
        # its devices were lost). Its stdin is our pipe, so it still ends if this process is killed.
        self._child = subprocess.Popen(
            [sys.executable, "-m", "masbench.cli", *command, "--exit-with-stdin"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=True,
        )
        line = self._child.stdout.readline() if self._child.stdout else ""
        match = re.search(rf"on {re.escape(LOOPBACK)}:(\d+)", line)
        if not match:
            raise RuntimeError(f"virtual phone server did not start: {line.strip() or 'no output'}")
        return int(match.group(1))

    def stop(self) -> None:
        """Close the devices and end the phones; safe to call twice."""
        for device in self.devices:
            device.close()
        self.devices = []
        if self.server is not None:
            self.server.stop()
            self.server = None
        if self._child is not None:
            self._child.terminate()
            try:
                self._child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._child.kill()
                self._child.wait()
            for pipe in (self._child.stdin, self._child.stdout):
                if pipe is not None:
                    pipe.close()
            self._child = None
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


__all__ = ["VPHONE_SPEC", "VPhoneMode", "VirtualPhones", "parse_vphone_spec", "start_virtual_phones"]
