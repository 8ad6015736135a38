"""Read what a run did as replayable action lists: the GUI steps of each successful episode, with every
target made robust.

An agent taps "element 14 of the list it was shown"; a replay on another day needs the element itself. A
step's index target is turned into a selector (`selector_for`) from the UI dump saved with the step, and
into the touched coordinates only when no dump was saved (or always, with `targets="coordinates"`, as
the paper's replays: clicks and swipes at coordinates). Episodes that called shortcuts are skipped: a
replay is made of GUI actions, and the state a shortcut reached cannot be replayed by taps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from masbench.actions import Action, parse_action
from masbench.actions.selectors import selector_for
from masbench.agents.llm_agent import CALL_SEPARATOR
from masbench.catalog import BY_PACKAGE
from masbench.device import parse_ui_dump
from masbench.eval.records import EpisodeResult
from masbench.eval.runner import latest, load_results
from masbench.trajectory import StepRecord

_REASON = re.compile(r"(?:Reason|Thought)\s*:\s*(.*?)\s*(?:\n\s*Action\s*:|$)", re.DOTALL | re.IGNORECASE)
Targets = Literal["selectors", "coordinates"]
REPLAYABLE = ("tap", "long_press", "type", "scroll", "swipe", "back", "home", "enter", "open_app", "wait")


@dataclass(frozen=True)
class Step:
    action: Action
    app: str | None  # the app in front when the step was taken (None: home screen or an unknown app)
    reason: str = ""  # the agent's reasoning for the step, as it wrote it (empty for scripted agents)


@dataclass(frozen=True)
class Trajectory:
    """One successful episode's GUI steps, ready to replay."""

    run: str  # the run directory's name
    task_id: str
    steps: tuple[Step, ...]

    def source(self, first: int, last: int) -> str:
        return f"generated from run {self.run}, task {self.task_id}, steps {first}-{last}"


def load_trajectories(run_dir: Path, targets: Targets = "selectors") -> tuple[list[Trajectory], list[str]]:
    """(the replayable trajectories of a run's successful episodes, why each other episode was skipped).
    `targets`: how a step names what it touched (`selectors`, ours; `coordinates`, the paper's replays)."""
    trajectories, skipped = [], []
    for result in sorted(latest(load_results(run_dir)), key=lambda r: (r.task_id, r.repeat)):
        if not result.success:
            skipped.append(f"{result.task_id}: the episode did not succeed ({result.end_reason})")
            continue
        try:
            trajectories.append(_trajectory(run_dir, result, targets))
        except ValueError as exc:
            skipped.append(f"{result.task_id}: {exc}")
    return trajectories, skipped


def _trajectory(run_dir: Path, result: EpisodeResult, targets: Targets) -> Trajectory:
    folder = run_dir / result.trajectory
    steps = []
    for line in (folder / "steps.jsonl").read_text(encoding="utf-8").splitlines():
        record = StepRecord.model_validate_json(line)
        if record.kind in ("finish", "answer", "invalid", "fault"):
            continue
        if record.kind == "shortcut":
            raise ValueError("it called shortcuts, which a GUI replay cannot reproduce")
        assert record.action is not None
        if record.action["action"] not in REPLAYABLE:
            raise ValueError(f"step {record.index}: {record.action['action']} cannot be replayed")
        app = BY_PACKAGE.get((record.foreground or "").split("/")[0])
        action = _touched(record) if targets == "coordinates" and record.touch else _robust(folder, record)
        steps.append(Step(action, app.name if app else None, reasoning(record.model_output)))
    if not steps:
        raise ValueError("it has no GUI steps")
    return Trajectory(run_dir.name, result.task_id, tuple(steps))


def reasoning(output: str | None, limit: int = 400) -> str:
    """The reasoning in a step's model output: in its last reply (a step may make several calls), the part
    between `Reason:` (or `Thought:`) and `Action:`, cut to `limit` characters; empty when it has none."""
    found = _REASON.search((output or "").split(CALL_SEPARATOR)[-1])
    text = " ".join(found.group(1).split()) if found else ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _touched(record: StepRecord) -> Action:
    """The step as the paper's replays record it: a touch at the point it touched, whatever element was
    there; a swipe at its two ends. (A scroll touches no recorded point: it keeps its element.)"""
    data = {k: v for k, v in (record.action or {}).items() if k not in ("index", "target")}
    touch = record.touch or []
    if data["action"] == "swipe" and len(touch) == 2:
        (x1, y1), (x2, y2) = touch
        return parse_action({"action": "swipe", "x1": x1, "y1": y1, "x2": x2, "y2": y2})
    if data["action"] in ("tap", "long_press", "type"):
        data["x"], data["y"] = touch[0]
    return parse_action(data)


def _robust(folder: Path, record: StepRecord) -> Action:
    """The step's action with an index target replaced by a selector (or by the touched point)."""
    data = dict(record.action or {})
    if data.get("index") is None:
        return parse_action(data)
    index = data.pop("index")
    dump = folder / record.ui_dump if record.ui_dump else None
    if dump is not None and dump.exists():
        elements = parse_ui_dump(dump.read_text(encoding="utf-8"))
        element = next((e for e in elements if e.index == index), None)
        if element is None:
            raise ValueError(f"step {record.index}: element {index} is not in its UI dump")
        data["target"] = selector_for(element, elements).model_dump(exclude_defaults=True)
    elif record.touch:
        data["x"], data["y"] = record.touch[0]
    else:
        raise ValueError(f"step {record.index}: no UI dump or touch point to ground element {index}")
    return parse_action(data)
