"""What a run writes: one `EpisodeResult` line per episode in `results.jsonl`, a `RunConfig` in
`run.json` and a `Summary` in `summary.json`. Each record carries its schema version and is written by
its model's `model_dump_json`, so readers never guess field names. Each step of an episode is a
`masbench.trajectory.StepRecord` line in its `steps.jsonl`.

Reading and writing them is here too, so every command treats a run directory alike: whole files are
replaced atomically (a kill or a full disk leaves the old file, never a torn one), results.jsonl is read
tolerantly (a corrupt line is reported with its file and line and skipped; the episode it held runs again
on `--resume`), and a write that fails is an `OutputError` naming the file, which the CLI prints as one line.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from masbench.agents import AGENTS
from masbench.agents.retrieval import EXPOSURES, Exposure
from masbench.trajectory import EndReason, Usage

from .faults import FaultSpecError, InjectedFault, format_faults, parse_faults

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
JudgeMode = Literal["check", "llm", "both"]
JUDGE_MODES: tuple[JudgeMode, ...] = ("check", "llm", "both")
Executor = Literal["local", "ray"]
EXECUTORS: tuple[Executor, ...] = ("local", "ray")
# Who an error belongs to - never the agent: the model service (unreachable, failing, a cassette miss), the
# LLM judge, the device (lost), the harness (a bug of ours) or the setup (nothing can judge this device).
ErrorKind = Literal["model", "judge", "device", "harness", "setup"]
UNSCORED_ENDS = ("error", "device_lost")


class EpisodeResult(BaseModel):
    """One line of results.jsonl."""

    schema_version: int = SCHEMA_VERSION
    task_id: str
    repeat: int = 0
    agent: str
    model: str | None = None
    kb: str
    device: str
    device_kind: str
    success: bool
    end_reason: EndReason
    error: str | None = None
    error_kind: ErrorKind | None = None
    check_details: list[str] = Field(default_factory=list)
    check_passed: bool | None = None  # the programmatic check's verdict, None where it did not run
    judge_success: bool | None = None  # the LLM judge's verdict, None where no judge ran
    judge_reason: str | None = None
    answer: str | None = None
    steps: int  # counted steps: every decision that executed something or was unusable; not the final finish
    gui_actions: int
    shortcut_calls: int
    shortcut_successes: int
    invalid_steps: int
    rescued_by_lenient_parser: int = 0  # steps whose reply only a lenient parser could read (strict: invalid)
    optimal_steps: int
    shortcut_names: list[str] = Field(default_factory=list)
    shortcut_calls_detail: list[dict[str, Any]] = Field(default_factory=list)  # name + arguments + success
    wall_s: float
    device_ms: int | None = None
    agent_usage: Usage = Field(default_factory=Usage)
    judge_usage: Usage = Field(default_factory=Usage)
    attempts: int = 1  # > 1 when a lost device made the runner retry the task elsewhere
    started_at: datetime
    trajectory: str  # directory of the per-step files, relative to the run directory
    injected_faults: list[InjectedFault] = Field(default_factory=list)  # --faults: the harness's doing

    @property
    def scored(self) -> bool:
        """Counted in the metrics: the agent ran to an ending of its own. An error or a lost device is the
        infrastructure's, excluded from every metric and run again by `--resume`."""
        return self.end_reason not in UNSCORED_ENDS


class RunOptionError(ValueError):
    """A run configuration that breaks the run policy, with the command-line option to blame."""

    def __init__(self, message: str, option: str) -> None:
        super().__init__(message)
        self.option = option


def option_error(exc: ValidationError) -> RunOptionError | None:
    """The policy error behind a failed `RunConfig` validation, None when it failed for another reason."""
    cause = exc.errors()[0].get("ctx", {}).get("error")
    return cause if isinstance(cause, RunOptionError) else None


