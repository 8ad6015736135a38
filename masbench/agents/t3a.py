"""`t3a`: AndroidWorld's text-only agent, with this project's prompts. The model reads the UI element
list (no pixels) and answers one action per step. AndroidWorld's second, summarising call per step is
folded into the next prompt's history (`history.py`), so a step costs one call."""

from __future__ import annotations

from typing import TYPE_CHECKING

from masbench.llm import Message

from .llm_agent import PromptedAgent
from .prompting import element_lines, render, screen_name, system_prompt

if TYPE_CHECKING:
    from masbench.device import Observation
    from masbench.trajectory import StepRecord


class T3AAgent(PromptedAgent):
    name = "t3a"
    description = "AndroidWorld T3A: UI-tree text (element list) + history -> one GUI action per call."
    system_template = "t3a_system"
    step_template = "t3a_step"

    def messages(self, observation: Observation, history: list[StepRecord]) -> list[Message]:
        return [Message.system(self.system_text()), Message.user(self.step_text(observation, history))]

    def system_text(self) -> str:
        return system_prompt(self.system_template)

    def step_text(self, observation: Observation, history: list[StepRecord], **extra: object) -> str:
        return render(
            self.step_template,
            goal=self.task.instruction,
            history=self.history_text(history, observation),
            app=screen_name(observation),
            elements=element_lines(observation),
            **extra,
        )
