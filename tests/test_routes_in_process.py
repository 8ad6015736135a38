"""The route search's in-process path (masbench/vphone/direct.py through `open_in_process_phone`): its
restore brings back the very state it saved, its search reaches the verdicts the ADB path reaches, and a
route it finds replays over ADB with the same check result. Also the pruning rule of the last level."""

from __future__ import annotations

import pytest
from task_helpers import shipped_tasks
from test_task_routes import _sushi_task

from masbench.actions import ScrollAction, TypeAction
from masbench.actions.execute import execute_action
from masbench.device import Device, DeviceAddress, InProcessPhone, open_in_process_phone, parse_ui_dump
from masbench.tasks.player import play, prepare
from masbench.tasks.routes import prunes_at_last, search_routes

SHIPPED = {t.id: t for t in shipped_tasks()}
# Level-1 tasks of each kind of check, searched on both paths to the same depth.
COMPARED = ("yelp-01", "gmail-01", "cross-25")


@pytest.fixture(scope="module")
def phone() -> InProcessPhone:
    return open_in_process_phone()


@pytest.fixture(scope="module")
def device():
    from masbench.vphone.adb_server import serve_phones

    server = serve_phones(1, port=0)
    device = Device(DeviceAddress("127.0.0.1", server.port, "vphone-1"))
    yield device
    device.close()
    server.stop()


def test_elements_are_the_ones_the_dump_gives(phone):
    prepare(phone.device, _sushi_task())
    for app in ("Yelp", "Gmail", "Settings"):
        phone.device.open_app(app)
        assert phone.elements() == parse_ui_dump(phone.device.ui_dump(), screen=phone.device.screen_size())


def test_restore_undoes_every_move_and_a_saved_state_comes_back(phone):
    device = phone.device
    prepare(device, _sushi_task())
    device.open_app("Yelp")
    start = phone.save()
    before, screen = device.snapshot(), device.ui_dump()
    search = TypeAction(target={"resource_id": "search_bar_text"}, text="ramen")
    for _ in range(2):  # an undo, then (after another state was restored) a restore from the blobs
        phone.restore(start)
        assert execute_action(device, search, phone.elements()).ok
        device.enter()
        assert device.snapshot()["foreground"]["screen"] == "results"
        results = phone.save()
        assert results.key != start.key
        phone.restore(start)
        assert _timeless(device.snapshot()) == _timeless(before) and device.ui_dump() == screen
        phone.restore(results)
        assert device.snapshot()["foreground"]["screen"] == "results"


def _timeless(snapshot: dict) -> dict:
    return {k: v for k, v in snapshot.items() if k not in ("clock", "device_ms")}


@pytest.mark.parametrize("task_id", COMPARED)
def test_in_process_search_reaches_the_adb_verdict(phone, device, task_id):
    task = SHIPPED[task_id]
    over_adb = search_routes(device, task, max_depth=2)
    direct = search_routes(phone, task, max_depth=2)
    assert direct.verdict == over_adb.verdict and direct.exhausted


def test_a_route_found_in_process_replays_over_adb(phone, device):
    task = _sushi_task()
    found = search_routes(phone, task, max_depth=3)
    assert found.route is not None and len(found.route) == 3
    assert play(device, task, found.route).passed


@pytest.mark.parametrize("task_id", ("yelp-01", "cross-25"))
def test_the_reference_plays_the_same_in_process_and_over_adb(phone, device, task_id):
    task = SHIPPED[task_id]
    assert play(phone.device, task).passed == play(device, task).passed is True


def test_pruning_scrolls_at_the_last_level_loses_no_route(phone):
    """A task whose route ends in a scroll would be lost; none does, since no check reads scroll offsets:
    the pruned search finds the sushi route as deep as the unpruned one, and only scrolls are pruned."""
    assert prunes_at_last(ScrollAction(direction="down"))
    assert not prunes_at_last(TypeAction(target={"resource_id": "x"}, text="a"))
    found = search_routes(phone, _sushi_task(), max_depth=3)
    assert found.route is not None and len(found.route) == 3
