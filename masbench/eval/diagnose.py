"""Teacher-forced next action (`masbench diagnose next-action`): at every step of a task's hybrid
reference, the phone is put in the reference's state (reset, then the reference's earlier steps played),
the agent is given the gold history in its own history format (`Agent.assume_history`) and asked for one
action, which is scored against the reference's step without being executed. End-to-end runs hide where
an agent goes wrong; this asks each decision on its own, as ShortcutsBench scores API selection and
parameter filling given the gold history. On the same screen, each value the step needs that only the
instruction states is also removed from the instruction, to see whether the agent asks or stops instead
of inventing one (ShortcutsBench's awareness of missing information). Definitions: docs/metrics.md.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from masbench.actions import OpenAppAction, SelectorError, ShortcutAction, TapAction, TypeAction, select
from masbench.agents.base import AgentStep, PastStep
from masbench.tasks.player import describe_action, play

from .metrics import normalise

if TYPE_CHECKING:
    from masbench.actions import Action
    from masbench.actions.execute import ShortcutCaller
    from masbench.agents import Agent
    from masbench.device import Device, Observation, UIElement
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import Task

Source = Literal["instruction", "screen", "carried"]
Kind = Literal["gui", "shortcut", "finish", "answer", "invalid"]  # of an action; invalid: an unusable reply
# what an agent did on a missing-information case: spoke to the user, stopped, gave a value anyway, or else
Outcome = Literal["asked", "stopped", "invented", "other", "invalid"]
LENGTHS = ((1, 3, "1-3"), (4, 6, "4-6"), (7, 10_000, "7+"))  # reference length groups
VAGUE = "something"  # what a removed value is replaced by in a missing-information case's instruction


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
    gold_kind: Kind
    kind: Kind
    correct: bool  # the same action: type, target element, text, shortcut and arguments
    shortcut_name: bool | None = None  # the reference calls a shortcut: the agent called that one
    arguments: list[ArgumentScore] = []
    reply: str | None = None  # the model's reply (every call the step made)
    missing: str | None = None  # a missing-information case: the value removed from the instruction
    instruction: str | None = None  # ... the instruction the agent was given instead
    outcome: Outcome | None = None  # ... and what it did without the value


def _kind(action: Action | None) -> Kind:
    if action is None:
        return "invalid"
    kind = action.action
    return kind if kind == "shortcut" or kind == "finish" or kind == "answer" else "gui"


def _mention(value: Any) -> re.Pattern[str] | None:
    """A value as whole words, a plural allowed ('mechanical watch' in '... mechanical watches', 'w' not
    in 'walking'); None for an empty value."""
    text = str(normalise(value)).lower()
    return re.compile(rf"(?<!\w){re.escape(text)}(?:e?s)?(?!\w)", re.I) if text else None


def value_source(value: Any, instruction: str, screen: str) -> Source:
    """Where a reference argument's value comes from: stated in the instruction, shown on this screen (as
    whole words, a plural allowed), or neither (carried from another screen or app, or derived, as a date
    written as epoch milliseconds or walking as 'w')."""
    found = _mention(value)
    if found is not None and found.search(instruction):
        return "instruction"
    if found is not None and found.search(screen):
        return "screen"
    return "carried"


def screen_text(obs: Observation) -> str:
    """What a screen shows in words: its elements' texts and descriptions."""
    return " ".join(f"{el.text} {el.content_desc}" for el in obs.elements)


def missing_cases(instruction: str, gold: Action, past: list[PastStep], screen: str) -> list[tuple[str, str]]:
    """(value, instruction without it) for each value the reference's step supplies (a shortcut's argument,
    a typed text) that only the instruction states: not on this screen, not in the gold history. Every
    mention is replaced by a vague `VAGUE`, so nothing the agent is shown holds the value any more."""
    if isinstance(gold, ShortcutAction):
        values = list(gold.arguments.values())
    else:
        values = [gold.text] if isinstance(gold, TypeAction) else []
    history = " ".join(p.description for p in past)
    cases = []
    for value in values:
        found = _mention(value)
        if found is None or not found.search(instruction) or found.search(screen) or found.search(history):
            continue
        cases.append((str(value), found.sub(VAGUE, instruction)))
    return cases


def missing_outcome(answer: Action | None) -> Outcome:
    """What the agent did on a missing-information case: `answer` (it speaks to the user, the only way
    the action set has to ask) is asking, `finish` stopping; an action carrying a value (a typed text, a
    shortcut call with arguments) invented one."""
    if answer is None:
        return "invalid"
    if answer.action == "answer":
        return "asked"
    if answer.action == "finish":
        return "stopped"
    if (isinstance(answer, TypeAction) and answer.text.strip()) or (
        isinstance(answer, ShortcutAction) and answer.arguments
    ):
        return "invented"
    return "other"


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
    return _inside(point, element)


def _inside(point: tuple[int, int], element: UIElement) -> bool:
    x1, y1, x2, y2 = element.bounds
    return x1 <= point[0] <= x2 and y1 <= point[1] <= y2


