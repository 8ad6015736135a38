"""Where CLI arguments become connected `Device`s.

A device is named by ``SERIAL`` (default adb server), ``HOST:PORT/SERIAL``, or ``vphone`` / ``vphone:N``:
N throwaway virtual phones started for the duration of the `with` block.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from .address import DeviceAddress
from .device import Device
from .vphones import VPhoneMode, parse_vphone_spec, start_virtual_phones


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
            if count is not None:
                phones += count
                continue
            try:
                addresses.append(DeviceAddress.parse(part))
            except ValueError as exc:
                raise DeviceSpecError(
                    f"bad device {part!r}: {exc}; use vphone:N, SERIAL or HOST:PORT/SERIAL"
                ) from None
    return phones, addresses


@contextlib.contextmanager
def open_devices(specs: list[str], *, mode: VPhoneMode = "process", seed: int = 0) -> Iterator[list[Device]]:
    """Connected devices for `--devices` specs, virtual phones started for the duration of the block."""
    phones, addresses = parse_specs(specs)
    if not phones and not addresses:
        raise DeviceSpecError("no devices: pass --devices vphone:N or device addresses")
    with contextlib.ExitStack() as stack:
        devices = [stack.enter_context(Device(a)) for a in addresses]
        if phones:
            devices += stack.enter_context(start_virtual_phones(phones, mode=mode, seed=seed)).devices
        yield devices


__all__ = ["DeviceSpecError", "open_device", "open_devices", "parse_specs"]
