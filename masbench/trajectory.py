"""The vocabulary of an episode's trajectory, shared by agents (who read the history), the judge (who
reads the whole trajectory) and evaluation (which writes it): one `StepRecord` per decision, the
`EndReason` of an episode, and the model `Usage` a step cost.

It sits at the bottom of the layers, importing only pydantic and the llm types, so that agents and the
judge need not import evaluation.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from masbench.llm.types import Usage

EndReason = Literal["finished", "step_limit", "time_limit", "error", "device_lost"]
StepKind = Literal["gui", "shortcut", "answer", "finish", "invalid", "fault"]
# Steps that are not the agent's decisions and never count: the closing `finish`, and the `fault` of a step
# whose decision failed for a reason outside the agent (the episode ends there as an error).
UNCOUNTED: frozenset[StepKind] = frozenset({"finish", "fault"})


class StepRecord(BaseModel):
    """One agent decision and what executing it did."""

    index: int
    action: dict[str, Any] | None  # the validated action, None for an unusable model output
    kind: StepKind
    ok: bool
    error: str | None = None
    shortcut: dict[str, Any] | None = None  # the shortcut executor's call record
    model_output: str | None = None
    model_input: str | None = None  # the rendered prompt text (images are stored as files)
    usage: Usage = Field(default_factory=Usage)
    screenshot: str | None = None  # file name under the episode directory
    ui_dump: str | None = None
    foreground: str | None = None
    elements: int = 0
    touch: list[tuple[int, int]] | None = None  # where a GUI action touched: a tap's point, a swipe's ends
    target: str | None = None  # the element it acted on, as the agent was shown it
    wall_s: float = 0.0  # the whole step: observe + agent + execute + bookkeeping
    observe_s: float = 0.0  # device I/O: screenshot + UI dump
    agent_s: float = 0.0
    execute_s: float = 0.0  # device I/O: carrying out the action
    device_ms: int | None = None  # modelled device time this step cost (virtual phones)


__all__ = ["EndReason", "StepKind", "StepRecord", "Usage"]
