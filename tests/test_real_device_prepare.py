"""Task setup on a device that is not a virtual phone: no seeded reset, apps restarted, setup refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from masbench.device import Device
from masbench.tasks import load_tasks
from masbench.tasks.player import TaskSetupError, prepare


class RealLike(Device):
    """A virtual phone that answers as an emulator would: no `cmd masbench` controls for the episode."""

    kind = "emulator"
    is_virtual = False


@pytest.fixture
def device(vphones):
    with RealLike(vphones.devices[0].address) as device:
        yield device


def test_a_task_without_setup_restarts_its_apps_and_starts_home(device):
    task = load_tasks(Path(__file__).parent / "data" / "tasks").get("settings-01")
    device.open_app("Settings")
    device.shell("settings put global wifi_on 0")  # a reset would restore "1"
    prepare(device, task)
    assert device.foreground()[0] == "com.google.android.apps.nexuslauncher"
    assert device.shell("settings get global wifi_on").output.strip() == "0"


def test_a_task_that_needs_set_up_state_is_refused_clearly(device):
    task = next(t for t in load_tasks().select("all") if t.initial_state.setup)
    with pytest.raises(TaskSetupError, match="only virtual phones"):
        prepare(device, task)
