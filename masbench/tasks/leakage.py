"""Knowledge-base text that gives a task's answer away, and ids a task passes that no screen shows
(docs/formats.md, "Rules for knowledge-base text").

A task's *protected values* are the argument values of the shortcut calls in its hybrid reference and the
ids and names its check reads. None may appear in a shortcut's description, parameter descriptions or
example unless the task's instruction states it: otherwise an agent offered that shortcut reads the
answer instead of finding it. Strings match case-insensitively as whole words (an instruction's plural
states the singular); a number matches a number written in the text (`$200` holds 200). Only values
specific enough to carry an answer count: strings of three characters or more, fractions, and whole
numbers from 100 ("2 adults", "size 9" or a country code is in every text). Values of an enum parameter
and flags are part of a shortcut's type, shown in every signature, so they are not protected.

`kb_leaks` applies the rule to any KB, the predefined one or a generated one (`kb_dir_leaks`);
`example_clashes` applies the stricter rule for examples, which use values no task uses at all.
`hidden_ids` and `screen_texts` serve the findability proof: an id a hybrid reference passes is either
made of the instruction's words or written on a screen the agent can reach.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from masbench.actions import Action, ShortcutAction
from masbench.actions.schema import parse_call
from masbench.shortcuts import KnowledgeBase, Shortcut, load_kb

from .checks import leaves
from .player import play
from .proofs import ID_FIELDS
from .schema import Task

if TYPE_CHECKING:
    from masbench.device import Device

Value = str | int | float
SPECIFIC_NUMBER = 100  # integers below this are counts, sizes, ratings: every text has them
# Check fields that identify or name a thing (beside ID_FIELDS and any `*_id`); a status, a mode or a
# sort order is the app's vocabulary, not an answer.
NAME_FIELDS = frozenset({
    "name", "first_name", "last_name", "first", "last", "summary", "title", "subject", "body", "text",
    "description", "message", "labels", "list", "folder", "wishlists", "followed_topics", "challenges_joined",
    "route", "location", "city", "query", "category", "room", "colour", "url", "homepage", "email", "emails",
    "to", "cc", "guests", "phone_numbers", "attachments", "in_reply_to", "forward_of",
})  # fmt: skip
ID_PARAMETER = re.compile(r"(^|_)(id|asin|handle|slug|url|host|number)$")
_ID_SHAPE = re.compile(r"\d|[a-z0-9][-_./@][a-z0-9]", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?")
_WORD = re.compile(r"[a-z0-9]+")
_CHECK_OPS = ("eq", "in", "contains", "icontains")


@dataclass(frozen=True)
class Leak:
    """`value`, protected for task `task`, appears in `field` of `shortcut`."""

    task: str
    shortcut: str
    field: str
    value: Value

    def __str__(self) -> str:
        return (
            f"{self.shortcut}: field {self.field!r} contains {self.value!r}, a value of task {self.task} "
            "that its instruction does not state"
        )


def _number(value: Any) -> float | None:
    """The value as a number when it is one, or a string that is one ("64489426", "10")."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and re.fullmatch(r"\d+(?:\.\d+)?", value.strip()):
        return float(value)
    return None


def _specific(value: Value) -> bool:
    """Could this value be an answer, or is it in every text (a size letter, a two-letter code, a small
    whole number)?"""
    number = _number(value)
    if number is None:
        return len(str(value).strip()) > 2
    return number != int(number) or number >= SPECIFIC_NUMBER


def mentions(text: str, value: Value, plural: bool = False) -> bool:
    """Does `text` contain `value`: a number as a number, a string as whole words, ignoring case (and,
    with `plural`, also followed by -s or -es: "museums" mentions Museum)?"""
    number = _number(value)
    if number is not None:
        return any(float(found) == number for found in _NUMBER.findall(text))
    ending = "(?:e?s)?" if plural else ""
    pattern = rf"(?<![a-z0-9]){re.escape(str(value).strip().lower())}{ending}(?![a-z0-9])"
    return re.search(pattern, text.lower()) is not None


def states(instruction: str, value: Value) -> bool:
    """Does the instruction state the value (a plural form counts)?"""
    return mentions(instruction, value, plural=True)


