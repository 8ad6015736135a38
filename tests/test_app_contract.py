"""The app contract, checked over every registered app and every screen that any task's reference
solutions reach: the screen builds; repeated resource-ids belong only to repeated items of one class; an
open dialog or sheet is modal in the dump and to taps; every clickable node's centre hits that node; no
text is drawn outside its node or the screen.

Agents act on exactly these promises (they tap an element's centre, they read the dump), so a screen that
breaks one misleads every agent the same way a broken real app would not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from masbench.actions.execute import execute_action
from masbench.device.vphones import start_virtual_phones
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import default_tasks_dir, load_tasks
from masbench.tasks.player import prepare
from masbench.vphone.apps import default_apps
from masbench.vphone.build import build_phone
from masbench.vphone.phone import VirtualPhone
from masbench.vphone.ui import TEXT, Node, hit, line_height, text_width

TASKS = list(load_tasks(default_tasks_dir()))
LAUNCHABLE = [a.package for a in default_apps() if a.launcher_activity is not None]


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

    phone = build_phone("probe", apps=[*default_apps(), Probe()])
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
