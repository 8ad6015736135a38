"""Prove a task's `optimal_steps` minimal: a bounded breadth-first search for shorter GUI routes.

From the task's initial state the search tries, on every distinct screen, the moves an agent has: tap
each clickable element (at its centre, as a selector-grounded tap), type into each editable field only
strings taken from the instruction (its phrases, and what the reference types from it; a value the
reference read off a screen once the route has shown it, `screen_values`), enter (when a field has
focus), back, scroll each scrollable container, and open each of the task's apps. One move is one step,
exactly as `optimal_steps` counts the GUI reference solution. Moves that cannot change what the search
finds are left out (`Pruning`). Screens of apps outside the task (the home screen, an app a link opened)
are only left by opening a task app.

The search runs on a phone in this process (`InProcessPhone`: states switched in memory, a state being
the apps', settings' and screens' state, clocks aside) or on any device over ADB (`cmd masbench restore`
+ one move + one observation, a state being a UI dump plus the digest of `cmd masbench state`): one
algorithm, two explorers; the ADB one is the cross-check. It stops at the first depth where a state
passes the check, after `max_depth` levels (default `optimal_steps - 1`: exploring them all and finding
no pass proves the reference minimal under this move set), or when `budget` moves have been tried.

Tasks too long to search whole can still be shortened: `shorten_reference` searches a few moves deep from
every state along the GUI reference and splices in any route that reaches a later state of it sooner.
"""

from __future__ import annotations

import hashlib
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

import yaml

from masbench.actions import (
    Action,
    BackAction,
    EnterAction,
    OpenAppAction,
    ScrollAction,
    TapAction,
    TypeAction,
)
from masbench.actions.execute import execute_action
from masbench.actions.selectors import selector_for
from masbench.catalog import APPS
from masbench.device import Device, DeviceError, InProcessPhone, PhoneSnapshot, UIElement, parse_ui_dump

from .checks import SnapshotState, evaluate, packages_read
from .player import play, prepare
from .schema import Task

DEFAULT_BUDGET = 3000
MAX_WORDS = 3  # typed phrases: word n-grams of the instruction up to this length
# Words never typed on their own nor at the edge of a typed phrase: function words, and the verbs and
# nouns of instructions themselves ("search", "show", "results"), which name what to do, not what to find.
_STOPWORD_LIST = """a about after all also an and any are as at be before by can do does each for from get go has
    have i if in into is it its just least me more most my near no not now of on one only or our out
    over per please so than that the their them then there these they this those to too up us via we
    what when where which while who will with within without you your yours yourself
    add book bookmark call cancel change choose create delete find give keep make mark mute narrow open
    order pick put raise remove replace save search see select set show sort start switch tap turn use
    write app results result list item items place places"""
STOPWORDS = frozenset(_STOPWORD_LIST.split())
SAVE_PREFIX = "route"


@dataclass
class RouteSearch:
    """How a search ended: the shortest passing route found (if any) and how far the search got."""

    task_id: str
    optimal_steps: int
    max_depth: int
    route: list[Action] | None = None
    depth_done: int = 0  # every route of this many steps or fewer was tried
    states: int = 0  # distinct states observed
    observed: int = 0  # moves tried (each one observation)
    seconds: float = 0.0

    @property
    def exhausted(self) -> bool:
        return self.route is None and self.depth_done >= self.max_depth

    @property
    def proves_minimal(self) -> bool:
        return self.exhausted and self.max_depth >= self.optimal_steps - 1

    @property
    def verdict(self) -> str:
        if self.route is not None:
            steps = len(self.route)
            kind = "SHORTER route" if steps < self.optimal_steps else "route"
            return f"{kind} of {steps} steps (optimal_steps {self.optimal_steps})"
        if self.proves_minimal:
            return f"minimal: no route of {self.max_depth} steps or fewer passes"
        if self.exhausted:
            return f"no route of {self.max_depth} steps or fewer passes (optimal_steps {self.optimal_steps})"
        return f"not proved: budget spent after depth {self.depth_done} of {self.max_depth}"


@dataclass
class _Node:
    route: list[Action]
    package: str
    saved: object  # the phone's state, as the explorer saved it
    read: frozenset[str] = frozenset()  # words of screen values shown along the route (`screen_values`)
    elements: list[UIElement] | None = None  # read when the node is expanded


@dataclass
class _Observation:
    key: object  # equal keys, equal states (screen and phone state)
    passed: bool
    package: str = ""
    screen: object = None  # what `save` needs to branch from here (the dump, or the in-process snapshot)


