"""Helpers shared by the agent tests: a scripted model that counts its tokens, and the reference action
of a step written as a model would (selector targets grounded to element indices on the live screen)."""

from __future__ import annotations

from typing import Any

from masbench.actions import ShortcutAction, select
from masbench.device import Device
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
