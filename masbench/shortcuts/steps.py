"""Script steps of `rpa` and `dynamic` shortcuts (docs/formats.md).

A step is a mapping with exactly one kind key - `shortcut`, `tap`, `long_press`, `type`, `key`, `scroll`,
`wait`, `wait_for`, `assert`, `open_app` - plus, for steps that look for an element, an optional
`timeout`. The two script kinds share the vocabulary and differ in what a target is: an RPA target is a
`Selector`, grounded by matching the UI dump; a dynamic target is a natural-language description that
the agent's model grounds at run time (so dynamic scripts have no `wait_for`/`assert`, which would need a
model call per poll).
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Any, ClassVar, Generic, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator

from masbench.actions import Selector
from masbench.actions.schema import parse_call

T = TypeVar("T", Selector, str)
Direction = Literal["up", "down", "left", "right"]
TAG = "~"  # marks union tags in error locations, which the loader drops from field paths


class _Step(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    kind: ClassVar[str] = ""


class ShortcutStep(_Step):
    """Call another shortcut; `{param}` inside its argument values come from the outer call."""

    kind: ClassVar[str] = "shortcut"
    shortcut: str

    @field_validator("shortcut")
    @classmethod
    def _parses(cls, text: str) -> str:
        name, _ = parse_call(text)
        if "." not in name:
            raise ValueError(f"shortcut {name!r} must be qualified as app.name")
        return text

    @cached_property
    def call(self) -> tuple[str, dict[str, Any]]:
        """(qualified name, argument templates)."""
        return parse_call(self.shortcut)


class TapStep(_Step, Generic[T]):
    kind: ClassVar[str] = "tap"
    tap: T
    timeout: float | None = Field(None, ge=0, le=120)


class LongPressStep(_Step, Generic[T]):
    kind: ClassVar[str] = "long_press"
    long_press: T
    timeout: float | None = Field(None, ge=0, le=120)


class TypeSpec(_Step, Generic[T]):
    text: str
    into: T | None = None  # tapped first; without it, the focused field
    clear: bool = False


class TypeStep(_Step, Generic[T]):
    kind: ClassVar[str] = "type"
    type: TypeSpec[T]
    timeout: float | None = Field(None, ge=0, le=120)


class KeyStep(_Step):
    kind: ClassVar[str] = "key"
    key: Literal["enter", "back", "home"]


class ScrollSpec(_Step, Generic[T]):
    direction: Direction = "down"
    until: T | None = None  # scroll until this is on screen, at most `max` times
    max: int = Field(5, ge=1, le=50)
    within: T | None = None  # the scrollable element; default: the screen centre


class ScrollStep(_Step, Generic[T]):
    kind: ClassVar[str] = "scroll"
    scroll: ScrollSpec[T]


class WaitStep(_Step):
    kind: ClassVar[str] = "wait"
    wait: float = Field(ge=0, le=60)


class WaitForStep(_Step):
    """Poll the screen until the selector matches (default timeout: the executor's step timeout)."""

    kind: ClassVar[str] = "wait_for"
    wait_for: Selector
    timeout: float | None = Field(None, ge=0, le=120)


class AssertStep(_Step):
    """The selector matches now (or within `timeout` when given)."""

    kind: ClassVar[str] = "assert"
    assert_: Selector = Field(alias="assert")
    timeout: float | None = Field(None, ge=0, le=120)


class OpenAppStep(_Step):
    kind: ClassVar[str] = "open_app"
    open_app: str = Field(min_length=1)


RPA_KINDS = (
    "shortcut",
    "tap",
    "long_press",
    "type",
    "key",
    "scroll",
    "wait",
    "wait_for",
    "assert",
    "open_app",
)
DYNAMIC_KINDS = ("shortcut", "tap", "long_press", "type", "key", "scroll", "wait", "open_app")


def _union(kinds: tuple[str, ...], target: type) -> Any:
    """A tagged union over the step models of `kinds`, picked by which kind key a mapping has."""
    # The target type is a run-time value here, which mypy does not accept as a type argument.
    models: dict[str, Any] = {
        "shortcut": ShortcutStep,
        "tap": TapStep[target],  # type: ignore[valid-type]
        "long_press": LongPressStep[target],  # type: ignore[valid-type]
        "type": TypeStep[target],  # type: ignore[valid-type]
        "key": KeyStep,
        "scroll": ScrollStep[target],  # type: ignore[valid-type]
        "wait": WaitStep,
        "wait_for": WaitForStep,
        "assert": AssertStep,
        "open_app": OpenAppStep,
    }

    def kind(value: Any) -> str | None:
        if not isinstance(value, dict):
            return TAG + value.kind if isinstance(value, _Step) else None
        found = [k for k in kinds if k in value]
        return TAG + found[0] if len(found) == 1 else None

    options = tuple(Annotated[models[k], Tag(TAG + k)] for k in kinds)
    message = "a step needs exactly one of: " + ", ".join(kinds)
    return Annotated[
        Union[options],  # noqa: UP007 - built at run time from a tuple
        Discriminator(kind, custom_error_type="step_kind", custom_error_message=message),
    ]


RpaStep = _union(RPA_KINDS, Selector)
DynamicStep = _union(DYNAMIC_KINDS, str)


def describe(step: _Step) -> str:
    """A short label for records and failure reasons: `tap {text='Dark theme'}`, `key enter`."""
    match step:
        case ShortcutStep():
            return f"shortcut {step.shortcut}"
        case TapStep():
            return f"tap {_target(step.tap)}"
        case LongPressStep():
            return f"long_press {_target(step.long_press)}"
        case TypeStep():
            into = f" into {_target(step.type.into)}" if step.type.into is not None else ""
            return f"type {step.type.text!r}{into}"
        case KeyStep():
            return f"key {step.key}"
        case ScrollStep():
            until = f" until {_target(step.scroll.until)}" if step.scroll.until is not None else ""
            return f"scroll {step.scroll.direction}{until}"
        case WaitStep():
            return f"wait {step.wait:g}s"
        case WaitForStep():
            return f"wait_for {_target(step.wait_for)}"
        case AssertStep():
            return f"assert {_target(step.assert_)}"
        case OpenAppStep():
            return f"open_app {step.open_app!r}"
    return step.kind


def _target(target: Selector | str) -> str:
    return f"{{{target.describe()}}}" if isinstance(target, Selector) else repr(target)
