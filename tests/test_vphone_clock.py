"""A virtual phone's screens depend only on what is done to it: not on the order an observation's two
concurrent requests arrive in, not on wall time or model latency. A toast runs out after the same device
time, and a run recorded with a slow model replays from its cassette, at once, with identical screenshots."""

from __future__ import annotations

import re

import pytest
from llm_server import FakeServer, Reply, openai_ok

from masbench.agents.t3a import T3AAgent
from masbench.eval.episode import Limits, run_episode
from masbench.llm import CassetteLLM, RecordingLLM, RetryPolicy
from masbench.llm.openai_compat import OpenAICompatLLM
from masbench.tasks import load_tasks
from masbench.vphone.phone import VirtualPhone
from masbench.vphone.render import TOAST_MS


def toasted() -> VirtualPhone:
    phone = VirtualPhone("vphone-1")
    phone.reset(seed=22)
    phone.tap(540, 1200)
    phone.toast("You joined Weekend Warrior")
    return phone


@pytest.mark.parametrize("observations", [0, 1, 2, 3])
def test_an_observations_request_order_does_not_change_its_screenshot(observations):
    shots = []
    for dump_first in (False, True):
        phone = toasted()
        for _ in range(observations):  # earlier observations' device time, unchanged screen
            phone.ui_dump_xml()
            phone.advance("screencap")
        if dump_first:
            phone.ui_dump_xml()
        shots.append(phone.screencap_png())
    assert shots[0] == shots[1]


def test_a_toast_runs_out_after_device_time_not_after_observations():
    phone = toasted()
    shown = phone.screencap_png()
    for _ in range(10):  # looking does not move the screen on
        phone.ui_dump_xml()
    assert phone.screencap_png() == shown
    phone.shell("sleep 1")  # device time passing does
    assert phone.screencap_png() != shown
    phone.shell(f"sleep {TOAST_MS / 1000}")
    gone = phone.screencap_png()
    fresh = VirtualPhone("vphone-1")
    fresh.reset(seed=22)
    fresh.tap(540, 1200)
    fresh.shell(f"sleep {1 + TOAST_MS / 1000}")
    assert gone == fresh.screencap_png()  # no toast left, same clock: the same screen


# fitbit-02's GUI route, step by step: (resource id, text) of the element to click, or an action
ROUTE = [
    {"action_type": "open_app", "app_name": "Fitbit"},
    ("nav_discover", None),
    ("challenge_name", "Weekend Warrior"),
    ("join_challenge_button", None),  # "You joined Weekend Warrior" shows from here
    {"action_type": "navigate_back"},
    ("challenge_name", "Workweek Hustle"),
    ("leave_challenge_button", None),
    ("confirm_leave_button", None),
    {"action_type": "status", "goal_status": "complete"},
]
ELEMENT = re.compile(r"UI element (\d+): UIElement\((.*)\)")


class SlowRoutePlayer:
    """The fake model server's replies (tests/llm_server.py), made from what it was asked: T3A's action
    calls get fitbit-02's next step, its summary calls a line; every answer takes 50 ms."""

    def __init__(self, server: FakeServer) -> None:
        self.server, self.step = server, 0

    def __bool__(self) -> bool:
        return True

    def popleft(self) -> Reply:
        prompt = self.server.seen[-1].body["messages"][-1]["content"]
        prompt = prompt if isinstance(prompt, str) else prompt[0]["text"]
        if "Summarise the step you just took" in prompt:
            return Reply(delay_s=0.05, body=openai_ok("Done as meant.").body)
        action = ROUTE[self.step]
        self.step += 1
        if isinstance(action, tuple):
            rid, text = action
            found = [
                int(m[1])
                for m in ELEMENT.finditer(prompt)
                if f"id/{rid}'" in m[2] and (text is None or f"text='{text}'" in m[2])
            ]
            index = found[0]
            action = {"action_type": "click", "index": index}
        return Reply(
            delay_s=0.05, body=openai_ok(f"Reason: next step.\nAction: {action}".replace("'", '"')).body
        )


def test_a_run_with_a_slow_model_replays_from_its_cassette_with_identical_screens(device, server, tmp_path):
    task = load_tasks().get("fitbit-02")
    server.replies = SlowRoutePlayer(server)
    cassette = tmp_path / "llm_cassette.jsonl"
    agents = {
        "live": lambda: T3AAgent(
            llm=RecordingLLM(
                OpenAICompatLLM("slow", server.url + "/v1", retry=RetryPolicy(max_attempts=1)), cassette
            )
        ),
        "replay": lambda: T3AAgent(llm=CassetteLLM(cassette)),
    }
    results, shots = [], []
    for name, agent in agents.items():
        run_dir = tmp_path / name
        results.append(run_episode(device, task, agent(), kb=None, shortcuts=None, limits=Limits(20, 60.0), run_dir=run_dir))  # fmt: skip
        steps = sorted((run_dir / "trajectories" / task.id).glob("step_*.png"))
        shots.append([p.read_bytes() for p in steps])
    assert [(r.end_reason, r.success) for r in results] == [("finished", True)] * 2
    assert len(shots[0]) == len(ROUTE) and shots[0] == shots[1]
    assert results[1].wall_s < results[0].wall_s  # the replay did not wait for the model
