"""Android's floating text toolbar, the way text reaches the clipboard and comes back: a long press on an
EditText focuses it and offers Paste (when the clipboard holds text), a long press on selectable text
offers Copy. The toolbar floats above what was pressed; any other touch dismisses it.

One simplification: a long press on selectable text selects all of that view's text (Android selects the
word and lets the handles widen it), since the texts apps mark selectable are single values (an address,
a number, a link, a paragraph).
"""

from __future__ import annotations

from .app import Phone
from .ui import BUTTON, FRAME, LINEAR, Node

KEY = "text_toolbar"  # the toolbar's entry in the top screen's transient ui state
HEIGHT = 132
GAP = 24


def offer(phone: Phone, node: Node) -> bool:
    """Open the toolbar for a long-pressed `node`; False when it is neither editable nor selectable."""
    top = phone.top
    x1, y1, _, y2 = node.clip
    anchor = {"x": x1, "top": y1, "bottom": y2}
    if node.field is not None:
        top.ui["focus"] = node.field
        phone.log("focus", field=node.field)
        if phone.clipboard:
            top.ui[KEY] = {"paste": node.field, **anchor}
        return True
    if node.selectable and node.text:
        top.ui[KEY] = {"copy": node.text, **anchor}
        phone.log("select", text=node.text)
        return True
    return False


def overlay(phone: Phone, window: Node, content_top: int) -> Node:
    """`window` with the open toolbar floating over it (not modal: the dump shows both)."""
    menu = phone.top.ui.get(KEY)
    if not menu:
        return window
    if "paste" in menu:
        label, act = "Paste", lambda: _paste(phone, menu["paste"])
    else:
        label, act = "Copy", lambda: _copy(phone, menu["copy"])
    above = menu["top"] - HEIGHT - GAP
    y = above if above >= content_top else menu["bottom"] + GAP
    button = Node(BUTTON, text=label, on_tap=act, size=40, pad=(44, 0, 44, 0), h=HEIGHT, valign="center")
    bar = Node(LINEAR, layout="h", children=[button], bg="#ffffff", border="#dadce0", radius=24, h=HEIGHT)
    bar_row = Node(LINEAR, layout="h", children=[Node(FRAME, w=max(24, menu["x"]), dumped=False), bar])
    layer = Node(FRAME, children=[Node(FRAME, h=y - content_top, dumped=False), bar_row], weight=1.0)
    window.weight = 1.0
    return Node(FRAME, layout="stack", children=[window, layer])


def _paste(phone: Phone, field: str) -> None:
    phone.top.ui["focus"] = field
    phone.log("paste", field=field, text=phone.clipboard)
    phone.append_to_focused(phone.clipboard)


def _copy(phone: Phone, text: str) -> None:
    phone.clipboard = text
    phone.log("copy", text=text)
