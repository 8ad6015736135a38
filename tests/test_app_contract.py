"""The app contract, checked on every screen of every registered app: the screen builds; repeated
resource-ids belong only to repeated items of one class; an open dialog or sheet is modal in the dump and to
taps; every clickable node's centre hits that node; no text is drawn outside its node or the screen.

Agents act on exactly these promises (they tap an element's centre, they read the dump), so a screen that
breaks one misleads every agent the same way a broken real app would not.

Which screens: each app is walked in process (on a `DirectPhone`, which switches between saved states in
place), breadth first, from every way into it: its launcher icon (and the overview over it), each exported
activity started bare and with a sample intent for each of its intent filters, and the deep link or intent
of each of its knowledge-base shortcuts' examples. The moves: tap each clickable element (one a scroll
container holds out of view is scrolled to first), long-press each element with a long-press handler,
type a sample string into each field and submit it, fling each scroll container to its end, Back. Screens
are told apart by app, activity, screen name, open dialog, keyboard, scrolled or not, and the set of
(class, resource-id) pairs shown, so list items and data variants of one layout count once. The screens
the tasks' reference solutions reach (with the tasks' own state) are checked too."""

from __future__ import annotations

import hashlib
import shlex
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import pytest
from phone_helpers import phone_with

from masbench.actions.execute import execute_action
from masbench.actions.schema import parse_call
from masbench.device import commands as C
from masbench.device.vphones import start_virtual_phones
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.shortcuts.calls import validate_call
from masbench.shortcuts.plan import build_plan
from masbench.tasks import default_tasks_dir, load_tasks
from masbench.tasks.player import prepare
from masbench.vphone.app import LAUNCHER_FILTER, App
from masbench.vphone.apps import default_apps
from masbench.vphone.direct import DirectPhone, Saved
from masbench.vphone.intents import EXTRA_TEXT, IntentFilter
from masbench.vphone.phone import VirtualPhone
from masbench.vphone.ui import EDIT, TEXT, Node, hit, line_height, text_width

TASKS = list(load_tasks(default_tasks_dir()))
LAUNCHABLE = [a.package for a in default_apps() if a.launcher_activity is not None]
EVERY_APP = [a.package for a in default_apps()]


# -- the contract, on one frame ---------------------------------------------------------------------


def _dumped(node: Node) -> Iterator[Node]:
    """The nodes `uiautomator dump` shows: visible ones, and under a modal layer only that layer."""
    yield node
    children = [c for c in node.children if c.visible() and c.dumped]
    modal = [i for i, c in enumerate(children) if c.modal]
    for child in children[modal[-1] :] if modal else children:
        yield from _dumped(child)


def _centre(node: Node) -> tuple[int, int]:
    x1, y1, x2, y2 = node.clip
    return (x1 + x2) // 2, (y1 + y2) // 2


def _inside_scroll(window: Node) -> set[int]:
    """ids of the nodes that live in a scroll container (they may extend past the screen)."""
    inside: set[int] = set()
    for node in window.walk():
        if node.scroll is not None:
            inside.update(id(n) for n in node.walk() if n is not node)
    return inside


