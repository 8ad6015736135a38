"""Shared fixtures: virtual phones, in-process and behind a real ADB server on port 0."""

from __future__ import annotations

import os

import pytest

# A refused port must never make adbutils spawn a real adb daemon (adb_protocol.md, gotcha G3).
os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"


@pytest.fixture
def phone():
    """A fresh in-process virtual phone, for model-level tests that need no protocol."""
    from masbench.vphone.phone import VirtualPhone

    return VirtualPhone("vphone-1")


@pytest.fixture
def adb_server():
    """One virtual phone served over the ADB host protocol on a free loopback port."""
    from masbench.vphone.adb_server import serve_phones

    server = serve_phones(1, port=0)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def adb_device(adb_server):
    """The stock adbutils device for `vphone-1`, talking to the fixture server."""
    import adbutils

    return adbutils.AdbClient(host="127.0.0.1", port=adb_server.port).device("vphone-1")
