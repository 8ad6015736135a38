"""The phone driven in process, for the route search (masbench/tasks/routes.py through the device layer's
`InProcessPhone`): states saved and switched between in memory, a cheap state key, the UI tree as data.

A search tries every move from a state, going back to it before each one, and then moves on to the next
state of its level, usually a sibling. Copying or pickling the phone's state for that is what makes it
slow (Yelp's state alone is ~140k containers), so states are never copied:

- every container (dict, list) of the apps' states, the screens' arguments and UI state and the settings is
  a *tracked* one (`TrackedDict`, `TrackedList`): its first change after a state was taken up copies its
  old contents into the phone's journal, so the changes a move made can be undone in place. After an undo
  the state is the one before the move object for object, so its laid-out frame (whose handlers hold those
  objects) stays valid and is put back instead of composed again;
- a saved state (`Saved`) is a node of a tree: its parent (the state the journal ran from) and the change
  list from it, each changed container with its contents before and after. Switching from one saved state
  to another puts back the old contents up to their common ancestor and the new ones down from it, so a
  switch costs what the moves between them changed, not the size of the phone;
- the state key hashes each app's state canonically (JSON with sorted keys, so a state gets the same key
  however it was reached), again only for the apps a move changed, and the screens, settings, clipboard,
  running apps and files, all small.

The phone-level fields (the back stack and each screen's fields, running apps, clipboard, files, the
modelled clock) are small and kept whole in each saved state. The event log and toasts are cut back to a
state's length on a switch, never replayed: nothing a check or a screen's elements read comes from them.
A container the search cannot see into (a list inside a tuple, a set) must not change in place; app
states are JSON-ish data, which has none.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeAlias

from . import uidump
from .app import Screen
from .commands.screen import key_name
from .display import Frame
from .intents import Intent
from .phone import VirtualPhone

SCREENS = "screens"  # owner of the stack's screens' arguments and UI state
SETTINGS = "settings"  # owner of the settings tables
FRAMES_KEPT = 4  # laid-out frames kept for the states switched to last (a search expands one at a time)

Tracked: TypeAlias = "TrackedDict | TrackedList"
Contents: TypeAlias = dict[Any, Any] | list[Any]


class _Journal:
    """The old contents of every tracked container changed since a state was taken up, and their owners
    (the apps, SCREENS or SETTINGS), so a save re-hashes only those."""

    def __init__(self) -> None:
        self.saved: dict[int, tuple[Tracked, Contents]] = {}
        self.owners: set[str] = set()

    def note(self, container: Tracked) -> None:
        if id(container) not in self.saved:
            old = dict.copy(container) if isinstance(container, dict) else list.copy(container)
            self.saved[id(container)] = (container, old)
            self.owners.add(container.owner)

    def undo(self) -> None:
        """Put back every changed container's old contents, in place."""
        for container, old in self.saved.values():
            _put(container, old)
        self.clear()

    def clear(self) -> None:
        self.saved.clear()
        self.owners.clear()


class _Recording:
    """The journal tracked containers write to (one phone records at a time: the one last switched)."""

    journal: _Journal | None = None


def _note(container: Tracked) -> None:
    journal = _Recording.journal
    if journal is not None:
        journal.note(container)


def _put(container: Tracked, contents: Contents) -> None:
    if isinstance(container, dict):
        dict.clear(container)
        dict.update(container, contents)
    else:
        list.__setitem__(container, slice(None), contents)


class TrackedDict(dict[Any, Any]):
    """A dict that journals its contents before its first change (see the module doc)."""

    __slots__ = ("owner",)
    owner: str

    def __setitem__(self, key: Any, value: Any) -> None:
        _note(self)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        _note(self)
        dict.__delitem__(self, key)

    def __ior__(self, other: Any) -> TrackedDict:  # type: ignore[misc]  # dict's own signature
        _note(self)
        dict.update(self, other)
        return self

    def clear(self) -> None:
        _note(self)
        dict.clear(self)

    def pop(self, *args: Any) -> Any:
        _note(self)
        return dict.pop(self, *args)

    def popitem(self) -> tuple[Any, Any]:
        _note(self)
        return dict.popitem(self)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        _note(self)
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        _note(self)
        dict.update(self, *args, **kwargs)

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (`cmd masbench save`) and copied as a plain dict
        return (dict, (dict(self),))


