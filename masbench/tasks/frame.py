"""Frame conditions: what a task did not ask to change must be left as it was (docs/tasks.md §8).

A check reads what the task asks for; the frame reads everything else. The phone's state is taken after
the task's set-up (`before`) and again when the episode ends (`after`); `diff` lists every change, item by
item (list elements matched by their id), and `unexpected` keeps those that neither the task allows nor
an app's normal use makes on its own:

- **the task's own paths**: every path a check leaf reads, at item granularity: an `items` leaf allows
  changes to the items its `where` selects (before or after the change), and of an item kept only the
  fields its `where` names, so removing a second video from a history the task trims, or starring the
  contact whose phone the task edits, is unexpected; one without `where` (a count of the whole list) allows
  nothing, since it says how many and not which; an item it makes must hold a new item's blanks
  (`created.yaml`) in the fields its `where` does not name; a `value` leaf allows its path, and for
  `contains` on a list only that element; a `setting` leaf its key;
- **`may_change`**: what a task legitimately touches on the way (patterns, `*` for one segment);
- **incidental state** (`incidental.yaml`): per app, what a person's normal use changes without meaning to
  (watch history grows, mail is marked read, recent searches), optionally only some kinds of change.

Paths are app short names followed by keys; a list element is `[id]`, its id taken from the first of
`IDENTITY_KEYS` that every element has, unique (else the element itself, as JSON).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import yaml

from masbench.catalog import BY_PACKAGE, package_of

from . import ops
from .checks import CheckResult, SnapshotState, check_device, evaluate, leaves

if TYPE_CHECKING:
    from masbench.device import Device

    from .schema import Check, Task

ChangeKind = Literal["added", "removed", "changed", "reordered"]
KINDS: tuple[ChangeKind, ...] = ("added", "removed", "changed", "reordered")
SIGNS = {"added": "[+]", "removed": "[-]", "changed": "~", "reordered": "reordered"}
IDENTITY_KEYS = ("id", "asin", "video_id", "channel_id", "hotel_id", "number", "url", "name")
LABEL_KEYS = ("name", "title", "summary", "subject", "headline", "hotel", "handle")
INCIDENTAL_FILE = Path(__file__).with_name("incidental.yaml")
CREATED_FILE = Path(__file__).with_name("created.yaml")
PHONE = "phone"  # the pseudo-app of state no app owns (the clipboard)
SETTINGS = "settings"  # the pseudo-app of system settings: settings.<namespace>.<key>


@dataclass(frozen=True)
class Change:
    """One difference between two states: where, what kind, and the values on either side.

    `elements` maps the index of each list-element segment of `path` to that element before and after
    (`ops.MISSING` where it does not exist), so an allowance can ask whether the item is one it covers."""

    path: tuple[str, ...]
    kind: ChangeKind
    before: Any = None
    after: Any = None
    elements: dict[int, tuple[Any, Any]] = field(default_factory=dict, compare=False)
    note: str = ""  # why an allowed-looking change is not: a made item's fields nobody asked for

    def describe(self) -> str:
        """`youtube.subscriptions[-] UCx (Sunday Sourdough)`, `fitbit.goals.water_ml: 2000 -> 2500`."""
        where = _dotted(self.path[:-1] if self.kind in ("added", "removed") else self.path)
        if self.kind in ("added", "removed"):
            item = self.after if self.kind == "added" else self.before
            note = f": {self.note}" if self.note else ""
            return f"{where}{SIGNS[self.kind]} {_label(self.path[-1], item)}{note}"
        if self.kind == "reordered":
            return f"{where} reordered"
        return f"{where}: {ops.show(self.before, 60)} -> {ops.show(self.after, 60)}"


def _dotted(path: tuple[str, ...]) -> str:
    text = ""
    for part in path:
        text += part if part.startswith("[") or not text else "." + part
    return text


def _label(segment: str, item: Any) -> str:
    """An element's id with the name a person knows it by: `UCx (Sunday Sourdough)`."""
    ident = segment[1:-1]
    if isinstance(item, dict):
        name = next(
            (str(item[k]) for k in LABEL_KEYS if isinstance(item.get(k), str) and item[k] != ident), None
        )
        if name is None and isinstance(item.get("first"), str):
            name = f"{item['first']} {item.get('last') or ''}".strip()
        if name:
            return f"{ident} ({name})"
    return ident


