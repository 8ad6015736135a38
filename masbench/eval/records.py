"""What a run writes: one `EpisodeResult` line per episode in `results.jsonl`, a `RunConfig` in
`run.json` and a `Summary` in `summary.json`. Each record carries its schema version and is written by
its model's `model_dump_json`, so readers never guess field names. Each step of an episode is a
`masbench.trajectory.StepRecord` line in its `steps.jsonl`."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from masbench.trajectory import EndReason, Usage

SCHEMA_VERSION = 1
JudgeMode = Literal["check", "llm", "both"]
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

    @property
    def scored(self) -> bool:
        """Counted in the metrics: the agent ran to an ending of its own. An error or a lost device is the
        infrastructure's, excluded from every metric and run again by `--resume`."""
        return self.end_reason not in UNSCORED_ENDS


class RunConfig(BaseModel):
    """How a run was started; `--resume` continues with the stored config."""

    schema_version: int = SCHEMA_VERSION
    agent: str
    model: str | None = None
    judge: str | None = None  # the LLM judge's model, None without --judge
    judge_mode: JudgeMode = "check"
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
    created_at: datetime
