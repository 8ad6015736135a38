"""Teacher-forced next action (`masbench diagnose next-action`): at every step of a task's hybrid
reference, the phone is put in the reference's state (reset, then the reference's earlier steps played),
the agent is given the gold history in its own history format and asked for one action, which is scored
against the reference's step without being executed. End-to-end runs hide where an agent goes wrong;
this asks each decision on its own, as ShortcutsBench scores API selection and parameter filling given the
gold history. Definitions and choices: docs/metrics.md.

Agents: the AndroidWorld family (t3a, m3a, mas-t3a and their -lenient variants), whose history is a list
of lines the agent keeps (`summaries`) and so can be written for it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from masbench.actions import SelectorError, ShortcutAction, select
from masbench.agents.androidworld import AndroidWorldAgent, action_json
from masbench.tasks.player import describe_action, play

from .metrics import normalise

if TYPE_CHECKING:
    from masbench.actions import Action
    from masbench.actions.execute import ShortcutCaller
    from masbench.device import Device, Observation, UIElement
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import Task

Source = Literal["instruction", "screen", "carried"]
LENGTHS = ((1, 3, "1-3"), (4, 6, "4-6"), (7, 10_000, "7+"))  # reference length groups


class ArgumentScore(BaseModel):
    name: str
    source: Source  # where the reference's value is found: the instruction, this screen, or neither
    correct: bool


class StepScore(BaseModel):
    """One teacher-forced decision against the reference's step."""

    task_id: str
    level: int
    length: int  # the hybrid reference's steps
    step: int
    reference: str  # the reference's action, described
    answer: str | None  # the agent's action, described; None for an unusable reply
    error: str | None = None
    gold_kind: Literal["gui", "shortcut", "finish"]
    kind: Literal["gui", "shortcut", "finish", "answer", "invalid"]
    correct: bool  # the same action: type, target element, text, shortcut and arguments
    shortcut_name: bool | None = None  # the reference calls a shortcut: the agent called that one
    arguments: list[ArgumentScore] = []


def _kind(action: Action | None) -> Literal["gui", "shortcut", "finish", "answer", "invalid"]:
    if action is None:
        return "invalid"
    if action.action in ("shortcut", "finish", "answer"):
        return action.action  # type: ignore[return-value]
    return "gui"


def value_source(value: Any, instruction: str, screen: str) -> Source:
    """Where a reference argument's value comes from: stated in the instruction, shown on this screen (as
    whole words, a plural allowed), or neither (carried from another screen or app, or derived, as a date
    written as epoch milliseconds or walking as 'w')."""
    text = str(normalise(value)).lower()
    # whole words, a plural allowed: 'mechanical watch' in '... mechanical watches', 'w' not in 'walking'
    found = re.compile(rf"(?<!\w){re.escape(text)}(?:e?s)?(?!\w)") if text else None
    if found is not None and found.search(instruction.lower()):
        return "instruction"
    if found is not None and found.search(screen.lower()):
        return "screen"
    return "carried"


def _touched(action: Action, elements: list[UIElement]) -> tuple[int, int] | None:
    """The point a tap or long press touches: its element's centre or its coordinates."""
    index, x, y = getattr(action, "index", None), getattr(action, "x", None), getattr(action, "y", None)
    if index is not None:
        return next((el.center for el in elements if el.index == index), None)
    return (x, y) if x is not None and y is not None else None


def _same_target(gold: Action, answer: Action, elements: list[UIElement]) -> bool:
    """Whether the agent's action lands on the reference's element (its touch inside the element's box)."""
    target = getattr(gold, "target", None)
    if target is None:
        return True
    try:
        element = select(target, elements)
    except SelectorError:
        return False
    point = _touched(answer, elements)
    if point is None:  # an untargeted type or scroll acts on the focused or main element
        return getattr(answer, "index", None) is None
    x1, y1, x2, y2 = element.bounds
    return x1 <= point[0] <= x2 and y1 <= point[1] <= y2


