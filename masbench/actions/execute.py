"""Execute one agent action on a device: the single place where an `Action` becomes device I/O.

Targets resolve against the element list the agent was shown (`elements`): an `index` is an element's
index in that list, a `target` selector is grounded on it too. When an action cannot be carried out at all
- an index out of range, a selector with no match, an unknown app, a shortcut without a knowledge base -
nothing executes and the outcome is `kind="invalid"`, `ok=False`: it still costs the agent a step.
A command that runs and fails keeps its kind (`gui` / `shortcut`) with `ok=False`. `DeviceGoneError`
propagates, so the runner can take the device out of its pool.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel

from masbench.device import AppNotFoundError, DeviceError, DeviceGoneError, UIElement

from .schema import (
    Action,
    LongPressAction,
    OpenAppAction,
    ScrollAction,
    ShortcutAction,
    SwipeAction,
    TapAction,
    TypeAction,
    is_gui,
)
from .selectors import SelectorError, select

if TYPE_CHECKING:
    from masbench.device import Device

SWIPE_FRACTION = 0.3  # a direction swipe moves the finger this share of the screen from its centre


class CallRecordLike(Protocol):
    success: bool
    reason: str | None

    def model_dump(self, *, mode: str = ...) -> dict[str, Any]: ...


class ShortcutCaller(Protocol):
    """What `masbench.shortcuts.ShortcutExecutor` offers the executor."""

    def call(self, name: str, arguments: dict[str, Any]) -> CallRecordLike: ...


class ActionOutcome(BaseModel):
    """What happened when an action was executed (one step, unless `kind == "finish"`)."""

    ok: bool
    error: str | None = None
    kind: Literal["gui", "shortcut", "answer", "finish", "invalid"]
    shortcut_record: dict[str, Any] | None = None
    duration_s: float = 0.0
    # where a GUI action touched the screen (a tap's point; a swipe's start and end) and the element it
    # acted on, as the agent was shown it: what a report marks on the step's screenshot
    touch: list[tuple[int, int]] | None = None
    target: str | None = None


@dataclass
class _Touched:
    points: list[tuple[int, int]] = field(default_factory=list)
    element: UIElement | None = None


class _Invalid(Exception):
    """The action cannot be carried out; nothing was executed."""


def execute_action(
    device: Device, action: Action, elements: list[UIElement], shortcuts: ShortcutCaller | None = None
) -> ActionOutcome:
    """Carry out `action`; grounding errors give `kind="invalid"`, device errors `ok=False`."""
    start = time.perf_counter()

    def outcome(**fields: Any) -> ActionOutcome:
        return ActionOutcome(duration_s=time.perf_counter() - start, **fields)

    if action.action in ("answer", "finish"):
        return outcome(ok=True, kind=action.action)
    try:
        if isinstance(action, ShortcutAction):
            return _shortcut(action, shortcuts, outcome)
        touched = _Touched()
        _gui(device, action, elements, touched)
    except _Invalid as exc:
        return outcome(ok=False, kind="invalid", error=str(exc))
    except DeviceGoneError:
        raise
    except DeviceError as exc:
        return outcome(ok=False, kind="gui", error=f"{action.action} failed: {exc}")
    return outcome(
        ok=True,
        kind="gui",
        touch=touched.points or None,
        target=touched.element.describe() if touched.element is not None else None,
    )


def _shortcut(
    action: ShortcutAction, shortcuts: ShortcutCaller | None, outcome: Callable[..., ActionOutcome]
) -> ActionOutcome:
    if shortcuts is None:
        raise _Invalid(f"shortcut {action.name} is not available: no shortcut knowledge base is loaded")
    record = shortcuts.call(action.name, action.arguments)
    return outcome(
        ok=record.success,
        kind="shortcut",
        error=None if record.success else (record.reason or "shortcut call failed"),
        shortcut_record=record.model_dump(mode="json"),
    )


def _element(action: Any, elements: list[UIElement]) -> UIElement | None:
    """The element an action's `index` or `target` designates (None when it has neither)."""
    if action.index is not None:
        found = next((el for el in elements if el.index == action.index), None)
        if found is None:
            top = max((el.index for el in elements), default=-1)
            raise _Invalid(f"element index {action.index} is out of range 0..{top}")
        return found
    if action.target is not None:
        try:
            return select(action.target, elements)
        except SelectorError as exc:
            raise _Invalid(str(exc)) from None
    return None


def _point(
    action: TapAction | LongPressAction, elements: list[UIElement], touched: _Touched
) -> tuple[int, int]:
    element = _element(action, elements)
    touched.element = element
    if element is not None:
        point = element.center
    else:
        assert action.x is not None and action.y is not None  # the schema requires one kind of target
        point = (action.x, action.y)
    touched.points = [point]
    return point


def _gui(device: Device, action: Action, elements: list[UIElement], touched: _Touched) -> None:
    assert is_gui(action)
    if isinstance(action, TapAction):
        device.tap(*_point(action, elements, touched))
    elif isinstance(action, LongPressAction):
        device.long_press(*_point(action, elements, touched))
    elif isinstance(action, TypeAction):
        if action.x is not None and action.y is not None:
            device.tap(action.x, action.y)
            touched.points = [(action.x, action.y)]
        else:
            text_field = _element(action, elements)
            if text_field is not None:
                device.tap_element(text_field)
                touched.points, touched.element = [text_field.center], text_field
        if action.clear:
            device.clear_text()
        device.type_text(action.text)
        if action.enter:
            device.enter()
    elif isinstance(action, ScrollAction):
        within = _element(action, elements) if action.x is None else _scrollable_at(action, elements)
        touched.element = within
        device.scroll(action.direction, within)
    elif isinstance(action, SwipeAction):
        x1, y1, x2, y2 = _swipe_line(device, action)
        touched.points = [(x1, y1), (x2, y2)]
        device.swipe(x1, y1, x2, y2, ms=action.duration_ms)
    elif isinstance(action, OpenAppAction):
        try:
            device.open_app(action.name)
        except AppNotFoundError as exc:
            raise _Invalid(str(exc)) from None
    elif action.action == "wait":
        device.wait(action.seconds)
    else:  # back, home, enter
        getattr(device, action.action)()


def _scrollable_at(action: ScrollAction, elements: list[UIElement]) -> UIElement:
    """The innermost scrollable element under a scroll's x/y: where the model pointed is what scrolls."""
    x, y = action.x, action.y
    assert x is not None and y is not None
    under = [
        el
        for el in elements
        if el.scrollable and el.bounds[0] <= x < el.bounds[2] and el.bounds[1] <= y < el.bounds[3]
    ]
    if not under:
        raise _Invalid(f"nothing scrollable at ({x}, {y})")
    return min(under, key=lambda el: (el.bounds[2] - el.bounds[0]) * (el.bounds[3] - el.bounds[1]))


def _swipe_line(device: Device, action: SwipeAction) -> tuple[int, int, int, int]:
    if action.direction is None:
        x1, y1, x2, y2 = action.x1, action.y1, action.x2, action.y2
        assert x1 is not None and y1 is not None and x2 is not None and y2 is not None  # the schema's rule
        return x1, y1, x2, y2
    w, h = device.screen_size()
    cx, cy = w // 2, h // 2
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[action.direction]
    return cx, cy, cx + int(dx * w * SWIPE_FRACTION), cy + int(dy * h * SWIPE_FRACTION)


__all__ = ["ActionOutcome", "ShortcutCaller", "execute_action"]