# -- what to type -----------------------------------------------------------------------------------
def instruction_strings(instruction: str, app_names: tuple[str, ...] = ()) -> list[str]:
    """The bounded set of strings the search types, in order of first appearance: quoted strings, names
    (runs of capitalised words and numbers, joined by "of"/"de" or a comma, so "Art Institute of
    Chicago" and "1450 Valencia St, San Francisco" stay whole), and runs of other words that are not
    STOPWORDS, cut to MAX_WORDS ("mechanical watches", "sushi"). The task's `app_names` are left out:
    they say which app to open, not what to type."""
    found: list[str] = re.findall(r'"([^"]+)"', instruction)
    word = r"(?:[A-Z0-9][\w.'&-]*\w|[A-Z0-9])"
    names = list(re.finditer(rf"{word}(?:(?:,| of| de)? {word})*", instruction))
    for match in names:
        name = match.group(0).split(" ")
        while name and name[0].lower() in STOPWORDS:
            name.pop(0)
        found.append(re.sub(r"'s$", "", " ".join(name)))  # "Samuel Okafor's address": type the name
    plain = instruction
    for match in reversed(names):  # names are taken whole above; what is left splits into phrases
        plain = plain[: match.start()] + " , " + plain[match.end() :]
    for clause in re.split(r"[.,;:!?()\"]|\s-\s", plain):
        run: list[str] = []
        for w in [*clause.split(), ""]:
            if w and w.lower() not in STOPWORDS:
                run.append(w)
            elif run:
                found += [" ".join(run[i : i + MAX_WORDS]) for i in range(0, len(run), MAX_WORDS)]
                run = []
    skip = {name.lower() for name in app_names}
    return [s for s in dict.fromkeys(s.strip(" ,") for s in found) if s and s.lower() not in skip]


def search_strings(task: Task) -> list[str]:
    """What the search types: the instruction's strings, and every string the GUI reference types whose
    words all occur in the instruction (an agent knows "museums in Chicago" or "Sofía" without looking
    anything up), so the reference's own route is always in the search. A string read off a screen (a
    confirmation number, a price) is not among them: see `screen_values`."""
    names = tuple(n for app in task.apps for n in (APPS[app].label, *APPS[app].aliases))
    known = set(_words(task.instruction))
    typed = [a.text for a in task.solutions.gui if isinstance(a, TypeAction) and _words(a.text) <= known]
    return list(dict.fromkeys([*instruction_strings(task.instruction, names), *typed]))


def screen_values(task: Task) -> dict[str, frozenset[str]]:
    """What the GUI reference types with words the instruction lacks (a distance, a confirmation number,
    an address it read off a screen, in a sentence of the instruction's words), each with those words.
    The search types one only on a route whose screens of the task's apps have shown all of them, as an
    agent types only what it has read: the typed strings stay bounded by the reference's, and a task
    without such values is searched as before."""
    known = _words(task.instruction)
    typed = [a.text for a in task.solutions.gui if isinstance(a, TypeAction)]
    return {text: frozenset(_words(text) - known - STOPWORDS) for text in typed if not _words(text) <= known}


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.casefold()))


# -- moves ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pruning:
    """Moves the search leaves out because they cannot change what it finds; each rule can be turned off,
    and tests/test_routes_in_process.py proves that no rule changes the shortest route found."""

    last_level_scrolls: bool = True  # a scroll moves only scroll offsets, which no check reads: at the
    # last level, after one the check's verdict is the one before it (already known to fail)
    same_point_taps: bool = True  # elements sharing a centre are one tap (the phone hit-tests the point)


def _is_editable(element: UIElement) -> bool:
    return element.short_class == "EditText" and element.enabled


def moves(
    package: str,
    elements: list[UIElement],
    task: Task,
    strings: list[str],
    packages: set[str],
    pruning: Pruning = Pruning(),
) -> Iterator[Action]:
    """Every move the search tries from a screen, in a fixed order (typing first: within a level, what
    was typed is then submitted before the rest is explored)."""
    if package in packages:
        for el in elements:
            if _is_editable(el):
                target = selector_for(el, elements)
                for text in strings:
                    yield TypeAction(target=target, text=text, clear=bool(el.text))
        if any(el.focused and _is_editable(el) for el in elements):
            yield EnterAction()
        seen_points: set[tuple[int, int]] = set()
        for el in elements:
            if el.clickable and el.enabled and el.center not in seen_points:
                if pruning.same_point_taps:
                    seen_points.add(el.center)
                yield TapAction(target=selector_for(el, elements))
        yield BackAction()
        for el in elements:
            if el.scrollable:
                target = selector_for(el, elements)
                wide = el.width > 3 * el.height
                for direction in ("right", "left") if wide else ("down", "up"):
                    yield ScrollAction(target=target, direction=direction)
    for app in task.apps:
        yield OpenAppAction(name=APPS[app].label)


