"""Shared fixtures: virtual phones, in-process and behind a real ADB server on port 0, and a local model server."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest
from llm_server import FakeServer

from masbench.device import start_virtual_phones

# A refused port must never make adbutils spawn a real adb daemon (it bundles adb and starts it unasked).
os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"


@pytest.fixture
def phone():
    """A fresh in-process virtual phone, for model-level tests that need no protocol."""
    from masbench.vphone.build import build_phone

    return build_phone("vphone-1")


@pytest.fixture
def vphones():
    """One virtual phone served over the ADB host protocol on a free loopback port (`.port`, `.devices`)."""
    with start_virtual_phones(1) as phones:
        yield phones


@pytest.fixture(scope="module")
def device():
    """A virtual phone as a `Device`, shared by the tests of one module."""
    with start_virtual_phones(1) as phones:
        yield phones.devices[0]


@pytest.fixture
def server() -> Iterator[FakeServer]:
    """A local model server on a free port (tests/llm_server.py): queue its replies, read what it saw."""
    fake = FakeServer()
    thread = threading.Thread(target=fake.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield fake
    fake.httpd.shutdown()
    fake.httpd.server_close()
