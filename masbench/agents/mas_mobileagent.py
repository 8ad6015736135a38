"""`mas-mobileagent`: the paper's MAS-MobileAgent (section 4, appendix B.1) - Mobile-Agent-v2 whose decision
agent also gets the KB shortcuts retrieved for the task and the current screen, as one more block of
context, with a seventh action to call one. Everything else is v2's: its perception (OCR of the screenshot
by default; `mas-mobileagent-tree` reads the UI tree, as `mobileagent-v2-tree` does), reflection, planning
and memory, so the calls per step are v2's and a comparison with v2 measures the shortcuts alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .mobileagent_v2 import MobileAgentV2, Perception
from .prompting import render, shortcut_lines
from .retrieval import OffersShortcuts

if TYPE_CHECKING:
    from masbench.device import Observation


class MasMobileAgent(OffersShortcuts, MobileAgentV2):
    name = "mas-mobileagent"
    description = (
        "MAS-MobileAgent: Mobile-Agent-v2 (OCR perception) + the KB shortcuts retrieved for the task and "
        "screen, offered as an action (needs the ocr extra)."
    )
    uses_shortcuts = True

    def shortcut_block(self, observation: Observation) -> str:
        return (
            render("mobileagent_mas_shortcuts", shortcuts=shortcut_lines(self.offered(observation))) + "\n\n"
        )

    def extra_actions(self) -> str:
        return render("mobileagent_mas_action") + "\n"


class MasMobileAgentTree(MasMobileAgent):
    name = "mas-mobileagent-tree"
    description = "MAS-MobileAgent perceiving from the UI tree instead of OCR, like mobileagent-v2-tree."
    perception: Perception = "tree"
