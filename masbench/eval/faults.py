"""Shortcut fault injection (`masbench run --faults SPEC`): the harness breaks some shortcut calls on
purpose, at seeded rates, to measure whether an agent recovers (docs/metrics.md, "Shortcut faults").

A SPEC is `kind:rate` pairs, comma-separated (`api:0.2,removed:0.1`); the rates add up to at most 1. Each
call draws one number from a generator seeded by the task id, the repeat and the SPEC, so a resumed run
injects the same faults at the same calls. The kinds:

- `removed`: the deep link leads to a removed page: the shortcut's app opens on its start screen and the
  call fails its postcondition.
- `api`: the app's API answers with an error: the call fails before the device is touched.
- `moved`: an RPA script's target moved: the call runs on the device with its taps failing, so a script
  runs up to its first tap (a field typed into included) and fails there. A call with no tap (a deep
  link) runs untouched (no fault recorded).
- `slow`: the screen answers late: the device waits `SLOW_S` seconds, then the call runs. The wait is
  the modelled device clock's (a virtual phone advances it at once), so only virtual phones are hit; on
  a real device the call runs untouched (no fault recorded) rather than burn wall time.

`FaultyExecutor` wraps a `ShortcutExecutor` and looks like one to the episode (`call`, `kb`, `device`);
`injected_faults` turns what it injected into the episode's `{step, shortcut, kind}` records. A call
that is refused as a bad call (unknown name, bad arguments) is never hit: that error is the agent's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import BaseModel

from masbench.device.errors import DeviceError, DeviceGoneError
from masbench.shortcuts.calls import CallError, validate_call
from masbench.shortcuts.records import CallRecord

if TYPE_CHECKING:
    from masbench.device import Device
    from masbench.shortcuts import ShortcutExecutor
    from masbench.trajectory import StepRecord

FaultKind = Literal["removed", "api", "moved", "slow"]
FAULT_KINDS: tuple[str, ...] = get_args(FaultKind)
SLOW_S = 5.0  # how late a `slow` screen answers, in modelled device seconds
INJECTED = "injected fault"  # how an injected failure's reason starts


class FaultSpecError(ValueError):
    """A `--faults` SPEC that cannot be read; the message says what to write instead."""


class InjectedFault(BaseModel):
    """One fault the harness injected: at which step of the episode, into which call, of which kind."""

    step: int
    shortcut: str
    kind: FaultKind


def parse_faults(spec: str) -> dict[FaultKind, float]:
    """`api:0.2,removed:0.1` as {kind: rate}, in the SPEC's order; FaultSpecError naming the bad part."""
    rates: dict[FaultKind, float] = {}
    for part in (p.strip() for p in spec.split(",")):
        kind, sep, value = part.partition(":")
        if not sep or kind.strip() not in FAULT_KINDS:
            raise FaultSpecError(f"{part!r}: write kind:rate with kind one of {', '.join(FAULT_KINDS)}")
        try:
            rate = float(value)
        except ValueError:
            raise FaultSpecError(f"{part!r}: the rate must be a number from 0 to 1") from None
        if not 0.0 <= rate <= 1.0:
            raise FaultSpecError(f"{part!r}: the rate must be a number from 0 to 1")
        if kind.strip() in rates:
            raise FaultSpecError(f"{part!r}: {kind.strip()} is given twice")
        rates[kind.strip()] = rate  # type: ignore[index]  # checked against FAULT_KINDS above
    if sum(rates.values()) > 1.0 + 1e-9:
        raise FaultSpecError(f"{spec!r}: the rates add up to more than 1")
    return rates


def format_faults(rates: Mapping[FaultKind, float]) -> str:
    """The canonical SPEC of `rates` (as run.json keeps it, so a resume compares like with like)."""
    return ",".join(f"{kind}:{rate:g}" for kind, rate in rates.items())


