"""One episode: reset the phone to the task's initial state, loop observe → agent → execute until the
agent finishes or a limit is hit, judge the final state, and write the trajectory.

Judging (`judge_mode`): `check` runs the task's programmatic check (virtual phones only); `llm` asks the
LLM judge (final screenshots + the textual trajectory against the rubric); `both` decides success by the
check and records the judge's verdict beside it, which measures the judge. On a device that is not a
virtual phone there is no check: a judge, when given, decides; without one the episode is an error."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from masbench.actions.execute import execute_action
from masbench.deadlines import deadline
from masbench.device.errors import DeviceTimeoutError
from masbench.llm import DeadlineExceeded
from masbench.tasks.frame import judge as judge_outcome
from masbench.tasks.player import prepare
from masbench.trajectory import UNCOUNTED, EndReason, StepRecord, Usage

from .diagnostics import reference_offered
from .faults import injected_faults
from .records import EpisodeResult, ErrorKind, JudgeMode

if TYPE_CHECKING:
    from masbench.agents import Agent
    from masbench.device import Device
    from masbench.eval.judge import Judge
    from masbench.shortcuts import KnowledgeBase, ShortcutExecutor
    from masbench.tasks import Task

NO_CHECK_ON_REAL_DEVICE = "no programmatic check on a real device; pass --judge MODEL"
ENDINGS = {
    "finished": "the agent declared it finished",
    "step_limit": "the step limit was reached before the agent finished",
    "time_limit": "the time limit was reached before the agent finished",
}


class Interrupted(Exception):
    """The run is stopping (Ctrl-C): the episode is dropped unrecorded and runs again on --resume."""


@dataclass
class Limits:
    max_steps: int
    timeout_s: float


def step_limit(optimal_steps: int, max_steps: int | None, factor: float) -> int:
    """The step budget: a fixed `--max-steps`, else `factor` x the task's optimal steps (at least 10)."""
    return max_steps if max_steps is not None else max(10, round(optimal_steps * factor))


def _device_ms(device: Device) -> int | None:
    return device.device_time()["device_ms"] if device.kind == "virtual" else None


def effective_judge_mode(mode: JudgeMode, device_kind: str, has_judge: bool) -> JudgeMode | None:
    """How an episode is judged on this device: off virtual phones only the LLM judge can run (None when
    there is none); `llm` and `both` need a judge."""
    if mode != "check" and not has_judge:
        raise ValueError(f"judge mode {mode!r} needs an LLM judge (--judge MODEL)")
    if device_kind != "virtual":
        return "llm" if has_judge else None
    return mode


