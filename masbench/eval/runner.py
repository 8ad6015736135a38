"""The resumable, parallel runner: one worker thread per device pulls (task, repeat) items from a queue,
appends each finished episode to results.jsonl (flushed and fsynced), takes a device that vanishes out
of the pool and retries its task elsewhere, and stops cleanly on Ctrl-C so `--resume` loses and repeats
nothing.

An episode that ended in an error of the infrastructure (model unreachable, device lost, a harness bug) is
recorded but not done: `--resume` runs it again and its new line supersedes the old one (results.jsonl
keeps both, as history). Several such errors in a row stop the run, since they are rarely the last.

A learning agent's items go as chains in task order, each on one worker at a time, so its memory grows
the same way whatever the devices (eval/memory.py); a chain stops at an error and `--resume` continues
it from there."""

from __future__ import annotations

import contextlib
import queue
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from masbench.device.errors import DeviceGoneError
from masbench.trajectory import EndReason

from .episode import EpisodeSettings, Interrupted, Limits, run_episode, step_limit
from .faults import faulty
from .lock import lock_run_dir
from .memory import MemoryLog
from .records import (
    EpisodeResult,
    ErrorKind,
    OutputError,
    RunConfig,
    append_line,
    given_up,
    make_dir,
    read_config,
    read_results,
    write_atomic,
)

if TYPE_CHECKING:
    from masbench.actions.execute import ShortcutCaller
    from masbench.agents import Agent
    from masbench.device import Device
    from masbench.eval.judge import Judge
    from masbench.shortcuts import Ground, KnowledgeBase
    from masbench.tasks import Task

RESULTS = "results.jsonl"
CONFIG = "run.json"
MAX_ATTEMPTS = 3
MAX_CONSECUTIVE_ERRORS = 3
STOP_GRACE_S = 3.0  # after Ctrl-C, how long episodes under way get to end before the run stops without them


class RunConfigMismatch(ValueError):
    pass


def load_results(run_dir: Path) -> list[EpisodeResult]:
    """Every line of results.jsonl, read tolerantly (`records.read_results`)."""
    return read_results(run_dir / RESULTS)


def load_run_kb(kb: str) -> KnowledgeBase | None:
    """The KB a `--kb` value names: `predefined` (the shipped KB, or $MASBENCH_KB_DIR), `none`, or a path."""
    from masbench.shortcuts import load_kb

    if kb == "none":
        return None
    return load_kb(None if kb == "predefined" else Path(kb))


def latest(results: list[EpisodeResult]) -> list[EpisodeResult]:
    """The last line of each (task, repeat): a rerun after an error replaces the errored episode."""
    return list({(r.task_id, r.repeat): r for r in results}.values())


# What a resumed run must be given as it was started: the options that decide what is played and how it
# is scored (devices, executor and output options may change between sessions).
KEPT_OPTIONS = {
    "agent": "--agent",
    "model": "--model",
    "judge": "--judge",
    "judge_mode": "--judge-mode",
    "task_ids": "--tasks",
    "kb": "--kb",
    "repeats": "--repeats",
    "max_steps": "--max-steps",
    "max_steps_factor": "the step-limit factor",
    "timeout_s": "--timeout",
    "faults": "--faults",
    "grounding_model": "--grounding-model",
}


def _changed(field: str, stored: Any, given: Any) -> str:
    if field == "task_ids":
        return f"--tasks chose {len(stored)} other tasks (this command: {len(given)})"
    return f"{KEPT_OPTIONS[field]} {stored} (this command: {given})"


