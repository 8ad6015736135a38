"""What a shortcut-only agent could try on a task, for the proof that every task needs GUI work
(docs/tasks.md, "No task is finished by shortcuts alone").

`shortcut_steps` is the hybrid solution with its GUI steps removed. `candidate_calls` lists single calls of
the task's relevant shortcuts (every KB entry of its apps) with the task's own values: for each parameter,
the values the hybrid solution passes to a parameter of that name; else the texts the GUI solution taps or
types on an element named after the parameter (`variant_size` for `size`); else every enum value; else
`True` for a flag; else, for required text, the strings the GUI solution types. A required parameter
with none of these leaves the shortcut out; an optional one is omitted.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from masbench.actions import Action, ShortcutAction, is_gui

from .schema import Task

if TYPE_CHECKING:
    from masbench.shortcuts import KnowledgeBase
    from masbench.shortcuts.parameters import Parameter
    from masbench.shortcuts.schema import Shortcut

MAX_CALLS_PER_SHORTCUT = 64  # enough for every combination in the shipped tasks; bounds a test's time


def shortcut_steps(task: Task) -> list[Action]:
    """The hybrid solution without its GUI steps: what remains must not finish the task."""
    return [step for step in task.solutions.hybrid if not is_gui(step)]


def _hybrid_values(task: Task) -> dict[str, list[Any]]:
    values: dict[str, list[Any]] = {}
    for step in task.solutions.hybrid:
        if isinstance(step, ShortcutAction):
            for name, value in step.arguments.items():
                values.setdefault(name, [])
                if value not in values[name]:
                    values[name].append(value)
    return values


def _gui_texts(task: Task, field: str | None) -> list[str]:
    """Texts the GUI solution types, and (for a `field`) taps, on elements whose id names that field."""
    texts: list[str] = []
    for step in task.solutions.gui:
        target = getattr(step, "target", None)
        rid = (target.resource_id or "") if target is not None else ""
        if field is None:
            text = getattr(step, "text", None) if step.action == "type" else None
        elif field in rid:
            text = getattr(step, "text", None) or (target.text if target is not None else None)
        else:
            text = None
        if text is not None and text not in texts:
            texts.append(text)
    return texts


def _fit(param: Parameter, values: list[Any]) -> list[Any]:
    """The values that the parameter accepts, numeric strings read as numbers."""
    fitting: list[Any] = []
    for value in values:
        for candidate in (value, *_as_numbers(value)):
            try:
                checked = param.check(candidate)
            except ValueError:
                continue
            if checked not in fitting:
                fitting.append(checked)
            break
    return fitting


def _as_numbers(value: Any) -> list[Any]:
    if not isinstance(value, str):
        return []
    try:
        return [int(value)]
    except ValueError:
        try:
            return [float(value)]
        except ValueError:
            return []


def parameter_values(task: Task, param: Parameter) -> list[Any]:
    """The task's own values for one parameter, in the order of the module docstring."""
    for source in (
        _hybrid_values(task).get(param.name, []),
        _gui_texts(task, param.name),
        param.enum or [],
        [True] if param.type == "boolean" else [],
        _gui_texts(task, None) if param.type == "string" and param.required else [],
    ):
        fitting = _fit(param, source)
        if fitting:
            return fitting
    return []


def _calls(task: Task, shortcut: Shortcut) -> list[ShortcutAction]:
    choices: list[list[tuple[str, Any]]] = []
    for param in shortcut.parameters:
        values = parameter_values(task, param)
        if not values and param.required:
            return []
        if values:
            choices.append([(param.name, v) for v in values])
    combos = itertools.islice(itertools.product(*choices), MAX_CALLS_PER_SHORTCUT)
    return [ShortcutAction(name=shortcut.qualified_name, arguments=dict(combo)) for combo in combos]


def candidate_calls(task: Task, kb: KnowledgeBase) -> list[ShortcutAction]:
    """Every single call of the task's apps' shortcuts with the task's own values."""
    return [call for shortcut in kb if shortcut.app in task.apps for call in _calls(task, shortcut)]


__all__ = ["MAX_CALLS_PER_SHORTCUT", "candidate_calls", "parameter_values", "shortcut_steps"]
