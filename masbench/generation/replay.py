"""Action-replay shortcuts, the paper's two granularities, built without a model.

- Task-level replay: one shortcut per successful trajectory, replaying all of it.
- Subtask-level replay: runs of two or more steps within one app that recur (in two trajectories, or twice
  in one), one shortcut per distinct run, longest first. A run never crosses an app switch, and it is
  labelled with the app it acts on (an `open_app` step acts on the app it opens).

A task replay takes every typed text as a parameter (it is only worth calling with other values); a
subtask replay, the texts its occurrences typed differently. A parameter is named after the field it fills.
Other steps replay as recorded. Each description is one line: the app, the steps in words, and where the
replay must start (any screen when it opens its app, else the screen its first step acts on); a subtask
replay also records that screen as its `precondition`, which the executor checks before it acts. Every
shortcut says where it came from (`source`: run, task and step range of each occurrence).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any

from masbench.actions import Action
from masbench.catalog import APPS
from masbench.shortcuts import Shortcut
from masbench.shortcuts.schema import MAX_REPLAY_ACTIONS

from .trajectories import Step, Trajectory

MIN_SUBTASK = 2
MAX_NAME = 48
TYPED = "<typed>"  # a typed text in a step's shape: runs that differ only in what they type are the same run


def _shape(step: Step) -> str:
    data = step.action.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    if "text" in data and step.action.action == "type":
        data["text"] = TYPED
    return json.dumps([acted_app(step), data], sort_keys=True)


def _identifier(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _unique(base: str, taken: set[str]) -> str:
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name


def acted_app(step: Step) -> str | None:
    """The app a step acts on: the one `open_app` opens, the launcher for `home`, else the one in front."""
    action = step.action
    if action.action == "open_app":
        wanted = action.name.lower()
        return next((a.name for a in APPS.values() if wanted in (a.name, a.label.lower(), *map(str.lower, a.aliases))), None)  # fmt: skip
    return "launcher" if action.action == "home" else step.app


def _typed(step: Step) -> str | None:
    """The text a step types; None when it types nothing."""
    return step.action.text if step.action.action == "type" else None


def _label(action: Action) -> str:
    """What a step acts on, in words: `See all`, `search action bar`; empty when it names no element."""
    if action.action == "open_app":
        return action.name
    target = getattr(action, "target", None)
    if target is None:
        return ""
    words = target.text or target.content_desc or target.resource_id or target.text_contains or ""
    return words.rsplit("/", 1)[-1].replace("_", " ")


def _phrase(action: Action, typed: str | None = None) -> str:
    label = _label(action)
    match action.action:
        case "open_app":
            return f"open {label}"
        case "type":
            return f"type {typed or repr(action.text)}" + (f" into {label}" if label else "")
        case "tap" | "long_press" if label:
            return f"{action.action.replace('_', ' ')} {label}"
        case _:
            return action.action.replace("_", " ")


Named = dict[int, tuple[str, str]]  # step position -> (parameter name, its description)


def replay_shortcut(
    app: str,
    name: str,
    description: str,
    steps: list[Step],
    named: Named,
    source: str,
    precondition: dict[str, Any] | None = None,
) -> Shortcut:
    """A replay of `steps`, the typed text of each step in `named` taken as that parameter, checked to start
    from `precondition` (schema.Precondition) when given; ValidationError when the result breaks the KB
    schema (a bad name, too many actions...)."""
    actions: list[dict[str, Any]] = []
    parameters: list[dict[str, str | bool]] = []
    example: list[str] = []
    for i, step in enumerate(steps):
        action = step.action
        data = {"action": action.action, **action.model_dump(mode="json", exclude_none=True, exclude_defaults=True)}  # fmt: skip
        if i in named and action.action == "type":  # `named` holds typing steps only
            param, about = named[i]
            parameters.append({"name": param, "type": "string", "required": True, "description": about})
            example.append(f"{param}={json.dumps(action.text)}")
            data["text"] = "{" + param + "}"
        actions.append(data)
    return Shortcut.model_validate(
        {
            "app": app, "name": name, "type": "replay", "description": description, "parameters": parameters,
            "example": f"{app}.{name}({', '.join(example)})", "verified": False, "source": source,
            "replay": {"actions": actions}, "precondition": precondition,
        }
    )  # fmt: skip


def _shortcut(
    name: str,
    app: str,
    runs: list[list[Step]],
    lead: str,
    source: str,
    *,
    every_text: bool,
    start: bool = False,
) -> Shortcut:
    """A replay shortcut of the first of `runs` (the occurrences of one run of steps). A typed text becomes
    a parameter named after its field when `every_text`, or when the occurrences typed different texts.
    With `start`, it records its start screen as a precondition (`start_screen`)."""
    named: Named = {}
    phrases: list[str] = []
    for i, step in enumerate(runs[0]):
        action = step.action
        if action.action == "type" and (every_text or len({_typed(run[i]) for run in runs}) > 1):
            base = _identifier(_label(action))[:32].strip("_") or "text"
            param = _unique(base if base[0].isalpha() else f"text_{base}", {n for n, _ in named.values()})
            named[i] = (param, f"text to type into {_label(action) or 'the focused field'}")
        phrases.append(_phrase(action, "{" + named[i][0] + "}" if i in named else None))
    first = runs[0][0].action
    where = "any screen" if first.action == "open_app" else f"the screen where {_phrase(first)} is possible"
    label = APPS[app].label if app in APPS else app
    description = f"{lead} In {label}: {', '.join(phrases)}. Starts from {where}."
    precondition = start_screen(first) if start else None
    return replay_shortcut(app, name, description, runs[0], named, source, precondition)


def start_screen(first: Action) -> dict[str, Any] | None:
    """The precondition of a replay whose first action is `first`: none when it opens its app (it runs from
    any screen); else its app in front (the shortcut's package) and, when the action names its element by a
    selector, that element on screen."""
    if first.action == "open_app":
        return None
    target = getattr(first, "target", None)
    shows = target.model_dump(mode="json", exclude_none=True, exclude_defaults=True) if target else None
    return {"shows": shows} if shows else {}


def app_acted_on(steps: list[Step], fallback: str) -> str:
    """The app a run of steps acts on first (the launcher does not count)."""
    return next((a for s in steps if (a := acted_app(s)) and a != "launcher"), fallback)


def task_replays(trajectories: list[Trajectory], instructions: dict[str, str]) -> list[Shortcut]:
    """One shortcut per trajectory that fits a replay, replaying the whole task."""
    shortcuts, names = [], set()
    for trajectory in trajectories:
        steps = list(trajectory.steps)
        name = f"replay_{_identifier(trajectory.task_id)}"
        if len(steps) > MAX_REPLAY_ACTIONS or name in names:
            continue
        names.add(name)
        instruction = instructions.get(trajectory.task_id, trajectory.task_id)
        description = f"Replays the recorded steps of the task: {instruction}"
        source = trajectory.source(0, len(steps) - 1)
        shortcuts.append(
            _shortcut(name, app_acted_on(steps, "launcher"), [steps], description, source, every_text=True)
        )
    return shortcuts


def _one_app(steps: tuple[Step, ...], start: int, length: int) -> bool:
    apps = {acted_app(s) for s in steps[start : start + length]}
    return len(apps) == 1 and None not in apps and "launcher" not in apps


def subtask_replays(trajectories: list[Trajectory], max_len: int = 8) -> list[Shortcut]:
    """One shortcut per run of steps in one app that recurs, longest runs first; a step belongs to one run
    at most."""
    occurrences: dict[tuple[str, ...], list[tuple[int, int]]] = defaultdict(list)
    shapes = [[_shape(s) for s in t.steps] for t in trajectories]
    for t, shape in enumerate(shapes):
        for length in range(MIN_SUBTASK, min(max_len, len(shape)) + 1):
            for start in range(len(shape) - length + 1):
                if _one_app(trajectories[t].steps, start, length):
                    occurrences[tuple(shape[start : start + length])].append((t, start))
    taken: set[tuple[int, int]] = set()  # (trajectory, step) already in a chosen run
    shortcuts: list[Shortcut] = []
    names: set[str] = set()
    for key, places in sorted(occurrences.items(), key=lambda kv: (-len(kv[0]), -len(kv[1]), kv[0])):
        length = len(key)
        free = [(t, s) for t, s in places if not any((t, s + i) in taken for i in range(length))]
        if len(free) < 2:
            continue
        for t, s in free:
            taken.update((t, s + i) for i in range(length))
        runs = [list(trajectories[t].steps[s : s + length]) for t, s in free]
        app = app_acted_on(runs[0], "launcher")
        first, last = runs[0][0].action, runs[0][-1].action
        name = _identifier(f"{_phrase(first)} to {_label(last) or last.action}")[:MAX_NAME].strip("_")
        name = _unique(name if name[:1].isalpha() else f"subtask_{name}", names)
        names.add(name)
        lead = f"Replays {length} steps recorded {len(free)} times."
        source = "; ".join(trajectories[t].source(s, s + length - 1) for t, s in free)  # all its tasks
        shortcuts.append(_shortcut(name, app, runs, lead, source, every_text=False, start=True))
    return shortcuts