# --- diff -------------------------------------------------------------------------------------------------


def identity_key(before: list[Any], after: list[Any]) -> str | None:
    """The key that names the elements of both lists: present in every element, unique in each list."""
    elements = before + after
    if not elements or not all(isinstance(e, dict) for e in elements):
        return None
    for key in IDENTITY_KEYS:
        named = all(isinstance(e.get(key), str | int) and not isinstance(e.get(key), bool) for e in elements)
        if named and all(len({e[key] for e in side}) == len(side) for side in (before, after)):
            return key
    return None


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def diff(before: Any, after: Any, path: tuple[str, ...] = ()) -> Iterator[Change]:
    """Every change from `before` to `after`: dicts key by key, lists element by element (by id when the
    elements have one, else as a multiset, with a reorder of equal elements its own change)."""
    yield from _diff(before, after, path, {})


def _diff(
    before: Any, after: Any, path: tuple[str, ...], elements: dict[int, tuple[Any, Any]]
) -> Iterator[Change]:
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(k for k in after if k not in before)]:
            here = (*path, str(key))
            if key not in after:
                yield Change(here, "changed", before[key], ops.MISSING, elements)
            elif key not in before:
                yield Change(here, "changed", ops.MISSING, after[key], elements)
            elif before[key] != after[key]:
                yield from _diff(before[key], after[key], here, elements)
        return
    if isinstance(before, list) and isinstance(after, list):
        yield from _diff_list(before, after, path, elements)
        return
    if before != after:
        yield Change(path, "changed", before, after, elements)


def _diff_list(
    before: list[Any], after: list[Any], path: tuple[str, ...], elements: dict[int, tuple[Any, Any]]
) -> Iterator[Change]:
    key = identity_key(before, after)
    at = len(path)
    if key is not None:
        old = {e[key]: e for e in before}
        new = {e[key]: e for e in after}
        for ident, item in old.items():
            inner = {**elements, at: (item, new.get(ident, ops.MISSING))}
            if ident not in new:
                yield Change((*path, f"[{ident}]"), "removed", item, None, inner)
            elif item != new[ident]:
                yield from _diff(item, new[ident], (*path, f"[{ident}]"), inner)
        for ident, item in new.items():
            if ident not in old:
                yield Change(
                    (*path, f"[{ident}]"), "added", None, item, {**elements, at: (ops.MISSING, item)}
                )
        common = [i for i in old if i in new]
        if common != [i for i in new if i in old]:
            yield Change(path, "reordered", before, after, elements)
        return
    old_c, new_c = Counter(map(_canon, before)), Counter(map(_canon, after))
    by_canon = {_canon(e): e for e in before + after}
    for canon in old_c - new_c:
        item = by_canon[canon]
        yield Change(
            (*path, f"[{_short(item)}]"), "removed", item, None, {**elements, at: (item, ops.MISSING)}
        )
    for canon in new_c - old_c:
        item = by_canon[canon]
        yield Change((*path, f"[{_short(item)}]"), "added", None, item, {**elements, at: (ops.MISSING, item)})
    if old_c == new_c and before != after:
        yield Change(path, "reordered", before, after, elements)


def _short(item: Any) -> str:
    return item if isinstance(item, str) else _canon(item)


