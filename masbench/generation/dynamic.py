"""Dynamic shortcuts: a model turns a successful trajectory into a parameterised plan whose targets are
described in words and grounded on the live screen when the shortcut runs (the paper's most promising
generated kind). One model call per trajectory; an unusable answer is reported and skipped, never fatal."""

from __future__ import annotations

import json
import re
import string
from functools import cache
from importlib import resources

from pydantic import ValidationError

from masbench.llm import LLM, LLMError, Message
from masbench.shortcuts import Shortcut
from masbench.tasks.player import describe_action

from .replay import _app
from .trajectories import Trajectory

SYSTEM = "You turn recorded phone workflows into reusable, parameterised shortcuts. You answer in JSON."
_JSON = re.compile(r"\{.*\}", re.DOTALL)


@cache
def _template() -> string.Template:
    return string.Template(
        (resources.files("masbench.generation") / "prompts" / "dynamic.txt").read_text("utf-8")
    )


def prompt(trajectory: Trajectory, instruction: str) -> list[Message]:
    steps = "\n".join(f"{i}. {describe_action(s.action)}" for i, s in enumerate(trajectory.steps, 1))
    return [
        Message.system(SYSTEM),
        Message.user(_template().substitute(instruction=instruction, steps=steps)),
    ]


def dynamic_shortcuts(
    trajectories: list[Trajectory], instructions: dict[str, str], llm: LLM
) -> tuple[list[Shortcut], list[str]]:
    """(the shortcuts the model wrote, why each trajectory without one was skipped)."""
    shortcuts: list[Shortcut] = []
    problems: list[str] = []
    names: set[str] = set()
    for trajectory in trajectories:
        where = f"{trajectory.task_id}"
        try:
            reply = llm.generate(
                prompt(trajectory, instructions.get(trajectory.task_id, "")), temperature=0.0
            ).text
        except LLMError as exc:
            problems.append(f"{where}: the model call failed: {exc}")
            continue
        found = _JSON.search(reply)
        try:
            plan = json.loads(found.group(0)) if found else None
        except json.JSONDecodeError as exc:
            plan, reason = None, f"its answer is not valid JSON ({exc.msg})"
        else:
            reason = "its answer holds no JSON object"
        if not isinstance(plan, dict):
            problems.append(f"{where}: {reason}")
            continue
        app = _app(list(trajectory.steps), "launcher")
        source = trajectory.source(0, len(trajectory.steps) - 1)
        try:
            fields = {
                k: v for k, v in plan.items() if k not in ("steps", "app", "type", "source", "verified")
            }
            shortcut = Shortcut.model_validate(
                {**fields, "app": app, "type": "dynamic", "verified": False, "source": source,
                 "dynamic": {"steps": plan.get("steps")}}
            )  # fmt: skip
        except ValidationError as exc:
            first = exc.errors()[0]
            problems.append(
                f"{where}: the plan is not a valid shortcut: {'.'.join(map(str, first['loc']))}: {first['msg']}"
            )
            continue
        if shortcut.name in names:
            problems.append(f"{where}: a shortcut named {shortcut.name!r} was already written")
            continue
        names.add(shortcut.name)
        shortcuts.append(shortcut)
    return shortcuts, problems
