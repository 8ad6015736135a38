"""Agent actions (docs/formats.md) as a pydantic discriminated union on `action`.

The same models describe what an agent decides, the steps of a task's reference solutions and what the
episode log records. A GUI target is an element `index` (into the element list the agent was shown),
raw `x`/`y`, or a `target` selector (reference solutions, RPA), exactly one of them.
"""

from __future__ import annotations

import ast
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from .selectors import Selector

Direction = Literal["up", "down", "left", "right"]


class _Base(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Targeted(_Base):
    index: int | None = Field(default=None, ge=0)
    x: int | None = Field(default=None, ge=0)
    y: int | None = Field(default=None, ge=0)
    target: Selector | None = None

    def _check_target(self, required: bool) -> None:
        given = sum(
            [self.index is not None, self.x is not None or self.y is not None, self.target is not None]
        )
        if given > 1:
            raise ValueError("give only one of index, x/y or target")
        if (self.x is None) != (self.y is None):
            raise ValueError("x and y go together")
        if required and given == 0:
            raise ValueError("needs an element index, x/y coordinates or a target selector")


class TapAction(_Targeted):
    action: Literal["tap"] = "tap"

    @model_validator(mode="after")
    def _v(self) -> TapAction:
        self._check_target(required=True)
        return self


class LongPressAction(_Targeted):
    action: Literal["long_press"] = "long_press"

    @model_validator(mode="after")
    def _v(self) -> LongPressAction:
        self._check_target(required=True)
        return self


class TypeAction(_Targeted):
    """Type text into a field: the one given (tapped first) or the focused one. `enter` presses Enter
    afterwards, as AndroidWorld's `input_text` always does."""

    action: Literal["type"] = "type"
    text: str
    clear: bool = False
    enter: bool = False

    @model_validator(mode="after")
    def _v(self) -> TypeAction:
        self._check_target(required=False)
        return self


class SwipeAction(_Base):
    """A raw drag; `direction` is where the finger moves, from the screen centre."""

    action: Literal["swipe"] = "swipe"
    direction: Direction | None = None
    x1: int | None = None
    y1: int | None = None
    x2: int | None = None
    y2: int | None = None
    duration_ms: int = Field(default=300, ge=1, le=10000)

    @model_validator(mode="after")
    def _v(self) -> SwipeAction:
        coords = [self.x1, self.y1, self.x2, self.y2]
        if self.direction is None and any(c is None for c in coords):
            raise ValueError("swipe needs a direction or all of x1, y1, x2, y2")
        return self


class ScrollAction(_Targeted):
    """Scroll content: `down` reveals what is further down (the finger moves up)."""

    action: Literal["scroll"] = "scroll"
    direction: Direction = "down"

    @model_validator(mode="after")
    def _v(self) -> ScrollAction:
        self._check_target(required=False)
        return self


class BackAction(_Base):
    action: Literal["back"] = "back"


class HomeAction(_Base):
    action: Literal["home"] = "home"


class EnterAction(_Base):
    action: Literal["enter"] = "enter"


class OpenAppAction(_Base):
    action: Literal["open_app"] = "open_app"
    name: str = Field(min_length=1)


class WaitAction(_Base):
    action: Literal["wait"] = "wait"
    seconds: float = Field(default=1.0, ge=0, le=60)


class ShortcutAction(_Base):
    """Call a shortcut by name: `{"name": "amazon.search_product", "arguments": {"query": "shoes"}}`,
    or in data files the call syntax `call: 'amazon.search_product(query="shoes")'`."""

    action: Literal["shortcut"] = "shortcut"
    name: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_call(cls, data: Any) -> Any:
        if isinstance(data, dict) and "call" in data:
            data = dict(data)
            name, arguments = parse_call(data.pop("call"))
            data.setdefault("name", name)
            data.setdefault("arguments", arguments)
        return data

    def call_text(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.arguments.items())
        return f"{self.name}({args})"


class AnswerAction(_Base):
    action: Literal["answer"] = "answer"
    text: str


class FinishAction(_Base):
    action: Literal["finish"] = "finish"
    status: Literal["success", "infeasible", "failure"] = "success"


Action = Annotated[
    TapAction | LongPressAction | TypeAction | SwipeAction | ScrollAction | BackAction | HomeAction | EnterAction
    | OpenAppAction | WaitAction | ShortcutAction | AnswerAction | FinishAction,
    Field(discriminator="action"),
]  # fmt: skip
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
GUI_ACTIONS = {"tap", "long_press", "type", "swipe", "scroll", "back", "home", "enter", "open_app", "wait"}


def parse_action(data: Any) -> Action:
    """Validate one action from JSON-like data (raises pydantic.ValidationError)."""
    return ACTION_ADAPTER.validate_python(data)


def is_gui(action: BaseModel) -> bool:
    return getattr(action, "action", None) in GUI_ACTIONS


def parse_call(text: str) -> tuple[str, dict[str, Any]]:
    """Parse `app.name(key=literal, ...)` safely: only keyword arguments with literal values."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ValueError(f"not a shortcut call: {text!r} ({exc.msg})") from None
    if not isinstance(node, ast.Call):
        raise ValueError(f"not a shortcut call: {text!r}")
    if node.args:
        raise ValueError(f"shortcut arguments must be named (key=value): {text!r}")
    name = ast.unparse(node.func)
    if not all(part.isidentifier() for part in name.split(".")):
        raise ValueError(f"bad shortcut name {name!r}")
    arguments: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is None:
            raise ValueError(f"**kwargs are not allowed in a shortcut call: {text!r}")
        try:
            arguments[kw.arg] = ast.literal_eval(kw.value)
        except ValueError:
            raise ValueError(f"argument {kw.arg!r} must be a literal value in {text!r}") from None
    return name, arguments
