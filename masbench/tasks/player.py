"""Replay reference solutions on a (virtual) phone and verify that a task is well-formed and solvable.

`prepare` puts a phone in a task's initial state; `play` runs an action list the way an agent's steps
run (ground on the current screen, execute with `execute_action`) and evaluates the check; `verify_task`
proves a task: both reference routes pass, doing nothing, every near miss and every slip of its apps
(slips.py) fail, and the static rules of docs/formats.md hold. Every verdict includes the task's frame
(frame.py): a change the task did not ask for fails the check. Step numbers in messages are 0-based, like `near_misses[].replace`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, computed_field

from masbench.actions import Action, is_gui
from masbench.actions.execute import ShortcutCaller, execute_action
from masbench.catalog import package_of
from masbench.device import DeviceError, DeviceGoneError
from masbench.device.console import load_snapshot
from masbench.shortcuts import KnowledgeBase, ShortcutExecutor

from .frame import judge, state_before
from .schema import Task
from .slips import app_slips

if TYPE_CHECKING:
    from masbench.device import Device


class PlayResult(BaseModel):
    """How a replay went: every step executed (`failures` empty) and the check's verdict."""

    passed: bool
    check_passed: bool
    steps: int
    failures: list[str]
    details: list[str]


class VerifyItem(BaseModel):
    name: str
    ok: bool
    reason: str = ""


class VerifyReport(BaseModel):
    task_id: str
    items: list[VerifyItem]
    duration_s: float = 0.0

    @computed_field  # type: ignore[prop-decorator]  # mypy refuses decorators over @property (pydantic docs)
    @property
    def passed(self) -> bool:
        return all(item.ok for item in self.items)

    @property
    def failures(self) -> list[str]:
        return [f"{i.name}: {i.reason}" for i in self.items if not i.ok]


def describe_action(action: Action) -> str:
    """`tap text='Nike'`, `shortcut amazon.search_product(query='shoes')`, ... for messages."""
    if action.action == "shortcut":
        return f"shortcut {action.call_text()}"
    fields = action.model_dump(exclude={"action"}, exclude_none=True, exclude_defaults=True)
    target = getattr(action, "target", None)
    if target is not None:
        fields["target"] = target.describe()
    return " ".join([action.action, *(f"{k}={v!r}" if k != "target" else str(v) for k, v in fields.items())])


class TaskSetupError(RuntimeError):
    """A task's initial state cannot be produced on this device."""


def prepare(device: Device, task: Task, snapshot: str | None = None) -> dict[str, Any] | None:
    """Reset to the task's seed and clock, apply its setup patches, start on the home screen, and return
    the phone's state then: the `before` of the task's frame (frame.py; None on a real device).

    A real device has no seeded state to reset to: its apps are stopped so each starts fresh, after loading
    emulator snapshot `snapshot` through the console when one is given (`--reset snapshot:NAME`); a task
    that needs set-up app state cannot run there."""
    state = task.initial_state
    if snapshot is not None:
        load_snapshot(device, snapshot)
    if device.is_virtual and snapshot is None:
        device.reset(state.seed, state.clock)
        for app, patch in state.setup.items():
            device.patch_state(package_of(app), patch)
    elif state.setup:
        raise TaskSetupError(
            f"task {task.id} needs app state set up ({', '.join(state.setup)}), which only virtual phones "
            "support; run it on a virtual phone or from an emulator snapshot prepared for it"
        )
    else:
        for app in task.apps:
            device.stop_app(package_of(app))
    device.home()
    return state_before(device)


def _steps_of(task: Task, which: Literal["gui", "hybrid"] | list[Action]) -> list[Action]:
    if which == "gui":
        return list(task.solutions.gui)
    if which == "hybrid":
        return list(task.solutions.hybrid)
    return list(which)


def _run(
    device: Device,
    actions: list[Action],
    shortcuts: ShortcutCaller | None,
    on_step: Callable[[int, Action, str | None], None] | None = None,
) -> tuple[int, list[str]]:
    """Run actions as an agent's steps run, stopping at the first that fails: (steps counted, failures)."""
    failures: list[str] = []
    steps = 0
    for i, action in enumerate(actions):
        grounded = getattr(action, "target", None) is not None or getattr(action, "index", None) is not None
        elements = device.elements() if grounded else []
        outcome = execute_action(device, action, elements, shortcuts)
        if outcome.kind != "finish":
            steps += 1
        if on_step is not None:
            on_step(i, action, None if outcome.ok else outcome.error or "failed")
        if not outcome.ok:
            failures.append(f"step {i} ({describe_action(action)}): {outcome.error}")
            break
    return steps, failures


def play(
    device: Device,
    task: Task,
    which: Literal["gui", "hybrid"] | list[Action] = "gui",
    shortcuts: ShortcutCaller | None = None,
    on_step: Callable[[int, Action, str | None], None] | None = None,
) -> PlayResult:
    """Prepare, run the actions (stopping at the first that fails), then evaluate the check.
    `on_step(index, action, error or None)` hears about each step as it runs (`tasks play` prints them)."""
    before = prepare(device, task)
    steps, failures = _run(device, _steps_of(task, which), shortcuts, on_step)
    result = judge(task, device, before)
    return PlayResult(
        passed=not failures and result.passed,
        check_passed=result.passed,
        steps=steps,
        failures=failures,
        details=result.details,
    )


SLIP_BASE = "masbench-verify-slips"  # the saved state each slip starts from


