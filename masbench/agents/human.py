"""`human`: a person plays the task in a browser. The agent serves the viewer page (`device/viewer.py`) with
the screen the episode observed; each click, drag, key or typed text becomes that step's action, and the
Done button finishes. The episode loop executes and records every action as it does for a model, so a
person's run has the same trajectory, metrics and report as any agent's (the paper's Human row, or a
recording to generate shortcuts from).

    masbench run --agent human --tasks settings-01 --devices vphone:1   # then open the printed address
"""

from __future__ import annotations

import queue
import sys
from typing import TYPE_CHECKING

from masbench.actions import (
    Action,
    BackAction,
    EnterAction,
    FinishAction,
    HomeAction,
    SwipeAction,
    TapAction,
    TypeAction,
)
from masbench.deadlines import time_left
from masbench.device.viewer import Viewer, key_name

from .base import Agent, AgentStep

if TYPE_CHECKING:
    from masbench.device import Observation
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import Task, TaskView
    from masbench.trajectory import StepRecord

KEYS: dict[str, type[BackAction | HomeAction | EnterAction]] = {
    "back": BackAction,
    "home": HomeAction,
    "enter": EnterAction,
}
POLL_S = 0.5


def action_of(path: str, query: dict[str, str], body: str) -> Action:
    """The action a viewer request stands for; KeyError/ValueError for a malformed one."""
    if path == "/tap":
        return TapAction(x=int(query["x"]), y=int(query["y"]))
    if path == "/swipe":
        return SwipeAction(x1=int(query["x1"]), y1=int(query["y1"]), x2=int(query["x2"]), y2=int(query["y2"]))
    if path == "/key":
        return KEYS[key_name(query)]()
    if path == "/type":
        return TypeAction(text=body)
    if path == "/done":
        return FinishAction(status="success")
    raise KeyError(path)


class HumanAgent(Agent):
    name = "human"
    description = (
        "A person in a browser: the viewer page shows the screen; clicks, keys and text are the actions."
    )
    needs_screenshot = True

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self.actions: queue.Queue[Action] = queue.Queue()
        self.screen = b""
        self.viewer: Viewer | None = None  # served from the first task on

    def serve(self) -> Viewer:
        if self.viewer is None:
            self.viewer = Viewer(
                lambda: self.screen, self._take, "human agent", done_button=True, port=self.port
            )
            print(f"human agent: open {self.viewer.url} in a browser to play", file=sys.stderr)
        return self.viewer

    def _take(self, path: str, query: dict[str, str], body: str) -> None:
        self.actions.put(action_of(path, query, body))

    def reset(self, task: TaskView | Task, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)
        self.serve()
        while not self.actions.empty():  # clicks left over from the previous task are not for this one
            self.actions.get_nowait()
        print(f"human agent: {task.instruction}", file=sys.stderr)

    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        """Show this screen and wait for the person's next input (as long as the episode's time allows)."""
        self.screen = observation.screenshot_png
        while True:
            left = time_left()
            try:
                return AgentStep(
                    action=self.actions.get(timeout=POLL_S if left is None else max(0.0, min(POLL_S, left)))
                )
            except queue.Empty:
                if left is not None and left <= 0:  # the person's time is up: the episode ends at its limit
                    return AgentStep(action=None, error="no input before the episode's time ran out")
