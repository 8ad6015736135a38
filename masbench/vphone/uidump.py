"""Serialise a laid-out view tree to the exact `uiautomator dump` XML that Android 15 writes."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from .ui import EDIT, Node

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _node(node: Node, index: int, package: str, focus: str | None, out: list[str]) -> None:
    x1, y1, x2, y2 = node.clip
    rid = f"{package}:id/{node.rid}" if node.rid else ""
    editable = node.cls == EDIT or node.field is not None
    attrs = (
        f'index="{index}" text={quoteattr(node.shown_text())} resource-id={quoteattr(rid)} '
        f'class="{node.cls}" package="{package}" content-desc={quoteattr(node.desc)} '
        f'checkable="{_flag(node.checkable)}" checked="{_flag(node.checked)}" '
        f'clickable="{_flag(node.clickable)}" enabled="{_flag(node.enabled)}" '
        f'focusable="{_flag(node.clickable or editable)}" focused="{_flag(editable and node.field == focus)}" '
        f'scrollable="{_flag(node.scrollable)}" long-clickable="{_flag(node.long_clickable)}" '
        f'password="{_flag(node.password)}" selected="{_flag(node.selected)}" '
        f'bounds="[{x1},{y1}][{x2},{y2}]"'
    )
    children = [c for c in node.children if c.visible() and c.dumped]
    modal = [i for i, c in enumerate(children) if c.modal]
    if modal:  # a dialog is its own window on Android: the dump shows it, not what lies beneath
        children = children[modal[-1] :]
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
