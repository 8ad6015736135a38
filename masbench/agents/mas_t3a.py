"""`mas-t3a`: T3A plus shortcuts (the paper's MAS-T3A). Each step the retriever picks the KB shortcuts
that fit the task and the current screen, and the action prompt carries them as one more block of
context with the call format; nothing else of T3A changes (no advice on when to prefer them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .androidworld import GRAMMAR
from .prompting import render, shortcut_lines
from .retrieval import OffersShortcuts
from .t3a import T3AAgent

if TYPE_CHECKING:
    from masbench.device import Observation

SHORTCUT_GRAMMAR = GRAMMAR.with_actions("shortcut")


class MasT3AAgent(OffersShortcuts, T3AAgent):
    name = "mas-t3a"
    description = "MAS-T3A: T3A + the KB shortcuts retrieved for the task and screen, offered as actions."
    uses_shortcuts = True
    grammar = SHORTCUT_GRAMMAR

    def shortcut_block(self, observation: Observation) -> str:
        return render("mas_shortcuts", shortcuts=shortcut_lines(self.offered(observation)))
