"""`oracle` and `oracle-gui`: replay a task's reference solution (hybrid, or GUI-only for the paper's
"Human" row). They prove every task solvable through the same loop the model agents use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from masbench.actions import FinishAction
from masbench.tasks import Task

from .base import Agent, AgentStep

if TYPE_CHECKING:
    from masbench.device import Observation
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import TaskView
    from masbench.trajectory import StepRecord


class OracleAgent(Agent):
    name = "oracle"
    description = "Replays each task's hybrid reference solution (GUI steps + predefined shortcuts)."
    uses_shortcuts = True
    sees_solutions = True
    solution = "hybrid"

    def reset(self, task: TaskView | Task, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        if not isinstance(task, Task):  # the episode hands the whole task to an agent that `sees_solutions`
            raise TypeError(f"{self.name} replays the task's solutions: it needs the whole task")
        super().reset(task, kb, seed=seed)
        self._plan = list(getattr(task.solutions, self.solution))

    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        done = len(history)
        if done >= len(self._plan):
            return AgentStep(FinishAction(status="success"))
        return AgentStep(self._plan[done])


class OracleGuiAgent(OracleAgent):
    name = "oracle-gui"
    description = "Replays each task's GUI-only reference solution: the human baseline (MSR exactly 1)."
    uses_shortcuts = False
    solution = "gui"
