"""`oracle` and `oracle-gui`: replay a task's reference solution (hybrid, or GUI-only for the paper's
"Human" row). They prove every task solvable through the same loop the model agents use."""

from __future__ import annotations

from masbench.actions import FinishAction

from .base import Agent, AgentStep


class OracleAgent(Agent):
    name = "oracle"
    description = "Replays each task's hybrid reference solution (GUI steps + predefined shortcuts)."
    uses_shortcuts = True
    sees_solutions = True
    solution = "hybrid"

    def reset(self, task, kb, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)
        self._plan = list(getattr(task.solutions, self.solution))

    def step(self, observation, history) -> AgentStep:
        done = len(history)
        if done >= len(self._plan):
            return AgentStep(FinishAction(status="success"))
        return AgentStep(self._plan[done])


class OracleGuiAgent(OracleAgent):
    name = "oracle-gui"
    description = "Replays each task's GUI-only reference solution: the human baseline (MSR exactly 1)."
    uses_shortcuts = False
    solution = "gui"
