"""Helpers shared by the agent tests: a scripted model that counts its tokens, and the reference action
of a step written as a model would (selector targets grounded to element indices on the live screen)."""

from __future__ import annotations

from typing import Any

from masbench.actions import ShortcutAction, select
from masbench.agents.androidworld_screen import screen
from masbench.device import Device, Observation
from masbench.llm.scripted import ScriptedLLM
from masbench.llm.types import Response


class CountingLLM(ScriptedLLM):
    """A scripted model that sums what it reported, to compare with the episode's usage."""

    def __init__(self, script) -> None:
        super().__init__(script)
        self.input_tokens = self.output_tokens = 0

    def generate(self, messages, **kwargs) -> Response:
        response = super().generate(messages, **kwargs)
        self.input_tokens += response.input_tokens
        self.output_tokens += response.output_tokens
        return response


def model_action(step: Any, device: Device) -> dict:
    """A reference step as the JSON a model answers with: shortcuts by name, targets by element index."""
    if isinstance(step, ShortcutAction):
        return {"action": "shortcut", "name": step.name, "arguments": step.arguments}
    data = step.model_dump(mode="json", exclude_none=True)
    if getattr(step, "target", None) is not None:
        data.pop("target")
        data["index"] = select(step.target, device.observe().elements).index
    return data


AW_NAMES = {"tap": "click", "type": "input_text", "enter": "keyboard_enter", "back": "navigate_back",
            "home": "navigate_home", "finish": "status"}  # fmt: skip


def androidworld_action(data: dict, observation: Observation) -> dict:
    """A model action in AndroidWorld's `action_type` grammar (what T3A, M3A and MAS-T3A answer with), its
    element renumbered as AndroidWorld's list on `observation` numbers the same node, or, for a container
    that list leaves out, the smallest listed element under its centre (where a tap lands the same)."""
    data = dict(data)
    if data.get("index") is not None:
        element = observation.elements[data["index"]]
        (x, y), shown = element.center, screen(observation).shown
        same = [
            el for el in shown if (el.bounds, el.cls, el.text) == (element.bounds, element.cls, element.text)
        ]
        under = [el for el in shown if el.bounds[0] <= x < el.bounds[2] and el.bounds[1] <= y < el.bounds[3]]
        data["index"] = (same or sorted(under, key=lambda el: el.width * el.height))[0].index
    kind = data.pop("action")
    out = {"action_type": AW_NAMES.get(kind, kind)}
    if kind == "finish":
        out["goal_status"] = "complete"
    elif kind == "open_app":
        out["app_name"] = data["name"]
    else:
        out |= {k: v for k, v in data.items() if k not in ("enter", "clear")}
        if data.get("clear"):
            out["clear_text"] = True
    return out


def typing_submits(plan: list) -> list:
    """A plan as an agent whose typing presses Enter plays it: `type` then `enter` become one `type`."""
    merged: list = []
    for step in plan:
        if step.action == "enter" and merged and merged[-1].action == "type":
            merged[-1] = merged[-1].model_copy(update={"enter": True})
        else:
            merged.append(step)
    return merged