class FaultyExecutor:
    """A `ShortcutExecutor` whose calls fail now and then as the harness's doing (module docstring)."""

    def __init__(self, inner: ShortcutExecutor, rates: Mapping[FaultKind, float], seed: str) -> None:
        self.inner = inner
        self.kb = inner.kb
        self.device = inner.device
        self.rates = dict(rates)
        self._rng = random.Random(seed)
        self._calls = 0
        self.injected: list[tuple[int, str, FaultKind]] = []  # (call number from 0, shortcut, kind)

    def call(self, name: str, arguments: Mapping[str, Any] | None = None) -> CallRecord:
        """The inner executor's call, or a fault drawn for it (one draw per call, hit or not)."""
        number, self._calls = self._calls, self._calls + 1
        kind = self._draw()
        if kind is None:
            return self.inner.call(name, arguments)
        record, hit = self._inject(kind, name, arguments)
        if hit:
            self.injected.append((number, name, kind))
        return record

    def _draw(self) -> FaultKind | None:
        u, edge = self._rng.random(), 0.0
        for kind, rate in self.rates.items():
            edge += rate
            if u < edge:
                return kind
        return None

    def _inject(
        self, kind: FaultKind, name: str, arguments: Mapping[str, Any] | None
    ) -> tuple[CallRecord, bool]:
        """The call's record with `kind` injected, and whether it was hit (else it ran as it is)."""
        try:
            bound = validate_call(self.kb, name, arguments)
        except CallError:  # a bad call fails as the agent's own error
            return self.inner.call(name, arguments), False
        if kind == "moved":
            return self._moved(name, arguments)
        if kind == "slow":
            if self.device.kind != "virtual":  # only the modelled clock may pay the delay
                return self.inner.call(name, arguments), False
            self.device.wait(SLOW_S)
            return self.inner.call(name, arguments), True
        shortcut = bound.shortcut
        record = CallRecord(
            name=name, arguments=bound.arguments, type=shortcut.type, started_at=datetime.now(UTC)
        )
        if kind == "api":
            record.reason = f"{INJECTED} (api): the app's API answered with an error"
            return record, True
        try:
            package = self.device.open_app(shortcut.package)  # where a link to a removed page lands
        except DeviceGoneError:
            raise
        except DeviceError as exc:
            package = f"{shortcut.package} (not opened: {exc})"
        record.commands = [f"open {package}"]
        record.reason = f"{INJECTED} (removed): postcondition failed: the linked page was removed"
        return record, True

    def _moved(self, name: str, arguments: Mapping[str, Any] | None) -> tuple[CallRecord, bool]:
        """The call run on a device whose every tap misses: a script fails at its first tap, as when its
        target moved; a call with no tap runs as it is (not hit)."""
        moved = _TargetMoved(self.inner.device)
        self.inner.device = moved  # type: ignore[assignment]  # a Device in all but its taps
        try:
            return self.inner.call(name, arguments), moved.hit
        finally:
            self.inner.device = self.device


class _TargetMoved:
    """A device whose taps find their target gone; everything else goes to the real device."""

    def __init__(self, device: Device) -> None:
        self._device, self.hit = device, False

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._device, attr)

    def tap(self, *args: Any, **kwargs: Any) -> None:
        self.hit = True
        raise DeviceError(f"{INJECTED} (moved): the target moved")

    tap_element = tap


def faulty(
    executor: ShortcutExecutor | None, spec: str | None, task_id: str, repeat: int
) -> ShortcutExecutor | FaultyExecutor | None:
    """`executor` injecting the faults of `spec` (seeded by task and repeat), or as it is without a spec."""
    if executor is None or not spec:
        return executor
    return FaultyExecutor(executor, parse_faults(spec), seed=f"{task_id}/{repeat}/{spec}")


def injected_faults(shortcuts: object, history: Sequence[StepRecord]) -> list[InjectedFault]:
    """The faults `shortcuts` injected in an episode, at the steps of their calls (the n-th call is the
    n-th step with a shortcut record); none for an executor without faults."""
    if not isinstance(shortcuts, FaultyExecutor):
        return []
    call_steps = [s.index for s in history if s.shortcut is not None]
    return [
        InjectedFault(step=call_steps[n], shortcut=name, kind=kind)
        for n, name, kind in shortcuts.injected
        if n < len(call_steps)
    ]
