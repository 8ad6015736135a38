"""`t3a`: AndroidWorld's text-only agent. Each step the model chooses an action from the goal, the
history of step summaries and every on-screen element's full accessibility record (no pixels), then a
second call summarises the step from the element lists before and after it (`androidworld.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from masbench.llm import Message

from .androidworld import NO_ELEMENTS, AndroidWorldAgent, Decision, action_json
from .androidworld_screen import full_record, screen
from .prompting import render

if TYPE_CHECKING:
    from masbench.device import Observation

T3A_INPUTS = "a list of descriptions of most UI elements on the current screen, each with an index"


class T3AAgent(AndroidWorldAgent):
    name = "t3a"
    description = (
        "AndroidWorld T3A: element records (no pixels) + step summaries -> one action, then a summary call."
    )
    inputs = T3A_INPUTS
    action_template = "t3a_action"
    summary_template = "t3a_summary"

    def elements(self, observation: Observation) -> str:
        """Every element AndroidWorld shows, as its whole record."""
        return "\n".join(full_record(el) for el in screen(observation).shown) or NO_ELEMENTS

    def shortcut_block(self, observation: Observation) -> str:
        """Nothing for the GUI-only agents; the MAS variants add the paper's shortcut block here."""
        return ""

    def action_prompt(self, observation: Observation, history_text: str) -> str:
        return render(
            self.action_template,
            preamble=self.preamble(self.inputs),
            goal=self.task.instruction,
            history=history_text,
            elements=self.elements(observation),
            guidance=self.guidance(),
            shortcuts=self.shortcut_block(observation),
        )

    def summary_prompt(self, decision: Decision, after: Observation) -> str:
        return render(
            self.summary_template,
            preamble=self.preamble(self.inputs),
            goal=self.task.instruction,
            before=self.elements(decision.before),
            after=self.elements(after),
            action=action_json(decision.action),
            reason=decision.reason or "(none given)",
        )

    def action_messages(self, observation: Observation, history_text: str) -> list[Message]:
        return [Message.user(self.action_prompt(observation, history_text))]

    def summary_messages(self, decision: Decision, after: Observation) -> list[Message]:
        return [Message.user(self.summary_prompt(decision, after))]
