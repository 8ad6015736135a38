"""One episode: reset the phone to the task's initial state, loop observe → agent → execute until the
agent finishes or a limit is hit, judge the final state, and write the trajectory.

Judging (`judge_mode`): `check` runs the task's programmatic check (virtual phones only); `llm` asks the
LLM judge (final screenshots + the textual trajectory against the rubric); `both` decides success by the
check and records the judge's verdict beside it, which measures the judge. On a device that is not a
virtual phone there is no check: a judge, when given, decides; without one the episode is an error."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

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
    from masbench.actions.execute import ShortcutCaller
    from masbench.agents import Agent
    from masbench.device import Device
    from masbench.eval.judge import Judge, Verdict
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import Task
    from masbench.tasks.checks import CheckResult

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


@dataclass(frozen=True)
class EpisodeSettings:
    """How an episode is played, judged and labelled: the same for every episode of a run but its limits."""

    limits: Limits
    save_screens: bool = True
    judge: Judge | None = None
    judge_mode: JudgeMode = "check"
    snapshot: str | None = None  # emulator snapshot loaded before the episode (--reset snapshot:NAME)
    model: str | None = None  # the agent's model, as the result names it
    kb_label: str = "predefined"  # the --kb value, as the result names it


@dataclass
class Played:
    """The step loop's outcome: the steps, how the episode ended and what the judge may need."""

    history: list[StepRecord] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    end: EndReason = "step_limit"
    error: str | None = None
    error_kind: ErrorKind | None = None
    answer: str | None = None
    shots: list[bytes] = field(default_factory=list)  # the last screens seen, for the judge
    device_ms: int | None = None  # the device clock's advance over the steps (virtual phones)

    def fail(self, end: EndReason, error: str | None, kind: ErrorKind | None) -> None:
        self.end, self.error, self.error_kind = end, error, kind


@dataclass
class Verdicts:
    """What decided success: the programmatic check's result and the LLM judge's verdict, each if it ran."""

    check: CheckResult | None = None
    judge: Verdict | None = None


