"""What an episode's trajectory says beyond success: why a failed episode failed (the paper's Appendix D
classes, read automatically, plus the GUI classes a reader needs) and which apps and shortcuts it used
against the reference (AppBench's F1 of App and of API). Definitions and choices: docs/metrics.md.

Everything here is pure over an `EpisodeResult`, its `StepRecord`s and its task, except `diagnose_run`,
which reads each episode's `steps.jsonl` from a run directory.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import BaseModel, ValidationError

from masbench.agents.retrieval import NOT_OFFERED, OffersShortcuts, ShortcutRetriever, retrieve_for_screen
from masbench.catalog import APPS, BY_PACKAGE
from masbench.device.elements import parse_ui_dump
from masbench.shortcuts import KBError
from masbench.shortcuts.executor import PRECONDITION
from masbench.trajectory import UNCOUNTED, StepRecord

from .faults import INJECTED
from .records import EpisodeResult

if TYPE_CHECKING:
    from masbench.agents import Agent
    from masbench.tasks import Task

log = logging.getLogger(__name__)

# Failure classes in the order that picks an episode's primary class: the paper's three Appendix D classes
# (selection and planning; behaviour and adaptation; execution, by cause), then the GUI classes.
FailureClass = Literal[
    "wrong_shortcut",
    "repeated_call_loop",
    "shortcut_bad_arguments",
    "shortcut_precondition",
    "shortcut_grounding",
    "shortcut_postcondition",
    "repeated_action_loop",
    "unusable_replies",
    "wrong_app",
    "stopped_early",
    "step_limit",
    "time_limit",
    "wrong_final_state",
]
FAILURE_CLASSES: tuple[FailureClass, ...] = get_args(FailureClass)
# one line each, for tables and the report (docs/metrics.md says more)
FAILURE_DESCRIPTIONS: dict[FailureClass, str] = {
    "wrong_shortcut": "called a shortcut the reference does not use (selection/planning)",
    "repeated_call_loop": "same shortcut call 3+ times (behaviour/adaptation)",
    "shortcut_bad_arguments": "shortcut call refused: unknown name or bad arguments (execution)",
    "shortcut_precondition": "shortcut failed at its start: called from the wrong screen, or its link refused",
    "shortcut_grounding": "shortcut script lost its target after it started (execution)",
    "shortcut_postcondition": "shortcut ran but its promised screen never showed (execution)",
    "repeated_action_loop": "same GUI action 3 times in a row (behaviour/adaptation)",
    "unusable_replies": "half or more of the steps were unusable replies",
    "wrong_app": "never had any of the task's apps in front",
    "stopped_early": "finished in fewer steps than the shortest reference",
    "step_limit": "step limit reached",
    "time_limit": "time limit reached",
    "wrong_final_state": "finished, wrong final state",
}
LOOP_REPEATS = 3  # Mobile-Agent-E's rule: one action three times is a loop
NOT_LOOPS = frozenset({"swipe", "scroll", "back", "wait"})  # repeated by design (Mobile-Agent-E's exceptions)
NOT_USED = frozenset({"launcher"})  # every episode passes the home screen: not an app it used


class EpisodeDiagnosis(BaseModel):
    """One scored episode read from its trajectory: the failure classes that apply (`failure` is the first
    by precedence, None for a success) and the apps and shortcuts it used against the reference's."""

    task_id: str
    repeat: int = 0
    trajectory: str
    failure: FailureClass | None = None
    labels: list[FailureClass] = []
    apps_used: list[str] = []
    apps_reference: list[str] = []
    shortcuts_used: list[str] = []
    shortcuts_reference: list[str] = []
    refused_calls: int = 0  # calls of KB shortcuts not offered in the episode (--kb-exposure), refused
    # online retrieval recall: steps whose reference's next shortcut was offered, of those with one left
    retrieval_hits: int = 0
    retrieval_steps: int = 0

    @property
    def key(self) -> tuple[str, int]:
        return (self.task_id, self.repeat)


def episode_anchor(trajectory: str) -> str:
    """The HTML id of an episode in a report, from its trajectory directory (with or without
    `trajectories/`): links from the failure table land on it."""
    return "ep-" + trajectory.removeprefix("trajectories/").replace("/", "-")


def _canonical(action: dict[str, Any] | None) -> str:
    return json.dumps(action, sort_keys=True, ensure_ascii=False)


def shortcut_failure_cause(record: dict[str, Any]) -> FailureClass:
    """The cause of a failed shortcut call from its `CallRecord`: refused before the device was touched
    (bad arguments), failed at its start (precondition), lost its target later (grounding), or ran and
    missed its promised screen (postcondition)."""
    reason = record.get("reason") or ""
    steps = record.get("steps") or []
    if PRECONDITION in reason:  # called from another screen than its recorded start (before it acted)
        return "shortcut_precondition"
    if not record.get("commands") and not steps:
        return "shortcut_bad_arguments"
    if "postcondition failed" in reason:
        return "shortcut_postcondition"
    failed = next((s for s in steps if not s.get("success")), None)
    if "grounding" in reason or (failed is not None and failed.get("number", 1) > 1):
        return "shortcut_grounding"
    return "shortcut_precondition"