def slip_items(device: Device, task: Task, shortcuts: ShortcutCaller | None) -> list[VerifyItem]:
    """After the hybrid reference, each slip of each app the task names (slips.py) must fail the check.
    Only virtual phones have app state to slip; a slip that cannot apply to this state is left out."""
    before = prepare(device, task)
    if before is None:
        return []
    _, failures = _run(device, list(task.solutions.hybrid), shortcuts)
    if failures:
        return [
            VerifyItem(name="slips", ok=False, reason=f"the hybrid reference does not run: {failures[0]}")
        ]
    device.save_state(SLIP_BASE)
    items = []
    for app in task.apps:
        package = package_of(app)
        state = device.stored_state(package)
        for slip in app_slips().get(app, ()):
            slipped = slip.apply(state)
            if slipped is None:
                continue
            device.restore_state(SLIP_BASE)
            top = slip.path.split(".")[0]
            device.patch_state(package, {top: slipped[top]}, replace=True)
            result = judge(task, device, before)
            items.append(
                VerifyItem(
                    name=f"slip '{app}: {slip.name}' fails",
                    ok=not result.passed,
                    reason=f"passes the check: {_leaves(result.details)}",
                )
            )
    return items


def _leaves(details: list[str]) -> str:
    """A check's leaf lines on one line (combinator headers dropped), for a verify reason."""
    return "; ".join(d.strip() for d in details if d.strip().startswith(("PASS", "FAIL")))


def static_items(task: Task, kb: KnowledgeBase | None) -> list[VerifyItem]:
    """The rules a task must follow that need no phone."""
    gui, hybrid = task.solutions.gui, task.solutions.hybrid
    names = task.shortcut_names()
    unknown = [n for n in names if kb is not None and n not in kb]
    return [
        VerifyItem(
            name="optimal_steps",
            ok=task.optimal_steps == len(gui),
            reason=f"optimal_steps is {task.optimal_steps}, GUI solution has {len(gui)} steps",
        ),
        VerifyItem(
            name="hybrid shorter",
            ok=len(hybrid) < len(gui),
            reason=f"hybrid has {len(hybrid)} steps, GUI-only {len(gui)}",
        ),
        VerifyItem(
            name="hybrid uses a shortcut", ok=bool(names), reason="the hybrid solution calls no shortcut"
        ),
        VerifyItem(
            name="shortcuts in KB",
            ok=kb is not None and not unknown,
            reason="no knowledge base loaded" if kb is None else f"not in the KB: {', '.join(unknown)}",
        ),
        VerifyItem(
            name="hybrid needs GUI",
            ok=any(is_gui(s) for s in hybrid),
            reason="the hybrid solution has no GUI step (a task must not finish by shortcuts alone)",
        ),
        VerifyItem(name="has near miss", ok=bool(task.near_misses), reason="no near_misses given"),
    ]


def verify_task(
    device: Device, task: Task, kb: KnowledgeBase | None, shortcuts: ShortcutCaller | None = None
) -> VerifyReport:
    """Every rule of a well-formed task, on one phone: see the module docstring.

    `shortcuts` defaults to a `ShortcutExecutor(kb, device)`; a device error in one phase fails that
    phase and the rest still run (a vanished device, `DeviceGoneError`, propagates).
    """
    start = time.perf_counter()
    if shortcuts is None and kb is not None:
        shortcuts = ShortcutExecutor(kb, device)
    items = static_items(task, kb)

    def phase(name: str, run: Callable[[], tuple[bool, str]]) -> None:
        try:
            ok, reason = run()
        except DeviceGoneError:
            raise
        except DeviceError as exc:
            ok, reason = False, f"device error: {exc}"
        items.append(VerifyItem(name=name, ok=ok, reason=reason))

    def initial() -> tuple[bool, str]:
        result = judge(task, device, prepare(device, task))
        return not result.passed, f"passes before anything is done: {_leaves(result.details)}"

    def no_op() -> tuple[bool, str]:
        before = prepare(device, task)
        for app in task.apps:
            if app != "launcher":
                device.open_app(package_of(app))
        device.home()
        result = judge(task, device, before)
        return not result.passed, f"passes after just opening the apps: {_leaves(result.details)}"

    def route(which: Literal["gui", "hybrid"]) -> Callable[[], tuple[bool, str]]:
        def run() -> tuple[bool, str]:
            result = play(device, task, which, shortcuts)
            return result.passed, "; ".join(result.failures) or _leaves(result.details)

        return run

    def near_miss(steps: list[Action]) -> Callable[[], tuple[bool, str]]:
        def run() -> tuple[bool, str]:
            result = play(device, task, steps, shortcuts)
            if result.failures:
                return False, f"does not run through, so it proves nothing: {'; '.join(result.failures)}"
            return not result.check_passed, f"passes the check: {_leaves(result.details)}"

        return run

    phase("initial state fails", initial)
    phase("no-op fails", no_op)
    phase("gui passes", route("gui"))
    phase("hybrid passes", route("hybrid"))
    for miss in task.near_misses:
        phase(f"near miss '{miss.name}' fails", near_miss(miss.steps(task.solutions)))
    try:
        items += slip_items(device, task, shortcuts)
    except DeviceGoneError:
        raise
    except DeviceError as exc:
        items.append(VerifyItem(name="slips", ok=False, reason=f"device error: {exc}"))
    return VerifyReport(task_id=task.id, items=items, duration_s=time.perf_counter() - start)


def summarize(report: VerifyReport, limit: int = 200) -> str:
    """The failed rules of a report, cut to fit one table cell."""
    text = "; ".join(report.failures)
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = [
    "PlayResult",
    "VerifyItem",
    "VerifyReport",
    "describe_action",
    "play",
    "prepare",
    "slip_items",
    "static_items",
    "summarize",
    "verify_task",
]