def prepare_run_dir(run_dir: Path, config: RunConfig, resume: bool) -> RunConfig:
    """Create the run directory, or check that a resumed run keeps its original configuration."""
    make_dir(run_dir)
    lock_run_dir(run_dir)  # one process per run directory, for the life of the process
    path = run_dir / CONFIG
    if path.exists():
        stored = read_config(path)
        if not resume:
            raise RunConfigMismatch(
                f"{run_dir} already holds a run; pass --resume to continue it or choose another --out"
            )
        diff = [f for f in KEPT_OPTIONS if getattr(stored, f) != getattr(config, f)]
        if diff:
            said = "; ".join(_changed(f, getattr(stored, f), getattr(config, f)) for f in diff)
            raise RunConfigMismatch(
                f"{run_dir} was started with other options: {said}. A run keeps its options, limits included "
                "(they shape every score): resume with the same ones, or start a new run with another --out"
            )
        if stored.kb_exposure != config.kb_exposure:
            raise RunConfigMismatch(
                f"{run_dir} was started with --kb-exposure {stored.kb_exposure} (this command: "
                f"{config.kb_exposure}); resume with it, or start a new run with another --out"
            )
        return stored.model_copy(update={"executor": config.executor})  # the session's own
    write_atomic(path, config.model_dump_json(indent=2))
    return config


@dataclass
class WorkItem:
    task: Task
    repeat: int
    attempts: int = 0


@dataclass
class RunEvents:
    """Callbacks the CLI uses to draw progress; every one is optional and called from worker threads."""

    on_start: Callable[[str, WorkItem], None] = lambda device, item: None
    on_result: Callable[[str, EpisodeResult], None] = lambda device, result: None
    on_device_lost: Callable[[str, str], None] = lambda device, reason: None


