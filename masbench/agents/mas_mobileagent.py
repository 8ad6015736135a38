"""`mas-mobileagent`: the paper's MAS-MobileAgent (§4, appendix B.1) - MobileAgent-v2 whose decision agent is
also offered the KB shortcuts that fit the task and the current screen, as callable actions with their
signatures, and told when a shortcut beats GUI steps. Planning and reflection are v2's unchanged, so the
calls per step are v2's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .mobileagent_v2 import MobileAgentV2
from .prompting import render, shortcut_lines
from .retrieval import OffersShortcuts

if TYPE_CHECKING:
    from masbench.device import Observation


class MasMobileAgent(OffersShortcuts, MobileAgentV2):
    name = "mas-mobileagent"
    description = (
        "MAS-MobileAgent: MobileAgent-v2 + shortcuts retrieved from the KB for the task and screen, "
        "offered as callable actions."
    )
    uses_shortcuts = True
    system_template = "mobileagent_mas_system"

    def shortcut_text(self, observation: Observation) -> str:
        return render("mobileagent_mas_shortcuts", shortcuts=shortcut_lines(self.offered(observation)))
