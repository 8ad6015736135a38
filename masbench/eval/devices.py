"""Turn `--devices` specs into connected devices: `vphone:N` starts N virtual phones (in this process
or in a child process, which puts them on the other core), anything else is a device address."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Literal

from masbench.device import Device, DeviceAddress
from masbench.device.address import no_adb_spawn

VPHONE_SPEC = re.compile(r"^vphone(?::(\d+))?$")
VPhoneMode = Literal["thread", "process"]


class DeviceSpecError(ValueError):
    pass


def parse_specs(specs: list[str]) -> tuple[int, list[DeviceAddress]]:
    """(number of virtual phones to start, addresses of existing devices)."""
    phones, addresses = 0, []
    for spec in specs:
        for part in filter(None, (p.strip() for p in spec.split(","))):
            match = VPHONE_SPEC.match(part)
            if match:
                phones += int(match.group(1) or 1)
                continue
            try:
                addresses.append(DeviceAddress.parse(part))
            except ValueError as exc:
                raise DeviceSpecError(
                    f"bad device {part!r}: {exc}; use vphone:N, SERIAL or HOST:PORT/SERIAL"
                ) from None
    return phones, addresses


@contextlib.contextmanager
def _child_server(count: int, seed: int) -> Iterator[int]:
    """Serve the phones from `masbench vphone serve` in a child process; yields its port."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "masbench.cli", "vphone", "serve", "--count", str(count), "--seed", str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        match = re.search(r"on 127\.0\.0\.1:(\d+)", line)
        if not match:
            raise RuntimeError(f"virtual phone server did not start: {line.strip() or 'no output'}")
        yield int(match.group(1))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextlib.contextmanager
def open_devices(specs: list[str], *, mode: VPhoneMode = "process", seed: int = 0) -> Iterator[list[Device]]:
    """Connected devices for the specs, virtual phones started for the duration of the block."""
    phones, addresses = parse_specs(specs)
    with contextlib.ExitStack() as stack:
        devices = [Device(a) for a in addresses]
        if phones:
            stack.enter_context(no_adb_spawn())
            if mode == "process":
                port = stack.enter_context(_child_server(phones, seed))
            else:
                from masbench.vphone.adb_server import serve_phones

                port = stack.enter_context(serve_phones(phones, seed=seed)).port
            devices += [Device(DeviceAddress("127.0.0.1", port, f"vphone-{i}")) for i in range(1, phones + 1)]
        if not devices:
            raise DeviceSpecError("no devices: pass --devices vphone:N or device addresses")
        yield devices
