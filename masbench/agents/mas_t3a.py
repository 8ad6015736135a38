"""`mas-t3a`: T3A plus shortcuts (the paper's MAS-T3A). Each step the retriever picks the KB shortcuts
that fit the task and the current screen; they are offered with their signatures as callable actions
beside the GUI actions, and the prompt says when a shortcut beats GUI steps."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .prompting import shortcut_lines
from .retrieval import OffersShortcuts
from .t3a import T3AAgent

if TYPE_CHECKING:
    from masbench.device import Observation
    from masbench.trajectory import StepRecord


class MasT3AAgent(OffersShortcuts, T3AAgent):
    name = "mas-t3a"
    description = (
        "MAS-T3A: T3A + shortcuts retrieved from the KB for the task and screen, offered as callable actions."
    )
    uses_shortcuts = True
    system_template = "mas_t3a_system"
    step_template = "mas_t3a_step"

    def step_text(self, observation: Observation, history: list[StepRecord], **extra: object) -> str:
        return super().step_text(
            observation, history, shortcuts=shortcut_lines(self.offered(observation)), **extra
        )
