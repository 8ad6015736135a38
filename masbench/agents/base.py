"""The agent interface the episode loop drives: reset for a task, then one decision per observation."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from masbench.trajectory import StepRecord, Usage

if TYPE_CHECKING:
    from masbench.actions import Action
    from masbench.device import Observation
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import Task, TaskView


@dataclass
class AgentStep:
    """One decision. `action` is None when the model's output was unusable (`error` says why): the
    episode counts it as a step and executes nothing. `fault` is set instead when no decision could be made
    for a reason outside the agent (the model unreachable or failing, a cassette miss): the episode ends as
    an error, which is never scored and runs again on `--resume`. `usage` keeps what the calls cost either way.
    `rescued` marks an action read only by a lenient parser, where the agent's strict rules refuse the reply."""

    action: Action | None
    model_output: str | None = None
    model_input: str | None = None
    error: str | None = None
    usage: Usage = field(default_factory=Usage)
    fault: Exception | None = None
    rescued: bool = False


@dataclass(frozen=True)
class PastStep:
    """A step an agent is told it took (teacher forcing: `masbench diagnose next-action` hands it a
    reference's earlier steps as its own): the action, the screen it was taken on, and what it did in
    words (an element number means nothing once the screen has changed)."""

    action: Action
    before: Observation
    description: str


class Agent(ABC):
    """Base of every agent. Agents see only a `TaskView` (the instruction and the apps), the observations
    and their own history; the whole task, with its solutions and check, is for `oracle` alone
    (`sees_solutions`)."""

    name: str = ""
    description: str = ""
    uses_shortcuts: bool = False  # offered the KB's shortcuts as actions
    needs_screenshot: bool = False  # perceives the screen as an image (else the UI tree is enough)
    sees_solutions: bool = False  # handed the whole Task instead of its view: the oracle replays solutions
    learns: bool = False  # carries a memory from task to task (Mobile-Agent-E): see `memory`/`remember`

    def reset(self, task: TaskView | Task, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        """Start a new episode; nothing may leak from the previous task."""
        self.task = task
        self.kb = kb if self.uses_shortcuts else None
        self.seed = seed

    def executor_kb(self, kb: KnowledgeBase | None) -> KnowledgeBase | None:
        """The KB whose shortcuts this agent may call: the run's for hybrid agents, none for GUI-only
        ones; MobileAgent-E answers with its own, growing KB."""
        return kb if self.uses_shortcuts else None

    def memory(self) -> dict[str, Any] | None:
        """What a learning agent has learned so far, as JSON data; the runner keeps it in the run
        directory after every task, so learning follows task order whatever the devices, and survives
        `--resume`. None for agents that do not learn."""
        return None

    def remember(self, memory: dict[str, Any] | None) -> None:
        """Continue from `memory` (None: from scratch); called before each task of a learning agent.
        ValueError when the data is not this agent's memory."""
        if memory is not None:
            raise ValueError(f"{self.name} does not learn, so it has no memory to continue from")

    def assume_history(self, past: list[PastStep]) -> None:
        """Take `past` as this episode's steps so far, written in the agent's own history format, so that
        the next `step` decides from them (called right after `reset`). NotImplementedError, saying why,
        for an agent whose history cannot be written for it."""
        raise NotImplementedError(f"{self.name}: not a model agent with a history that can be written for it")

    @abstractmethod
    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        """Decide the next action from the current screen and what happened so far."""
