"""Shared fixtures: virtual phones, in-process and behind a real ADB server on port 0."""

from __future__ import annotations

import os

import pytest

from masbench.device import start_virtual_phones

# A refused port must never make adbutils spawn a real adb daemon (it bundles adb and starts it unasked).
os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"


@pytest.fixture
def phone():
    """A fresh in-process virtual phone, for model-level tests that need no protocol."""
    from masbench.vphone.phone import VirtualPhone

    return VirtualPhone("vphone-1")


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