# -- the search -------------------------------------------------------------------------------------
class _Explorer(ABC):
    """Runs a search's moves on a phone: branches from saved states, acts, observes, counts moves. The
    search is one algorithm (`breadth_first`); what it does to the phone has two implementations, over
    ADB and in process."""

    def __init__(self, device: Device, task: Task, budget: int, pruning: Pruning) -> None:
        self.device, self.task, self.budget, self.pruning = device, task, budget, pruning
        self.strings = search_strings(task)
        self.values = screen_values(task)
        self.value_words = frozenset().union(*self.values.values())
        self.packages = {APPS[app].package for app in task.apps}
        self.check_packages = packages_read(task.check)
        self.observed = 0
        self.depth_done = 0

    @abstractmethod
    def observe(self, with_screen: bool = True) -> _Observation:
        """The check's verdict; `with_screen`, also the state's key and what `save` needs."""

    @abstractmethod
    def save(self, seen: _Observation, slot: str) -> object:
        """The state just observed, to branch from (`slot` names it among the states kept at once)."""

    @abstractmethod
    def restore(self, saved: object) -> None:
        """Go back to a saved state."""

    @abstractmethod
    def elements(self, node: _Node) -> list[UIElement]:
        """The node's screen, the phone restored to it."""

    def act(self, node: _Node, move: Action, elements: list[UIElement]) -> bool:
        """Make `move` from the node's state (its screen's `elements`); False if it could not be made."""
        self.restore(node.saved)
        return execute_action(self.device, move, elements).ok

    def node(
        self, seen: _Observation, route: list[Action], slot: str, read: frozenset[str] = frozenset()
    ) -> _Node:
        return _Node(route, seen.package, self.save(seen, slot), read)

    def expand(self, node: _Node) -> list[UIElement]:
        """The node's screen; the screen values it shows join what its route has read."""
        if node.elements is None:
            self.restore(node.saved)
            node.elements = self.elements(node)
            if self.values and node.package in self.packages:
                shown = {
                    w for el in node.elements for text in (el.text, el.content_desc) for w in _words(text)
                }
                node.read |= shown & self.value_words
        return node.elements

    def state_key(self, key: object, read: frozenset[str]) -> object:
        """A search state: the phone's state and, for a task with screen values, what the route has read
        (the same screen reached knowing a value or not leads to different moves)."""
        return (key, read) if self.values else key

    def breadth_first(
        self, root: _Node, max_depth: int, seen: set[object], screen_at_last: bool = False
    ) -> Iterator[tuple[list[Action], _Observation]]:
        """Every move tried from `root`, level by level, as (route from root, what it led to). New states
        are expanded at the next level; the last level's screens are only read if `screen_at_last`, and
        then its scrolls are tried even if `pruning` leaves them out. Stops when the budget is spent; `depth_done` counts
        finished levels."""
        level = [root]
        for depth in range(1, max_depth + 1):
            last = depth == max_depth
            children: list[_Node] = []
            for node in level:
                elements = self.expand(node)
                strings = [*self.strings, *(v for v, words in self.values.items() if words <= node.read)]
                for move in moves(node.package, elements, self.task, strings, self.packages, self.pruning):
                    if last and not screen_at_last and self.prunes_at_last(move):
                        continue
                    if self.observed >= self.budget:
                        return
                    self.observed += 1
                    if not self.act(node, move, elements):
                        continue
                    reached = self.observe(with_screen=screen_at_last or not last)
                    route = [*node.route, move]
                    state = self.state_key(reached.key, node.read)
                    if not last and state not in seen:
                        seen.add(state)
                        slot = f"{SAVE_PREFIX}-{depth % 2}-{len(children)}"
                        children.append(self.node(reached, route, slot, node.read))
                    yield route, reached
            self.depth_done = depth
            level = children

    def prunes_at_last(self, move: Action) -> bool:
        """Moves the last level of a search need not try (`Pruning.last_level_scrolls`)."""
        return self.pruning.last_level_scrolls and isinstance(move, ScrollAction)