class TrackedList(list[Any]):
    """A list that journals its contents before its first change (see the module doc)."""

    __slots__ = ("owner",)
    owner: str

    def __setitem__(self, index: Any, value: Any) -> None:
        _note(self)
        list.__setitem__(self, index, value)

    def __delitem__(self, index: Any) -> None:
        _note(self)
        list.__delitem__(self, index)

    def __iadd__(self, other: Any) -> TrackedList:  # type: ignore[misc]  # list's own signature
        _note(self)
        list.extend(self, other)
        return self

    def __imul__(self, n: Any) -> TrackedList:  # type: ignore[misc]  # list's own signature
        _note(self)
        list.__imul__(self, n)
        return self

    def append(self, value: Any) -> None:
        _note(self)
        list.append(self, value)

    def extend(self, values: Any) -> None:
        _note(self)
        list.extend(self, values)

    def insert(self, index: Any, value: Any) -> None:
        _note(self)
        list.insert(self, index, value)

    def pop(self, index: Any = -1) -> Any:
        _note(self)
        return list.pop(self, index)

    def remove(self, value: Any) -> None:
        _note(self)
        list.remove(self, value)

    def clear(self) -> None:
        _note(self)
        list.clear(self)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        _note(self)
        list.sort(self, *args, **kwargs)

    def reverse(self) -> None:
        _note(self)
        list.reverse(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


def track(value: Any, owner: str, memo: dict[int, Any] | None = None) -> Any:
    """`value` with every plain dict and list in it (itself included) made a tracked one owned by `owner`;
    containers already tracked are kept, and a plain one reached twice (here or elsewhere under the same
    `memo`) becomes one tracked container, so sharing survives. Iterative, and by exact type."""
    if type(value) is not dict and type(value) is not list:
        return value
    memo = {} if memo is None else memo
    todo: list[tuple[Any, Any]] = []

    def convert(item: Any) -> Any:
        kind = type(item)
        if kind is not dict and kind is not list:
            return item
        done = memo.get(id(item))
        if done is None:
            done = memo[id(item)] = TrackedDict() if kind is dict else TrackedList()
            done.owner = owner
            todo.append((item, done))
        return done

    root = convert(value)
    while todo:
        plain, tracked = todo.pop()
        if type(tracked) is TrackedDict:
            for key, item in plain.items():
                dict.__setitem__(tracked, key, convert(item))
        else:
            list.extend(tracked, [convert(item) for item in plain])
    return root


class _ScreenFields(NamedTuple):
    screen: Screen
    package: str
    activity: str
    name: str
    args: dict[str, Any]
    ui: dict[str, Any]


class _PhoneFields(NamedTuple):
    """The phone-level part of a state: small, kept whole."""

    app_states: dict[str, Any]  # package -> its state's root container
    settings: dict[str, Any]
    stack: tuple[_ScreenFields, ...]
    running: frozenset[str]
    clipboard: str
    files: dict[str, Any]
    dirs: frozenset[str]
    device_ms: int  # the modelled clock, so a state's timestamps depend on its route only
    events: int  # lengths of the event log and the toasts
    toasts: int


@dataclass(eq=False)
class Saved:
    """One phone state: a node of the tree of saved states (see the module doc)."""

    parent: Saved | None
    changes: tuple[tuple[Tracked, Contents, Contents], ...]  # (container, contents before, after)
    fields: _PhoneFields
    digests: dict[str, bytes]  # each app's state's and the settings' canonical hash
    stack: bytes  # the back stack's hash, each screen's UI state aside (what a check reads of it)
    key: bytes  # equal keys, equal states (clocks and the event log aside)
    depth: int = field(init=False)
    root: Saved = field(init=False)

    def __post_init__(self) -> None:
        self.depth = 0 if self.parent is None else self.parent.depth + 1
        self.root = self if self.parent is None else self.parent.root

    def report_key(self, packages: list[str]) -> bytes:
        """Equal for two states whose `report(packages)` (what a check reads) is equal."""
        return _report_key(self.stack, self.digests, packages)


def _report_key(stack: bytes, digests: dict[str, bytes], packages: list[str]) -> bytes:
    return _digest(stack, digests[SETTINGS], *(digests[p] for p in sorted(packages)))


def _stack_digest(stack: list[Screen]) -> bytes:
    return _digest(_canonical([(s.package, s.activity, s.name, s.args) for s in stack]))


def _digest(*parts: bytes | str) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.digest()


def _canonical(value: Any) -> str:
    """JSON with sorted keys (insertion order is history, not state); unsortable keys keep their order."""
    try:
        return json.dumps(value, sort_keys=True, default=repr, ensure_ascii=False, check_circular=False)
    except TypeError:  # keys of mixed types
        return json.dumps(value, default=repr, ensure_ascii=False, check_circular=False)


class DirectPhone:
    """A `VirtualPhone` the route search drives in process (see the module doc). `save()` remembers the
    live state, `restore(saved)` switches to one; between the two, `nodes()` and `report()` read it."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        self.base: Saved | None = None  # the state taken up last: the live state is it plus the journal
        self.journal = _Journal()
        self._states: dict[str, Any] = {}  # the base's table of app states (a reset makes a new one)
        self._frames: dict[Saved, tuple[Frame | None, int]] = {}  # laid-out frames of recent bases

    # -- reading the state ------------------------------------------------------------------------------
    def nodes(self) -> Iterator[dict[str, str]]:
        """The current screen's nodes as `uiautomator dump` would list them, without the XML."""
        frame = self.phone.frame()
        return uidump.nodes(frame.window, frame.package, self.phone.top.ui.get("focus"))

    def report(self, packages: list[str]) -> dict[str, Any]:
        """What a check reads (foreground, stack, settings and these apps' public states), sharing the
        phone's objects: read it, never change it."""
        return self.phone.report(packages)

    def report_key(self, packages: list[str], rehash: bool = False) -> bytes | None:
        """`Saved.report_key` of the live state without saving it. When the moves since the base changed
        these apps' states or the settings, they are hashed again if `rehash`, else the answer is None
        (for a cheap check, hashing a large app costs more than checking)."""
        base = self.base
        if (
            base is None
            or self.phone.app_states is not self._states
            or _Recording.journal is not self.journal
        ):
            return None
        dirty = self._dirty(base) & {*packages, SETTINGS}
        if dirty and not rehash:
            return None
        digests = base.digests | {part: self._part_digest(part) for part in dirty}
        return _report_key(_stack_digest(self.phone.stack), digests, packages)

    def _part_digest(self, part: str) -> bytes:
        """The canonical hash of an app's state, or of the settings."""
        return _digest(_canonical(self.phone.settings if part == SETTINGS else self.phone.app_states[part]))

    # -- acting: what the shell's `input` and `am broadcast` do, without a command line to parse ----------
    def tap(self, x: int, y: int) -> None:
        """`input tap X Y` (commands/screen.py): a touch off the screen reaches no window."""
        phone = self.phone
        phone.advance("shell")  # as `VirtualPhone.shell` charges every command line
        if 0 <= x < phone.width and 0 <= y < phone.height:
            phone.tap(x, y)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int) -> None:
        """`input swipe X1 Y1 X2 Y2 MS`."""
        self.phone.advance("shell")
        self.phone.swipe(x1, y1, x2, y2, max(0, duration_ms))

    def key(self, arg: str) -> bool:
        """`input keyevent ARG`; False for a key Android would not know (the command fails)."""
        self.phone.advance("shell")
        name = key_name(arg)
        if name is not None:
            self.phone.keyevent(name)
        return name is not None

    def broadcast(self, action: str, extras: dict[str, str]) -> None:
        """`am broadcast -a ACTION --es KEY VALUE...` (the ADB keyboard's text and clear actions)."""
        self.phone.advance("shell")
        self.phone.broadcast(Intent(action, extras=dict(extras)))

    # -- saving and switching ---------------------------------------------------------------------------
    def save(self) -> Saved:
        """The live state, as a child of the base holding the journal's changes (a new root after a reset
        or before any save: then everything is hashed, and it becomes the base)."""
        live = self.phone.app_states is self._states and _Recording.journal is self.journal
        base = self.base if live else None
        memo: dict[int, Any] = {}
        if base is None:
            self._track_everything(memo)
            changes: tuple[tuple[Tracked, Contents, Contents], ...] = ()
            dirty: set[str] = {*self.phone.app_states, SETTINGS}
        else:
            self._track_changes(memo)
            changes = tuple(
                (c, old, dict.copy(c) if isinstance(c, dict) else list.copy(c))
                for c, old in self.journal.saved.values()
            )
            dirty = self._dirty(base)
        fields = self._fields()
        digests = dict(base.digests) if base is not None else {}
        digests.update((part, self._part_digest(part)) for part in dirty)
        stack = _stack_digest(self.phone.stack)
        key = _digest(
            stack,
            *(digests[part] for part in sorted(digests)),
            _canonical([_layout_free(s.ui) for s in fields.stack]),
            fields.clipboard,
            ",".join(sorted(fields.running)),
            *(f"{path}:{entry.data!r}" for path, entry in sorted(fields.files.items())),
            ",".join(sorted(fields.dirs)),
        )
        saved = Saved(base, changes, fields, digests, stack, key)
        if base is None:
            self._take_up(saved)
        return saved

    def restore(self, saved: Saved) -> None:
        """Make `saved` the live state and the base: the journal's changes are undone, then the changes
        between the base and `saved` put back up to their common ancestor and redone down from it."""
        base = self.base
        if base is None or saved.root is not base.root:
            raise ValueError("a state saved on another phone, or before the state the search started from")
        self._record(None)
        self.journal.undo()
        if saved is not base:
            up, down = _path(base, saved)
            for state in up:
                for container, old, _ in state.changes:
                    _put(container, old)
            for state in down:
                for container, _, new in state.changes:
                    _put(container, new)
        self._put_fields(saved.fields)
        held = self._frames.get(saved)
        if held is None:
            self.phone.frame()  # laid out before recording: what layout writes (offsets clamped) is the state
            _track_children(self.phone.top.ui, SCREENS, {})
            self._frames[saved] = held = self.phone.held_frame()
            if len(self._frames) > FRAMES_KEPT:
                del self._frames[next(iter(self._frames))]
        self.phone.put_back_frame(held)
        self._take_up(saved)

    def _take_up(self, saved: Saved) -> None:
        """Start recording the changes made from `saved`, the live state."""
        self.base = saved
        self._states = self.phone.app_states
        self.journal.clear()
        self._record(self.journal)

    @staticmethod
    def _record(journal: _Journal | None) -> None:
        _Recording.journal = journal

    def _fields(self) -> _PhoneFields:
        phone = self.phone
        return _PhoneFields(
            dict(phone.app_states),
            phone.settings,
            tuple(_ScreenFields(s, s.package, s.activity, s.name, s.args, s.ui) for s in phone.stack),
            frozenset(phone.running),
            phone.clipboard,
            dict(phone.fs.files),
            frozenset(phone.fs.dirs),
            phone.device_ms,
            len(phone.events),
            len(phone.toasts),
        )

    def _put_fields(self, fields: _PhoneFields) -> None:
        phone = self.phone
        phone.app_states = dict(fields.app_states)
        phone.settings = fields.settings
        phone.stack = [s.screen for s in fields.stack]
        for screen, package, activity, name, args, ui in fields.stack:
            screen.package, screen.activity, screen.name, screen.args, screen.ui = (
                package,
                activity,
                name,
                args,
                ui,
            )
        phone.running, phone.clipboard = set(fields.running), fields.clipboard
        phone.fs.files, phone.fs.dirs = dict(fields.files), set(fields.dirs)
        phone.device_ms = fields.device_ms
        del phone.events[fields.events :], phone.toasts[fields.toasts :]
        phone.invalidate()

    def _track_everything(self, memo: dict[int, Any]) -> None:
        """Make every container of the live state a tracked one (a new root: after a reset, all are plain)."""
        phone = self.phone
        for package, state in phone.app_states.items():
            phone.app_states[package] = track(state, package, memo)
        phone.settings = track(phone.settings, SETTINGS, memo)
        self._track_screens(memo)

    def _track_changes(self, memo: dict[int, Any]) -> None:
        """Make the containers a move created tracked ones, so the next moves' changes to them are undone
        too: those put into a changed container, new app state roots and settings, new screens' fields."""
        phone = self.phone
        for container, _ in self.journal.saved.values():
            _track_children(container, container.owner, memo)
        for package, state in phone.app_states.items():
            if type(state) is dict:
                phone.app_states[package] = track(state, package, memo)
        if type(phone.settings) is dict:
            phone.settings = track(phone.settings, SETTINGS, memo)
        self._track_screens(memo)

    def _track_screens(self, memo: dict[int, Any]) -> None:
        for screen in self.phone.stack:
            if type(screen.args) is dict:
                screen.args = track(screen.args, SCREENS, memo)
            if type(screen.ui) is dict:
                screen.ui = track(screen.ui, SCREENS, memo)

    def _dirty(self, base: Saved) -> set[str]:
        """The parts whose hash may have changed since the base: the owners of changed containers, apps
        whose state root was replaced, the settings if they were."""
        phone, before = self.phone, base.fields
        dirty = {owner for owner in self.journal.owners if owner != SCREENS}
        dirty |= {p for p, state in phone.app_states.items() if state is not before.app_states.get(p)}
        if phone.settings is not before.settings:
            dirty.add(SETTINGS)
        return dirty