def _loops(steps: list[StepRecord]) -> tuple[bool, bool]:
    """(a shortcut call made LOOP_REPEATS times or more, a GUI action repeated LOOP_REPEATS times in a row)."""
    calls: dict[str, int] = {}
    run, last, gui_loop = 0, None, False
    for s in steps:
        if s.kind == "shortcut" and s.action:
            key = _canonical({"name": s.action.get("name"), "arguments": s.action.get("arguments", {})})
            calls[key] = calls.get(key, 0) + 1
        this = _canonical(s.action) if s.kind == "gui" and s.action else None
        if this is not None and (s.action or {}).get("action") not in NOT_LOOPS:
            run = run + 1 if this == last else 1
            gui_loop |= run >= LOOP_REPEATS
        else:
            run = 0
        last = this
    return any(n >= LOOP_REPEATS for n in calls.values()), gui_loop


def _app_of(name: str) -> str | None:
    app = name.split(".", 1)[0]
    return app if app in APPS and app not in NOT_USED else None


def reference_shortcuts(task: Task) -> list[str]:
    """The shortcut names the task's hybrid reference calls."""
    return sorted(set(task.shortcut_names()))


def diagnose(
    result: EpisodeResult, task: Task, steps: list[StepRecord], predefined_kb: bool = True
) -> EpisodeDiagnosis:
    """Classify a scored episode (no failure class for a success) and collect the sets AppBench scores.
    Shortcut names are set against the reference's only with the predefined KB (`predefined_kb`): a
    generated KB names its own, so there neither `wrong_shortcut` nor the shortcut sets apply."""
    shortcuts = [s for s in steps if s.kind == "shortcut" and s.action]
    used_shortcuts = sorted({str(s.action["name"]) for s in shortcuts if s.action})
    apps = {a.name for s in steps if s.foreground and (a := BY_PACKAGE.get(s.foreground.split("/")[0]))}
    apps |= {app for name in used_shortcuts if (app := _app_of(name))}
    reference = reference_shortcuts(task) if predefined_kb else []
    diagnosis = EpisodeDiagnosis(
        task_id=result.task_id,
        repeat=result.repeat,
        trajectory=result.trajectory,
        apps_used=sorted(apps - NOT_USED),
        apps_reference=sorted(task.apps),
        shortcuts_used=used_shortcuts if predefined_kb else [],
        shortcuts_reference=reference,
        refused_calls=sum(s.kind == "invalid" and (s.error or "").startswith(NOT_OFFERED) for s in steps),
    )
    if result.success:
        return diagnosis
    labels: list[FailureClass] = []
    if predefined_kb and any(name not in reference for name in used_shortcuts):
        labels.append("wrong_shortcut")
    call_loop, gui_loop = _loops(steps)
    if call_loop:
        labels.append("repeated_call_loop")
    labels += [  # a call an injected fault made fail is the harness's doing, never the agent's error
        shortcut_failure_cause(s.shortcut)
        for s in shortcuts
        if not s.ok and s.shortcut and not str(s.shortcut.get("reason") or "").startswith(INJECTED)
    ]
    if gui_loop:
        labels.append("repeated_action_loop")
    counted = [s for s in steps if s.kind not in UNCOUNTED]
    if counted and 2 * sum(s.kind == "invalid" for s in counted) >= len(counted):
        labels.append("unusable_replies")
    if not set(task.apps) & apps:
        labels.append("wrong_app")
    shortest = min(len(task.solutions.gui), len(task.solutions.hybrid))
    if result.end_reason == "finished":
        labels.append("stopped_early" if result.steps < shortest else "wrong_final_state")
    elif result.end_reason in ("step_limit", "time_limit"):
        labels.append(result.end_reason)
    ordered = [c for c in FAILURE_CLASSES if c in labels]
    diagnosis.labels = ordered
    diagnosis.failure = ordered[0]  # every scored ending adds a class
    return diagnosis


def _screen_size(png: Path) -> tuple[int, int] | None:
    """A PNG's width and height from its header (the screen a dump was clipped to), None without one."""
    try:
        head = png.read_bytes()[16:24]
    except OSError:
        return None
    return (int.from_bytes(head[:4], "big"), int.from_bytes(head[4:], "big")) if len(head) == 8 else None


