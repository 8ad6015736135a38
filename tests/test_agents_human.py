"""The `human` agent: a person's inputs on the viewer page become the episode's actions. A "person" (a
thread posting to the page as the browser would) plays a task's GUI reference; the episode records their
steps and the check passes when they press Done. Bad requests are refused without costing a step."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from masbench.actions import FinishAction, Selector, SwipeAction, TapAction, TypeAction, select
from masbench.agents import make_agent
from masbench.agents.human import action_of
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.tasks import load_tasks

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = load_tasks(DATA)


def post(url: str, body: bytes = b"") -> int:
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, data=body, method="POST"), timeout=10
        ) as reply:
            return reply.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_a_person_plays_a_task_in_the_browser_and_presses_done(device, tmp_path):
    task = TASKS.get("settings-01")
    agent = make_agent("human")
    agent.reset(task.view(), None)  # starts the page
    base, token = agent.viewer.origin + "/", agent.viewer.token

    def person() -> None:
        for step in task.solutions.gui:
            time.sleep(0.3)  # the page shows the new screen; the person looks, then clicks
            if step.action == "open_app":
                x, y = select(Selector(text=step.name), device.observe(screenshot=False).elements).center
            else:
                x, y = select(step.target, device.observe(screenshot=False).elements).center
            assert post(f"{base}tap?x={x}&y={y}&token={token}") == 204
            while agent.actions.qsize():
                time.sleep(0.05)
        time.sleep(0.3)
        assert post(f"{base}tap?x=oops&token={token}") == 400  # malformed: refused, nothing queued
        assert post(f"{base}done") == 403  # no token: refused
        assert post(f"{base}done?token={token}") == 204

    device.home()
    thread = threading.Thread(target=person)
    thread.start()
    result = run_episode(
        device, task, agent, EpisodeSettings(Limits(20, 60.0), save_screens=False),
        kb=None, shortcuts=None, run_dir=tmp_path,
    )  # fmt: skip
    thread.join()
    assert result.success and result.end_reason == "finished", result.check_details
    assert result.steps == len(task.solutions.gui) and result.invalid_steps == 0
    with urllib.request.urlopen(f"{base}screen.png?token={token}", timeout=10) as reply:
        assert reply.read().startswith(b"\x89PNG")  # the page shows the screen the episode observed
    with urllib.request.urlopen(agent.viewer.url, timeout=10) as reply:
        assert b'id="done"' in reply.read()


@pytest.mark.parametrize(
    ("path", "query", "body", "expected"),
    [
        ("/tap", {"x": "5", "y": "6"}, "", TapAction(x=5, y=6)),
        ("/swipe", {"x1": "1", "y1": "2", "x2": "3", "y2": "4"}, "", SwipeAction(x1=1, y1=2, x2=3, y2=4)),
        ("/type", {}, "héllo", TypeAction(text="héllo")),
        ("/done", {}, "", FinishAction(status="success")),
    ],
)
def test_each_input_is_an_action(path, query, body, expected):
    assert action_of(path, query, body) == expected


def test_a_key_the_page_does_not_have_is_refused():
    with pytest.raises(ValueError, match="unknown key 'volume'"):
        action_of("/key", {"name": "volume"}, "")
