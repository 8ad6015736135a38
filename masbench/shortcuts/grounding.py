"""Grounding with a model: the `Ground` a dynamic shortcut needs, built from any `LLM`.

A dynamic shortcut describes its targets in words ("the search box"); at call time each description is
sent with the screen's element list (one line per element, `UIElement.describe`) and the model answers
with the number of the element it means, or `none`. The paper grounds the same way, with the agent's model
(Appendix C.1); `needs_grounding` lets the CLIs refuse a run before it starts when no model is given.
"""

from __future__ import annotations

import re
from pathlib import Path

from masbench.device import UIElement
from masbench.llm import LLM, Message, Usage, make_llm

from .schema import KnowledgeBase

SYSTEM = (
    "You find elements on a phone screen. Given a description and the screen's elements, answer with the "
    "number in brackets of the element the description means, or `none` if no element fits. Answer with "
    "the number only."
)
_NUMBER = re.compile(r"-?\d+")


def prompt(description: str, elements: list[UIElement]) -> list[Message]:
    listing = "\n".join(e.describe() for e in elements) or "(the screen lists no elements)"
    return [
        Message.system(SYSTEM),
        Message.user(f"Description: {description}\n\nElements:\n{listing}\n\nElement number:"),
    ]


class ModelGround:
    """A `Ground` that asks `llm`; an answer naming no listed element grounds nothing (the step fails with
    the reason), and a model error propagates to the executor, which fails the call, not the episode.
    It meters its calls (`take_usage`), so the executor puts them in the call's record and the episode
    counts them in its tokens and model calls as the agent's own."""

    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self._usage = Usage()

    def __call__(self, description: str, elements: list[UIElement]) -> UIElement | None:
        response = self.llm.generate(prompt(description, elements), temperature=0.0)
        self._usage.add(response)
        found = _NUMBER.search(response.text)
        if found is None:
            return None
        number = int(found.group(0))
        return next((e for e in elements if e.index == number), None)

    def take_usage(self) -> Usage:
        """The calls made since the last take, and start counting afresh."""
        taken, self._usage = self._usage, Usage()
        return taken


def model_ground(llm: LLM) -> ModelGround:
    """The `Ground` that asks `llm` (`ModelGround`)."""
    return ModelGround(llm)


def make_ground(spec: str, *, record_to: Path | None = None) -> ModelGround:
    """The `Ground` a `--grounding-model` value names (same forms as `--model`), recorded like the agent's calls.
    LLMConfigError for a bad value, so CLIs fail before the run."""
    return model_ground(make_llm(spec, record_to=record_to))


def needs_grounding(kb: KnowledgeBase | None) -> list[str]:
    """The qualified names of the KB's dynamic shortcuts: a run that may call them needs a grounding model."""
    return [s.qualified_name for s in kb or () if s.type == "dynamic"]


def check_grounding(kb: KnowledgeBase | None, model: str | None, where: str) -> None:
    """ValueError saying what to pass when `kb` (named `where`) has dynamic shortcuts and no model grounds them."""
    names = needs_grounding(kb)
    if names and not model:
        shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
        raise ValueError(
            f"{where} has {len(names)} dynamic shortcuts ({shown}) whose targets a model finds on the screen "
            "at call time: pass --grounding-model MODEL (default: the agent's --model)"
        )