def _opens(app: str, answer: TapAction, elements: list[UIElement]) -> bool:
    """Whether a tap opens `app` as an open_app would: it lands on the launcher icon labelled so (how
    Mobile-Agent's Open app acts)."""
    point = _touched(answer, elements)
    return point is not None and any(
        app in (el.content_desc, el.text) and el.clickable and _inside(point, el) for el in elements
    )


def score(
    task: Task, step: int, gold: Action, answer: Action | None, error: str | None, obs: Observation
) -> StepScore:
    """Score the agent's `answer` against the reference's `gold` action on the screen `obs`."""
    screen = screen_text(obs)
    kind = _kind(answer)
    gold_kind = _kind(gold)
    result = StepScore(
        task_id=task.id, level=task.level, length=len(task.solutions.hybrid), step=step,
        reference=describe_action(gold), answer=describe_action(answer) if answer else None, error=error,
        gold_kind=gold_kind, kind=kind, correct=False,
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
    elif isinstance(gold, OpenAppAction) and isinstance(answer, TapAction):
        result.correct = _opens(gold.name, answer, obs.elements)
    elif answer is not None and answer.action == gold.action:
        text_ok = normalise(getattr(gold, "text", None)) == normalise(getattr(answer, "text", None))
        direction_ok = getattr(gold, "direction", None) == getattr(answer, "direction", None)
        name_ok = normalise(getattr(gold, "name", None)) == normalise(getattr(answer, "name", None))
        result.correct = text_ok and direction_ok and name_ok and _same_target(gold, answer, obs.elements)
    return result


def ask(
    agent: Agent,
    task: Task,
    instruction: str,
    kb: KnowledgeBase | None,
    past: list[PastStep],
    obs: Observation,
) -> AgentStep:
    """One decision of a freshly reset agent given `instruction`, the gold history `past` and the screen."""
    view = task.view()  # never the whole task: the oracles, which read it, keep no history to write
    agent.reset(
        view if instruction == view.instruction else view.model_copy(update={"instruction": instruction}), kb
    )
    agent.assume_history(past)
    decision = agent.step(obs, [])
    if decision.fault is not None:
        raise decision.fault
    return decision


def next_actions(
    device: Device,
    tasks: list[Task],
    make_agent: Callable[[], Agent],
    kb: KnowledgeBase | None,
    shortcuts: ShortcutCaller | None,
    on_step: Callable[[StepScore], None] | None = None,
    missing_info: bool = True,
) -> list[StepScore]:
    """Every reference step of every task, teacher-forced: the phone reset and the reference played up to
    the step, the agent given the gold history, one action asked and scored, nothing executed; with
    `missing_info`, asked again on the same screen for each of the step's missing-information cases. A
    task whose reference prefix fails to replay ends there (it would score the agent on a wrong screen).
    NotImplementedError when the agent's history cannot be written for it."""
    scores = []
    agent = make_agent()
    for task in tasks:
        reference = list(task.solutions.hybrid)
        past: list[PastStep] = []
        for i, gold in enumerate(reference):
            if play(device, task, reference[:i], shortcuts).failures:
                break
            obs = device.observe()
            cases = missing_cases(task.instruction, gold, past, screen_text(obs)) if missing_info else []
            for missing, instruction in [(None, task.instruction), *cases]:
                decision = ask(agent, task, instruction, kb, past, obs)
                scored = score(task, i, gold, decision.action, decision.error, obs)
                scored.reply = decision.model_output
                if missing is not None:
                    scored.missing, scored.instruction = missing, instruction
                    scored.outcome = missing_outcome(decision.action)
                scores.append(scored)
                if on_step is not None:
                    on_step(scored)
            past.append(PastStep(gold, obs, describe_action(gold)))
    return scores


def _share(values: list[bool]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def figures(scores: list[StepScore]) -> dict[str, float | int | None]:
    """The figures of a group of decisions: accuracy, GUI-or-shortcut agreement, shortcuts skipped,
    selection, argument accuracy by where the value comes from; then, over the missing-information cases,
    the share where the agent asked or stopped and the share where it invented a value."""
    steps = [s for s in scores if s.missing is None]
    cases = [s for s in scores if s.missing is not None]
    sc = [s for s in steps if s.gold_kind == "shortcut"]
    args = [a for s in sc for a in s.arguments]
    out: dict[str, float | int | None] = {
        "steps": len(steps),
        "action accuracy": _share([s.correct for s in steps]),
        "kind agreement": _share([(s.kind == s.gold_kind) for s in steps]),
        "shortcut skipped": _share([s.kind == "gui" for s in sc]),
        "shortcut selection": _share([bool(s.shortcut_name) for s in sc]),
    }
    for source in ("instruction", "screen", "carried"):
        out[f"arguments ({source})"] = _share([a.correct for a in args if a.source == source])
    out["missing: cases"] = len(cases)
    out["missing: asked/stopped"] = _share([s.outcome in ("asked", "stopped") for s in cases])
    out["missing: invented"] = _share([s.outcome == "invented" for s in cases])
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
    order = ["all", *(f"level-{n}" for n in sorted({s.level for s in scores}))]
    order += [f"length {label}" for *_, label in LENGTHS]
    return {name: figures(groups[name]) for name in order if name in groups}
