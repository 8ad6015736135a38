"""Every shipped task in tasks/ is proven on a virtual phone: both reference solutions pass its check,
the initial state, doing nothing and every near miss fail, and the static rules hold (docs/formats.md).

Parametrized over the real task directory; with no tasks yet it collects nothing. A task file that
does not load fails `test_task_files_load` with the loader's message instead of breaking collection.
"""

from __future__ import annotations

import pytest

from masbench.tasks import TaskError, default_tasks_dir, load_tasks, verify_task


def _shipped():
    try:
        return list(load_tasks(default_tasks_dir())), None
    except TaskError as exc:
        return [], exc


SHIPPED, LOAD_ERROR = _shipped()


def test_task_files_load():
    assert LOAD_ERROR is None, str(LOAD_ERROR)


@pytest.fixture(scope="module")
def kb():
    from masbench.shortcuts import load_kb

    return load_kb()


@pytest.mark.parametrize("task", SHIPPED, ids=lambda t: t.id)
def test_task_verifies(device, kb, task):
    report = verify_task(device, task, kb)
    assert report.passed, "\n".join(report.failures)
