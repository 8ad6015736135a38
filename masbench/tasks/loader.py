"""Load the task files (`tasks/single_app/*.yaml`, `tasks/cross_app/*.yaml`) into a `TaskSet`.

Every problem in every file is collected into one `TaskError` whose lines read like
`tasks/single_app/amazon.yaml: task amazon-07: field "level": must be 1, 2 or 3`.
The directory is `path`, else `$MASBENCH_TASKS_DIR`, else the checkout's `tasks/` next to the package.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from masbench.actions import Action
from masbench.data import data_dir, load_yaml

from .schema import Task, ungrounded_reason
from .taskset import TaskError, TaskSet

ENV_VAR = "MASBENCH_TASKS_DIR"
KIND_DIRS = {"single_app": "single-app", "cross_app": "cross-app"}
ACTION: TypeAdapter[Action] = TypeAdapter(Action)


def default_tasks_dir() -> Path:
    """`$MASBENCH_TASKS_DIR`, else the checkout's `tasks/`, else the installed copy (masbench.data)."""
    return data_dir("tasks", ENV_VAR)


def load_tasks(path: str | Path | None = None) -> TaskSet:
    """All tasks under the directory; an existing but empty directory gives an empty set."""
    root = Path(path) if path is not None else default_tasks_dir()
    if not root.is_dir():
        hint = f" (from ${ENV_VAR})" if path is None and os.environ.get(ENV_VAR) else ""
        raise TaskError([f"tasks directory {root}{hint} does not exist; pass --tasks-dir or set ${ENV_VAR}"])
    errors: list[str] = []
    tasks: list[Task] = []
    where: dict[str, str] = {}
    for sub, kind in KIND_DIRS.items():
        for file in sorted((root / sub).glob("*.y*ml")):
            shown = file.relative_to(root.parent).as_posix()
            for task in _load_file(file, shown, kind, errors):
                if task.id in where:
                    errors.append(
                        f'{shown}: task {task.id}: field "id": duplicate id, first defined in {where[task.id]}'
                    )
                    continue
                where[task.id] = shown
                tasks.append(task)
    subsets = _load_subsets(root, errors)
    if errors:
        raise TaskError(errors)
    task_set = TaskSet(tasks, root, subsets)
    errors = task_set.check_subsets()
    if errors:
        raise TaskError(
            [f"{(root / 'subsets.yaml').relative_to(root.parent).as_posix()}: {e}" for e in errors]
        )
    return task_set


def _read_yaml(file: Path, shown: str, errors: list[str]) -> Any:
    try:
        return load_yaml(file.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        errors.append(f"{shown}: {line}not valid YAML: {problem}")
    except (OSError, UnicodeDecodeError) as exc:
        errors.append(f"{shown}: cannot read: {exc}")
    return None


def _load_file(file: Path, shown: str, kind: str, errors: list[str]) -> list[Task]:
    data = _read_yaml(file, shown, errors)
    if data is None:
        return []
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), list):
        errors.append(f"{shown}: expected a mapping with a `tasks:` list")
        return []
    if unknown := sorted(set(data) - {"tasks"}):
        errors.append(f"{shown}: unknown top-level key(s) {', '.join(map(str, unknown))}; only `tasks:`")
    tasks = []
    for i, entry in enumerate(data["tasks"]):
        name = (
            f"task {entry['id']}"
            if isinstance(entry, dict) and isinstance(entry.get("id"), str)
            else f"task #{i + 1}"
        )
        try:
            task = Task.model_validate(entry)
        except ValidationError as exc:
            errors.extend(f"{shown}: {name}: {line}" for line in pydantic_lines(exc))
            continue
        if task.kind != kind:
            want = "exactly one app" if kind == "single-app" else "two or more apps"
            errors.append(f'{shown}: {name}: field "apps": a {kind} task file holds tasks with {want}')
            continue
        tasks.append(task)
    return tasks


def pydantic_lines(exc: ValidationError) -> list[str]:
    """pydantic's errors as `field "a.b.0.c": message` lines."""
    lines = []
    for err in exc.errors():
        loc = ".".join(str(part) for part in err["loc"])
        message = err["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
        if err["type"] == "extra_forbidden":
            message = "unknown field"
        elif err["type"] == "missing":
            message = "required"
        lines.append(f'field "{loc}": {message}' if loc else message)
    return lines


def load_actions(path: Path) -> list[Action]:
    """An action list in the schema of a task's `solutions` (selector targets, no `finish`), for `tasks
    play`; ValueError naming the file, the entry and the field of every problem."""
    errors: list[str] = []
    data = _read_yaml(path, str(path), errors)
    if errors:
        raise ValueError("; ".join(errors))
    if not isinstance(data, list) or not data:
        raise ValueError(f"{path}: expected a non-empty YAML list of actions (as in a task's solutions)")
    problems: list[str] = []
    for i, entry in enumerate(data):
        try:
            action = ACTION.validate_python(entry)
        except ValidationError as exc:
            problems += [f"{path}: entry {i}: {line}" for line in pydantic_lines(exc)]
            continue
        if problem := ungrounded_reason(action):
            problems.append(f"{path}: entry {i}: {problem}")
    if problems:
        raise ValueError("\n".join(problems))
    return [ACTION.validate_python(entry) for entry in data]


def _load_subsets(root: Path, errors: list[str]) -> dict[str, list[str]]:
    """Extra named subsets from `subsets.yaml`: `{subsets: {name: [task ids]}}` (optional)."""
    file = root / "subsets.yaml"
    if not file.exists():
        return {}
    shown = file.relative_to(root.parent).as_posix()
    data = _read_yaml(file, shown, errors)
    subsets = data.get("subsets") if isinstance(data, dict) else None
    if not isinstance(subsets, dict) or not all(
        isinstance(ids, list) and all(isinstance(i, str) for i in ids) for ids in subsets.values()
    ):
        if data is not None:
            errors.append(f"{shown}: expected `subsets:` mapping names to lists of task ids")
        return {}
    return {str(name): list(ids) for name, ids in subsets.items()}


__all__ = ["ENV_VAR", "TaskError", "default_tasks_dir", "load_actions", "load_tasks", "pydantic_lines"]