def contract_violations(phone: VirtualPhone) -> list[str]:
    frame = phone.frame()
    window = frame.window
    screen = f"{phone.top.package}/{phone.top.name}" + (
        f"+{phone.top.ui['dialog']}" if "dialog" in phone.top.ui else ""
    )
    problems: list[str] = []
    shown = list(_dumped(window))
    shown_ids = {id(n) for n in shown}

    classes_by_rid: dict[str, set[str]] = {}
    for node in shown:
        if node.rid:
            classes_by_rid.setdefault(node.rid, set()).add(node.cls)
    problems += [f"{screen}: resource-id {rid!r} names different kinds of view {sorted(c)}"
                 for rid, c in classes_by_rid.items() if len(c) > 1]  # fmt: skip

    layers = [n for n in window.walk() if n.modal and n.visible()]
    if "dialog" in phone.top.ui and not layers:
        problems.append(f"{screen}: a dialog is open but no modal layer is drawn")
    for layer in layers:
        inside = {id(n) for n in layer.walk()}
        beneath = [n for n in window.walk() if id(n) not in inside and n.visible() and n.clickable]
        leaked = [n for n in beneath if id(n) in shown_ids and not any(c is layer for c in n.walk())]
        problems += [
            f"{screen}: node {n.rid or n.text!r} beneath the open layer is in the dump" for n in leaked
        ]
        for node in beneath:
            target = hit(window, *_centre(node), lambda n: n.clickable and n.enabled)
            if target is not None and id(target) not in inside:
                problems.append(f"{screen}: a tap reaches {node.rid or node.text!r} beneath the open layer")

    for node in shown:
        if node.clickable and node.enabled:
            target = hit(window, *_centre(node), lambda n: n.clickable and n.enabled)
            if target is not node:
                problems.append(
                    f"{screen}: the centre of clickable {node.rid or node.desc or node.text!r} "
                    f"{node.clip} hits {(target.rid or target.desc or target.text) if target else None!r}"
                )

    scrolled = _inside_scroll(window)
    for node in shown:
        x1, y1, x2, y2 = node.bounds
        if id(node) not in scrolled and (x1 < 0 or y1 < 0 or x2 > phone.width or y2 > phone.height):
            problems.append(f"{screen}: {node.rid or node.text!r} {node.bounds} lies outside the screen")
        if node.cls != TEXT or not node.lines:
            continue
        left, top, right, bottom = node.padding
        icon = node.size + 12 if node.icon else 0
        room_w = x2 - x1 - left - right - icon
        widest = max(text_width(line, node.size) for line in node.lines)
        if widest > room_w + 2:
            problems.append(f"{screen}: text {node.text!r} is {widest}px wide in a {room_w}px box")
        room_h = y2 - y1 - top - bottom
        if line_height(node.size) * len(node.lines) > room_h + node.size // 3:
            problems.append(f"{screen}: text {node.text!r} needs {len(node.lines)} lines in {room_h}px")
    return problems


# -- every screen, walked ---------------------------------------------------------------------------

SAMPLE_TEXT = "coffee"  # typed into every field; also the opaque part and text extra of sample intents
MAX_SCREENS = 300  # distinct screens one app's walk checks at most (no app reaches it today)
MAX_MOVES = 2000  # moves it tries at most (Amazon, the longest walk, takes ~1300)
MAX_VARIANTS = 8  # structural variants of one screen (and dialog) it walks on from
REPEATS = 2  # taps on items of one list (one resource-id) that reach a screen an earlier item reached, before
# its other items are skipped: the rows of a list open one screen, the tiles of a menu each their own


@dataclass(frozen=True)
class Move:
    """One user input at (x, y): `tap`; `long_press`; `type` (tap, type SAMPLE_TEXT, Enter); `scroll` or
    `scroll_h`, a fling from there to the end of its scroll container; or `back`. A target out of view is
    first brought into it by a drag of `reveal` pixels at `reveal_at`."""

    kind: str
    x: int = 0
    y: int = 0
    rid: str = ""  # the target's resource-id: items of one list share it
    reveal: int = 0
    reveal_at: tuple[int, int] = (0, 0)

    def play(self, phone: VirtualPhone) -> None:
        if self.reveal:
            x, y = self.reveal_at
            phone.swipe(x, y, x, y - self.reveal)
        if self.kind == "back":
            phone.keyevent("BACK")
        elif self.kind == "long_press":
            phone.long_press(self.x, self.y)
        elif self.kind == "scroll":
            phone.swipe(self.x, self.y, self.x, self.y - phone.height * 100)
        elif self.kind == "scroll_h":
            phone.swipe(self.x, self.y, self.x - phone.width * 100, self.y)
        else:
            phone.tap(self.x, self.y)
        if self.kind == "type":
            phone.input_text(SAMPLE_TEXT)
            phone.keyevent("ENTER")