def _one_of(value: Any, allowed: tuple[str, ...], option: str, choices: str) -> Any:
    """`value` when allowed, else a `RunOptionError` saying `use {choices}`."""
    if value not in allowed:
        raise RunOptionError(f"{value!r}; use {choices}", option)
    return value


class RunConfig(BaseModel):
    """How a run was started; `--resume` continues with the stored config.

    The run policy lives here, so every way of starting a run (`masbench run`, a Ray actor reading the
    driver's config, `kb eval` through `masbench run`) refuses the same combinations with the same words: a
    rule broken is a `RunOptionError` naming its option (`option_error` finds it in a `ValidationError`)."""

    schema_version: int = SCHEMA_VERSION
    agent: str
    model: str | None = None
    judge: str | None = None  # the LLM judge's model, None without --judge
    judge_mode: JudgeMode = "check"  # given as None: both with a judge, else check
    tasks: str
    task_ids: list[str]
    kb: str
    devices: list[str]
    repeats: int = 1
    max_steps: int | None = None
    max_steps_factor: float = 2.0
    timeout_s: float = 600.0
    seed: int = 0
    reset_snapshot: str | None = None  # emulator snapshot loaded before every episode (--reset snapshot:NAME)
    learn_across_repeats: bool = False  # a learning agent's repeats continue one memory (else one each)
    kb_exposure: Exposure = "retrieved"  # what a MAS agent is offered of the KB (docs/metrics.md)
    faults: str | None = None  # --faults SPEC, canonical (eval/faults.py)
    grounding_model: str | None = (
        None  # grounds dynamic shortcuts (--grounding-model, default the agent's model)
    )
    created_at: datetime
    # How this session plays its episodes; not kept in run.json, since it may change between sessions.
    executor: Executor = Field(default="local", exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _judge_mode_follows_the_judge(cls, data: Any) -> Any:
        """`judge_mode=None`: both (check decides, judge measured) with a judge, else the check alone."""
        if isinstance(data, dict) and "judge_mode" in data and data["judge_mode"] is None:
            data = {**data, "judge_mode": "both" if data.get("judge") else "check"}
        return data

    @field_validator("agent")
    @classmethod
    def _known_agent(cls, agent: str) -> str:
        if agent not in AGENTS:
            raise RunOptionError(f"unknown agent {agent!r}; available: {', '.join(AGENTS)}", "--agent")
        return agent

    @field_validator("judge_mode", mode="before")
    @classmethod
    def _judge_mode(cls, mode: Any) -> Any:
        return _one_of(mode, JUDGE_MODES, "--judge-mode", "check, llm or both")

    @field_validator("kb_exposure", mode="before")
    @classmethod
    def _kb_exposure(cls, exposure: Any) -> Any:
        return _one_of(exposure, EXPOSURES, "--kb-exposure", ", ".join(EXPOSURES))

    @field_validator("executor", mode="before")
    @classmethod
    def _executor(cls, executor: Any) -> Any:
        return _one_of(executor, EXECUTORS, "--executor", "local or ray")

    @field_validator("faults")
    @classmethod
    def _canonical_faults(cls, faults: str | None) -> str | None:
        if faults is None:
            return None
        try:
            return format_faults(parse_faults(faults))
        except FaultSpecError as exc:
            raise RunOptionError(str(exc), "--faults") from None

    @model_validator(mode="after")
    def _run_policy(self) -> RunConfig:
        """The combinations no run may start with."""
        if self.judge_mode != "check" and not self.judge:
            raise RunOptionError(f"--judge-mode {self.judge_mode} needs --judge MODEL", "--judge-mode")
        if self.executor == "ray":
            self._fits_ray()
        if self.agent == "oracle" and self.kb == "none":
            raise RunOptionError(
                "oracle replays the hybrid solutions' shortcut calls, which --kb none removes; use oracle-gui",
                "--kb",
            )
        if self.grounding_model is None:  # a run.json written before it was kept grounded with the model
            self.grounding_model = self.model
        return self

    def _fits_ray(self) -> None:
        """Ray workers play items one by one with retrieved shortcuts and no fault injection."""
        if AGENTS[self.agent].learns:
            raise RunOptionError(
                f"{self.agent} learns from task to task, so its tasks run in order as chains; use --executor local",
                "--executor",
            )
        if self.kb_exposure != "retrieved":
            raise RunOptionError(
                "Ray workers offer retrieved shortcuts only; use --executor local", "--kb-exposure"
            )
        if self.faults is not None:
            raise RunOptionError("Ray workers inject no faults; use --executor local", "--faults")


class RunDirError(Exception):
    """A run directory that cannot be used: the CLI prints the message as one line (masbench/cli.py)."""


class OutputError(RunDirError):
    """A file of the run could not be written (read-only, not a directory, disk full...)."""

    def __init__(self, path: Path, exc: OSError) -> None:
        super().__init__(f"cannot write {path}: {exc.strerror or exc}")


def make_dir(path: Path) -> None:
    """`mkdir -p`, an `OutputError` when it cannot be made."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(path, exc) from exc


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` at once: written beside it, flushed to disk, then renamed over it."""
    tmp: str | None = None
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", delete=False
        ) as fh:
            tmp = fh.name
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise OutputError(path, exc) from exc


