"""Counts and step means of a task set (MAS-Bench's targets: 92 single + 47 cross, levels about
27/48/25%, mean optimal steps about 6/13/18 by level), as data; the CLI renders it."""

from __future__ import annotations

from statistics import mean

from pydantic import BaseModel

from masbench.catalog import APPS

from .schema import Task


class GroupStats(BaseModel):
    tasks: int
    share: float  # of all tasks
    mean_optimal_steps: float | None
    mean_hybrid_steps: float | None


class AppStats(BaseModel):
    single_app: int
    cross_app: int
    by_level: dict[int, int]


class TaskStats(BaseModel):
    total: int
    by_kind: dict[str, GroupStats]
    by_level: dict[int, GroupStats]
    by_app: dict[str, AppStats]  # apps with at least one task; a cross-app task counts for each app


def _group(tasks: list[Task], total: int) -> GroupStats:
    return GroupStats(
        tasks=len(tasks),
        share=len(tasks) / total if total else 0.0,
        mean_optimal_steps=mean(t.optimal_steps for t in tasks) if tasks else None,
        mean_hybrid_steps=mean(len(t.solutions.hybrid) for t in tasks) if tasks else None,
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
        by_kind={k: _group([t for t in tasks if t.kind == k], total) for k in ("single-app", "cross-app")},
        by_level={lv: _group([t for t in tasks if t.level == lv], total) for lv in (1, 2, 3)},
        by_app=by_app,
    )


__all__ = ["AppStats", "GroupStats", "TaskStats", "task_stats"]
