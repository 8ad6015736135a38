"""The vocabulary of an episode's trajectory, shared by agents (who read the history), the judge (who
reads the whole trajectory) and evaluation (which writes it): one `StepRecord` per decision, the
`EndReason` of an episode, and the model `Usage` a step cost.

It sits at the bottom of the layers, importing only pydantic and the llm types, so that agents and the
judge need not import evaluation.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field

from masbench.llm.types import Usage

EndReason = Literal["finished", "step_limit", "time_limit", "error", "device_lost"]
StepKind = Literal["gui", "shortcut", "answer", "finish", "invalid", "fault"]
# Steps that are not the agent's decisions and never count: the closing `finish`, and the `fault` of a step
# whose decision failed for a reason outside the agent (the episode ends there as an error).
UNCOUNTED: frozenset[StepKind] = frozenset({"finish", "fault"})
# A model can answer megabytes; steps.jsonl and the report keep this much of a reply, prompt or error, with
# a marker (the cassette keeps the whole call, to replay it).
MAX_TEXT = 32_000


def clip(text: str | None, limit: int = MAX_TEXT) -> str | None:
    """`text` cut to at most `limit` characters, ending in a marker of how much was cut (so a clipped text
    read back is left as it is)."""
    if text is None or len(text) <= limit:
        return text
    keep = limit - 64
    return f"{text[:keep]}\n[… {len(text) - keep} characters cut]"


Clipped = Annotated[str | None, AfterValidator(clip)]


class StepRecord(BaseModel):
    """One agent decision and what executing it did."""

    index: int
    action: dict[str, Any] | None  # the validated action, None for an unusable model output
    rescued_by_lenient_parser: bool = False  # strict rules refused the reply; a lenient parser read it
    kind: StepKind
    ok: bool
    error: Clipped = None
    shortcut: dict[str, Any] | None = None  # the shortcut executor's call record
    model_output: Clipped = None
    model_input: Clipped = None  # the rendered prompt text (images are stored as files)
    usage: Usage = Field(default_factory=Usage)
    screenshot: str | None = None  # file name under the episode directory
    ui_dump: str | None = None
    foreground: str | None = None
    elements: int = 0
    touch: list[tuple[int, int]] | None = None  # where a GUI action touched: a tap's point, a swipe's ends
    target: str | None = None  # the element it acted on, as the agent was shown it
    # a MAS agent's step with a reference shortcut left: was the one the reference calls next offered to it?
    reference_offered: bool | None = None
    wall_s: float = 0.0  # the whole step: observe + agent + execute + bookkeeping
    observe_s: float = 0.0  # device I/O: screenshot + UI dump
    agent_s: float = 0.0
    execute_s: float = 0.0  # device I/O: carrying out the action
    device_ms: int | None = None  # modelled device time this step cost (virtual phones)


__all__ = ["EndReason", "StepKind", "StepRecord", "Usage"]