def _track_children(container: Contents, owner: str, memo: dict[int, Any]) -> None:
    """Make the plain containers in a tracked one tracked (in place: the tracked one's change is already
    journaled, or it is being laid out before recording starts)."""
    if isinstance(container, dict):
        for key, item in list(container.items()):
            if type(item) is dict or type(item) is list:
                dict.__setitem__(container, key, track(item, owner, memo))
    else:
        for at, item in enumerate(container):
            if type(item) is dict or type(item) is list:
                list.__setitem__(container, at, track(item, owner, memo))


def _path(start: Saved, end: Saved) -> tuple[list[Saved], list[Saved]]:
    """The states whose changes to undo going up from `start` (deepest first) and to redo going down to
    `end` (shallowest first), to their common ancestor."""
    up: list[Saved] = []
    down: list[Saved] = []
    a: Saved | None = start
    b: Saved | None = end
    while a is not b:
        assert a is not None and b is not None  # same root
        if a.depth >= b.depth:
            up.append(a)
            a = a.parent
        else:
            down.append(b)
            b = b.parent
    down.reverse()
    return up, down


def _layout_free(ui: dict[str, Any]) -> dict[str, Any]:
    """A screen's UI state as laying it out leaves it: each scroll offset clamped to its container's
    `.max` from the last layout (as the next layout clamps it: a swipe past the end is not a new state),
    zero offsets and the `.max` entries left out (so a screen laid out and one not yet are one state)."""
    offsets = ui.get("scroll", {})
    scroll = {
        k: min(v, offsets.get(f"{k}.max", v))
        for k, v in offsets.items()
        if not k.endswith(".max") and min(v, offsets.get(f"{k}.max", v)) > 0
    }
    free = {k: v for k, v in ui.items() if k != "scroll"}
    if scroll:
        free["scroll"] = scroll
    return free


__all__ = ["DirectPhone", "Saved", "TrackedDict", "TrackedList", "track"]
