"""Action-replay shortcuts, the paper's two granularities, built without a model.

- Task-level replay: one shortcut per successful trajectory, replaying all of it.
- Subtask-level replay: runs of two or more steps that recur (in two trajectories, or twice in one), one
  shortcut per distinct run, longest first.

A task replay takes every typed text as a parameter (it is only worth calling with other values); a
subtask replay, the texts its occurrences typed differently. Other steps replay as recorded. Every shortcut
says where it came from (`source`: run, task, step range).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict

from masbench.shortcuts import Shortcut
from masbench.shortcuts.schema import MAX_REPLAY_ACTIONS
from masbench.tasks.player import describe_action

from .trajectories import Step, Trajectory

MIN_SUBTASK = 2
TYPED = "<typed>"  # a typed text in a step's shape: runs that differ only in what they type are the same run


def _shape(step: Step) -> str:
    data = step.action.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    if "text" in data and step.action.action == "type":
        data["text"] = TYPED
    return json.dumps([step.app, data], sort_keys=True)


def _identifier(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _shortcut(
    name: str, app: str, runs: list[list[Step]], description: str, source: str, *, every_text: bool
) -> Shortcut:
    """A replay shortcut of the first of `runs` (the occurrences of one run of steps). A typed text becomes
    a parameter `{text_N}` when `every_text`, or when the occurrences typed different texts."""
    actions: list[dict] = []
    parameters: list[dict] = []
    example: list[str] = []
    for i, step in enumerate(runs[0]):
        data = {
            "action": step.action.action,
            **step.action.model_dump(mode="json", exclude_none=True, exclude_defaults=True),
        }
        if step.action.action == "type" and (every_text or len({run[i].action.text for run in runs}) > 1):
            param = f"text_{len(parameters) + 1}"
            parameters.append(
                {"name": param, "type": "string", "required": True, "description": "text to type"}
            )
            example.append(f"{param}={json.dumps(step.action.text)}")
            data["text"] = "{" + param + "}"
        actions.append(data)
    return Shortcut.model_validate(
        {
            "app": app, "name": name, "type": "replay", "description": description, "parameters": parameters,
            "example": f"{app}.{name}({', '.join(example)})", "verified": False, "source": source,
            "replay": {"actions": actions},
        }
    )  # fmt: skip


def _app(steps: list[Step], fallback: str) -> str:
    return next((s.app for s in steps if s.app and s.app != "launcher"), fallback)


def _describe(steps: list[Step]) -> str:
    return " -> ".join(describe_action(s.action) for s in steps)


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
            _shortcut(name, _app(steps, "launcher"), [steps], description, source, every_text=True)
        )
    return shortcuts


def subtask_replays(trajectories: list[Trajectory], max_len: int = 8) -> list[Shortcut]:
    """One shortcut per run of steps that recurs, longest runs first; a step belongs to one run at most."""
    occurrences: dict[tuple[str, ...], list[tuple[int, int]]] = defaultdict(list)
    shapes = [[_shape(s) for s in t.steps] for t in trajectories]
    for t, shape in enumerate(shapes):
        for length in range(MIN_SUBTASK, min(max_len, len(shape)) + 1):
            for start in range(len(shape) - length + 1):
                occurrences[tuple(shape[start : start + length])].append((t, start))
    taken: set[tuple[int, int]] = set()  # (trajectory, step) already in a chosen run
    shortcuts: list[Shortcut] = []
    for key, places in sorted(occurrences.items(), key=lambda kv: (-len(kv[0]), -len(kv[1]), kv[0])):
        length = len(key)
        free = [(t, s) for t, s in places if not any((t, s + i) in taken for i in range(length))]
        if len(free) < 2:
            continue
        for t, s in free:
            taken.update((t, s + i) for i in range(length))
        runs = [list(trajectories[t].steps[s : s + length]) for t, s in free]
        app = _app(runs[0], "launcher")
        name = f"subtask_{app}_{len(shortcuts) + 1}"
        description = (
            f"Replays a recurring run of {length} steps ({len(free)} occurrences): {_describe(runs[0])}"
        )
        source = "; ".join(trajectories[t].source(s, s + length - 1) for t, s in free)  # all its tasks
        shortcuts.append(_shortcut(name, app, runs, description, source, every_text=False))
    return shortcuts
