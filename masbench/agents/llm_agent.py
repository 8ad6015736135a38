"""The base of model-driven agents: owns the model, accounts every call, and turns failures into steps.

`LLMAgent` builds its model from a `--model` value (`make_llm`, optionally recording to a cassette) so a
bad spec or a missing key fails when the agent is made, before any episode. During an episode a failed
call - an outage that outlasted the retries, a cassette miss, the episode's deadline passing - becomes the
step's `fault` (the episode ends as an error or at its time limit, never as the agent's mistake), never an
exception that ends the run. Each step reports the prompt it sent, the reply and the
summed usage of its calls, so `results.jsonl` token counts equal what the backend reported.

Agents call `ask` once per model call of a step, all accounted in one `Turn`: AndroidWorld's agents make
two (`androidworld.py`), MobileAgent's roles several.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from masbench.llm import LLM, LLMError, Message, Usage, make_llm

from .base import Agent, AgentStep
from .history import StepNote

if TYPE_CHECKING:
    from masbench.actions import Action
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import Task, TaskView

# The paper ran every framework on Gemini-2.5-Pro; the default reproduces that setting.
DEFAULT_MODEL = "gemini-2.5-pro"
CALL_SEPARATOR = "\n\n=====\n\n"  # between the prompts (and replies) of a step that made several calls


def transcript(messages: list[Message]) -> str:
    """Messages as the text a person reads in the trajectory: role headers, images as placeholders."""
    blocks = []
    for m in messages:
        parts = [
            p.text if p.image is None else f"<image {p.mime_type} {len(p.image)} bytes>" for p in m.parts
        ]
        blocks.append(f"[{m.role}]\n" + "\n".join(p for p in parts if p is not None))
    return "\n\n".join(blocks)


@dataclass
class Turn:
    """The model calls of one step: usage summed, prompts and replies kept in order."""

    usage: Usage = field(default_factory=Usage)
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)

    def result(self, action: Action | None, error: str | None = None, *, rescued: bool = False) -> AgentStep:
        """The step: the action (or the error that replaced it) with every call's prompt and reply;
        `rescued` when only a lenient parser could read the action."""
        return AgentStep(
            action=action,
            model_input=CALL_SEPARATOR.join(self.inputs) if self.inputs else None,
            model_output=CALL_SEPARATOR.join(self.outputs) if self.outputs else None,
            error=error if action is None else None,
            usage=self.usage,
            rescued=rescued and action is not None,
        )

    def fault(self, exc: LLMError) -> AgentStep:
        """The step when a model call failed: no decision, the prompts sent so far and what they cost."""
        step = self.result(None)
        step.fault = exc
        return step


class LLMAgent(Agent):
    """An agent that asks a model. Subclasses set `default_model` to change the default."""

    default_model: str = DEFAULT_MODEL
    temperature: float = 0.0
    max_output_tokens: int | None = None

    def __init__(self, model: str | None = None, *, llm: LLM | None = None, record_to: Path | None = None):
        self.model = model or self.default_model
        self.llm = (
            llm
            if llm is not None
            else make_llm(self.model, default_model=self.default_model, record_to=record_to)
        )
        self.notes: dict[int, StepNote] = {}

    def reset(self, task: TaskView | Task, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)
        self.notes = {}

    def ask(self, messages: list[Message], turn: Turn) -> str:
        """One model call, accounted in `turn`; `LLMError` propagates for the caller to record."""
        turn.inputs.append(transcript(messages))
        response = self.llm.generate(
            messages, temperature=self.temperature, max_output_tokens=self.max_output_tokens
        )
        turn.usage.add(response)
        turn.outputs.append(response.text)
        return response.text