def run_episode(
    device: Device,
    task: Task,
    agent: Agent,
    *,
    kb: KnowledgeBase | None,
    shortcuts: ShortcutExecutor | None,
    limits: Limits,
    run_dir: Path,
    repeat: int = 0,
    model: str | None = None,
    kb_label: str = "predefined",
    stop: threading.Event | None = None,
    save_screens: bool = True,
    judge: Judge | None = None,
    judge_mode: JudgeMode = "check",
    snapshot: str | None = None,
) -> EpisodeResult:
    """Run one task with one agent on one device. A `DeviceGoneError` (a device vanished, or frozen: silent
    past its call's timeout and to a probe) propagates so the runner can retry the task on another device;
    `Interrupted` propagates when `stop` is set."""
    rel = f"{task.id}/r{repeat}" if repeat else task.id
    traj = run_dir / "trajectories" / rel
    traj.mkdir(parents=True, exist_ok=True)
    for stale in traj.iterdir():  # a crashed earlier attempt of this episode leaves files behind
        if stale.is_file():  # (repeats 1.. live in r<k>/ beneath repeat 0's files, maybe running now)
            stale.unlink()
    started_at = datetime.now(UTC)
    mode = effective_judge_mode(judge_mode, device.kind, judge is not None)
    if mode is None:
        return EpisodeResult(
            task_id=task.id, repeat=repeat, agent=agent.name, model=model, kb=kb_label, device=str(device.address),
            device_kind=device.kind, success=False, end_reason="error", error=NO_CHECK_ON_REAL_DEVICE, error_kind="setup", steps=0,
            gui_actions=0, shortcut_calls=0, shortcut_successes=0, invalid_steps=0, optimal_steps=task.optimal_steps,
            wall_s=0.0, started_at=started_at, trajectory=f"trajectories/{rel}",
        )  # fmt: skip
    use_judge = mode in ("llm", "both")
    t0 = time.perf_counter()
    limit_at = time.monotonic() + limits.timeout_s
    with deadline(limit_at):  # a phone that freezes while being reset is lost within the limit too
        before = prepare(device, task, snapshot)
    dev0 = last_ms = _device_ms(device)
    agent.reset(task if agent.sees_solutions else task.view(), kb, seed=repeat)
    history: list[StepRecord] = []
    usage = Usage()
    end: EndReason = "step_limit"
    error: str | None = None
    error_kind: ErrorKind | None = None
    answer: str | None = None
    step_shots: list[bytes] = []  # the screens the last two steps saw, for the judge
    while True:
        if stop is not None and stop.is_set():
            raise Interrupted(task.id)
        if time.monotonic() >= limit_at:
            end = "time_limit"
            break
        counted = sum(1 for s in history if s.kind not in UNCOUNTED)
        if counted >= limits.max_steps:
            end = "step_limit"
            break
        with deadline(limit_at):  # a model, shortcut or device call gets at most the time left
            try:
                record, shot, fault = _one_step(
                    device, agent, history, shortcuts, traj, save_screens, use_judge
                )
            except DeviceTimeoutError as exc:  # the device still answers, just not this observation
                if time.monotonic() >= limit_at:  # cut by the time limit: the agent's time is up
                    end = "time_limit"
                else:
                    end, error, error_kind = "error", f"device: {exc}", "device"
                break
        if shot:
            step_shots = [*step_shots[-1:], shot]
        now_ms = _device_ms(device)
        record.device_ms = (now_ms - last_ms) if now_ms is not None and last_ms is not None else None
        last_ms = now_ms
        record.reference_offered = reference_offered(task, agent, history)  # online retrieval recall
        usage.merge(record.usage)
        history.append(record)
        if record.kind == "answer" and record.action:
            answer = record.action.get("text")
        if record.kind == "finish":
            end = "finished"
            break
        if record.kind == "fault":
            end, error, error_kind = fault_ending(
                fault, answered=any(s.kind != "fault" for s in history[:-1])
            )
            break
    shots: list[bytes] = []
    if use_judge:  # the final state, taken in memory even with --no-screens
        final = device.observe(screenshot=True).screenshot_png
        for shot in [*step_shots, final]:  # the last two distinct screens (a `finish` changes none)
            if shot and (not shots or shots[-1] != shot):
                shots.append(shot)
        shots = shots[-2:]
        if save_screens and final:
            (traj / "final.png").write_bytes(final)
    result = judge_outcome(task, device, before) if mode in ("check", "both") and error is None else None
    wall = time.perf_counter() - t0  # the agent's episode; the judge's time is in judge_usage
    verdict = None
    if use_judge and error is None:
        assert judge is not None
        verdict = judge.judge(task, history, shots, ending=ENDINGS.get(end, end), answer=answer)
        if verdict.failed and mode == "llm":  # no verdict where the judge alone decides: an outage
            end, error, error_kind = "error", verdict.reason, "judge"
    dev1 = last_ms
    counted_steps = [s for s in history if s.kind not in UNCOUNTED]
    calls = [s for s in counted_steps if s.kind == "shortcut"]
    _write_steps(traj, history)
    return EpisodeResult(
        task_id=task.id,
        repeat=repeat,
        agent=agent.name,
        model=model,
        kb=kb_label,
        device=str(device.address),
        device_kind=device.kind,
        success=error is None
        and (result.passed if result is not None else bool(verdict and verdict.success)),
        end_reason=end,
        error=error,
        error_kind=error_kind,
        check_details=result.details if result is not None else [],
        check_passed=result.passed if result is not None else None,
        judge_success=verdict.success if verdict is not None else None,
        judge_reason=verdict.reason if verdict is not None else None,
        answer=answer,
        steps=len(counted_steps),
        gui_actions=sum(1 for s in counted_steps if s.kind == "gui"),
        shortcut_calls=len(calls),
        shortcut_successes=sum(1 for s in calls if s.ok),
        invalid_steps=sum(1 for s in counted_steps if s.kind == "invalid"),
        # the closing finish too: a rescued finish ended an episode that strict rules would have continued
        rescued_by_lenient_parser=sum(1 for s in history if s.rescued_by_lenient_parser),
        optimal_steps=task.optimal_steps,
        shortcut_names=[s.action["name"] for s in calls if s.action],
        shortcut_calls_detail=[
            {"name": s.action["name"], "arguments": s.action.get("arguments", {}), "success": s.ok}
            for s in calls
            if s.action
        ],
        wall_s=round(wall, 4),
        device_ms=(dev1 - dev0) if dev0 is not None and dev1 is not None else None,
        agent_usage=usage,
        judge_usage=verdict.usage if verdict is not None else Usage(),
        started_at=started_at,
        trajectory=f"trajectories/{rel}",
        injected_faults=injected_faults(shortcuts, history),
    )


