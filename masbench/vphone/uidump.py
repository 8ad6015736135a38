"""Serialise a laid-out view tree to the exact `uiautomator dump` XML that Android 15 writes."""

from __future__ import annotations

from collections.abc import Iterator
from xml.sax.saxutils import quoteattr

from .ui import EDIT, Node

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"


def _flag(value: bool) -> str:
    return "true" if value else "false"


def attributes(node: Node, index: int, package: str, focus: str | None) -> dict[str, str]:
    """A node's dump attributes, in the order Android writes them (the in-process route search reads
    these without going through the XML text)."""
    x1, y1, x2, y2 = node.clip
    editable = node.cls == EDIT or node.field is not None
    return {
        "index": str(index),
        "text": node.shown_text(),
        "resource-id": f"{package}:id/{node.rid}" if node.rid else "",
        "class": node.cls,
        "package": package,
        "content-desc": node.desc,
        "checkable": _flag(node.checkable),
        "checked": _flag(node.checked),
        "clickable": _flag(node.clickable),
        "enabled": _flag(node.enabled),
        "focusable": _flag(node.clickable or editable),
        "focused": _flag(editable and node.field == focus),
        "scrollable": _flag(node.scrollable),
        "long-clickable": _flag(node.long_clickable),
        "password": _flag(node.password),
        "selected": _flag(node.selected),
        "bounds": f"[{x1},{y1}][{x2},{y2}]",
    }


def dumped_children(node: Node) -> list[Node]:
    """The children a dump shows: visible ones, and of modal layers only the top one and what follows."""
    children = [c for c in node.children if c.visible() and c.dumped]
    modal = [i for i, c in enumerate(children) if c.modal]
    if modal:  # a dialog is its own window on Android: the dump shows it, not what lies beneath
        children = children[modal[-1] :]
    return children


def nodes(window: Node, package: str, focus: str | None) -> Iterator[dict[str, str]]:
    """Every dumped node's attributes in document order: what `dump` writes, as data."""
    stack = [(0, window)]
    while stack:
        index, node = stack.pop()
        yield attributes(node, index, package, focus)
        children = dumped_children(node)
        stack.extend(reversed(list(enumerate(children))))


def _node(node: Node, index: int, package: str, focus: str | None, out: list[str]) -> None:
    attrs = " ".join(f"{k}={quoteattr(v)}" for k, v in attributes(node, index, package, focus).items())
    children = dumped_children(node)
    if not children:
        out.append(f"<node {attrs} />")
        return
    out.append(f"<node {attrs}>")
    for i, child in enumerate(children):
        _node(child, i, package, focus, out)
    out.append("</node>")


def dump(window: Node, package: str, focus: str | None) -> str:
    """The dump of one app window; nodes scrolled out of view are left out, as RecyclerView does."""
    out = [HEADER, '<hierarchy rotation="0">']
    _node(window, 0, package, focus, out)
    out.append("</hierarchy>")
    return "".join(out)