def _parts(value: Any) -> list[Value]:
    """The specific values in a scalar: itself and, for a comma-separated list (addresses), each item."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return []
    parts: list[Value] = [value]
    if isinstance(value, str) and "," in value:
        parts += [p.strip() for p in value.split(",") if p.strip()]
    return [p for p in dict.fromkeys(parts) if _specific(p)]


def _calls(task: Task, kb: KnowledgeBase) -> Iterator[tuple[Shortcut | None, str, Any]]:
    """(shortcut or None if not in the KB, parameter, value) of every argument of the hybrid's calls."""
    for step in task.solutions.hybrid:
        if isinstance(step, ShortcutAction):
            for name, value in step.arguments.items():
                yield kb.get(step.name), name, value


def _typed(shortcut: Shortcut | None, name: str) -> bool:
    """Is the argument an enum value (a part of the shortcut's type, shown in its signature)?"""
    param = shortcut.parameter(name) if shortcut is not None else None
    return param is not None and bool(param.enum)


def call_values(task: Task, kb: KnowledgeBase) -> list[Value]:
    """The argument values of the hybrid reference's shortcut calls, enum values and flags left out."""
    values = [part for s, name, value in _calls(task, kb) if not _typed(s, name) for part in _parts(value)]
    return list(dict.fromkeys(values))


def _scalars(data: Any, key: str | None = None) -> Iterator[tuple[str | None, Any]]:
    """(innermost dict key, scalar) for every scalar in nested data."""
    if isinstance(data, dict):
        for k, value in data.items():
            yield from _scalars(value, str(k))
    elif isinstance(data, list):
        for value in data:
            yield from _scalars(value, key)
    else:
        yield key, data


def _names_a_thing(field: str) -> bool:
    return field in ID_FIELDS or field in NAME_FIELDS or field.endswith("_id")


def check_values(task: Task) -> list[Value]:
    """The ids and names the check reads: `where`, value and screen-arg conditions on fields that
    identify or name a thing. Inside a nested value (a contact's emails) only id-shaped strings count."""
    conditions: list[tuple[str, dict[str, Any]]] = []
    for leaf in leaves(task.check):
        if leaf.items is not None:
            conditions += leaf.items.where.items()
        if leaf.value is not None:
            conditions.append((leaf.value.path.split(".")[-1], leaf.value.ops))
        if leaf.foreground is not None:
            conditions += leaf.foreground.args.items()
    values: list[Value] = []
    for field, cond in conditions:
        if not _names_a_thing(field):
            continue
        for op in _CHECK_OPS:
            for key, scalar in _scalars(cond.get(op)):
                if key is None or (isinstance(scalar, str) and _ID_SHAPE.search(scalar)):
                    values += _parts(scalar)
    return list(dict.fromkeys(values))


def protected_values(task: Task, kb: KnowledgeBase) -> list[Value]:
    """What no KB text may contain: the call and check values the instruction does not state."""
    values = dict.fromkeys([*call_values(task, kb), *check_values(task)])
    return [v for v in values if not states(task.instruction, v)]


def kb_texts(shortcut: Shortcut) -> Iterator[tuple[str, str]]:
    """(field, text) of everything a KB tells about a shortcut beside its name and types."""
    yield "description", shortcut.description
    for param in shortcut.parameters:
        if param.description:
            yield f"parameters.{param.name}.description", param.description
    if shortcut.example:
        yield "example", shortcut.example


def kb_leaks(kb: KnowledgeBase, tasks: Iterable[Task], calls: KnowledgeBase | None = None) -> list[Leak]:
    """Every protected value of every task that some text of `kb` contains. `calls` is the KB that
    defines the shortcuts the hybrid references call (their enum parameters), `kb` itself by default."""
    texts = [(s.qualified_name, field, text) for s in kb for field, text in kb_texts(s)]
    return [
        Leak(task.id, name, field, value)
        for task in tasks
        for value in protected_values(task, kb if calls is None else calls)
        for name, field, text in texts
        if mentions(text, value)
    ]


def kb_dir_leaks(path: Path | str, tasks: Iterable[Task]) -> list[Leak]:
    """`kb_leaks` of a KB directory or file, e.g. one `masbench shortcuts generate` wrote, for tasks whose
    hybrid references call the predefined KB."""
    return kb_leaks(load_kb(path), tasks, calls=load_kb())


