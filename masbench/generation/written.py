"""Model-written replay shortcuts, as the paper makes them (Appendix C.1): after each finished episode, a
prompt with the task's instruction, the whole action history and the agent's reasoning for each step goes
to a model, which writes the shortcuts.

For a replay the model decides what is worth keeping and how it is called (name, description, which typed
texts are parameters and, at subtask level, which step ranges); the actions themselves are the recorded
ones, read from the run, so a replay does exactly what the agent did. One model call per episode and kind;
a reply that is not JSON, or a shortcut that breaks the KB schema or the rules below, costs that shortcut
and is reported, never the run. `history` and `ask` are shared with the dynamic shortcuts (dynamic.py).
"""

from __future__ import annotations

import json
import re
import string
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from pydantic import ValidationError

from masbench.llm import LLM, LLMError, Message
from masbench.shortcuts import Shortcut
from masbench.tasks.player import describe_action

from .replay import MIN_SUBTASK, Named, acted_app, app_acted_on, replay_shortcut
from .trajectories import Trajectory

SYSTEM = "You turn recorded phone workflows into reusable, parameterised shortcuts. You answer in JSON."
_JSON = re.compile(r"\{.*\}", re.DOTALL)


class BadReply(ValueError):
    """What was wrong with a model's answer; the message is the reported reason."""


@cache
def template(name: str) -> string.Template:
    return string.Template((resources.files("masbench.generation") / "prompts" / name).read_text("utf-8"))


def history(trajectory: Trajectory) -> str:
    """The numbered action history, each step with the reasoning the agent gave for it."""
    lines = []
    for i, step in enumerate(trajectory.steps, 1):
        reason = f"\n   reasoning: {step.reason}" if step.reason else ""
        lines.append(f"{i}. {describe_action(step.action)}{reason}")
    return "\n".join(lines)


def prompt(kind: str, trajectory: Trajectory, instruction: str) -> list[Message]:
    """The prompt for `kind` (task, subtask, dynamic): instruction, history, what to write."""
    text = template(f"{kind}.txt").substitute(instruction=instruction, steps=history(trajectory))
    return [Message.system(SYSTEM), Message.user(text)]


def ask(llm: LLM, messages: list[Message]) -> dict[str, Any]:
    """The JSON object the model answers with; BadReply saying why there is none."""
    try:
        reply = llm.generate(messages, temperature=0.0).text
    except LLMError as exc:
        raise BadReply(f"the model call failed: {exc}") from None
    found = _JSON.search(reply)
    if found is None:
        raise BadReply("its answer holds no JSON object")
    try:
        data = json.loads(found.group(0))
    except json.JSONDecodeError as exc:
        raise BadReply(f"its answer is not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise BadReply("its answer is not a JSON object")
    return data


def schema_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    return f"not a valid shortcut: {'.'.join(map(str, first['loc']))}: {first['msg']}"


class Written(NamedTuple):
    """What a generator made: the shortcuts, and why each episode or shortcut left out was left out."""

    shortcuts: list[Shortcut]
    problems: list[str]

    def add(self, shortcut: Shortcut, where: str) -> None:
        if any(s.qualified_name == shortcut.qualified_name for s in self.shortcuts):
            self.problems.append(f"{where}: a shortcut named {shortcut.qualified_name!r} was already written")
        else:
            self.shortcuts.append(shortcut)


def _named(spec: dict[str, Any], trajectory: Trajectory, first: int, last: int) -> Named:
    """The parameters a shortcut declares, as positions in its steps; BadReply for one that is not the
    typed text of a step in the range."""
    named: Named = {}
    for p in spec.get("parameters") or []:
        step = p.get("step") if isinstance(p, dict) else None
        if not isinstance(step, int) or not first <= step - 1 <= last:
            raise BadReply(f"parameter {p!r} does not name a step between {first + 1} and {last + 1}")
        if trajectory.steps[step - 1].action.action != "type":
            raise BadReply(f"parameter {p.get('name')!r}: step {step} types nothing")
        named[step - 1 - first] = (str(p.get("name")), str(p.get("description") or "text to type"))
    return named


def _replay(spec: dict[str, Any], trajectory: Trajectory, first: int, last: int) -> Shortcut:
    steps = list(trajectory.steps[first : last + 1])
    named = _named(spec, trajectory, first, last)
    try:
        return replay_shortcut(
            app_acted_on(steps, "launcher"), str(spec.get("name")), str(spec.get("description") or ""), steps, named,
            trajectory.source(first, last),
        )  # fmt: skip
    except ValidationError as exc:
        raise BadReply(schema_error(exc)) from None


def written_task_replays(trajectories: list[Trajectory], instructions: dict[str, str], llm: LLM) -> Written:
    """One task-level replay per episode, named, described and parameterised by the model."""
    out = Written([], [])
    for trajectory in trajectories:
        where = trajectory.task_id
        try:
            spec = ask(llm, prompt("task", trajectory, instructions.get(where, "")))
            out.add(_replay(spec, trajectory, 0, len(trajectory.steps) - 1), where)
        except BadReply as exc:
            out.problems.append(f"{where}: {exc}")
    return out


def written_subtask_replays(
    trajectories: list[Trajectory], instructions: dict[str, str], llm: LLM
) -> Written:
    """The subtask-level replays the model picks from each episode: step ranges of at least two steps in
    one app, each named, described and parameterised by the model."""
    out = Written([], [])
    for trajectory in trajectories:
        where = trajectory.task_id
        try:
            specs = ask(llm, prompt("subtask", trajectory, instructions.get(where, ""))).get("shortcuts")
            if not isinstance(specs, list):
                raise BadReply('its answer has no "shortcuts" list')
        except BadReply as exc:
            out.problems.append(f"{where}: {exc}")
            continue
        for number, spec in enumerate(specs, 1):
            try:
                out.add(_subtask(spec, trajectory), where)
            except BadReply as exc:
                out.problems.append(f"{where}: shortcut {number}: {exc}")
    return out


def _subtask(spec: Any, trajectory: Trajectory) -> Shortcut:
    first, last = (spec.get(k) if isinstance(spec, dict) else None for k in ("first_step", "last_step"))
    if (
        not isinstance(first, int)
        or not isinstance(last, int)
        or not 1 <= first <= last <= len(trajectory.steps)
    ):
        raise BadReply(f"first_step and last_step must be step numbers 1..{len(trajectory.steps)}")
    if last - first + 1 < MIN_SUBTASK:
        raise BadReply(f"a subtask has at least {MIN_SUBTASK} steps")
    apps = {acted_app(s) for s in trajectory.steps[first - 1 : last]}
    if len(apps) != 1 or apps & {None, "launcher"}:
        raise BadReply(f"steps {first}-{last} do not stay in one app")
    return _replay(spec, trajectory, first - 1, last - 1)
