"""The phone driven in process, for the route search (masbench/tasks/routes.py through the device layer's
`InProcessPhone`): states saved and restored in memory, a cheap state key, the UI tree as data.

A search tries every move from a state, going back to it before each one. Two costs dominate a naive
restore: unpickling every app's state (most of it never changes) and laying out the screen again for the
next tap. So:

- every container (dict, list) of the apps' states, the screens' arguments and UI state and the settings is
  a *tracked* one (`TrackedDict`, `TrackedList`): its first change after `begin()` copies its old contents
  into a journal, and `undo()` puts them back into the very same objects. The state after an undo is the
  one before the move object for object, so the laid-out frame of that state (whose handlers hold those
  objects) stays valid and is put back instead of being composed again;
- a saved state (`Saved`) keeps each app's state pickled on its own, and a state reached by a move shares
  the blobs of the apps the move did not touch with the state it came from; restoring another saved state
  unpickles only the apps whose blobs differ from the live ones;
- the state key hashes the blobs of the apps a move touched, and the screens, settings, clipboard, running
  apps and files, all small.

A saved state keeps the modelled clock (as `cmd masbench save` does; the key leaves it out, as a state's
digest does); the event log and toasts are cut back on an undo and otherwise only grow.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from . import uidump
from .app import Screen
from .phone import VirtualPhone

_PICKLE = pickle.HIGHEST_PROTOCOL
SCREENS = "screens"  # owner of the stack's screens' arguments and UI state
SETTINGS = "settings"  # owner of the settings tables


class _Journal:
    """The old contents of every tracked container changed since `begin`, and who owns them."""

    def __init__(self) -> None:
        self.saved: dict[int, tuple[TrackedDict | TrackedList, dict[Any, Any] | list[Any]]] = {}
        self.owners: set[str] = set()
        self.active = False
        self.owner: object = None  # the DirectPhone journaling

    def note(self, container: TrackedDict | TrackedList) -> None:
        if self.active and id(container) not in self.saved:
            old = dict.copy(container) if isinstance(container, dict) else list.copy(container)
            self.saved[id(container)] = (container, old)
            self.owners.add(container.owner)


JOURNAL = _Journal()  # one search at a time per process: the journal records every tracked change


class TrackedDict(dict[Any, Any]):
    """A dict that journals its contents before its first change (see the module doc)."""

    __slots__ = ("owner",)
    owner: str

    def __setitem__(self, key: Any, value: Any) -> None:
        JOURNAL.note(self)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        JOURNAL.note(self)
        dict.__delitem__(self, key)

    def __ior__(self, other: Any) -> TrackedDict:  # type: ignore[override,misc]  # dict's own signature
        JOURNAL.note(self)
        dict.update(self, other)
        return self

    def clear(self) -> None:
        JOURNAL.note(self)
        dict.clear(self)

    def pop(self, *args: Any) -> Any:
        JOURNAL.note(self)
        return dict.pop(self, *args)

    def popitem(self) -> tuple[Any, Any]:
        JOURNAL.note(self)
        return dict.popitem(self)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        JOURNAL.note(self)
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        JOURNAL.note(self)
        dict.update(self, *args, **kwargs)

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as a plain dict: `track` converts on the way in
        return (dict, (dict(self),))


class TrackedList(list[Any]):
    """A list that journals its contents before its first change (see the module doc)."""

    __slots__ = ("owner",)
    owner: str

    def __setitem__(self, index: Any, value: Any) -> None:
        JOURNAL.note(self)
        list.__setitem__(self, index, value)

    def __delitem__(self, index: Any) -> None:
        JOURNAL.note(self)
        list.__delitem__(self, index)

    def __iadd__(self, other: Any) -> TrackedList:  # type: ignore[override,misc]  # list's own signature
        JOURNAL.note(self)
        list.extend(self, other)
        return self

    def __imul__(self, n: Any) -> TrackedList:  # type: ignore[override,misc]  # list's own signature
        JOURNAL.note(self)
        list.__imul__(self, n)
        return self

    def append(self, value: Any) -> None:
        JOURNAL.note(self)
        list.append(self, value)

    def extend(self, values: Any) -> None:
        JOURNAL.note(self)
        list.extend(self, values)

    def insert(self, index: Any, value: Any) -> None:
        JOURNAL.note(self)
        list.insert(self, index, value)

    def pop(self, index: Any = -1) -> Any:
        JOURNAL.note(self)
        return list.pop(self, index)

    def remove(self, value: Any) -> None:
        JOURNAL.note(self)
        list.remove(self, value)

    def clear(self) -> None:
        JOURNAL.note(self)
        list.clear(self)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        JOURNAL.note(self)
        list.sort(self, *args, **kwargs)

    def reverse(self) -> None:
        JOURNAL.note(self)
        list.reverse(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


def track(value: Any, owner: str) -> Any:
    """`value` with every dict and list in it (itself included) made a tracked one owned by `owner`;
    shared containers stay shared. Iterative, and by exact type: it runs on every unpickled app state."""
    if type(value) is not dict and type(value) is not list:
        return value
    memo: dict[int, Any] = {}
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


@dataclass(frozen=True)
class Saved:
    """One phone state: each app's state pickled apart (shared with the state it came from when a move
    left it alone), and the rest, which is small."""

    apps: dict[str, bytes]
    screens: bytes  # the stack: (package, activity, name, args, ui) of each screen, bottom first
    settings: bytes
    clipboard: str
    running: frozenset[str]
    files: tuple[dict[str, Any], frozenset[str]]
    device_ms: int  # the modelled clock, so a state's timestamps depend on its route only
    key: bytes


def _digest(*parts: bytes | str) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.digest()


class DirectPhone:
    """A `VirtualPhone` the route search drives in process (see the module doc). `save()` remembers the
    live state, `restore(saved)` goes back to one; between the two, `nodes()` and `report()` read it."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        self.base: Saved | None = None  # the state the journal undoes to
        self._held: Any = None  # the base's laid-out frame, put back after an undo
        self._base: tuple[Any, ...] = ()  # the base's phone-level objects, put back after an undo
        self._states: dict[str, Any] = {}  # the base's table of app states (a reset makes a new one)

    # -- reading the state ------------------------------------------------------------------------------
    def nodes(self) -> Iterator[dict[str, str]]:
        """The current screen's nodes as `uiautomator dump` would list them, without the XML."""
        frame = self.phone.frame()
        return uidump.nodes(frame.window, frame.package, self.phone.top.ui.get("focus"))

    def report(self, packages: list[str]) -> dict[str, Any]:
        """What a check reads (foreground, stack, settings and these apps' public states), sharing the
        phone's objects: read it, never change it."""
        return self.phone.report(packages)

    # -- saving and restoring ---------------------------------------------------------------------------
    def save(self) -> Saved:
        """The live state. After a move from the base, only the apps the move changed are pickled; the
        others share the base's blobs."""
        phone = self.phone
        base = self._live_base()
        roots = self._base[0] if base is not None else {}
        self._track_changes(base is None)
        apps = {
            package: base.apps[package]
            if base is not None and package not in JOURNAL.owners and roots.get(package) is state
            else pickle.dumps(state, _PICKLE)
            for package, state in phone.app_states.items()
        }
        screens = pickle.dumps([_screen_key(s) for s in phone.stack], _PICKLE)
        settings = (
            base.settings
            if base is not None and SETTINGS not in JOURNAL.owners and phone.settings is self._base[1]
            else pickle.dumps(phone.settings, _PICKLE)
        )
        files = (dict(phone.fs.files), frozenset(phone.fs.dirs))
        running = frozenset(phone.running)
        key = _digest(
            *(_digest(apps[p]) for p in sorted(apps)),
            screens,
            settings,
            phone.clipboard,
            ",".join(sorted(running)),
            *(f"{path}:{entry.data!r}" for path, entry in sorted(files[0].items())),
            ",".join(sorted(files[1])),
        )
        return Saved(apps, screens, settings, phone.clipboard, running, files, phone.device_ms, key)

    def restore(self, saved: Saved) -> None:
        """Make `saved` the live state and the base the next moves are undone to: an undo when it is the
        base already, else the apps whose blobs differ are unpickled and the screen laid out anew."""
        base = self._live_base()
        if base is not None:
            self.undo()
            if saved is base:
                return
        JOURNAL.active = False
        phone = self.phone
        live = base.apps if base is not None else {}
        for package, blob in saved.apps.items():
            if live.get(package) is not blob:
                phone.app_states[package] = track(pickle.loads(blob), package)
        phone.stack = [_screen(fields) for fields in pickle.loads(saved.screens)]
        phone.settings = track(pickle.loads(saved.settings), SETTINGS)
        phone.clipboard = saved.clipboard
        phone.running = set(saved.running)
        phone.fs.files, phone.fs.dirs = dict(saved.files[0]), set(saved.files[1])
        phone.device_ms = saved.device_ms
        phone.invalidate()
        phone.frame()
        self.base = saved
        self._held = phone.held_frame()
        self._begin()

    def _track_changes(self, everything: bool) -> None:
        """Make the containers a move created tracked ones (all of them after a reset), so a state pickles
        to the same bytes however it was reached."""
        phone = self.phone
        if everything:
            for package, state in phone.app_states.items():
                phone.app_states[package] = track(state, package)
            phone.settings = track(phone.settings, SETTINGS)
        else:
            for container, _ in JOURNAL.saved.values():
                items = container.items() if isinstance(container, dict) else enumerate(container)
                for at, item in list(items):
                    if type(item) is dict or type(item) is list:
                        type(container).__bases__[0].__setitem__(container, at, track(item, container.owner))
            for package, state in phone.app_states.items():
                if type(state) is dict:
                    phone.app_states[package] = track(state, package)

    def _live_base(self) -> Saved | None:
        """The base, if the live state is it or a move from it (not after a reset, which makes new apps'
        states, nor after a `restore` of another kind of snapshot)."""
        live = self.base is not None and self.phone.app_states is self._states and JOURNAL.owner is self
        return self.base if live else None

    def _begin(self) -> None:
        """Start journaling changes to the live state, which is the base."""
        phone = self.phone
        self._states = phone.app_states
        JOURNAL.owner = self
        self._base = (
            dict(phone.app_states),
            phone.settings,
            [(s, s.package, s.activity, s.name, s.args, s.ui) for s in phone.stack],
            set(phone.running),
            phone.clipboard,
            dict(phone.fs.files),
            set(phone.fs.dirs),
            len(phone.events),
            len(phone.toasts),
            phone.device_ms,
        )
        JOURNAL.saved.clear()
        JOURNAL.owners.clear()
        JOURNAL.active = True

    def undo(self) -> None:
        """Back to the base, object for object, with its frame."""
        JOURNAL.active = False
        for container, old in JOURNAL.saved.values():
            if isinstance(container, dict):
                dict.clear(container)
                dict.update(container, old)
            else:
                list.__setitem__(container, slice(None), old)
        phone = self.phone
        roots, settings, screens, running, clipboard, files, dirs, events, toasts, clock = self._base
        phone.app_states.clear()
        phone.app_states.update(roots)
        phone.settings = settings
        phone.stack = [screen for screen, *_ in screens]
        for screen, package, activity, name, args, ui in screens:
            screen.package, screen.activity, screen.name = package, activity, name
            screen.args, screen.ui = args, ui
        phone.running, phone.clipboard = set(running), clipboard
        phone.fs.files, phone.fs.dirs = dict(files), set(dirs)
        del phone.events[events:], phone.toasts[toasts:]
        phone.device_ms = clock
        phone.put_back_frame(self._held)
        self._begin()


def _screen_key(screen: Screen) -> tuple[Any, ...]:
    """What a saved state keeps of a screen: its UI state with only the scroll offsets that are not zero
    (laying a screen out writes zero offsets and each container's `.max`, derived from the layout, so a
    screen laid out and one not yet are the same state)."""
    ui = {k: v for k, v in screen.ui.items() if k != "scroll"}
    scroll = {k: v for k, v in screen.ui.get("scroll", {}).items() if v and not k.endswith(".max")}
    if scroll:
        ui["scroll"] = scroll
    return screen.package, screen.activity, screen.name, track(screen.args, SCREENS), track(ui, SCREENS)


def _screen(fields: tuple[Any, ...]) -> Screen:
    package, activity, name, args, ui = fields
    return Screen(package, activity, name, track(args, SCREENS), track(ui, SCREENS))


__all__ = ["JOURNAL", "DirectPhone", "Saved", "TrackedDict", "TrackedList", "track"]
