"""Reusable Material-style building blocks for simulated apps, so every app looks like a phone app and
screens stay short. Each function returns a `Node`; ids (`rid`) are what agents and RPA selectors see."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .ui import (
    BUTTON,
    CHECKBOX,
    EDIT,
    FRAME,
    IMAGE,
    IMAGE_BUTTON,
    LINEAR,
    RADIO,
    RECYCLER,
    SCROLL,
    SWITCH,
    TEXT,
    VIEWGROUP,
    Node,
    measure_height,
)

Tap = Callable[[], None] | None
GREY = "#5f6368"
DIVIDER = "#e0e0e0"


def text(
    value: str, size: int = 40, fg: str = "#202124", bold: bool = False, rid: str = "", **kw: Any
) -> Node:
    return Node(TEXT, text=value, size=size, fg=fg, bold=bold, rid=rid, **kw)


def column(*children: Node | None, **kw: Any) -> Node:
    return Node(kw.pop("cls", LINEAR), children=[c for c in children if c is not None], layout="v", **kw)


def row(*children: Node | None, **kw: Any) -> Node:
    return Node(kw.pop("cls", LINEAR), children=[c for c in children if c is not None], layout="h", **kw)


def spacer(h: int = 0, w: int | None = None, weight: float = 0.0) -> Node:
    return Node(VIEWGROUP, h=h, w=w, weight=weight)


def divider() -> Node:
    return Node(VIEWGROUP, h=2, bg=DIVIDER)


def icon_button(
    icon: str,
    desc: str,
    on_tap: Tap,
    rid: str = "",
    fg: str = "#202124",
    size: int = 60,
    bg: str | None = None,
) -> Node:
    return Node(
        IMAGE_BUTTON,
        icon=icon,
        desc=desc,
        on_tap=on_tap,
        rid=rid,
        fg=fg,
        size=size,
        w=size + 60,
        h=size + 60,
        align="center",
        bg=bg,
        radius=(size + 60) // 2,
    )


def button(
    label: str,
    on_tap: Tap,
    rid: str = "",
    primary: bool = True,
    colour: str = "#1a73e8",
    fg: str | None = None,
    enabled: bool = True,
    **kw: Any,
) -> Node:
    bg = colour if primary else None
    return Node(
        BUTTON, text=label, on_tap=on_tap, rid=rid, bg=bg if enabled else "#dadce0", border=None if primary else "#dadce0",
        fg=fg or ("#ffffff" if primary else colour), bold=True, size=kw.pop("size", 40), radius=kw.pop("radius", 60),
        h=kw.pop("h", 120), align="center", pad=kw.pop("pad", (40, 0, 40, 0)), enabled=enabled, **kw,
    )  # fmt: skip


def top_bar(
    title: str,
    colour: str = "#ffffff",
    fg: str = "#202124",
    on_back: Tap = None,
    actions: Sequence[Node] = (),
    rid: str = "toolbar",
) -> Node:
    items: list[Node] = []
    if on_back is not None:
        items.append(icon_button("back", "Navigate up", on_back, rid="navigate_up", fg=fg))
    items.append(
        text(title, size=50, fg=fg, bold=True, rid="toolbar_title", weight=1, max_lines=1, pad=(24, 0, 0, 0))
    )
    items.extend(actions)
    return row(*items, h=168, bg=colour, pad=(16, 0, 16, 0), valign="center", rid=rid)


def search_field(
    field: str,
    hint: str,
    on_submit: Callable[[str], None] | None,
    rid: str = "search_src_text",
    on_change: Callable[[str], None] | None = None,
    bg: str = "#f1f3f4",
    value: str = "",
) -> Node:
    return Node(
        EDIT,
        field=field,
        hint=hint,
        text=value,
        on_submit=on_submit,
        on_change=on_change,
        rid=rid,
        icon="search",
        bg=bg,
        radius=60,
        h=128,
        pad=(36, 0, 36, 0),
        size=42,
        weight=1.0,  # fills the rest of a row; ignored in a column since the height is fixed
    )


def text_field(
    field: str,
    hint: str,
    rid: str,
    value: str = "",
    on_submit: Callable[[str], None] | None = None,
    password: bool = False,
) -> Node:
    return Node(
        EDIT,
        field=field,
        hint=hint,
        text=value,
        rid=rid,
        on_submit=on_submit,
        password=password,
        h=140,
        pad=(24, 0, 24, 0),
        size=44,
    )


def list_item(
    title: str,
    subtitle: str = "",
    on_tap: Tap = None,
    icon: str | None = None,
    rid: str = "",
    trailing: Node | None = None,
    image: str | None = None,
    desc: str = "",
) -> Node:
    lead: Node | None = None
    if image is not None:
        lead = Node(IMAGE, image=image, w=140, h=140, radius=12, desc=desc)
    elif icon is not None:
        lead = Node(IMAGE, icon=icon, size=60, w=100, h=100, fg=GREY, align="center")
    body = column(
        text(title, size=44, rid="title", max_lines=2),
        text(subtitle, size=36, fg=GREY, rid="summary", max_lines=3) if subtitle else None,
        weight=1,
        gap=6,
    )
    return row(
        lead, body, trailing, on_tap=on_tap, rid=rid, pad=(48, 30, 48, 30), gap=36, valign="center", desc=desc
    )


def switch(label: str, checked: bool, on_tap: Tap, rid: str = "switch_widget") -> Node:
    return Node(
        SWITCH,
        text=label,
        checkable=True,
        checked=checked,
        on_tap=on_tap,
        rid=rid,
        h=150,
        pad=(48, 0, 48, 0),
        size=44,
    )


def checkbox(label: str, checked: bool, on_tap: Tap, rid: str = "checkbox") -> Node:
    return Node(
        CHECKBOX,
        text=label,
        checkable=True,
        checked=checked,
        on_tap=on_tap,
        rid=rid,
        h=120,
        pad=(48, 0, 48, 0),
        size=42,
    )


def radio(label: str, checked: bool, on_tap: Tap, rid: str = "radio") -> Node:
    return Node(
        RADIO,
        text=label,
        checkable=True,
        checked=checked,
        on_tap=on_tap,
        rid=rid,
        h=120,
        pad=(48, 0, 48, 0),
        size=42,
    )


def chip(label: str, selected: bool, on_tap: Tap, rid: str = "chip", colour: str = "#1a73e8") -> Node:
    return Node(
        BUTTON, text=label, selected=selected, on_tap=on_tap, rid=rid, h=96, radius=20, pad=(32, 0, 32, 0), size=36,
        bg="#e8f0fe" if selected else "#ffffff", border=colour if selected else "#dadce0", fg=colour if selected else "#3c4043",
        checkable=False, align="center", icon="check" if selected else None,
    )  # fmt: skip


def scroll_list(
    key: str,
    items: Sequence[Node],
    rid: str = "list",
    gap: int = 0,
    cls: str = RECYCLER,
    horizontal: bool = False,
    **kw: Any,
) -> Node:
    """A scroll container that fills the free space (weight 1) unless given a height."""
    kw.setdefault("weight", 1.0 if not horizontal else 0.0)
    return Node(
        cls if not horizontal else "android.widget.HorizontalScrollView",
        children=list(items),
        layout="h" if horizontal else "v",
        scroll=key,
        rid=rid,
        gap=gap,
        **kw,
    )


def scroll_page(key: str, *children: Node | None, rid: str = "scroll_view", **kw: Any) -> Node:
    return scroll_list(key, [c for c in children if c is not None], rid=rid, cls=SCROLL, **kw)


def tabs(
    labels: Sequence[str],
    current: int,
    on_select: Callable[[int], None],
    colour: str = "#1a73e8",
    rid: str = "tabs",
) -> Node:
    items = [
        column(
            text(
                label,
                size=40,
                fg=colour if i == current else GREY,
                bold=i == current,
                align="center",
                h=110,
                valign="center",
            ),
            Node(VIEWGROUP, h=8, bg=colour if i == current else None),
            cls="android.widget.LinearLayout",
            on_tap=(lambda i=i: on_select(i)),
            weight=1,
            selected=i == current,
            desc=label,
            rid="tab",
        )
        for i, label in enumerate(labels)
    ]
    return row(*items, h=118, rid=rid, bg="#ffffff")


def bottom_nav(
    items: Sequence[tuple[str, str]],
    current: str,
    on_select: Callable[[str], None],
    colour: str = "#1a73e8",
    rid: str = "bottom_navigation",
) -> Node:
    """items: (label, icon). The selected one is tinted and `selected`."""
    cells = [
        column(
            Node(IMAGE, icon=icon, size=64, h=84, fg=colour if label == current else GREY, align="center"),
            text(
                label, size=30, fg=colour if label == current else GREY, align="center", bold=label == current
            ),
            on_tap=(lambda label=label: on_select(label)),
            weight=1,
            desc=label,
            selected=label == current,
            rid="nav_" + label.lower().replace(" ", "_"),
            pad=(0, 14, 0, 10),
        )
        for label, icon in items
    ]
    return column(divider(), row(*cells, h=190, bg="#ffffff"), rid=rid)


def rating(stars: float, count: int | None = None, colour: str = "#f9ab00") -> Node:
    full = round(stars)
    icons = [
        Node(IMAGE, icon="star" if i < full else "star_outline", fg=colour, size=34, w=40, h=40)
        for i in range(5)
    ]
    label = f"{stars:.1f}" + (f" ({count:,})" if count is not None else "")
    return row(
        *icons,
        text(label, size=32, fg=GREY, pad=(10, 0, 0, 0)),
        desc=f"Rated {stars:.1f} out of 5 stars",
        h=48,
        valign="center",
    )


def dialog(
    title: str, body: Sequence[Node], actions: Sequence[Node], on_dismiss: Tap, rid: str = "dialog"
) -> Node:
    """A modal card over a scrim; tapping the scrim dismisses it."""
    card = column(
        text(title, size=50, bold=True, pad=(60, 60, 60, 20), rid="alertTitle"),
        *body,
        row(spacer(weight=1), *actions, pad=(40, 20, 40, 40), gap=20),
        bg="#ffffff", radius=40, w=940, rid=rid, cls=FRAME,
    )  # fmt: skip
    card.h = measure_height(card, card.w)  # wrap its content: a stack gives unsized children the whole box
    return Node(
        FRAME,
        layout="stack",
        children=[Node(VIEWGROUP, bg="#00000088", on_tap=on_dismiss, rid="touch_outside"), card],
        align="center",
        valign="center",
    )


def overlay(screen: Node, layer: Node | None) -> Node:
    """Stack a dialog or sheet on top of a screen (what `ui['dialog']` usually selects)."""
    if layer is None:
        return screen
    layer.modal = True
    return Node(FRAME, layout="stack", children=[screen, layer], rid="content")


def price(amount: float) -> str:
    return f"${amount:,.2f}"
