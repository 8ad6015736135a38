"""The resumable, parallel runner: one worker thread per device pulls (task, repeat) items from a queue,
appends each finished episode to results.jsonl (flushed and fsynced), takes a device that vanishes out
of the pool and retries its task elsewhere, and stops cleanly on Ctrl-C so `--resume` loses and repeats
nothing.

An episode that ended in an error of the infrastructure (model unreachable, device lost, a harness bug) is
recorded but not done: `--resume` runs it again and its new line supersedes the old one (results.jsonl
keeps both, as history). Several such errors in a row stop the run, since they are rarely the last."""

from __future__ import annotations

import os
import queue
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from masbench.device.errors import DeviceGoneError
from masbench.trajectory import EndReason

from .episode import Interrupted, Limits, run_episode, step_limit
from .records import EpisodeResult, ErrorKind, RunConfig

if TYPE_CHECKING:
    from masbench.agents import Agent
    from masbench.device import Device
    from masbench.eval.judge import Judge
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import Task

RESULTS = "results.jsonl"
CONFIG = "run.json"
MAX_ATTEMPTS = 3
MAX_CONSECUTIVE_ERRORS = 3


class RunConfigMismatch(ValueError):
    pass


def load_results(run_dir: Path) -> list[EpisodeResult]:
    """Every complete line of results.jsonl; a torn last line (a kill mid-write) is cut off the file."""
    path = run_dir / RESULTS
    if not path.exists():
        return []
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        with path.open("r+b") as fh:
            fh.truncate(len(complete))
    return [EpisodeResult.model_validate_json(line) for line in complete.splitlines() if line.strip()]


def latest(results: list[EpisodeResult]) -> list[EpisodeResult]:
    """The last line of each (task, repeat): a rerun after an error replaces the errored episode."""
    return list({(r.task_id, r.repeat): r for r in results}.values())


def prepare_run_dir(run_dir: Path, config: RunConfig, resume: bool) -> RunConfig:
    """Create the run directory, or check that a resumed run keeps its original configuration."""
    path = run_dir / CONFIG
    if path.exists():
        stored = RunConfig.model_validate_json(path.read_text())
        if not resume:
            raise RunConfigMismatch(
                f"{run_dir} already holds a run; pass --resume to continue it or choose another --out"
            )
        same = (
            "agent",
            "model",
            "judge",
            "judge_mode",
            "task_ids",
            "kb",
            "repeats",
            "max_steps",
            "max_steps_factor",
        )
        diff = [f for f in same if getattr(stored, f) != getattr(config, f)]
        if diff:
            raise RunConfigMismatch(
                f"{run_dir} was started with a different {', '.join(diff)}; resume with the same options"
            )
        return stored
    run_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(config.model_dump_json(indent=2))
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

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self.stop = threading.Event()
        self._latest = {(r.task_id, r.repeat): r for r in load_results(self.run_dir)}
        self.lost: dict[str, str] = {}
        self.aborted: str | None = None  # why the run stopped itself (errors in a row), None otherwise
        self._errors_in_a_row = 0

    @property
    def results(self) -> list[EpisodeResult]:
        """The latest result of every episode recorded so far (earlier runs' included)."""
        return list(self._latest.values())

    def pending(self) -> list[WorkItem]:
        done = {key for key, r in self._latest.items() if r.scored}
        return [
            WorkItem(t, k) for k in range(self.config.repeats) for t in self.tasks if (t.id, k) not in done
        ]

    def run(self, devices: list[Device]) -> list[EpisodeResult]:
        """Run every pending item; returns all results of the run (earlier ones included)."""
        work: queue.Queue[WorkItem] = queue.Queue()
        pending = self.pending()
        for item in pending:
            work.put(item)
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
            self.stop.set()
            for t in threads:
                t.join()
            raise
        return self.results

    # -- workers -----------------------------------------------------------------------------------------
    def _worker(self, device: Device, work: queue.Queue[WorkItem]) -> None:
        from masbench.shortcuts import ShortcutExecutor

        agent = self.make_agent()
        judge = self.make_judge() if self.make_judge is not None else None
        kb = agent.executor_kb(self.kb)
        shortcuts = ShortcutExecutor(kb, device) if kb is not None else None
        label = str(device.address)
        while not self.stop.is_set():
            try:
                item = work.get(timeout=0.05)
            except queue.Empty:
                with self._lock:
                    if self._outstanding <= 0:
                        return
                continue
            item.attempts += 1
            self.events.on_start(label, item)
            try:
                result = run_episode(
                    device, item.task, agent, kb=self.kb, shortcuts=shortcuts,
                    limits=Limits(step_limit(item.task.optimal_steps, self.config.max_steps, self.config.max_steps_factor), self.config.timeout_s),
                    run_dir=self.run_dir, repeat=item.repeat, model=self.config.model, kb_label=self.config.kb,
                    stop=self.stop, save_screens=self.save_screens, judge=judge, judge_mode=self.config.judge_mode,
                )  # fmt: skip
                result.attempts = item.attempts
            except Interrupted:
                return
            except DeviceGoneError as exc:
                self._lose_device(label, str(exc), item, work)
                return
            except Exception as exc:  # an episode's bug must not end the run: record it and go on
                result = self._error_result(
                    item, device, f"{type(exc).__name__}: {exc}", traceback.format_exc(), kind="harness"
                )
            self._record(label, result)

    def _lose_device(self, label: str, reason: str, item: WorkItem, work: queue.Queue[WorkItem]) -> None:
        with self._lock:
            self.lost[label] = reason
            self._alive -= 1
            alive = self._alive
        self.events.on_device_lost(label, reason)
        if item.attempts < MAX_ATTEMPTS and alive > 0:
            work.put(item)
        elif alive > 0:
            self._record(
                label,
                self._error_result(
                    item, None, f"device lost {item.attempts} times: {reason}", None, "device", "device_lost"
                ),
            )
        else:  # no device left: the item stays unrecorded, so --resume runs it later
            with self._lock:
                self._outstanding = 0

    def _error_result(
        self,
        item: WorkItem,
        device: Device | None,
        error: str,
        trace: str | None,
        kind: ErrorKind,
        end: EndReason = "error",
    ) -> EpisodeResult:
        rel = f"{item.task.id}/r{item.repeat}" if item.repeat else item.task.id
        if trace:
            path = self.run_dir / "trajectories" / rel
            path.mkdir(parents=True, exist_ok=True)
            (path / "error.txt").write_text(trace)
        return EpisodeResult(
            task_id=item.task.id, repeat=item.repeat, agent=self.config.agent, model=self.config.model, kb=self.config.kb,
            device=str(device.address) if device else "", device_kind=device.kind if device else "", success=False,
            end_reason=end, error=error, error_kind=kind, steps=0, gui_actions=0, shortcut_calls=0, shortcut_successes=0, invalid_steps=0,
            optimal_steps=item.task.optimal_steps, wall_s=0.0, attempts=item.attempts, started_at=datetime.now(UTC),
            trajectory=f"trajectories/{rel}",
        )  # fmt: skip

    def _record(self, label: str, result: EpisodeResult) -> None:
        line = result.model_dump_json() + "\n"
        with self._lock:
            with (self.run_dir / RESULTS).open("a", encoding="utf-8") as fh:
                fh.write(line)
                fh.flush()
                os.fsync(fh.fileno())
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


def new_config(**kwargs: Any) -> RunConfig:
    return RunConfig(created_at=datetime.now(UTC), **kwargs)
