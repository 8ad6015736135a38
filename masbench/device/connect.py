"""`open_device(text)`: the one place a CLI argument becomes a connected `Device`.

Accepted: ``SERIAL`` (default adb server), ``HOST:PORT/SERIAL``, or ``vphone`` - a throwaway virtual
phone served on a free loopback port for the duration of the `with` block.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from .address import DeviceAddress, no_adb_spawn
from .device import Device

VPHONE_WORD = "vphone"


@contextmanager
def open_device(text: str) -> Iterator[Device]:
    """Yield a Device for `text`; a `vphone` phone is started before and stopped after."""
    if text.strip().lower() == VPHONE_WORD:
        no_adb_spawn()
        from masbench.vphone.adb_server import serve_phones  # only this path needs the virtual phone

        server = serve_phones(1)
        try:
            with Device(DeviceAddress("127.0.0.1", server.port, "vphone-1")) as device:
                yield device
        finally:
            server.stop()
        return
    with Device(DeviceAddress.parse(text)) as device:
        yield device


__all__ = ["VPHONE_WORD", "open_device"]
