"""`mas-mobileagent`: the paper's MAS-MobileAgent (§4, appendix B.1) - MobileAgent-v2 whose decision agent is
also offered the KB shortcuts that fit the task and the current screen, as callable actions with their
signatures, and told when a shortcut beats GUI steps. Planning and reflection are v2's unchanged, so the
calls per step are v2's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .mas_t3a import SHORTCUTS_OFFERED
from .mobileagent_v2 import MobileAgentV2
from .prompting import render, shortcut_lines
from .retrieval import ShortcutRetriever

if TYPE_CHECKING:
    from masbench.device import Observation
    from masbench.shortcuts import KnowledgeBase, Shortcut
    from masbench.tasks import Task


class MasMobileAgent(MobileAgentV2):
    name = "mas-mobileagent"
    description = (
        "MAS-MobileAgent: MobileAgent-v2 + shortcuts retrieved from the KB for the task and screen, "
        "offered as callable actions."
    )
    uses_shortcuts = True
    system_template = "mobileagent_mas_system"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._retriever: ShortcutRetriever | None = None

    def reset(self, task: Task, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)
        if self.kb is None:
            self._retriever = None
        elif self._retriever is None or self._retriever.kb is not self.kb:
            self._retriever = ShortcutRetriever(self.kb)  # built once per KB, reused across tasks

    def offered(self, observation: Observation) -> list[Shortcut]:
        """The shortcuts to show on this screen (none without a KB)."""
        if self._retriever is None:
            return []
        screen = " ".join(f"{el.text} {el.content_desc}" for el in observation.elements)
        return self._retriever.retrieve(
            self.task.instruction, screen, observation.package, k=SHORTCUTS_OFFERED
        )

    def shortcut_text(self, observation: Observation) -> str:
        return render("mobileagent_mas_shortcuts", shortcuts=shortcut_lines(self.offered(observation)))
