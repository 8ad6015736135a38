"""Evaluate a task's programmatic check over the phone's state (docs/formats.md, "Check predicates").

The check reads app state, settings and the foreground screen, never the route that led there, so a GUI
route and a shortcut route are judged alike. State comes through a `StateReader`; `SnapshotState` reads
a device with one `cmd masbench state` call per check. A missing path or app never raises: the leaf is
simply not satisfied and its detail line says which path was missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from masbench.catalog import package_of

from . import ops
from .schema import Check, ForegroundSpec, ItemsSpec, SettingSpec, ValueSpec

if TYPE_CHECKING:
    from masbench.device import Device


class StateReader(Protocol):
    """What checks read: an app's public state, a setting and the foreground screen."""

    def app_state(self, package: str) -> Any: ...

    def setting(self, namespace: str, key: str) -> Any: ...

    def foreground(self) -> dict[str, Any]: ...

    def stack(self) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class SnapshotState:
    """A `StateReader` over one `Device.snapshot()` (or any dict of that shape, in tests)."""

    data: dict[str, Any]

    @classmethod
    def of(cls, device: Device, check: Check | None = None) -> SnapshotState:
        """The device's state, read once; given the `check`, only the apps it reads."""
        return cls(device.snapshot(None if check is None else packages_read(check)))

    def app_state(self, package: str) -> Any:
        return self.data.get("apps", {}).get(package, ops.MISSING)

    def setting(self, namespace: str, key: str) -> Any:
        return self.data.get("settings", {}).get(namespace, {}).get(key, ops.MISSING)

    def foreground(self) -> dict[str, Any]:
        foreground: dict[str, Any] = self.data.get("foreground", {})
        return foreground

    def stack(self) -> list[dict[str, Any]]:
        """The back stack, bottom first; the last entry is the foreground screen."""
        stack: list[dict[str, Any]] = self.data.get("stack", [])
        return stack


@dataclass
class CheckResult:
    """Passed or not, with one line per leaf (`PASS ...` / `FAIL ...`) saying what was found."""

    passed: bool
    details: list[str] = field(default_factory=list)


def leaves(check: Check) -> list[Check]:
    """The leaf predicates under a check, combinators looked through (for rules about what checks read)."""
    children = check.all or check.any or ([check.not_] if check.not_ is not None else [])
    return [leaf for child in children for leaf in leaves(child)] if children else [check]


def evaluate(check: Check, state: StateReader) -> CheckResult:
    details: list[str] = []
    passed = _eval(check, state, details, depth=0)
    return CheckResult(passed, details)


def check_device(check: Check, device: Device) -> CheckResult:
    """Evaluate on a (virtual) phone's current state, read once."""
    return evaluate(check, SnapshotState.of(device, check))


def packages_read(check: Check) -> list[str]:
    """The packages whose state the check reads (foreground, stack and settings come with any snapshot)."""
    apps = {spec.app for leaf in leaves(check) if (spec := leaf.items or leaf.value)}
    return sorted(package_of(app) for app in apps)


def _eval(check: Check, state: StateReader, details: list[str], depth: int) -> bool:
    kind = check.kind
    if kind in ("all", "any"):
        children = check.all if kind == "all" else check.any
        assert children is not None
        details.append("  " * depth + f"{kind}:")
        results = [_eval(c, state, details, depth + 1) for c in children]
        return all(results) if kind == "all" else any(results)
    if kind == "not":
        assert check.not_ is not None
        details.append("  " * depth + "not (must fail):")
        return not _eval(check.not_, state, details, depth + 1)
    leaf = LEAVES[kind]
    ok, detail = leaf(getattr(check, kind), state)
    details.append("  " * depth + ("PASS " if ok else "FAIL ") + detail)
    return ok


def _app_data(app: str, path: str, state: StateReader) -> tuple[Any, str | None]:
    data = state.app_state(package_of(app))
    if data is ops.MISSING:
        return ops.MISSING, f"{app} has no state on this phone"
    value, missing = ops.resolve(data, path)
    if missing is not None:
        return ops.MISSING, f"{app}: path {missing!r} does not exist"
    return value, None


