"""The shipped tasks, loaded once per test module that proves something about all of them."""

from __future__ import annotations

from masbench.tasks import Task, TaskError, default_tasks_dir, load_tasks


def shipped_tasks() -> list[Task]:
    """Every task in tasks/, or none when a file does not load (test_task_suite reports that with the
    loader's message instead of breaking collection)."""
    try:
        return list(load_tasks(default_tasks_dir()))
    except TaskError:
        return []