def next_reference_shortcut(task: Task, steps: list[StepRecord]) -> str | None:
    """The shortcut the reference calls next after `steps`: its first not yet called successfully (in
    reference order), None when none is left."""
    pending = task.shortcut_names()
    for s in steps:
        if s.kind == "shortcut" and s.ok and s.action and s.action.get("name") in pending:
            pending.remove(s.action["name"])
    return pending[0] if pending else None


def reference_offered(task: Task, agent: Agent, history: list[StepRecord]) -> bool | None:
    """Online retrieval recall as a step is made (`StepRecord.reference_offered`): whether the shortcut the
    reference calls next was among those the agent was offered at this step; None for an agent offered
    none at this step (not a MAS agent, or a step without a prompt) and when no reference shortcut is left."""
    offered = agent.offered_now if isinstance(agent, OffersShortcuts) else None
    pending = next_reference_shortcut(task, history) if offered is not None else None
    return None if pending is None or offered is None else pending in offered


def online_recall(
    task: Task, steps: list[StepRecord], episode_dir: Path, retriever: ShortcutRetriever | None
) -> tuple[int, int]:
    """(hits, steps) of the online retrieval recall over an episode's counted steps: from each step's
    `reference_offered`, recorded during the run; for an episode recorded without them, recomputed with a
    `retrieved` run's `retriever` from each step's saved UI dump (retrieval is deterministic; steps
    without a saved dump are left out)."""
    counted = [(i, s) for i, s in enumerate(steps) if s.kind not in UNCOUNTED]
    if any(s.reference_offered is not None for s in steps):
        recorded = [s.reference_offered for _, s in counted if s.reference_offered is not None]
        return sum(recorded), len(recorded)
    hits = total = 0
    for i, s in counted:
        pending = next_reference_shortcut(task, steps[:i]) if retriever is not None else None
        if (
            retriever is None
            or pending is None
            or s.ui_dump is None
            or not (episode_dir / s.ui_dump).exists()
        ):
            continue
        size = _screen_size(episode_dir / s.screenshot) if s.screenshot else None
        elements = parse_ui_dump((episode_dir / s.ui_dump).read_bytes(), screen=size)
        package = s.foreground.split("/")[0] if s.foreground else None
        offered = retrieve_for_screen(retriever, task.instruction, elements, package)
        hits += pending in {o.qualified_name for o in offered}
        total += 1
    return hits, total


def run_retriever(run: dict[str, Any]) -> ShortcutRetriever | None:
    """The retriever a run's agent was offered shortcuts by: a MAS agent (a model agent with shortcuts that
    does not grow its own KB) at the `retrieved` level with a KB; None otherwise."""
    from masbench.agents import AGENTS

    from .runner import load_run_kb

    spec = AGENTS.get(run.get("agent", ""))
    if spec is None or not (spec.uses_shortcuts and spec.needs_model and not spec.learns):
        return None
    if run.get("kb_exposure", "retrieved") != "retrieved":
        return None
    try:
        kb = load_run_kb(run.get("kb", "predefined"))
    except (KBError, OSError):  # a generated KB moved or removed since: no recall, the rest stands
        return None
    return ShortcutRetriever(kb) if kb is not None else None


def read_steps(path: Path) -> list[StepRecord] | None:
    """The steps of one episode, None when its steps.jsonl is missing; a line that is not a step is skipped."""
    if not path.exists():
        return None
    steps = []
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        try:
            steps.append(StepRecord.model_validate_json(line))
        except ValidationError:
            log.warning("%s:%d: not a step, skipped", path, number)
    return steps


def diagnose_run(
    run_dir: Path,
    results: list[EpisodeResult],
    tasks: dict[str, Task],
    predefined_kb: bool = True,
    retriever: ShortcutRetriever | None = None,
) -> dict[tuple[str, int], EpisodeDiagnosis]:
    """The diagnosis of every scored episode whose task and trajectory are there, with its online retrieval
    recall where its steps recorded it or the `retriever` of a run offered retrieved shortcuts can
    recompute it."""
    out = {}
    for r in results:
        task = tasks.get(r.task_id)
        steps = read_steps(run_dir / r.trajectory / "steps.jsonl") if task is not None and r.scored else None
        if task is not None and steps is not None:
            d = diagnose(r, task, steps, predefined_kb)
            d.retrieval_hits, d.retrieval_steps = online_recall(
                task, steps, run_dir / r.trajectory, retriever
            )
            out[d.key] = d
    return out


def set_f1(used: list[str], reference: list[str]) -> tuple[float | None, float | None, float | None]:
    """AppBench's (precision, recall, F1) of one episode's set against the reference's: precision None when
    nothing was used, recall None when the reference has nothing, F1 None only when both are empty."""
    hit = len(set(used) & set(reference))
    precision = hit / len(used) if used else None
    recall = hit / len(reference) if reference else None
    f1 = 2 * hit / (len(used) + len(reference)) if used or reference else None
    return precision, recall, f1