class _AdbExplorer(_Explorer):
    """Every move through the device: `cmd masbench restore`, the action, a state read and a UI dump."""

    def __init__(self, device: Device, task: Task, budget: int, pruning: Pruning) -> None:
        super().__init__(device, task, budget, pruning)
        self.screen = device.screen_size()

    def masbench(self, *args: str) -> None:
        self.device.shell(["cmd", "masbench", *args], check=True)

    def observe(self, with_screen: bool = True) -> _Observation:
        """Only the apps the check reads come over the wire; the key is the UI dump and the phone state's
        digest."""
        snapshot = self.device.snapshot(self.check_packages, digest=with_screen)
        passed = evaluate(self.task.check, SnapshotState(snapshot)).passed
        if not with_screen:
            return _Observation(key="", passed=passed)
        xml = self.device.ui_dump()
        key = hashlib.sha1(f"{snapshot['digest']}\n{xml}".encode()).hexdigest()
        package = snapshot.get("foreground", {}).get("package", "")
        return _Observation(key=key, passed=passed, package=package, screen=xml)

    def save(self, seen: _Observation, slot: str) -> object:
        self.masbench("save", slot)
        return slot, seen.screen

    def restore(self, saved: object) -> None:
        assert isinstance(saved, tuple)
        self.masbench("restore", saved[0])

    def elements(self, node: _Node) -> list[UIElement]:
        assert isinstance(node.saved, tuple)
        return parse_ui_dump(node.saved[1], screen=self.screen)


class _InProcessExplorer(_Explorer):
    """Every move on a phone in this process: restore is an undo of the last move, the key a hash of the
    apps it changed, the screen the phone's own UI tree (masbench/vphone/direct.py)."""

    def __init__(self, phone: InProcessPhone, task: Task, budget: int, pruning: Pruning) -> None:
        super().__init__(phone.device, task, budget, pruning)
        self.phone = phone
        self._focused: dict[str, PhoneSnapshot | None] = {}  # of the node last acted from: see `act`
        self._focused_from: _Node | None = None
        self._verdicts: dict[bytes, bool] = {}  # the check's verdict by the state of what it reads
        self._rehash: bool | None = None  # hash changed apps to look their verdict up (see `observe`)

    def act(self, node: _Node, move: Action, elements: list[UIElement]) -> bool:
        """A typing move is the field tapped (and cleared), then the text typed: the first part is the
        same for every string typed into that field, so its state is saved once per node and each string
        is typed from it (as `execute_action` types it: the same commands on the same state)."""
        if not isinstance(move, TypeAction) or move.enter:
            return super().act(node, move, elements)
        if self._focused_from is not node:
            self._focused_from, self._focused = node, {}
        focus = move.model_copy(update={"text": ""})  # execute_action types nothing for ""
        field = focus.model_dump_json()
        if field not in self._focused:
            self._focused[field] = self.phone.save() if super().act(node, focus, elements) else None
        focused = self._focused[field]
        if focused is None:
            return False
        self.phone.restore(focused)
        try:
            self.device.type_text(move.text)
        except DeviceError:
            return False
        return True

    def observe(self, with_screen: bool = True) -> _Observation:
        """The check runs once per distinct state of what it reads (typing and scrolling change none of
        it, and a check may scan a whole inbox): its verdicts are kept by `report_key`. Whether the apps
        it reads are hashed again after a move changed them depends on which costs more, the hash or the
        check, as timed the first time both are needed."""
        snapshot = self.phone.save() if with_screen else None
        packages = self.check_packages
        read: bytes | None
        if snapshot is not None:
            read = snapshot.report_key(packages)
        else:
            read = self.phone.report_key(packages, rehash=bool(self._rehash))
        verdict = self._verdicts.get(read) if read is not None else None
        if verdict is None:
            started = time.perf_counter()
            verdict = evaluate(self.task.check, SnapshotState(self.phone.report(packages))).passed
            if read is None and self._rehash is None:  # time the other way once
                checked = time.perf_counter()
                read = self.phone.report_key(packages, rehash=True)
                self._rehash = time.perf_counter() - checked < checked - started
            if read is not None:
                self._verdicts[read] = verdict
        if snapshot is None:
            return _Observation(key="", passed=verdict)
        return _Observation(snapshot.key, verdict, self.phone.report([])["foreground"]["package"], snapshot)

    def save(self, seen: _Observation, slot: str) -> object:
        return seen.screen

    def restore(self, saved: object) -> None:
        self.phone.restore(cast(PhoneSnapshot, saved))  # what `save` returned (an isinstance check of a
        # protocol costs more than the undo it guards)

    def elements(self, node: _Node) -> list[UIElement]:
        return self.phone.elements()


