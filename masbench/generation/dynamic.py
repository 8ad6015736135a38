"""Dynamic shortcuts: a model turns a successful trajectory into a parameterised plan whose targets are
described in words and grounded on the live screen when the shortcut runs (the paper's most promising
generated kind). One model call per trajectory, whose prompt holds the instruction, the action history and
the agent's reasoning for each step (Appendix C.1); an unusable answer is reported and skipped, never fatal."""

from __future__ import annotations

from pydantic import ValidationError

from masbench.llm import LLM
from masbench.shortcuts import Shortcut

from .replay import app_acted_on
from .trajectories import Trajectory
from .written import BadReply, Written, ask, prompt, schema_error


def dynamic_shortcuts(trajectories: list[Trajectory], instructions: dict[str, str], llm: LLM) -> Written:
    """The shortcuts the model wrote, and why each trajectory without one was skipped."""
    out = Written([], [])
    for trajectory in trajectories:
        where = trajectory.task_id
        try:
            plan = ask(llm, prompt("dynamic", trajectory, instructions.get(where, "")))
            fields = {
                k: v for k, v in plan.items() if k not in ("steps", "app", "type", "source", "verified")
            }
            shortcut = Shortcut.model_validate(
                {**fields, "app": app_acted_on(list(trajectory.steps), "launcher"), "type": "dynamic",
                 "verified": False, "source": trajectory.source(0, len(trajectory.steps) - 1),
                 "dynamic": {"steps": plan.get("steps")}}
            )  # fmt: skip
        except BadReply as exc:
            out.problems.append(f"{where}: {exc}")
            continue
        except ValidationError as exc:
            out.problems.append(f"{where}: the plan is {schema_error(exc)}")
            continue
        out.add(shortcut, where)
    return out