def items(spec: ItemsSpec, state: StateReader) -> tuple[bool, str]:
    where = ", ".join(f"{k}={ops.describe(c)}" for k, c in spec.where.items())
    what = f"items {spec.app}.{spec.path}" + (f" where {where}" if where else "")
    found, problem = _app_data(spec.app, spec.path, state)
    if problem is None and not isinstance(found, list):
        problem = f"{spec.app}.{spec.path} is not a list: {ops.show(found)}"
    if problem is not None:
        return False, f"{what}: {problem}"
    matching = [it for it in found if all(ops.holds(ops.resolve(it, k)[0], c) for k, c in spec.where.items())]
    ok = ops.holds(len(matching), spec.count)
    return ok, f"{what}: {len(matching)} of {len(found)} match (need {ops.describe(spec.count)})"


def value(spec: ValueSpec, state: StateReader) -> tuple[bool, str]:
    what = f"value {spec.app}.{spec.path} {ops.describe(spec.ops)}"
    found, problem = _app_data(spec.app, spec.path, state)
    failed = ops.failed_op(found, spec.ops)
    if failed is None:
        return True, f"{what}: found {ops.show(found)}"
    return False, f"{what}: {problem or f'found {ops.show(found)}, not {failed}'}"


def _is_unset(value: Any) -> bool:
    """A filter that is off: absent, null, false, zero or empty."""
    return value is ops.MISSING or value in (None, False, 0, "") or value == [] or value == {}


def _screen_problem(spec: ForegroundSpec, screen: dict[str, Any]) -> str | None:
    """Why `screen` (a foreground or back-stack entry) is not the one the spec asks for, or None."""
    if screen.get("package") != package_of(spec.app):
        return f"app {screen.get('package', '?')}"
    if spec.screen is not None and screen.get("screen") != spec.screen:
        return f"screen {screen.get('screen')!r}"
    args = screen.get("args") or {}
    wrong = [k for k, c in spec.args.items() if not ops.holds(ops.resolve(args, k)[0], c)]
    wrong += [k for k in spec.unset if not _is_unset(ops.resolve(args, k)[0])]
    return f"args {', '.join(wrong)} of {ops.show(args)}" if wrong else None


def foreground(spec: ForegroundSpec, state: StateReader) -> tuple[bool, str]:
    front = state.foreground()
    want = [spec.app] + ([f"screen {spec.screen!r}"] if spec.screen else [])
    want += [f"{k}={ops.describe(c)}" for k, c in spec.args.items()]
    want += [f"{k} unset" for k in spec.unset]
    beneath = f" (or directly beneath {'/'.join(spec.or_beneath)})" if spec.or_beneath else ""
    what = "foreground " + " ".join(want) + beneath
    problem = _screen_problem(spec, front)
    if problem is None:
        return True, f"{what}: in front"
    seen = f"{front.get('package', '?')} screen {front.get('screen')!r}: wrong {problem}"
    stack = state.stack()
    if (
        front.get("screen") in spec.or_beneath
        and len(stack) >= 2
        and front.get("package") == package_of(spec.app)
    ):
        under = _screen_problem(spec, stack[-2])
        if under is None:
            return True, f"{what}: directly beneath {front.get('screen')!r}"
        seen += f"; beneath it: wrong {under}"
    return False, f"{what}: in front is {seen}"


def setting(spec: SettingSpec, state: StateReader) -> tuple[bool, str]:
    what = f"setting {spec.namespace} {spec.key} {ops.describe(spec.ops)}"
    found = state.setting(spec.namespace, spec.key)
    failed = ops.failed_op(found, spec.ops)
    if failed is None:
        return True, f"{what}: found {ops.show(found)}"
    shown = "not set" if found is ops.MISSING else f"found {ops.show(found)}, not {failed}"
    return False, f"{what}: {shown}"


LEAVES: dict[str, Callable[[Any, StateReader], tuple[bool, str]]] = {
    "items": items,
    "value": value,
    "foreground": foreground,
    "setting": setting,
}

__all__ = ["CheckResult", "SnapshotState", "StateReader", "check_device", "evaluate", "leaves"]