def _key(value: Value) -> str | float:
    number = _number(value)
    return number if number is not None else str(value).strip().lower()


def task_values(task: Task) -> set[str | float]:
    """The values a task uses (lower case, numbers as numbers): everything its solutions and check hold,
    and the ids its initial-state setup seeds (`id`, `asin`, `*_id`...). The rest of a setup is the app's
    own world (its labels, lists, hosts and names), which an example may need in order to work."""
    solved = task.model_dump(mode="json", include={"solutions", "check"})
    values = [part for _, scalar in _scalars(solved) for part in _parts(scalar)]
    values += [
        part
        for key, scalar in _scalars(task.initial_state.setup)
        if key is not None and (key in ID_FIELDS or key.endswith("_id"))
        for part in _parts(scalar)
    ]
    return {_key(v) for v in values}


def example_clashes(kb: KnowledgeBase, tasks: Iterable[Task]) -> list[tuple[str, Value, str]]:
    """(shortcut, value, task id) for each example argument that a task uses (`task_values`) or that its
    instruction states; enum values and flags are the parameter's type, so they may be shared."""
    used = [(task.id, task.instruction, task_values(task)) for task in tasks]
    clashes = []
    for shortcut in kb:
        _, arguments = parse_call(shortcut.example) if shortcut.example else ("", {})
        for name, value in arguments.items():
            if _typed(shortcut, name):
                continue
            clashes += [
                (shortcut.qualified_name, part, task_id)
                for part in _parts(value)
                for task_id, instruction, values in used
                if _key(part) in values or states(instruction, part)
            ]
    return clashes


def _stated_as_id(instruction: str, value: str) -> bool:
    """Does the instruction state the id, as written or as a slug or handle made of its words in a format
    a shortcut documents (`hanok-tofu-house-seattle` for "Hanok Tofu House in Seattle", `paperplanecomedy`)?"""
    if states(instruction, value):
        return True
    if not re.fullmatch(r"[a-z]+(?:[-_][a-z]+)*", value):
        return False
    words = _WORD.findall(instruction.lower())
    wanted = _WORD.findall(value)
    return "".join(wanted) in "".join(words) or set(wanted) <= set(words)


def hidden_ids(task: Task, kb: KnowledgeBase) -> list[str]:
    """The ids the hybrid reference passes that the agent must read on a screen: string arguments without
    spaces that name a thing, by the parameter's name (`video_id`, `asin`, `handle`, `url`, ...) or by
    their shape (a digit, or one of `-_./@` inside: an address, a link), and that are not made of the
    instruction's words. Dates and numbers are written from what the instruction says."""
    found: list[str] = []
    for shortcut, name, value in _calls(task, kb):
        param = shortcut.parameter(name) if shortcut is not None else None
        if param is None or param.type != "string" or param.enum or not isinstance(value, str):
            continue
        for part in [p.strip() for p in value.split(",")] if "," in value else [value]:
            named = ID_PARAMETER.search(name) or _ID_SHAPE.search(part)
            if part and named and not re.search(r"\s", part) and not _stated_as_id(task.instruction, part):
                found.append(part)
    return list(dict.fromkeys(found))


def screen_texts(device: Device, task: Task, steps: list[Action] | None = None) -> list[str]:
    """The texts and content descriptions on each screen an action list shows after each step (default
    the GUI reference), from the task's initial state."""
    screens: list[str] = []

    def look(_index: int, _action: Action, _error: str | None) -> None:
        elements = device.elements()
        screens.append("\n".join(f"{el.text}\n{el.content_desc}" for el in elements))

    play(device, task, "gui" if steps is None else steps, on_step=look)
    return screens


def findable(value: str, screens: Iterable[str]) -> bool:
    """Is the value written on one of the screens (case ignored; inside a link counts)?"""
    return any(value.lower() in screen.lower() for screen in screens)


__all__ = [
    "Leak",
    "call_values",
    "check_values",
    "example_clashes",
    "findable",
    "hidden_ids",
    "kb_dir_leaks",
    "kb_leaks",
    "kb_texts",
    "mentions",
    "protected_values",
    "screen_texts",
    "states",
    "task_values",
]