def run_episode(
    device: Device,
    task: Task,
    agent: Agent,
    settings: EpisodeSettings,
    *,
    kb: KnowledgeBase | None,
    shortcuts: ShortcutCaller | None,
    run_dir: Path,
    repeat: int = 0,
    stop: threading.Event | None = None,
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
    episode = _Episode(device, task, agent, settings, shortcuts, traj, stop)
    started_at = datetime.now(UTC)
    mode = effective_judge_mode(settings.judge_mode, device.kind, settings.judge is not None)
    if mode is None:
        played = Played(end="error", error=NO_CHECK_ON_REAL_DEVICE, error_kind="setup")
        return episode.result(played, Verdicts(), repeat, 0.0, started_at, rel)
    t0 = time.perf_counter()
    limit_at = time.monotonic() + settings.limits.timeout_s
    with deadline(limit_at):  # a phone that freezes while being reset is lost within the limit too
        before = prepare(device, task, settings.snapshot)
    agent.reset(task if agent.sees_solutions else task.view(), kb, seed=repeat)
    played = episode.play(limit_at, keep_shots=mode in ("llm", "both"))
    verdicts = Verdicts(check=episode.check(played, mode, before))
    wall = time.perf_counter() - t0  # the agent's episode; the judge's time is in judge_usage
    verdicts.judge = episode.ask_judge(played, mode)
    _write_steps(traj, played.history)
    return episode.result(played, verdicts, repeat, wall, started_at, rel)


@dataclass
class _Episode:
    """One episode's parts: the step loop, the judging of its final state, and its result."""

    device: Device
    task: Task
    agent: Agent
    settings: EpisodeSettings
    shortcuts: ShortcutCaller | None
    traj: Path
    stop: threading.Event | None

    def play(self, limit_at: float, keep_shots: bool) -> Played:
        """Observe, decide, execute until the agent finishes, a limit is hit or a step fails; `keep_shots`
        keeps the last two distinct screens, the final one included, for the judge."""
        played = Played()
        first_ms = last_ms = _device_ms(self.device)
        while True:
            if self.stop is not None and self.stop.is_set():
                raise Interrupted(self.task.id)
            if time.monotonic() >= limit_at:
                played.end = "time_limit"
                break
            if sum(1 for s in played.history if s.kind not in UNCOUNTED) >= self.settings.limits.max_steps:
                played.end = "step_limit"
                break
            with deadline(limit_at):  # a model, shortcut or device call gets at most the time left
                try:
                    record, shot, fault = _one_step(
                        self.device, self.agent, played.history, self.shortcuts, self.traj,
                        self.settings.save_screens, keep_shots,
                    )  # fmt: skip
                except DeviceTimeoutError as exc:  # the device still answers, just not this observation
                    if time.monotonic() >= limit_at:  # cut by the time limit: the agent's time is up
                        played.end = "time_limit"
                    else:
                        played.fail("error", f"device: {exc}", "device")
                    break
            if shot:
                played.shots = [*played.shots[-1:], shot]
            now_ms = _device_ms(self.device)
            record.device_ms = (now_ms - last_ms) if now_ms is not None and last_ms is not None else None
            last_ms = now_ms
            record.reference_offered = reference_offered(self.task, self.agent, played.history)
            if self._ends(played, record, fault):
                break
        played.device_ms = (last_ms - first_ms) if first_ms is not None and last_ms is not None else None
        if keep_shots:
            played.shots = self._final_shots(played.shots)
        return played

    @staticmethod
    def _ends(played: Played, record: StepRecord, fault: Exception | None) -> bool:
        """Take the step's record into `played`; True when the step ended the episode."""
        played.usage.merge(record.usage)
        played.history.append(record)
        if record.kind == "answer" and record.action:
            played.answer = record.action.get("text")
        if record.kind == "finish":
            played.end = "finished"
            return True
        if record.kind == "fault":
            played.fail(*fault_ending(fault, answered=any(s.kind != "fault" for s in played.history[:-1])))
            return True
        return False

    def check(self, played: Played, mode: JudgeMode, before: dict[str, Any] | None) -> CheckResult | None:
        """The programmatic check of the final state (modes check and both), none after an error."""
        if mode not in ("check", "both") or played.error is not None:
            return None
        return judge_outcome(self.task, self.device, before)

    def ask_judge(self, played: Played, mode: JudgeMode) -> Verdict | None:
        """The LLM judge's verdict (modes llm and both), none after an error. A judge that gives no verdict
        where it alone decides is an outage: the episode ends in an error."""
        if mode not in ("llm", "both") or played.error is not None:
            return None
        assert self.settings.judge is not None  # effective_judge_mode: llm and both have one
        ending = ENDINGS.get(played.end, played.end)
        verdict = self.settings.judge.judge(
            self.task, played.history, played.shots, ending=ending, answer=played.answer
        )
        if verdict.failed and mode == "llm":
            played.fail("error", verdict.reason, "judge")
        return verdict

    def _final_shots(self, step_shots: list[bytes]) -> list[bytes]:
        """The last two distinct screens (a `finish` changes none), the final one taken in memory even with
        --no-screens."""
        final = self.device.observe(screenshot=True).screenshot_png
        shots: list[bytes] = []
        for shot in [*step_shots, final]:
            if shot and (not shots or shots[-1] != shot):
                shots.append(shot)
        if self.settings.save_screens and final:
            (self.traj / "final.png").write_bytes(final)
        return shots[-2:]

    def result(
        self, played: Played, verdicts: Verdicts, repeat: int, wall: float, started_at: datetime, rel: str
    ) -> EpisodeResult:
        """The episode's line of results.jsonl."""
        check, verdict = verdicts.check, verdicts.judge
        counted = [s for s in played.history if s.kind not in UNCOUNTED]
        calls = [s for s in counted if s.kind == "shortcut"]
        return EpisodeResult(
            task_id=self.task.id,
            repeat=repeat,
            agent=self.agent.name,
            model=self.settings.model,
            kb=self.settings.kb_label,
            device=str(self.device.address),
            device_kind=self.device.kind,
            success=played.error is None
            and (check.passed if check is not None else bool(verdict and verdict.success)),
            end_reason=played.end,
            error=played.error,
            error_kind=played.error_kind,
            check_details=check.details if check is not None else [],
            check_passed=check.passed if check is not None else None,
            judge_success=verdict.success if verdict is not None else None,
            judge_reason=verdict.reason if verdict is not None else None,
            answer=played.answer,
            steps=len(counted),
            gui_actions=sum(1 for s in counted if s.kind == "gui"),
            shortcut_calls=len(calls),
            shortcut_successes=sum(1 for s in calls if s.ok),
            invalid_steps=sum(1 for s in counted if s.kind == "invalid"),
            # the closing finish too: a rescued finish ended an episode that strict rules would have continued
            rescued_by_lenient_parser=sum(1 for s in played.history if s.rescued_by_lenient_parser),
            optimal_steps=self.task.optimal_steps,
            shortcut_names=[s.action["name"] for s in calls if s.action],
            shortcut_calls_detail=[
                {"name": s.action["name"], "arguments": s.action.get("arguments", {}), "success": s.ok}
                for s in calls
                if s.action
            ],
            wall_s=round(wall, 4),
            device_ms=played.device_ms,
            agent_usage=played.usage,
            judge_usage=verdict.usage if verdict is not None else Usage(),
            started_at=started_at,
            trajectory=f"trajectories/{rel}",
            injected_faults=injected_faults(self.shortcuts, played.history),
        )


class _StepCommon(TypedDict):
    """The fields of a step's record whatever became of its decision."""

    index: int
    model_output: str | None
    model_input: str | None
    usage: Usage
    screenshot: str | None
    ui_dump: str | None
    foreground: str
    elements: int
    agent_s: float
    observe_s: float
    execute_s: NotRequired[float]


def _one_step(
    device: Device,
    agent: Agent,
    history: list[StepRecord],
    shortcuts: ShortcutCaller | None,
    traj: Path,
    save_screens: bool,
    keep_shot: bool = False,
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
    base = _StepCommon(
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
