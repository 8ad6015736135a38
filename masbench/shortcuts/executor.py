"""`ShortcutExecutor`: runs shortcut calls on a device and returns a `CallRecord` for each.

    executor = ShortcutExecutor(kb, device)
    record = executor.call("amazon.search_product", {"query": "shoes", "brand": "Nike"})

A call is validated and planned first (`calls`, `plan`); a bad call comes back as a failed record with
no commands, and the device has not been touched. Then deep links and intents run as one shell-quoted
`am` command, and scripts run step by step: each selector step re-reads the UI (a dump, no screenshot)
and polls until its timeout. The first failing step ends the call with its reason.

Errors: device errors become failed records, except `DeviceGoneError`, which propagates so the runner
can take the device out of its pool. `call` never raises `CallError`; the episode loop needs a record.

Time: a call may take at most `call_timeout` seconds, and no longer than the episode's deadline leaves;
a script still running then fails at its next step or poll with the reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from masbench.actions import Selector, SelectorError, select
from masbench.actions.execute import execute_action
from masbench.deadlines import time_left
from masbench.device import Device, UIElement
from masbench.device import commands as C
from masbench.device.errors import DeviceError, DeviceGoneError
from masbench.llm.types import Usage

from .calls import CallError, validate_call
from .plan import Plan, PlannedStep, build_plan
from .records import CallRecord, ScriptStepRecord
from .schema import KnowledgeBase, Precondition
from .steps import (
    AssertStep,
    KeyStep,
    LongPressStep,
    OpenAppStep,
    ScrollStep,
    TapStep,
    TypeStep,
    WaitForStep,
    WaitStep,
)

Ground = Callable[[str, list[UIElement]], UIElement | None]
"""A model that picks the element a description means (dynamic shortcuts); None when nothing fits."""


@runtime_checkable
class MeteredGround(Protocol):
    """A `Ground` that counts its model calls (`grounding.ModelGround`): each call's record carries them."""

    def take_usage(self) -> Usage: ...


PRECONDITION = "precondition not met"  # how a call's reason starts when it was made from the wrong screen


class StepFailed(Exception):
    """A command, step or postcondition failed; the message is the record's reason."""


