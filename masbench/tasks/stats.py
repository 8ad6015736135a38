"""Counts and step means of a task set, as data, each group beside MAS-Bench's own figure
(`paper_stats.yaml`: levels about 27/48/25 % with 6.2/12.6/17.6 steps; 92 single-app tasks of 9.27 steps
and 47 cross-app of 17.66); the CLI renders it."""

from __future__ import annotations

from pathlib import Path
from statistics import mean
from typing import Any

import yaml
from pydantic import BaseModel

from masbench.catalog import APPS

from .schema import Task

PAPER = yaml.safe_load(Path(__file__).with_name("paper_stats.yaml").read_text(encoding="utf-8"))


class PaperFigure(BaseModel):
    """What the paper reports for the same group: a share of all tasks (levels) or a count (kinds)."""

    share: float | None = None
    tasks: int | None = None
    steps: float


class GroupStats(BaseModel):
    tasks: int
    share: float  # of all tasks
    mean_optimal_steps: float | None
    mean_hybrid_steps: float | None
    paper: PaperFigure | None = None

    def steps_gap(self) -> float | None:
        """Relative gap of our mean optimal steps to the paper's (+0.1: 10 % more steps)."""
        if self.paper is None or self.mean_optimal_steps is None:
            return None
        return self.mean_optimal_steps / self.paper.steps - 1


class AppStats(BaseModel):
    single_app: int
    cross_app: int
    by_level: dict[int, int]


class TaskStats(BaseModel):
    total: int
    by_kind: dict[str, GroupStats]
    by_level: dict[int, GroupStats]
    by_app: dict[str, AppStats]  # apps with at least one task; a cross-app task counts for each app


def _group(tasks: list[Task], total: int, paper: dict[str, Any] | None) -> GroupStats:
    return GroupStats(
        tasks=len(tasks),
        share=len(tasks) / total if total else 0.0,
        mean_optimal_steps=mean(t.optimal_steps for t in tasks) if tasks else None,
        mean_hybrid_steps=mean(len(t.solutions.hybrid) for t in tasks) if tasks else None,
        paper=PaperFigure(**paper) if paper else None,
    )


def task_stats(tasks: list[Task]) -> TaskStats:
    total = len(tasks)
    by_app = {}
    for app in APPS:
        using = [t for t in tasks if app in t.apps]
        if using:
            by_app[app] = AppStats(
                single_app=sum(t.kind == "single-app" for t in using),
                cross_app=sum(t.kind == "cross-app" for t in using),
                by_level={lv: sum(t.level == lv for t in using) for lv in (1, 2, 3)},
            )
    return TaskStats(
        total=total,
        by_kind={
            k: _group([t for t in tasks if t.kind == k], total, PAPER["kinds"][k])
            for k in ("single-app", "cross-app")
        },
        by_level={
            lv: _group([t for t in tasks if t.level == lv], total, PAPER["levels"][lv]) for lv in (1, 2, 3)
        },
        by_app=by_app,
    )


__all__ = ["PAPER", "AppStats", "GroupStats", "PaperFigure", "TaskStats", "task_stats"]