@dataclass
class Runner:
    config: RunConfig
    tasks: list[Task]
    make_agent: Callable[[], Agent]
    kb: KnowledgeBase | None
    run_dir: Path
    events: RunEvents = field(default_factory=RunEvents)
    save_screens: bool = True
    make_judge: Callable[[], Judge] | None = None  # one LLM judge per worker, like the agent
    max_consecutive_errors: int = MAX_CONSECUTIVE_ERRORS
    learning: bool = False  # the agent learns across tasks: play chains in task order (eval/memory.py)
    make_ground: Callable[[], Ground] | None = None  # one grounding model per worker, for dynamic shortcuts

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self.stop = threading.Event()
        self._closed = False  # set once a stopped run stops waiting: a late result is dropped, not written
        history = load_results(self.run_dir)
        self._latest = {(r.task_id, r.repeat): r for r in history}
        self.given_up = given_up(history)  # the same harness error every time: not retried again
        self.lost: dict[str, str] = {}
        self.aborted: str | None = None  # why the run stopped itself (errors in a row), None otherwise
        self._errors_in_a_row = 0
        self._outstanding = 0  # items of the current run() not yet recorded
        self.memories = MemoryLog(
            self.run_dir, self.tasks, self.config.repeats, self.config.learn_across_repeats
        )

    @property
    def results(self) -> list[EpisodeResult]:
        """The latest result of every episode recorded so far (earlier runs' included)."""
        return list(self._latest.values())

    def pending(self) -> list[WorkItem]:
        done = {key for key, r in self._latest.items() if r.scored} | set(self.given_up)
        return [
            WorkItem(t, k) for k in range(self.config.repeats) for t in self.tasks if (t.id, k) not in done
        ]

    def batches(self) -> list[list[WorkItem]]:
        """The pending items as workers take them: one at a time, or for a learning agent whole chains in
        task order (one per repeat, or one for the run when repeats learn from each other)."""
        pending = self.pending()
        if not self.learning:
            return [[item] for item in pending]
        chains: dict[int, list[WorkItem]] = {}
        for item in pending:
            chains.setdefault(self.memories.chain_of(item.repeat), []).append(item)
        return list(chains.values())

    def run(self, devices: list[Device]) -> list[EpisodeResult]:
        """Run every pending item; returns all results of the run (earlier ones included)."""
        work: queue.Queue[list[WorkItem]] = queue.Queue()
        pending = self.pending()
        for batch in self.batches():
            work.put(batch)
        self._alive = len(devices)
        self._outstanding = len(pending)  # items not yet recorded; a lost device's item comes back
        threads = [
            threading.Thread(target=self._worker, args=(d, work), name=f"worker-{d.serial}", daemon=True)
            for d in devices
        ]
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(timeout=0.2)
        except KeyboardInterrupt:
            self.stop.set()  # workers drop their episode at its next step; one stuck in a call is left
            ends = time.monotonic() + STOP_GRACE_S
            for t in threads:
                t.join(timeout=max(0.0, ends - time.monotonic()))
            with self._lock:
                self._closed = True
            raise
        return self.results

    # -- workers -----------------------------------------------------------------------------------------
    def _worker(self, device: Device, work: queue.Queue[list[WorkItem]]) -> None:
        agent = self.make_agent()
        judge = self.make_judge() if self.make_judge is not None else None
        ground = self.make_ground() if self.make_ground is not None else None
        label = str(device.address)
        while not self.stop.is_set():
            try:
                batch = work.get(timeout=0.05)
            except queue.Empty:
                with self._lock:
                    if self._outstanding <= 0:
                        return
                continue
            for position, item in enumerate(batch):
                item.attempts += 1
                self.events.on_start(label, item)
                try:
                    result = self._play(device, item, agent, judge, ground)
                except Interrupted:
                    return
                except DeviceGoneError as exc:
                    self._lose_device(label, str(exc), batch[position:], work)
                    return
                self.record(label, result)
                if self.learning and not result.scored:  # what follows must start from this task's memory
                    self._set_aside(batch[position + 1 :])
                    break

    def _play(
        self, device: Device, item: WorkItem, agent: Agent, judge: Judge | None, ground: Ground | None
    ) -> EpisodeResult:
        """One item; a learning agent starts from its chain's memory and leaves its own for the next."""
        from masbench.shortcuts import ShortcutExecutor

        if self.learning:
            try:
                agent.remember(self.memories.before(item))
            except ValueError as exc:
                return error_result(self.config, item, device, f"memory: {exc}", "harness")
        kb = agent.executor_kb(self.kb)
        executor = ShortcutExecutor(kb, device, ground=ground) if kb is not None else None
        shortcuts = faulty(executor, self.config.faults, item.task.id, item.repeat)  # --faults
        result = play_item(
            device, item, agent, judge, shortcuts, kb=self.kb, config=self.config, run_dir=self.run_dir,
            save_screens=self.save_screens, stop=self.stop,
        )  # fmt: skip
        if self.learning and result.scored:
            self.memories.keep(item, agent.memory())
        return result

    def _set_aside(self, items: list[WorkItem]) -> None:
        """Leave these items unrun and unrecorded: `--resume` runs them."""
        with self._lock:
            self._outstanding -= len(items)

    def _lose_device(
        self, label: str, reason: str, batch: list[WorkItem], work: queue.Queue[list[WorkItem]]
    ) -> None:
        """The device is gone during `batch[0]`: the rest of the batch goes back to the queue for another
        device, or, when no device is left, `batch[0]` is recorded as lost and the rest stays unrecorded;
        `--resume` runs them all."""
        item = batch[0]
        with self._lock:
            self.lost[label] = reason
            self._alive -= 1
            alive = self._alive
        self.events.on_device_lost(label, reason)
        if item.attempts < MAX_ATTEMPTS and alive > 0:
            work.put(batch)
        elif alive > 0:
            self.record(label, self.device_lost_result(item, reason))
            if self.learning:
                self._set_aside(batch[1:])
            elif batch[1:]:
                work.put(batch[1:])
        else:  # no device left: say why this item ended; it and the rest run again on --resume
            self.record(label, self.device_lost_result(item, reason))
            with self._lock:
                self._outstanding = 0

    def device_lost_result(self, item: WorkItem, reason: str) -> EpisodeResult:
        """The record of an item whose device was lost on every attempt (or the last device left)."""
        error = f"device lost {item.attempts} times: {reason}"
        return error_result(self.config, item, None, error, "device", end="device_lost")

    def record(self, label: str, result: EpisodeResult) -> None:
        line = result.model_dump_json() + "\n"
        with self._lock:
            if self._closed:  # the run has stopped and summarised without this episode: --resume runs it
                return
            try:
                append_line(self.run_dir / RESULTS, line)
            except OutputError as exc:  # a full disk: stop; what is recorded stays, the rest runs on --resume
                self._outstanding -= 1
                self.aborted = self.aborted or str(exc)
                self.stop.set()
                return
            self._latest[(result.task_id, result.repeat)] = result
            self._outstanding -= 1
            self._errors_in_a_row = 0 if result.scored else self._errors_in_a_row + 1
            if self._errors_in_a_row >= self.max_consecutive_errors and self.aborted is None:
                self.aborted = (
                    f"{self._errors_in_a_row} episodes in a row ended in errors of the infrastructure, "
                    f"the last: {result.error}"
                )
                self.stop.set()  # episodes under way are dropped unrecorded; --resume runs them
        self.events.on_result(label, result)