def _one_step(
    device, agent, history, shortcuts, traj: Path, save_screens: bool, keep_shot: bool = False
) -> tuple[StepRecord, bytes | None, Exception | None]:
    """One decision and its execution: the step's record, its screenshot when `keep_shot`, and the fault
    that kept the agent from deciding (None when it decided)."""
    index = len(history)
    t0 = time.perf_counter()
    obs = device.observe(screenshot=save_screens or agent.needs_screenshot or keep_shot)
    observe_s = time.perf_counter() - t0
    shot = xml = None
    if save_screens:
        shot, xml = f"step_{index:03d}.png", f"step_{index:03d}.xml"
        (traj / shot).write_bytes(obs.screenshot_png)
        (traj / xml).write_text(obs.xml, encoding="utf-8")
    a0 = time.perf_counter()
    decision = agent.step(obs, history)
    agent_s = time.perf_counter() - a0
    base = dict(
        index=index,
        model_output=decision.model_output,
        model_input=decision.model_input,
        usage=decision.usage,
        screenshot=shot,
        ui_dump=xml,
        foreground=f"{obs.package}/{obs.activity}",
        elements=len(obs.elements),
        agent_s=round(agent_s, 4),
        observe_s=round(observe_s, 4),
    )
    if decision.fault is not None:
        record = StepRecord(action=None, kind="fault", ok=False, error=str(decision.fault), **base)
    elif decision.action is None:
        record = StepRecord(
            action=None, kind="invalid", ok=False, error=decision.error or "unusable model output", **base
        )
    else:
        e0 = time.perf_counter()
        outcome = execute_action(device, decision.action, obs.elements, shortcuts)
        base["execute_s"] = round(time.perf_counter() - e0, 4)
        if outcome.shortcut_record and outcome.shortcut_record.get("usage"):  # grounding a dynamic shortcut
            base["usage"] = decision.usage.model_copy()  # counted as the agent's calls (MToC, model calls)
            base["usage"].merge(Usage.model_validate(outcome.shortcut_record["usage"]))
        record = StepRecord(
            action=decision.action.model_dump(mode="json", exclude_none=True),
            rescued_by_lenient_parser=decision.rescued,
            kind=outcome.kind,
            ok=outcome.ok,
            error=outcome.error,
            shortcut=outcome.shortcut_record,
            touch=outcome.touch,
            target=outcome.target,
            **base,
        )
    record.wall_s = round(time.perf_counter() - t0, 4)
    return record, (obs.screenshot_png or None) if keep_shot else None, decision.fault


def fault_ending(
    fault: Exception | None, answered: bool = False
) -> tuple[EndReason, str | None, ErrorKind | None]:
    """How a step whose decision failed ends the episode. The deadline passing is the agent's time limit
    only when the time was the agent's to spend: the call was never sent, or the model had `answered` earlier
    in the episode (it is up and was acting, slowly). A model that has not answered once by the deadline -
    hung from the start, whether cut by `--timeout` or timing out on its own per-attempt timeout - is an
    outage like any other failure (unreachable, failing after retries, a cassette miss): an error of the
    infrastructure, never scored."""
    if isinstance(fault, DeadlineExceeded) and (fault.attempts == 0 or answered):
        return "time_limit", None, None
    return "error", f"model: {fault}", "model"


def _write_steps(traj: Path, history: list[StepRecord]) -> None:
    with (traj / "steps.jsonl").open("w", encoding="utf-8") as fh:
        for record in history:
            fh.write(record.model_dump_json() + "\n")