def score(
    task: Task, step: int, gold: Action, answer: Action | None, error: str | None, obs: Observation
) -> StepScore:
    """Score the agent's `answer` against the reference's `gold` action on the screen `obs`."""
    screen = " ".join(f"{el.text} {el.content_desc}" for el in obs.elements)
    kind = _kind(answer)
    gold_kind = _kind(gold)
    result = StepScore(
        task_id=task.id, level=task.level, length=len(task.solutions.hybrid), step=step,
        reference=describe_action(gold), answer=describe_action(answer) if answer else None, error=error,
        gold_kind=gold_kind, kind=kind, correct=False,  # type: ignore[arg-type]
    )  # fmt: skip
    if isinstance(gold, ShortcutAction):
        given = answer.arguments if isinstance(answer, ShortcutAction) else {}
        same_name = isinstance(answer, ShortcutAction) and answer.name == gold.name
        result.shortcut_name = same_name
        result.arguments = [
            ArgumentScore(
                name=k,
                source=value_source(v, task.instruction, screen),
                correct=same_name and k in given and normalise(given[k]) == normalise(v),
            )
            for k, v in gold.arguments.items()
        ]
        result.correct = same_name and all(a.correct for a in result.arguments)
    elif answer is not None and answer.action == gold.action:
        text_ok = normalise(getattr(gold, "text", None)) == normalise(getattr(answer, "text", None))
        direction_ok = getattr(gold, "direction", None) == getattr(answer, "direction", None)
        name_ok = normalise(getattr(gold, "name", None)) == normalise(getattr(answer, "name", None))
        result.correct = text_ok and direction_ok and name_ok and _same_target(gold, answer, obs.elements)
    return result


def gold_history(actions: list[Action]) -> list[str]:
    """The reference's earlier steps as an AndroidWorld agent's history lines: the action in its grammar,
    then what it did in words (the reference's target, which the grammar's index cannot name)."""
    return [f"Action selected: {action_json(a)}. Reference step: {describe_action(a)}." for a in actions]


def next_actions(
    device: Device,
    tasks: list[Task],
    make_agent: Callable[[], AndroidWorldAgent],
    kb: KnowledgeBase | None,
    shortcuts: ShortcutCaller | None,
    on_step: Callable[[StepScore], None] | None = None,
) -> list[StepScore]:
    """Every reference step of every task, teacher-forced: the phone reset and the reference played up to
    the step, the agent given the gold history, one action asked and scored, nothing executed. A task
    whose reference prefix fails to replay ends there (it would score the agent on a wrong screen)."""
    scores = []
    agent = make_agent()
    for task in tasks:
        reference = list(task.solutions.hybrid)
        for i, gold in enumerate(reference):
            if play(device, task, reference[:i], shortcuts).failures:
                break
            agent.reset(task.view(), kb)
            agent.summaries = gold_history(reference[:i])
            obs = device.observe()
            decision = agent.step(obs, [])
            if decision.fault is not None:
                raise decision.fault
            scored = score(task, i, gold, decision.action, decision.error, obs)
            scores.append(scored)
            if on_step is not None:
                on_step(scored)
    return scores


def _share(values: list[bool]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def figures(scores: list[StepScore]) -> dict[str, float | int | None]:
    """The figures of a group of decisions: accuracy, GUI-or-shortcut agreement, shortcuts skipped,
    selection, and argument accuracy by where the value comes from."""
    sc = [s for s in scores if s.gold_kind == "shortcut"]
    args = [a for s in sc for a in s.arguments]
    out: dict[str, float | int | None] = {
        "steps": len(scores),
        "action accuracy": _share([s.correct for s in scores]),
        "kind agreement": _share([(s.kind == s.gold_kind) for s in scores]),
        "shortcut skipped": _share([s.kind == "gui" for s in sc]),
        "shortcut selection": _share([bool(s.shortcut_name) for s in sc]),
    }
    for source in ("instruction", "screen", "carried"):
        out[f"arguments ({source})"] = _share([a.correct for a in args if a.source == source])
    return out


def _length_group(length: int) -> str:
    return next(label for low, high, label in LENGTHS if low <= length <= high)


def grouped(scores: list[StepScore]) -> dict[str, dict[str, float | int | None]]:
    """`figures` over all decisions, by level and by the reference's length."""
    groups: dict[str, list[StepScore]] = defaultdict(list)
    for s in scores:
        groups["all"].append(s)
        groups[f"level-{s.level}"].append(s)
        groups[f"length {_length_group(s.length)}"].append(s)
    return {name: figures(group) for name, group in sorted(groups.items(), key=lambda kv: kv[0] != "all")}