def append_line(path: Path, line: str) -> None:
    """Append one line and wait until it is on disk (a run killed next keeps it)."""
    try:
        with path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        raise OutputError(path, exc) from exc


def read_results(path: Path) -> list[EpisodeResult]:
    """Every valid line of a results.jsonl. A torn last line (a kill mid-write) is cut off the file; any
    other line that is not a result is logged as `FILE:LINE: ...` and skipped, so its episode counts as not
    run: reports leave it out and `--resume` plays it again."""
    if not path.exists():
        return []
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        try:
            with path.open("r+b") as fh:
                fh.truncate(len(complete))
        except OSError as exc:
            raise OutputError(path, exc) from exc
    results = []
    for number, line in enumerate(complete.splitlines(), 1):
        if not line.strip():
            continue
        try:
            results.append(EpisodeResult.model_validate_json(line))
        except ValidationError as exc:
            reason = exc.errors()[0]
            where = ".".join(map(str, reason["loc"]))
            log.warning(
                "%s:%d: not a result, skipped (%s%s)", path, number, reason["msg"], f": {where}" * bool(where)
            )
    return results


def read_config(path: Path) -> RunConfig:
    """The run.json of a run; a `RunDirError` naming the file when it is not one."""
    try:
        return RunConfig.model_validate_json(path.read_bytes())
    except (ValidationError, OSError) as exc:
        raise RunDirError(f"{path}: not a run configuration: {str(exc).splitlines()[0]}") from exc


# A harness error (a bug of ours) that comes back the same on every try is not retried for ever: after this
# many identical lines in a row, --resume leaves the episode as it is and the run says so.
GIVE_UP_AFTER = 3


def _signature(error: str | None) -> str:
    """An error's first line with its numbers blanked (addresses, timings), to tell "the same error"."""
    return re.sub(r"\d+", "#", (error or "").split("\n", 1)[0])


def given_up(results: list[EpisodeResult]) -> dict[tuple[str, int], EpisodeResult]:
    """The episodes whose last `GIVE_UP_AFTER` lines (results.jsonl order) are the same harness error."""
    history: dict[tuple[str, int], list[EpisodeResult]] = {}
    for r in results:
        history.setdefault((r.task_id, r.repeat), []).append(r)
    stuck = {}
    for key, lines in history.items():
        last = lines[-GIVE_UP_AFTER:]
        if (
            len(last) == GIVE_UP_AFTER
            and all(r.error_kind == "harness" for r in last)
            and len({_signature(r.error) for r in last}) == 1
        ):
            stuck[key] = last[-1]
    return stuck