def _explorer(
    phone: Device | InProcessPhone, task: Task, budget: int, pruning: Pruning = Pruning()
) -> _Explorer:
    if isinstance(phone, Device):
        return _AdbExplorer(phone, task, budget, pruning)
    return _InProcessExplorer(phone, task, budget, pruning)


def search_routes(
    phone: Device | InProcessPhone,
    task: Task,
    max_depth: int | None = None,
    budget: int = DEFAULT_BUDGET,
    pruning: Pruning = Pruning(),
) -> RouteSearch:
    """Breadth-first search for the shortest route whose end state passes the task's check, on a device
    over ADB or on a phone in this process (the same search, many times faster)."""
    start = time.perf_counter()
    explorer = _explorer(phone, task, budget, pruning)
    result = RouteSearch(
        task.id, task.optimal_steps, task.optimal_steps - 1 if max_depth is None else max_depth
    )
    prepare(explorer.device, task)
    initial = explorer.observe()
    seen: set[object] = {explorer.state_key(initial.key, frozenset())}
    if initial.passed:
        result.route = []
    else:
        root = explorer.node(initial, [], f"{SAVE_PREFIX}-start")
        for route, reached in explorer.breadth_first(root, result.max_depth, seen):
            if reached.passed:
                result.route = route
                break
        result.depth_done = explorer.depth_done
    result.states, result.observed = len(seen), explorer.observed
    result.seconds = time.perf_counter() - start
    return result


@dataclass
class SpliceSearch:
    """How a splice search ended: the shortest spliced route that passes (if any), and whether every
    detour was tried (False: the budget ran out first, so finding none proves nothing)."""

    route: list[Action] | None
    complete: bool
    observed: int = 0


def shorten_reference(
    phone: Device | InProcessPhone, task: Task, depth: int = 1, budget: int = DEFAULT_BUDGET
) -> SpliceSearch:
    """A GUI route shorter than the reference, for tasks too long to search whole: from each state along
    the reference every route of up to `depth` moves is tried, and one that passes the check, or reaches
    a later state of the reference (same screen and state) in fewer moves, is spliced in. The result's
    route is the shortest such route that passes when replayed from the start."""
    explorer = _explorer(phone, task, budget)
    device = explorer.device
    reference = list(task.solutions.gui)
    prepare(device, task)
    along: list[tuple[_Node, object]] = []
    latest: dict[object, int] = {}  # a state's key -> its last position along the reference
    read: frozenset[str] = frozenset()  # the screen values' words the reference has shown so far
    for i in range(len(reference) + 1):
        here = explorer.observe()
        node = explorer.node(here, [], f"reference-{i}", read)
        along.append((node, here.key))
        latest[here.key] = i
        if i < len(reference) and not execute_action(device, reference[i], explorer.expand(node)).ok:
            raise ValueError(f"{task.id}: the reference does not run (see `masbench tasks verify`)")
        read = node.read
    candidates: list[list[Action]] = []
    complete = True
    for i, (node, key) in enumerate(along[:-1]):
        explorer.depth_done = 0
        start = {explorer.state_key(key, node.read)}
        for route, reached in explorer.breadth_first(node, depth, start, screen_at_last=True):
            if reached.passed and i + len(route) < len(reference):
                candidates.append(reference[:i] + route)
            later = latest.get(reached.key, -1)
            if later > i + len(route):
                candidates.append(reference[:i] + route + reference[later:])
        complete &= explorer.depth_done >= depth
    shortest = next((r for r in sorted(candidates, key=len) if play(device, task, r).passed), None)
    return SpliceSearch(shortest, complete, explorer.observed)


def route_yaml(route: list[Action]) -> str:
    """The route as a `solutions.gui` list (one flow-style action per line), ready to paste into a task."""
    lines = []
    for action in route:
        data: dict[str, Any] = {"action": action.action}
        data.update(
            action.model_dump(mode="json", exclude={"action"}, exclude_none=True, exclude_defaults=True)
        )
        if isinstance(action, ScrollAction):
            data["direction"] = action.direction  # written out, as the reference solutions do
        text = yaml.safe_dump(data, default_flow_style=True, sort_keys=False, width=1000, allow_unicode=True)
        lines.append(f"- {text.strip()}")
    return "\n".join(lines)


__all__ = [
    "DEFAULT_BUDGET",
    "Pruning",
    "RouteSearch",
    "SpliceSearch",
    "instruction_strings",
    "route_yaml",
    "screen_values",
    "search_routes",
    "search_strings",
    "shorten_reference",
]
