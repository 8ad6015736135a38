"""`mas-mobileagent`: the paper's MAS-MobileAgent (section 4, appendix B.1) - Mobile-Agent-v2 that "acquires
the standard screenshot and UI elements" (so it perceives from the UI tree, not by OCR) and whose decision
agent also gets the KB shortcuts retrieved for the task and the current screen, as one more block of
context, with a seventh action to call one. Reflection, planning and memory are v2's unchanged, so the
calls per step are v2's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .mobileagent_v2 import MobileAgentV2, Perception
from .prompting import render, shortcut_lines
from .retrieval import OffersShortcuts

if TYPE_CHECKING:
    from masbench.device import Observation


class MasMobileAgent(OffersShortcuts, MobileAgentV2):
    name = "mas-mobileagent"
    description = "MAS-MobileAgent: Mobile-Agent-v2 + the KB shortcuts retrieved for the task and screen, offered as an action."
    uses_shortcuts = True
    perception: Perception = "tree"

    def hint(self, observation: Observation) -> str:
        return (
            render("mobileagent_mas_shortcuts", shortcuts=shortcut_lines(self.offered(observation))) + "\n\n"
        )

    def extra_actions(self) -> str:
        return render("mobileagent_mas_action") + "\n"
