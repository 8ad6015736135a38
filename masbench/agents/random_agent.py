"""`random`: uniform random GUI actions until the step budget runs out — the floor every agent beats."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from masbench.actions import BackAction, ScrollAction, TapAction, TypeAction

from .base import Agent, AgentStep

if TYPE_CHECKING:
    from masbench.device import Observation
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import Task, TaskView
    from masbench.trajectory import StepRecord

WORDS = ("shoes", "hotel", "pizza", "coffee", "paris", "watch", "park", "music")


class RandomAgent(Agent):
    name = "random"
    description = (
        "Uniformly random GUI actions (tap, type, scroll, back) within the step budget; never finishes."
    )

    def reset(self, task: TaskView | Task, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)
        self._rng = random.Random(f"{task.id}:{seed}")

    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        rng = self._rng
        clickable = [el.index for el in observation.elements if el.clickable and el.enabled]
        editable = [el.index for el in observation.elements if el.cls.endswith("EditText")]
        choice = rng.random()
        if editable and choice < 0.15:
            return AgentStep(TypeAction(index=rng.choice(editable), text=rng.choice(WORDS)))
        if choice < 0.25:
            return AgentStep(ScrollAction(direction=rng.choice(["up", "down"])))
        if choice < 0.32 or not clickable:
            return AgentStep(BackAction())
        return AgentStep(TapAction(index=rng.choice(clickable)))
