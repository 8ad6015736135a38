"""Smoke tests against a real Android emulator; skipped unless MASBENCH_EMULATOR names one
(`SERIAL` on the default adb server or `HOST:PORT/SERIAL`)."""

from __future__ import annotations

import os

import pytest

from masbench.device import Device, DeviceAddress

pytestmark = pytest.mark.emulator
TARGET = os.environ.get("MASBENCH_EMULATOR")


@pytest.fixture
def device():
    if not TARGET:
        pytest.skip("no emulator: set MASBENCH_EMULATOR=SERIAL or HOST:PORT/SERIAL")
    return Device(DeviceAddress.parse(TARGET))


def test_observe_a_real_emulator(device):
    obs = device.observe()
    assert obs.width > 0 and obs.height > 0 and obs.elements
    assert device.kind in ("emulator", "physical")


def test_open_settings_on_a_real_emulator(device):
    device.open_app("Settings")
    assert device.foreground()[0] == "com.android.settings"
    device.home()