def snapshot_changes(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """The changes between two phone snapshots (`Device.snapshot()`), apps by short name, system settings
    under `settings`, the clipboard under `phone`; screens are not state and are not compared."""
    changes: list[Change] = []
    apps_before, apps_after = before.get("apps", {}), after.get("apps", {})
    for package in sorted(set(apps_before) | set(apps_after)):
        name = BY_PACKAGE[package].name if package in BY_PACKAGE else package
        changes += diff(apps_before.get(package, {}), apps_after.get(package, {}), (name,))
    changes += diff(before.get("settings", {}), after.get("settings", {}), (SETTINGS,))
    changes += diff(before.get("clipboard"), after.get("clipboard"), (PHONE, "clipboard"))
    return changes


# --- what may change ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Allowance:
    """Changes at or beneath `path` (`*` matches one segment) of the given kinds, to items the `where`
    of the list at `path` selects (None: any item)."""

    path: tuple[str, ...]
    kinds: frozenset[str] = frozenset(KINDS)
    where: dict[str, Any] | None = None
    element: Any = ops.MISSING  # a scalar list's one allowed element (`contains`)
    blank: dict[str, Any] | None = None  # what a new item holds in the fields `where` does not name
    source: str = ""  # check (whose paths' containers may be made), may_change or incidental

    def covers(self, change: Change) -> bool:
        n = len(self.path)
        if change.kind not in self.kinds or any(
            p != "*" and p != c for p, c in zip(self.path, change.path, strict=False)
        ):
            return False
        if len(change.path) < n:  # the container of a path the check reads, made or dropped as a whole
            made = change.kind in ("added", "removed") or _empty(change.before) or _empty(change.after)
            return self.source == "check" and made
        own_items = len(change.path) == (n if self.path[-1] == "*" else n + 1)
        if self.kinds != frozenset(KINDS) and change.kind in ("added", "removed") and not own_items:
            return False  # a restricted allowance adds or drops its own list's items, not nested ones
        if self.where is None and self.element is ops.MISSING:
            return True
        if len(change.path) == n:  # the list itself: only a reorder, which no item filter judges
            return change.kind == "reordered"
        before, after = change.elements.get(n, (ops.MISSING, ops.MISSING))
        if self.element is not ops.MISSING:
            return self.element in (before, after)
        assert self.where is not None
        kept = before is not ops.MISSING and after is not ops.MISSING and len(change.path) > n + 1
        if kept and change.path[n + 1] not in _judged(self.where):
            return False  # of an item kept, only the fields the check judges may change
        if own_items and self.unasked(change):
            return False  # an item made with more than was asked (a guest, a repeat, a Cc)
        return any(_selects(self.where, item) for item in (before, after) if item is not ops.MISSING)

    def unasked(self, change: Change) -> list[str]:
        """The fields of an item this allowance's check makes that hold what nobody asked for: not named
        by the `where` and not blank (`created.yaml`), as `field value` lines."""
        n = len(self.path)
        if self.blank is None or self.where is None or change.kind != "added" or len(change.path) != n + 1:
            return []
        item = change.after
        if not isinstance(item, dict) or not _selects(self.where, item):
            return []
        judged = _judged(self.where)
        return [
            f"{name} {ops.show(item[name], 60)}"
            for name, blank in self.blank.items()
            if name not in judged and item.get(name, blank) != blank
        ]


def _judged(where: dict[str, Any]) -> set[str]:
    """The fields of an item a `where` names (`address.city` names `address`)."""
    return {key.split(".")[0] for key in where}


def _empty(value: Any) -> bool:
    return value is ops.MISSING or value is None


def _selects(where: dict[str, Any], item: Any) -> bool:
    return all(ops.holds(ops.resolve(item, key)[0], cond) for key, cond in where.items())


def parse_pattern(pattern: str) -> tuple[str, ...]:
    """`gmail.threads.*.unread` -> ("gmail", "threads", "*", "unread")."""
    return tuple(pattern.split("."))


def _resolved(app: str, path: str, states: Iterable[Any]) -> set[tuple[str, ...]]:
    """A check's dotted path as diff paths: an integer that indexes a list becomes that element's `[id]`
    (in either state, which may differ); other segments stay as they are."""
    found: set[tuple[str, ...]] = set()
    for state in states:
        parts: list[str] = [app]
        current = state
        for part in path.split("."):
            element: Any  # an item of a JSON list
            element, missing = ops.resolve(current, part) if isinstance(current, list) else (None, part)
            if missing is None:
                key = identity_key(current, current)
                parts.append(f"[{element[key] if key else _short(element)}]")
                current = element
            else:
                parts.append(part)
                current = current.get(part, ops.MISSING) if isinstance(current, dict) else ops.MISSING
        found.add(tuple(parts))
    return found


def check_allowances(check: Check, before: dict[str, Any], after: dict[str, Any]) -> list[Allowance]:
    """What the check's own leaves allow to change (module docstring)."""
    allowed: list[Allowance] = []
    for leaf in leaves(check):
        if leaf.setting is not None:
            allowed.append(Allowance((SETTINGS, leaf.setting.namespace, leaf.setting.key), source="check"))
        items, value = leaf.items, leaf.value
        spec = items or value
        if spec is None:
            continue
        states = [_app_state(s, spec.app) for s in (before, after)]
        lists = all(isinstance(ops.resolve(s, spec.path)[0], list) for s in states)
        for path in _resolved(spec.app, spec.path, states):
            if items is not None:
                if items.where:  # a bare count says how many, not which: it allows nothing
                    blank = created().get((spec.app, spec.path))
                    allowed.append(Allowance(path, where=items.where, blank=blank, source="check"))
            elif value is not None and "contains" in value.ops and lists:
                allowed.append(Allowance(path, element=value.ops["contains"], source="check"))
            else:
                allowed.append(Allowance(path, source="check"))
    return allowed


def _app_state(snapshot: dict[str, Any], app: str) -> Any:
    return snapshot.get("apps", {}).get(package_of(app), {})


@cache
def incidental() -> tuple[Allowance, ...]:
    """Each app's incidental state, from `incidental.yaml` (docs/tasks.md §8)."""
    data = yaml.safe_load(INCIDENTAL_FILE.read_text(encoding="utf-8"))
    allowed = []
    for app, paths in data.items():
        for path, kinds in paths.items():
            chosen = frozenset(KINDS) if kinds == "any" else frozenset(kinds)
            if not chosen <= set(KINDS):
                raise ValueError(f"{INCIDENTAL_FILE.name}: {app}.{path}: kinds must be 'any' or of {KINDS}")
            allowed.append(Allowance((app, *parse_pattern(path)), chosen, source="incidental"))
    return tuple(allowed)


@cache
def created() -> dict[tuple[str, str], dict[str, Any]]:
    """What a new item holds in the fields a task does not ask about, per (app, list path), from
    `created.yaml` (docs/tasks.md §8)."""
    data = yaml.safe_load(CREATED_FILE.read_text(encoding="utf-8"))
    return {(app, path): dict(blank) for app, lists in data.items() for path, blank in lists.items()}


def task_allowances(task: Task, before: dict[str, Any], after: dict[str, Any]) -> list[Allowance]:
    declared = [Allowance(parse_pattern(p), source="may_change") for p in task.may_change]
    return [*check_allowances(task.check, before, after), *declared, *incidental()]


def unexpected(task: Task, before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """The changes from `before` to `after` that nothing allows."""
    allowed = task_allowances(task, before, after)
    found = [c for c in snapshot_changes(before, after) if not any(a.covers(c) for a in allowed)]
    return [_noted(c, [line for a in allowed for line in a.unasked(c)]) for c in found]


def _noted(change: Change, unasked: list[str]) -> Change:
    return replace(change, note=f"not asked for: {', '.join(unasked)}") if unasked else change


# --- judging an outcome --------------------------------------------------------------------------------------


def state_before(device: Device) -> dict[str, Any] | None:
    """The whole phone after a task's set-up, for the frame; None on a real device (no state to read)."""
    return device.snapshot() if device.is_virtual else None


def judge(task: Task, device: Device, before: dict[str, Any] | None) -> CheckResult:
    """The task's check on the device's state and, given the state `before` the episode, its frame: the
    check fails on any change it does not allow, one `FAIL unexpected change: ...` line each."""
    if before is None:
        return check_device(task.check, device)
    after = device.snapshot()
    result = evaluate(task.check, SnapshotState(after))
    extra = unexpected(task, before, after)
    if not extra:
        return result
    lines = [f"FAIL unexpected change: {c.describe()}" for c in extra]
    return CheckResult(False, [*result.details, *lines])


__all__ = [
    "Allowance",
    "Change",
    "check_allowances",
    "created",
    "diff",
    "identity_key",
    "incidental",
    "judge",
    "snapshot_changes",
    "state_before",
    "task_allowances",
    "unexpected",
]
