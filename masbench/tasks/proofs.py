"""What a shortcut-only agent could try on a task, for the proof that every task needs GUI work
(docs/tasks.md, "No task is finished by shortcuts alone").

`shortcut_steps` is the hybrid solution with its GUI steps removed. `candidate_calls` lists single calls of
the task's relevant shortcuts (every KB entry of its apps) with the task's own values: for each parameter,
the values the hybrid solution passes to a parameter of that name; else the texts the GUI solution taps or
types on an element named after the parameter (`variant_size` for `size`); else every enum value; else
`True` for a flag; else, for required text, the strings the GUI solution types. Required text also gets
the ids the check names (an ASIN, a Yelp business id): an agent may read the answer off a screen and pass
it to a shortcut without a GUI step. A required parameter with none of these leaves the shortcut out; an
optional one is omitted.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from masbench.actions import Action, ShortcutAction, is_gui

from .checks import leaves
from .schema import Task

if TYPE_CHECKING:
    from masbench.shortcuts import KnowledgeBase
    from masbench.shortcuts.parameters import Parameter
    from masbench.shortcuts.schema import Shortcut

ID_FIELDS = {"id", "asin", "biz_id", "hotel_id", "place_id", "event_id", "number"}
MAX_CALLS_PER_SHORTCUT = 64  # the shipped tasks need at most 49; bounds a test's time


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


def check_ids(task: Task) -> list[Any]:
    """The ids the check names (`asin`, `biz_id`, `hotel_id`, ...): what an agent that has read the answer
    off a screen would pass to a shortcut that takes an id or a name."""
    conditions: list[tuple[str, dict[str, Any]]] = []
    for leaf in leaves(task.check):
        if leaf.items is not None:
            conditions += list(leaf.items.where.items())
        if leaf.value is not None:
            conditions.append((leaf.value.path.split(".")[-1], leaf.value.ops))
        if leaf.foreground is not None:
            conditions += list(leaf.foreground.args.items())
    ids: list[Any] = []
    for key, cond in conditions:
        if key in ID_FIELDS:
            for value in [cond["eq"]] if "eq" in cond else cond.get("in", []):
                if value not in ids:
                    ids.append(value)
    return ids


def parameter_values(task: Task, param: Parameter) -> list[Any]:
    """The task's own values for one parameter, in the order of the module docstring; required text also
    gets the ids the check names."""
    ids = _fit(param, check_ids(task)) if param.type == "string" and param.required else []
    for source in (
        _hybrid_values(task).get(param.name, []),
        _gui_texts(task, param.name),
        param.enum or [],
        [True] if param.type == "boolean" else [],
        _gui_texts(task, None) if param.type == "string" and param.required else [],
    ):
        fitting = _fit(param, source)
        if fitting:
            return fitting + [v for v in ids if v not in fitting]
    return ids


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


__all__ = [
    "ID_FIELDS",
    "MAX_CALLS_PER_SHORTCUT",
    "candidate_calls",
    "check_ids",
    "parameter_values",
    "shortcut_steps",
]
