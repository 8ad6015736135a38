"""Where CLI arguments become connected `Device`s.

A device is named by ``SERIAL`` (default adb server), ``HOST:PORT/SERIAL``, or ``vphone`` / ``vphone:N``:
N throwaway virtual phones started for the duration of the `with` block.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from .address import DeviceAddress
from .device import Device
from .errors import DeviceError
from .listing import scan_server
from .vphones import VPhoneMode, parse_vphone_spec, start_virtual_phones

MAX_VPHONES = 64  # per run: a typo such as vphone:100000 must be an error, not an hour of starting phones


class DeviceSpecError(ValueError):
    """A `--devices` argument that names no device."""


@contextlib.contextmanager
def open_device(text: str) -> Iterator[Device]:
    """Yield a Device for `text`; a `vphone` phone is started before and stopped after."""
    if parse_vphone_spec(text) == 1:
        with start_virtual_phones(1) as phones:
            yield phones.devices[0]
        return
    with Device(DeviceAddress.parse(text)) as device:
        yield device


def parse_specs(specs: list[str]) -> tuple[int, list[DeviceAddress]]:
    """(number of virtual phones to start, addresses of existing devices) for `--devices` values, each
    a comma-separated list."""
    phones, addresses = 0, []
    for spec in specs:
        for part in filter(None, (p.strip() for p in spec.split(","))):
            count = parse_vphone_spec(part)
            if count == 0:
                raise DeviceSpecError(f"{part!r} starts no phone; use vphone:N with N of at least 1")
            if count is not None:
                phones += count
                if phones > MAX_VPHONES:
                    raise DeviceSpecError(
                        f"{phones} virtual phones asked for; at most {MAX_VPHONES} per run "
                        "(each is a renderer and a server; more devices wait on the model, not the phones)"
                    )
                continue
            try:
                addresses.append(DeviceAddress.parse(part))
            except ValueError as exc:
                raise DeviceSpecError(
                    f"bad device {part!r}: {exc}; use vphone:N, SERIAL or HOST:PORT/SERIAL"
                ) from None
    return phones, addresses


def check_present(addresses: list[DeviceAddress]) -> None:
    """Every address names a device its adb server has, online: a mistyped serial or an unreachable
    server is one clear error before a run starts, not a device "lost" in the middle of it."""
    servers = {(a.host, a.port) for a in addresses}
    listed: dict[tuple[str, int], dict[str, str]] = {}
    for host, port in sorted(servers):
        try:
            listed[(host, port)] = {
                i.address.serial: i.state for i in scan_server(host, port, detect_kind=False)
            }
        except DeviceError as exc:
            raise DeviceSpecError(f"cannot reach the adb server at {host}:{port}: {exc}") from None
    for a in addresses:
        states = listed[(a.host, a.port)]
        state = states.get(a.serial)
        if state is None:
            have = ", ".join(sorted(states)) or "none"
            raise DeviceSpecError(
                f"no device {a.serial!r} on the adb server at {a.host}:{a.port} (it has: {have})"
            )
        if state != "device":
            raise DeviceSpecError(f"device {a.serial!r} at {a.host}:{a.port} is {state}, not ready")


@contextlib.contextmanager
def open_devices(specs: list[str], *, mode: VPhoneMode = "process", seed: int = 0) -> Iterator[list[Device]]:
    """Connected devices for `--devices` specs, virtual phones started for the duration of the block."""
    phones, addresses = parse_specs(specs)
    if not phones and not addresses:
        raise DeviceSpecError("no devices: pass --devices vphone:N or device addresses")
    check_present(addresses)
    with contextlib.ExitStack() as stack:
        devices = [stack.enter_context(Device(a)) for a in addresses]
        if phones:
            devices += stack.enter_context(start_virtual_phones(phones, mode=mode, seed=seed)).devices
        yield devices


__all__ = ["DeviceSpecError", "check_present", "open_device", "open_devices", "parse_specs"]
