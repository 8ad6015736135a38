"""UI elements and the `uiautomator dump` parser.

`parse_ui_dump(xml)` turns the XML that ``uiautomator dump`` (or uiautomator2's ``dumpWindowHierarchy``)
writes into the flat, indexed element list that agents see and act on.

Which nodes are kept
    Every ``<node>`` whose ``bounds`` give a non-empty rectangle (after clipping to the screen when a
    screen size is given) **and** that carries something an agent can read or act on: non-empty
    ``text``, ``content-desc``, ``resource-id`` or ``hint``, or any of ``clickable``, ``long-clickable``,
    ``scrollable``, ``checkable``, ``focusable``, or an editable class (``...EditText``). Nodes marked
    ``visible-to-user="false"`` are dropped. Pure layout containers (a FrameLayout with no id and no
    flags) are dropped. Indices are sequential (0, 1, 2, ...) in document order of the kept nodes, so a
    parent comes before its children and index N is stable for identical dumps.

Robustness
    Real dumps are messy; the parser uses lxml's recovering parser and accepts: an XML declaration with
    an encoding, several ``<hierarchy>`` roots or several window roots, trailing text such as
    ``UI hierchary dumped to: /dev/tty``, leading shell noise, ``&#10;`` and other character references,
    invalid control characters, unknown attributes (``drawing-order``, ``hint``, ``display-id``, ...),
    missing attributes (flags default to false, ``enabled`` to true) and empty or malformed ``bounds``
    (``""``, ``[0,0][0,0]``, ``[a,b][c,d]``), which make a node invisible rather than an error.

Failure
    Empty or whitespace-only input returns ``[]`` (nothing on screen), and so does a well-formed dump with
    no nodes (``<hierarchy rotation="0"/>``). Input with no ``<?xml``, ``<hierarchy`` or ``<node`` markup
    at all - for example ``ERROR: could not get idle state.`` - raises ``ValueError`` quoting its start.
    Nothing else is ever raised.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from lxml import etree
from pydantic import BaseModel, ConfigDict

_BOUNDS = re.compile(r"\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")
_BAD_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_BAD_CHAR_REFS = re.compile(r"&#(?:0*(?:[0-8]|1[124-9]|2\d|3[01])|[xX]0*(?:[0-8]|[bBcCeEfF]|1[0-9a-fA-F]));")
_XML_DECL = re.compile(r"<\?xml[^>]*\?>")
_START = re.compile(r"<\?xml|<hierarchy\b|<node\b")
_EDIT_CLASSES = ("EditText", "AutoCompleteTextView", "SearchAutoComplete", "ExtractEditText")
_TEXT_LIMIT = 100

_PARSER = etree.XMLParser(
    recover=True,
    huge_tree=True,
    resolve_entities=False,
    no_network=True,
    remove_comments=True,
    remove_pis=True,
)


class UIElement(BaseModel):
    """One on-screen UI node as an agent sees it; `index` is its position in the parsed list."""

    model_config = ConfigDict(frozen=True)

    index: int
    cls: str = ""
    text: str = ""
    content_desc: str = ""
    resource_id: str = ""
    package: str = ""
    hint: str = ""
    bounds: tuple[int, int, int, int] = (0, 0, 0, 0)
    checkable: bool = False
    checked: bool = False
    clickable: bool = False
    long_clickable: bool = False
    scrollable: bool = False
    focusable: bool = False
    focused: bool = False
    enabled: bool = True
    selected: bool = False
    password: bool = False

    @property
    def center(self) -> tuple[int, int]:
        x1, y1, x2, y2 = self.bounds
        return (x1 + x2) // 2, (y1 + y2) // 2

    @property
    def width(self) -> int:
        return self.bounds[2] - self.bounds[0]

    @property
    def height(self) -> int:
        return self.bounds[3] - self.bounds[1]

    @property
    def short_class(self) -> str:
        return self.cls.rsplit(".", 1)[-1] if self.cls else "View"

    @property
    def short_id(self) -> str:
        """``com.app:id/add_to_cart`` → ``add_to_cart``; framework ids keep their ``android:`` prefix."""
        rid = self.resource_id
        if ":id/" in rid:
            pkg, _, name = rid.partition(":id/")
            return f"android:{name}" if pkg == "android" else name
        return rid

    @property
    def editable(self) -> bool:
        return self.cls.endswith(_EDIT_CLASSES)

    @property
    def is_actionable(self) -> bool:
        """Can a tap, long press, scroll or typing do something here?"""
        return self.enabled and (
            self.clickable or self.long_clickable or self.scrollable or self.checkable or self.editable
        )

    def flags(self) -> list[str]:
        """The interaction flags that are on, in a fixed order (``clickable``, ``checked``, ...)."""
        return [
            name
            for name, on in (
                ("clickable", self.clickable),
                ("long-clickable", self.long_clickable),
                ("scrollable", self.scrollable),
                ("editable", self.editable),
                ("checked" if self.checked else "unchecked", self.checkable),
                ("focused", self.focused),
                ("selected", self.selected),
                ("password", self.password),
                ("disabled", not self.enabled),
            )
            if on
        ]

    def describe(self) -> str:
        """One line for prompts: ``[3] Button "Add to Cart" id=add_to_cart_button clickable``."""
        parts = [f"[{self.index}]", self.short_class]
        if self.text:
            parts.append(_quote(self.text))
        if self.content_desc and self.content_desc != self.text:
            parts.append(f"desc={_quote(self.content_desc)}")
        if self.hint and self.hint != self.text:
            parts.append(f"hint={_quote(self.hint)}")
        if self.short_id:
            parts.append(f"id={self.short_id}")
        return " ".join(parts + self.flags())


def _quote(text: str) -> str:
    if len(text) > _TEXT_LIMIT:
        text = text[: _TEXT_LIMIT - 1] + "…"
    return json.dumps(text, ensure_ascii=False)


def parse_bounds(text: str | None) -> tuple[int, int, int, int] | None:
    """``[x1,y1][x2,y2]`` → (x1, y1, x2, y2); None when missing, malformed or empty (zero area)."""
    if not text:
        return None
    m = _BOUNDS.search(text)
    if m is None:
        return None
    x1, y1, x2, y2 = (int(v) for v in m.groups())
    if x2 <= x1 or y2 <= y1:
        return None
    return x1, y1, x2, y2


def _flag(attrs: dict[str, str], name: str, default: bool = False) -> bool:
    value = attrs.get(name)
    if value is None:
        return default
    return value.strip().lower() == "true"


def _prepare(xml: str | bytes) -> str | None:
    """Cut the text down to the markup lxml should see, or None for empty input."""
    if isinstance(xml, bytes | bytearray):
        xml = bytes(xml).decode("utf-8", errors="replace")
    if not isinstance(xml, str):
        raise ValueError(f"UI dump must be text, not {type(xml).__name__}")
    text = xml.lstrip("\ufeff")
    if not text.strip():
        return None
    m = _START.search(text)
    if m is None:
        head = " ".join(text.strip().split())[:160]
        raise ValueError(f"not a uiautomator dump (no <hierarchy> or <node> markup): {head!r}")
    text = _XML_DECL.sub("", text[m.start() :])  # declarations in the middle (several dumps) are fatal
    text = _BAD_CHAR_REFS.sub(" ", _BAD_CHARS.sub(" ", text))
    return text


def parse_ui_dump(xml: str | bytes, screen: tuple[int, int] | None = None) -> list[UIElement]:
    """Parse uiautomator XML into the indexed list of visible, meaningful elements (see module doc).

    ``screen=(width, height)`` clips bounds to the screen and drops nodes lying fully outside it.
    Raises ValueError only for input that is not a UI dump at all; returns [] for empty input.
    """
    return elements_of((attrs for attrs, _ in dump_nodes(xml)), screen)


def elements_of(nodes: Iterable[dict[str, str]], screen: tuple[int, int] | None = None) -> list[UIElement]:
    """The elements of a dump's nodes given as attribute dicts in document order (what a phone in this
    process hands over instead of the XML); the same rules as `parse_ui_dump`."""
    elements: list[UIElement] = []
    for attrs in nodes:
        el = _element(attrs, len(elements), screen)
        if el is not None:
            elements.append(el)
    return elements


def dump_nodes(xml: str | bytes) -> list[tuple[dict[str, str], bool]]:
    """Every ``<node>`` of a dump in document order: its attributes and whether it has child nodes, for
    agents that list nodes by their own published rule (AndroidWorld's: leaves, nodes with a content
    description, scrollable nodes). Same input rules as `parse_ui_dump`."""
    text = _prepare(xml)
    if text is None:
        return []
    try:
        root = etree.fromstring(f"<masbench-dump>{text}</masbench-dump>".encode(), _PARSER)
    except (etree.LxmlError, ValueError):  # recover=True makes this rare, but it is not impossible
        root = None
    if root is None:
        return []
    # lxml-stubs type attributes as str | bytes; parsed from text, lxml gives str
    return [(dict(node.attrib), node.find("node") is not None) for node in root.iter("node")]  # type: ignore[arg-type]


def _element(attrs: dict[str, str], index: int, screen: tuple[int, int] | None) -> UIElement | None:
    bounds = parse_bounds(attrs.get("bounds"))
    if bounds is None or not _flag(attrs, "visible-to-user", default=True):
        return None
    if screen is not None:
        w, h = screen
        x1, y1, x2, y2 = bounds
        bounds = (max(0, x1), max(0, y1), min(w, x2), min(h, y2))
        if bounds[2] <= bounds[0] or bounds[3] <= bounds[1]:
            return None
    el = node_element(attrs, index, bounds)
    meaningful = (
        el.text.strip()
        or el.content_desc.strip()
        or el.resource_id
        or el.hint.strip()
        or el.clickable
        or el.long_clickable
        or el.scrollable
        or el.checkable
        or el.focusable
        or el.editable
    )
    return el if meaningful else None


def node_element(attrs: dict[str, str], index: int, bounds: tuple[int, int, int, int]) -> UIElement:
    """The element a node's attributes describe, under `index` and with `bounds`, whatever its content."""
    return UIElement(
        index=index,
        cls=attrs.get("class", "").strip(),
        text=attrs.get("text", ""),
        content_desc=attrs.get("content-desc", ""),
        resource_id=attrs.get("resource-id", "").strip(),
        package=attrs.get("package", "").strip(),
        hint=attrs.get("hint", "") or attrs.get("hint-text", ""),
        bounds=bounds,
        checkable=_flag(attrs, "checkable"),
        checked=_flag(attrs, "checked"),
        clickable=_flag(attrs, "clickable"),
        long_clickable=_flag(attrs, "long-clickable"),
        scrollable=_flag(attrs, "scrollable"),
        focusable=_flag(attrs, "focusable"),
        focused=_flag(attrs, "focused"),
        enabled=_flag(attrs, "enabled", default=True),
        selected=_flag(attrs, "selected"),
        password=_flag(attrs, "password"),
    )


__all__ = ["UIElement", "dump_nodes", "elements_of", "node_element", "parse_bounds", "parse_ui_dump"]