def play_item(
    device: Device,
    item: WorkItem,
    agent: Agent,
    judge: Judge | None,
    shortcuts: ShortcutCaller | None,
    *,
    kb: KnowledgeBase | None,
    config: RunConfig,
    run_dir: Path,
    save_screens: bool,
    stop: threading.Event,
) -> EpisodeResult:
    """Run one work item on one device (any worker: a thread here, a Ray actor elsewhere). A bug in the
    episode becomes a harness error result; `Interrupted` and `DeviceGoneError` propagate to the caller."""
    settings = EpisodeSettings(
        Limits(step_limit(item.task.optimal_steps, config.max_steps, config.max_steps_factor), config.timeout_s),
        save_screens=save_screens, judge=judge, judge_mode=config.judge_mode, snapshot=config.reset_snapshot,
        model=config.model, kb_label=config.kb,
    )  # fmt: skip
    try:
        result = run_episode(
            device, item.task, agent, settings, kb=kb, shortcuts=shortcuts, run_dir=run_dir, repeat=item.repeat,
            stop=stop,
        )  # fmt: skip
    except (Interrupted, DeviceGoneError):
        raise
    except Exception as exc:  # an episode's bug must not end the run: record it and go on
        trace = traceback.format_exc()
        return error_result(
            config, item, device, f"{type(exc).__name__}: {exc}", "harness", run_dir=run_dir, trace=trace
        )
    result.attempts = item.attempts
    return result


def error_result(
    config: RunConfig,
    item: WorkItem,
    device: Device | None,
    error: str,
    kind: ErrorKind,
    *,
    end: EndReason = "error",
    run_dir: Path | None = None,
    trace: str | None = None,
) -> EpisodeResult:
    """The record of an item that ended in an infrastructure error; its traceback, if any, beside it."""
    rel = f"{item.task.id}/r{item.repeat}" if item.repeat else item.task.id
    if trace and run_dir is not None:
        path = run_dir / "trajectories" / rel
        with contextlib.suppress(OSError):  # the trace is a courtesy; a full disk must not lose the result
            path.mkdir(parents=True, exist_ok=True)
            (path / "error.txt").write_text(trace)
    return EpisodeResult(
        task_id=item.task.id, repeat=item.repeat, agent=config.agent, model=config.model, kb=config.kb,
        device=str(device.address) if device else "", device_kind=device.kind if device else "", success=False,
        end_reason=end, error=error, error_kind=kind, steps=0, gui_actions=0, shortcut_calls=0, shortcut_successes=0,
        invalid_steps=0, optimal_steps=item.task.optimal_steps, wall_s=0.0, attempts=item.attempts,
        started_at=datetime.now(UTC), trajectory=f"trajectories/{rel}",
    )  # fmt: skip


def new_config(**kwargs: Any) -> RunConfig:
    return RunConfig(created_at=datetime.now(UTC), **kwargs)