def _reachable(node: Node, scroller: Node | None = None) -> Iterator[tuple[Node, Node | None]]:
    """The nodes of the dump (`_dumped`) and those a vertical scroll container holds out of view, each
    with the innermost such container (None outside one)."""
    yield node, scroller
    if node.scroll is not None and node.layout != "h":
        scroller = node
    children = [c for c in node.children if c.dumped and (c.visible() or scroller is not None)]
    modal = [i for i, c in enumerate(children) if c.modal]
    for child in children[modal[-1] :] if modal else children:
        yield from _reachable(child, scroller)


def _aim(node: Node, scroller: Node | None, offsets: dict[str, int]) -> Move | None:
    """A tap on `node`'s centre, scrolling it to the middle of its container first if it is out of view;
    None if no scroll shows it."""
    if node.visible():
        return Move("tap", *_centre(node), node.rid)
    if scroller is None or scroller.scroll is None or not scroller.visible():
        return None
    x1, y1, x2, y2 = node.bounds
    top, bottom = scroller.clip[1], scroller.clip[3]
    offset = offsets.get(scroller.scroll, 0)
    end = offsets.get(f"{scroller.scroll}.max", 0)
    shift = min(max(0, offset + (y1 + y2) // 2 - (top + bottom) // 2), end) - offset
    y = (y1 + y2) // 2 - shift
    if not top < y < bottom or not 0 < (x1 + x2) // 2 < scroller.clip[2]:
        return None
    return Move("tap", (x1 + x2) // 2, y, node.rid, shift, _centre(scroller))


def _at_end(scroll: str, offsets: dict[str, int]) -> bool:
    """Whether the scroll container keyed `scroll` is scrolled to its end (layout records its limit)."""
    return offsets.get(scroll, 0) >= offsets.get(f"{scroll}.max", 0)


def _moves(phone: VirtualPhone) -> list[Move]:
    """The inputs a walk tries on the current screen, in screen order, Back last."""
    offsets = phone.top.ui.get("scroll", {})
    moves: list[Move] = []
    for node, scroller in _reachable(phone.frame().window):
        if node.visible() and node.scroll is not None and not _at_end(node.scroll, offsets):
            moves.append(Move("scroll_h" if node.layout == "h" else "scroll", *_centre(node)))
        if node.visible() and node.on_long_press is not None:
            moves.append(Move("long_press", *_centre(node)))
        if not (node.clickable and node.enabled):
            continue
        tap = _aim(node, scroller, offsets)
        if tap is not None:
            moves.append(tap)
            if node.cls == EDIT:
                moves.append(replace(tap, kind="type"))
    return [*moves, Move("back")]


def _sample_data(f: IntentFilter) -> str | None:
    """A URI the filter accepts: its first scheme, host and path (globs filled), or scheme:SAMPLE_TEXT."""
    if not f.schemes:
        return None
    if not f.hosts:
        return f"{f.schemes[0]}:{SAMPLE_TEXT}"
    host = f.hosts[0].replace("*", "www")
    path = f.path_patterns[0].replace("*", SAMPLE_TEXT) if f.path_patterns else "/"
    return f"{f.schemes[0]}://{host}{path}"


def _sample_intents(app: App) -> Iterator[str]:
    """`am start` of each exported activity, bare and with each action of each of its intent filters."""
    for activity in app.activities:
        if not activity.exported:
            continue
        component = f"{app.package}/{activity.cls}"
        yield shlex.join(C.am_start_args(component=component, wait=False))
        for f in activity.filters:
            if f == LAUNCHER_FILTER:
                continue
            data, mime = _sample_data(f), f.mime_types[0] if f.mime_types else None
            extras = {EXTRA_TEXT: SAMPLE_TEXT, "query": SAMPLE_TEXT}
            for action in f.actions:
                yield shlex.join(
                    C.am_start_args(action, data, component, extras=extras, mime_type=mime, wait=False)
                )


def _shortcut_commands(package: str) -> Iterator[str]:
    """The `am start` of each deep-link and intent shortcut's example call for the app."""
    kb = load_kb()
    for shortcut in kb:
        if shortcut.package == package and (shortcut.deeplink or shortcut.api) and shortcut.example:
            plan = build_plan(kb, validate_call(kb, *parse_call(shortcut.example)), can_ground=False)
            if plan.command is not None:
                yield shlex.join(plan.command)


def _ways_in(app: App) -> list[str]:
    """Shell commands that open the app on a fresh phone: its launcher icon, then also the overview
    (Recents) over it; its activities' sample intents; its shortcuts' deep links and intents. (On the
    home app the launch fails and leaves its home screen.)"""
    launch = f"monkey -p {app.package} 1"
    return [launch, f"{launch}; input keyevent KEYCODE_APP_SWITCH", *_sample_intents(app),
            *_shortcut_commands(app.package)]  # fmt: skip


def _screen(phone: VirtualPhone) -> tuple[str, str]:
    """(which screen, which structural variant of it): app, activity, screen, dialog and keyboard; a hash
    of the (class, resource-id) pairs shown, which text, list length and scrolling leave alone."""
    top = phone.top
    name = f"{top.package}/{top.activity}/{top.name}"
    name += f"+{top.ui['dialog']}" if "dialog" in top.ui else ""
    name += "+keyboard" if top.ui.get("focus") else ""
    scrolled = any(offset for key, offset in top.ui.get("scroll", {}).items() if not key.endswith(".max"))
    name += "+scrolled" if scrolled else ""
    shapes = sorted({(n.cls, n.rid) for n in _dumped(phone.frame().window)})
    return name, hashlib.sha1(repr(shapes).encode()).hexdigest()[:12]


@dataclass
class Walk:
    """What walking one app found: each distinct screen's contract violations, and the moves it took."""

    screens: dict[str, list[str]] = field(default_factory=dict)
    moves: int = 0
    names: set[str] = field(default_factory=set)  # the app's own screens reached, by name


def walk_app(package: str) -> Walk:
    """Breadth first over the app's screens from every way in, within MAX_SCREENS and MAX_MOVES. Screens
    of other apps that a move opens are checked but not walked on (their own walk covers them)."""
    phone = phone_with()
    direct = DirectPhone(phone)  # switches between saved states in place, undoing only what moves changed
    fresh = direct.save()
    walk = Walk()
    variants: Counter[str] = Counter()
    frontier: deque[tuple[Saved, list[Move]]] = deque()  # saved screens to walk on from, with their moves

    def look() -> str:
        """Check the screen shown if it is new, and queue it to walk on from if it is the app's own."""
        name, variant = _screen(phone)
        key = f"{name}#{variant}"
        if key in walk.screens or len(walk.screens) >= MAX_SCREENS:
            return name
        walk.screens[key] = contract_violations(phone)
        variants[name] += 1
        if phone.top.package == package:
            walk.names.add(phone.top.name)
        if phone.top.package == package and variants[name] <= MAX_VARIANTS:
            frontier.append((direct.save(), _moves(phone)))
        return name

    for command in _ways_in(phone.apps[package]):
        direct.restore(fresh)
        phone.shell(command)
        look()
    while frontier and walk.moves < MAX_MOVES:
        saved, moves = frontier.popleft()
        reached: dict[str, set[str]] = {}  # resource-id -> the screens taps on its nodes reached
        repeats: Counter[str] = Counter()
        for move in moves:
            if walk.moves >= MAX_MOVES:
                break
            if move.rid and repeats[move.rid] >= REPEATS:
                continue
            direct.restore(saved)
            move.play(phone)
            walk.moves += 1
            name = look()
            repeats[move.rid] += name in reached.setdefault(move.rid, set())
            reached[move.rid].add(name)
    return walk


# -- where it is checked ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served():
    """A phone served over ADB in this process: driven through its Device, inspected directly."""
    with start_virtual_phones(1) as phones:
        yield phones.devices[0], phones.server.phones["vphone-1"]


@pytest.mark.parametrize("package", LAUNCHABLE)
def test_every_app_opens_on_a_screen_that_keeps_the_contract(served, package):
    _device, phone = served
    phone.reset()
    phone.launch(package)
    assert contract_violations(phone) == []


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_screens_reached_by_reference_solutions_keep_the_contract(served, task):
    device, phone = served
    shortcuts = ShortcutExecutor(load_kb(), device)
    problems: list[str] = []
    for which in ("gui", "hybrid"):
        prepare(device, task)
        for action in getattr(task.solutions, which):
            outcome = execute_action(device, action, device.elements(), shortcuts)
            assert outcome.ok, f"{which}: {outcome.error}"
            problems += [p for p in contract_violations(phone) if p not in problems]
    assert problems == [], "\n".join(problems)


# Violations the walk finds that are known and kept: (screen, start of the problem) -> why.
KNOWN_VIOLATIONS = {
    ("com.amazon.mShop.android.shopping/results", "the centre of clickable 'search_result'"): (
        "a result row scrolled mostly out of the list shows only its lower part, where its Add to cart or "
        "See options button sits, so the centre of what is visible is the button; a real phone's dump "
        "reports visible bounds too, and avoiding it means reshaping the row, not a local fix"
    ),
}


def _known(problem: str) -> bool:
    return any(problem.startswith(f"{screen}: {start}") for screen, start in KNOWN_VIOLATIONS)


@pytest.mark.parametrize("package", EVERY_APP)
def test_every_screen_an_app_reaches_keeps_the_contract(package: str) -> None:
    walk = walk_app(package)
    problems = sorted({p for found in walk.screens.values() for p in found if not _known(p)})
    assert problems == [], f"{len(walk.screens)} screens in {walk.moves} moves:\n" + "\n".join(problems)
    # A guard on the walk itself: today it misses at most one screen of an app (Amazon's not_found, Yelp's
    # categories, Fitbit's food_entry), so missing many means it stopped reaching what it should check.
    unreached = sorted(set(next(a for a in default_apps() if a.package == package).screens) - walk.names)
    assert len(unreached) <= 1, (
        f"the walk never reaches {unreached}: link them from a screen, or deep link them"
    )


def test_an_open_dialog_is_what_the_dump_shows_and_all_that_taps_reach():
    """The contract's modal rule, on a screen made for it: a list with a dialog open above it."""
    from masbench.vphone.app import Activity, App, AppContext
    from masbench.vphone.widgets import button, column, dialog, list_item, scroll_list, text

    class Probe(App):
        package = "com.example.probe"
        label = "Probe"
        activities = (Activity("com.example.probe.Main", "list"),)
        screens = {"list": lambda ctx: column(scroll_list("rows", [
            list_item(f"Row {i}", on_tap=lambda i=i: ctx.state.setdefault("tapped", []).append(i), rid="row")
            for i in range(12)]))}  # fmt: skip
        dialogs = {"ask": lambda ctx: dialog("Sure?", [text("Really.")], [button("OK", ctx.close, rid="ok")],
                                             ctx.close)}  # fmt: skip

    phone = phone_with(Probe())
    phone.push_screen(AppContext(phone, phone.apps[Probe.package], None).screen("list"))
    ctx = phone.context(Probe.package)
    ctx.open("ask")
    phone.invalidate()
    xml = phone.ui_dump_xml()
    assert "Row 3" not in xml and "Sure?" in xml
    assert contract_violations(phone) == []
    row = next(n for n in phone.frame().window.walk() if n.rid == "row")
    phone.tap(*_centre(row))  # outside the card: closes the dialog, reaches no row
    assert "tapped" not in phone.app_states[Probe.package] and "dialog" not in phone.top.ui
    phone.tap(*_centre(row))
    assert phone.app_states[Probe.package]["tapped"] == [0]
