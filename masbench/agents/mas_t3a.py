"""`mas-t3a`: T3A plus shortcuts (the paper's MAS-T3A). Each step the retriever picks the KB shortcuts
that fit the task and the current screen; they are offered with their signatures as callable actions
beside the GUI actions, and the prompt says when a shortcut beats GUI steps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .prompting import shortcut_lines
from .retrieval import ShortcutRetriever
from .t3a import T3AAgent

if TYPE_CHECKING:
    from masbench.device import Observation
    from masbench.eval.records import StepRecord
    from masbench.shortcuts import KnowledgeBase, Shortcut
    from masbench.tasks import Task

SHORTCUTS_OFFERED = 8


class MasT3AAgent(T3AAgent):
    name = "mas-t3a"
    description = (
        "MAS-T3A: T3A + shortcuts retrieved from the KB for the task and screen, offered as callable actions."
    )
    uses_shortcuts = True
    system_template = "mas_t3a_system"
    step_template = "mas_t3a_step"

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

    def step_text(self, observation: Observation, history: list[StepRecord], **extra: object) -> str:
        return super().step_text(
            observation, history, shortcuts=shortcut_lines(self.offered(observation)), **extra
        )
