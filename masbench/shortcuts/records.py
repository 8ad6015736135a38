"""What a shortcut call did, as the episode log stores it and SSR counts it.

A call succeeded when it validated, every command it issued succeeded and its postcondition held
(the expected package in front; for scripts, every step - so every selector - found). Otherwise
`reason` says why, naming the step for scripts: `step 3 tap {text='Add to Cart'}: no element ...`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from masbench.llm.types import Usage

from .schema import ShortcutType


class ScriptStepRecord(BaseModel):
    """One step of a script shortcut: what it was, whether it worked, and what it acted on."""

    model_config = ConfigDict(extra="forbid")

    number: int  # 1-based position in the script
    step: str  # `tap {text='Dark theme'}`
    success: bool = False
    reason: str | None = None
    element: str | None = None  # the element a selector or the grounding model picked
    duration_s: float = 0.0
    call: CallRecord | None = None  # a nested shortcut call


class CallRecord(BaseModel):
    """One shortcut call. `commands` lists every intent command sent (nested calls included), in order."""

    model_config = ConfigDict(extra="forbid")

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)  # validated (defaults filled) when valid
    type: ShortcutType | None = None  # None when the name is unknown
    success: bool = False
    reason: str | None = None
    commands: list[str] = Field(default_factory=list)
    duration_s: float = 0.0
    steps: list[ScriptStepRecord] = Field(default_factory=list)
    started_at: datetime
    usage: Usage = Field(default_factory=Usage)  # the grounding model's calls: the episode counts them


ScriptStepRecord.model_rebuild()
