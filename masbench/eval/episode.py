"""One episode: reset the phone to the task's initial state, loop observe → agent → execute until the
agent finishes or a limit is hit, judge the final state, and write the trajectory."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from masbench.actions.execute import execute_action
from masbench.tasks.checks import check_device
from masbench.tasks.player import prepare

from .records import EndReason, EpisodeResult, LLMUsage, StepRecord

if TYPE_CHECKING:
    from masbench.agents import Agent
    from masbench.device import Device
    from masbench.shortcuts import KnowledgeBase, ShortcutExecutor
    from masbench.tasks import Task


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
) -> EpisodeResult:
    """Run one task with one agent on one device. A `DeviceGoneError` propagates so the runner can
    retry the task on another device; `Interrupted` propagates when `stop` is set."""
    rel = f"{task.id}/r{repeat}" if repeat else task.id
    traj = run_dir / "trajectories" / rel
    traj.mkdir(parents=True, exist_ok=True)
    for stale in traj.iterdir():  # a crashed earlier attempt of this episode leaves files behind
        stale.unlink()
    started_at = datetime.now(UTC)
    t0 = time.perf_counter()
    prepare(device, task)
    dev0 = last_ms = _device_ms(device)
    agent.reset(task, kb, seed=repeat)
    history: list[StepRecord] = []
    usage = LLMUsage()
    end: EndReason = "step_limit"
    answer: str | None = None
    while True:
        if stop is not None and stop.is_set():
            raise Interrupted(task.id)
        if time.perf_counter() - t0 > limits.timeout_s:
            end = "time_limit"
            break
        counted = sum(1 for s in history if s.kind != "finish")
        if counted >= limits.max_steps:
            end = "step_limit"
            break
        record = _one_step(device, agent, history, shortcuts, traj, save_screens)
        now_ms = _device_ms(device)
        record.device_ms = (now_ms - last_ms) if now_ms is not None and last_ms is not None else None
        last_ms = now_ms
        usage.add(record.usage)
        history.append(record)
        if record.kind == "answer" and record.action:
            answer = record.action.get("text")
        if record.kind == "finish":
            end = "finished"
            break
    result = check_device(task.check, device)
    wall = time.perf_counter() - t0
    dev1 = last_ms
    counted_steps = [s for s in history if s.kind != "finish"]
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
        success=result.passed,
        end_reason=end,
        check_details=result.details,
        answer=answer,
        steps=len(counted_steps),
        gui_actions=sum(1 for s in counted_steps if s.kind == "gui"),
        shortcut_calls=len(calls),
        shortcut_successes=sum(1 for s in calls if s.ok),
        invalid_steps=sum(1 for s in counted_steps if s.kind == "invalid"),
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
        started_at=started_at,
        trajectory=f"trajectories/{rel}",
    )


def _one_step(device, agent, history, shortcuts, traj: Path, save_screens: bool) -> StepRecord:
    index = len(history)
    t0 = time.perf_counter()
    obs = device.observe(screenshot=save_screens or agent.needs_screenshot)
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
    if decision.action is None:
        record = StepRecord(
            action=None, kind="invalid", ok=False, error=decision.error or "unusable model output", **base
        )
    else:
        e0 = time.perf_counter()
        outcome = execute_action(device, decision.action, obs.elements, shortcuts)
        base["execute_s"] = round(time.perf_counter() - e0, 4)
        record = StepRecord(
            action=decision.action.model_dump(mode="json", exclude_none=True),
            kind=outcome.kind,
            ok=outcome.ok,
            error=outcome.error,
            shortcut=outcome.shortcut_record,
            **base,
        )
    record.wall_s = round(time.perf_counter() - t0, 4)
    return record


def _write_steps(traj: Path, history: list[StepRecord]) -> None:
    with (traj / "steps.jsonl").open("w", encoding="utf-8") as fh:
        for record in history:
            fh.write(record.model_dump_json() + "\n")