class ShortcutExecutor:
    """Runs calls from one KB on one device; `ground` lets dynamic shortcuts run."""

    def __init__(
        self,
        kb: KnowledgeBase,
        device: Device,
        *,
        ground: Ground | None = None,
        step_timeout: float = 5.0,
        poll_interval: float = 0.25,
        call_timeout: float = 60.0,
    ):
        self.kb = kb
        self.device = device
        self.ground = ground
        self.step_timeout = step_timeout
        self.poll_interval = poll_interval
        self.call_timeout = call_timeout
        self._ends_at = float("inf")  # the running call's end: its own limit or the episode's deadline

    def call(self, name: str, arguments: Mapping[str, Any] | None = None) -> CallRecord:
        """Validate, then run; always a record (success or the reason), never a CallError."""
        shortcut = self.kb.get(name)
        started, t0 = datetime.now(UTC), time.perf_counter()
        raw = dict(arguments) if isinstance(arguments, Mapping) else {}
        try:
            bound = validate_call(self.kb, name, arguments)
            plan = build_plan(self.kb, bound, can_ground=self.ground is not None)
        except CallError as exc:
            return CallRecord(
                name=name,
                arguments=raw,
                type=shortcut.type if shortcut else None,
                reason=str(exc),
                duration_s=time.perf_counter() - t0,
                started_at=started,
            )
        left = time_left()
        self._ends_at = time.monotonic() + min(self.call_timeout, left if left is not None else float("inf"))
        record = self._run(plan, started, t0)
        if isinstance(self.ground, MeteredGround):
            record.usage = self.ground.take_usage()  # nested calls included: taken once, at the top
        return record

    # -- running a plan ----------------------------------------------------------------------------
    def _run(self, plan: Plan, started: datetime | None = None, t0: float | None = None) -> CallRecord:
        t0 = time.perf_counter() if t0 is None else t0
        record = CallRecord(
            name=plan.call.name,
            arguments=plan.call.arguments,
            type=plan.call.shortcut.type,
            started_at=started or datetime.now(UTC),
        )
        try:
            if plan.call.shortcut.precondition is not None:
                self._precondition(plan.call.shortcut.precondition)
            if plan.command is not None:
                self._command(plan.command, record)
            for planned in plan.steps:
                self._step(planned, record)
            if plan.expect is not None or plan.expect_shows is not None:
                self._expect(plan.expect, plan.expect_shows)
            record.success = True
        except DeviceGoneError:
            raise
        except (StepFailed, DeviceError) as exc:
            record.reason = str(exc)
        finally:
            record.duration_s = time.perf_counter() - t0
        return record

    def _command(self, args: list[str], record: CallRecord) -> None:
        line = C.join(args)
        record.commands.append(line)
        out = self.device.shell(args, timeout=30)
        error = C.am_error(out.output)
        if out.exit_code != 0 or error:
            raise StepFailed(f"{' '.join(args[:2])} failed: {error or f'exit status {out.exit_code}'}")

    def _out_of_time(self) -> bool:
        return time.monotonic() >= self._ends_at

    def _expect(self, package: str | None, shows: Selector | None) -> None:
        """Poll until the promised package is in front and the promised element on screen."""
        deadline = min(time.monotonic() + self.step_timeout, self._ends_at)
        while True:
            found, _ = self.device.foreground()
            missing = None
            if package is not None and found != package:
                missing = f"expected {package} in front, found {found or 'nothing'}"
            elif shows is not None:
                try:
                    select(shows, self.device.elements())
                except SelectorError:
                    missing = f"expected {shows.describe()} on screen"
            if missing is None:
                return
            if time.monotonic() >= deadline:
                raise StepFailed(f"postcondition failed: {missing}")
            time.sleep(self.poll_interval)

    def _precondition(self, wanted: Precondition) -> None:
        """Fail before acting when the screen is not the one the shortcut starts from (read once: the
        agent called it from the screen it sees)."""
        found, _ = self.device.foreground()
        if wanted.package is not None and found != wanted.package:
            raise StepFailed(
                f"{PRECONDITION}: expected {wanted.package} in front, found {found or 'nothing'}"
            )
        if wanted.shows is not None:
            try:
                select(wanted.shows, self.device.elements())
            except SelectorError:
                raise StepFailed(f"{PRECONDITION}: expected {wanted.shows.describe()} on screen") from None

    def _step(self, planned: PlannedStep, record: CallRecord) -> None:
        step = ScriptStepRecord(number=planned.number, step=planned.label)
        record.steps.append(step)
        t0 = time.perf_counter()
        try:
            if self._out_of_time():
                raise StepFailed("the call ran out of time (its limit, or the episode's time limit)")
            if planned.call is not None:
                step.call = self._run(planned.call)
                record.commands += step.call.commands
                if not step.call.success:
                    raise StepFailed(step.call.reason or "failed")
            else:
                assert planned.step is not None
                found = self._act(planned.step)
                step.element = found.describe() if found is not None else None
            step.success = True
        except DeviceGoneError:
            raise
        except (StepFailed, DeviceError) as exc:
            step.reason = str(exc)
            raise StepFailed(f"step {planned.number} {planned.label}: {exc}") from exc
        finally:
            step.duration_s = time.perf_counter() - t0

    # -- steps -------------------------------------------------------------------------------------
    def _act(self, step: BaseModel) -> UIElement | None:
        """Do one script step or replayed action; returns the element it acted on, if any."""
        device = self.device
        match step:
            case TapStep():
                element = self._find(step.tap, step.timeout)
                device.tap_element(element)
                return element
            case LongPressStep():
                element = self._find(step.long_press, step.timeout)
                device.long_press(*element.center)
                return element
            case TypeStep():
                field = self._find(step.type.into, step.timeout) if step.type.into is not None else None
                if field is not None:
                    device.tap_element(field)
                if step.type.clear:
                    device.clear_text()
                device.type_text(step.type.text)
                return field
            case KeyStep():
                {"enter": device.enter, "back": device.back, "home": device.home}[step.key]()
            case ScrollStep():
                return self._scroll(step)
            case WaitStep():
                device.wait(step.wait)
            case WaitForStep():
                return self._find(step.wait_for, step.timeout)
            case AssertStep():
                return self._find(step.assert_, step.timeout or 0.0)
            case OpenAppStep():
                device.open_app(step.open_app)
            case _:
                return self._replay(step)
        return None

    def _find(self, target: Selector | str, timeout: float | None = None) -> UIElement:
        """The element a target designates: a selector is polled for until `timeout` (default: the
        step timeout); a description is grounded once by the model."""
        if isinstance(target, str):
            found = self._ground(target)
            if found is None:
                raise StepFailed(f"the grounding model found no element for {target!r}")
            return found
        return self._poll(target, timeout)[0]

    def _poll(self, selector: Selector, timeout: float | None) -> tuple[UIElement, list[UIElement]]:
        """Re-read the screen until the selector matches: (element, the elements it was found in)."""
        started = time.monotonic()
        limit = self.step_timeout if timeout is None else timeout
        deadline = min(started + limit, self._ends_at)
        waited = deadline - started  # the call's own deadline may cut the step's timeout short
        while True:
            elements = self.device.elements()
            try:
                return select(selector, elements), elements
            except SelectorError as exc:
                if time.monotonic() >= deadline:
                    raise StepFailed(f"{exc}" + (f" within {waited:.3g}s" if waited > 0 else "")) from None
            time.sleep(self.poll_interval)

    def _ground(self, description: str) -> UIElement | None:
        assert self.ground is not None  # planning refuses dynamic shortcuts without a model
        elements = self.device.elements()
        try:
            return self.ground(description, elements)
        except Exception as exc:  # a model or transport error fails this call, not the episode
            raise StepFailed(f"grounding {description!r} failed: {exc}") from exc

    def _scroll(self, step: ScrollStep[Selector] | ScrollStep[str]) -> UIElement | None:
        spec = step.scroll
        within = self._find(spec.within) if spec.within is not None else None
        if spec.until is None:
            self.device.scroll(spec.direction, within)
            return within
        for attempt in range(spec.max + 1):
            found = self._visible(spec.until)
            if found is not None:
                return found
            if attempt < spec.max:
                self.device.scroll(spec.direction, within)
        shown = spec.until.describe() if isinstance(spec.until, Selector) else repr(spec.until)
        raise StepFailed(f"{shown} not on screen after {spec.max} scrolls {spec.direction}")

    def _visible(self, target: Selector | str) -> UIElement | None:
        if isinstance(target, str):
            return self._ground(target)
        try:
            return select(target, self.device.elements())
        except SelectorError:
            return None

    # -- replayed actions --------------------------------------------------------------------------
    def _replay(self, action: Any) -> UIElement | None:
        """A recorded action, run as an agent's action would be; a selector target is waited for."""
        element: UIElement | None = None
        elements: list[UIElement] = []
        if getattr(action, "target", None) is not None:
            element, elements = self._poll(action.target, None)
        elif getattr(action, "index", None) is not None:
            elements = self.device.elements()
            element = next((e for e in elements if e.index == action.index), None)
        outcome = execute_action(self.device, action, elements)
        if not outcome.ok:
            raise StepFailed(outcome.error or "failed")
        return element
