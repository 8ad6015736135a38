"""What a run writes: one `EpisodeResult` line per episode in `results.jsonl`, a `RunConfig` in
`run.json` and a `Summary` in `summary.json`. Each record carries its schema version and is written by
its model's `model_dump_json`, so readers never guess field names."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

SCHEMA_VERSION = 1
EndReason = Literal["finished", "step_limit", "time_limit", "error", "device_lost"]
JudgeMode = Literal["check", "llm", "both"]


class LLMUsage(BaseModel):
    """Model calls made for one step (or one episode, summed)."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float | None = None

    def add(self, other: LLMUsage) -> None:
        self.calls += other.calls
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.latency_s += other.latency_s
        if other.cost_usd is not None:
            self.cost_usd = (self.cost_usd or 0.0) + other.cost_usd

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class StepRecord(BaseModel):
    """One agent decision and what executing it did."""

    index: int
    action: dict[str, Any] | None  # the validated action, None for an unusable model output
    kind: Literal["gui", "shortcut", "answer", "finish", "invalid"]
    ok: bool
    error: str | None = None
    shortcut: dict[str, Any] | None = None  # the shortcut executor's call record
    model_output: str | None = None
    model_input: str | None = None  # the rendered prompt text (images are stored as files)
    usage: LLMUsage = Field(default_factory=LLMUsage)
    screenshot: str | None = None  # file name under the episode directory
    ui_dump: str | None = None
    foreground: str | None = None
    elements: int = 0
    wall_s: float = 0.0  # the whole step: observe + agent + execute + bookkeeping
    observe_s: float = 0.0  # device I/O: screenshot + UI dump
    agent_s: float = 0.0
    execute_s: float = 0.0  # device I/O: carrying out the action
    device_ms: int | None = None  # modelled device time this step cost (virtual phones)


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
    agent_usage: LLMUsage = Field(default_factory=LLMUsage)
    judge_usage: LLMUsage = Field(default_factory=LLMUsage)
    attempts: int = 1  # > 1 when a lost device made the runner retry the task elsewhere
    started_at: datetime
    trajectory: str  # directory of the per-step files, relative to the run directory


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
    created_at: datetime
