"""Reusable Material-style building blocks for simulated apps, so every app looks like a phone app and
screens stay short. Each function returns a `Node`; ids (`rid`) are what agents and RPA selectors see.
Colours and text sizes default to the current app's theme (theme.py): pass a style name, not a size."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from .theme import theme
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
    Align,
    Lazy,
    Node,
)

Tap = Callable[[], None] | None
GREY = "#5f6368"
SCRIM = "#00000088"


def text(value: str, style: str = "body", rid: str = "", **kw: Any) -> Node:
    """A TextView in a named style of the app's theme; `size`, `fg` or `bold` override it where a screen
    really differs."""
    t = theme()
    s = t.style(style)
    kw.setdefault("size", s.size)
    kw.setdefault("bold", s.bold)
    kw.setdefault("fg", t.colour(s.role))
    return Node(TEXT, text=value, rid=rid, **kw)


def column(*children: Node | None, **kw: Any) -> Node:
    return Node(kw.pop("cls", LINEAR), children=[c for c in children if c is not None], layout="v", **kw)


def row(*children: Node | None, **kw: Any) -> Node:
    return Node(kw.pop("cls", LINEAR), children=[c for c in children if c is not None], layout="h", **kw)


def spacer(h: int = 0, w: int | None = None, weight: float = 0.0) -> Node:
    return Node(VIEWGROUP, h=h, w=w, weight=weight)


def flow(*children: Node | None, gap: int = 20, **kw: Any) -> Node:
    """Children left to right, wrapping into as many rows as they need (chips, tags, amenities)."""
    return Node(kw.pop("cls", LINEAR), children=[c for c in children if c is not None], layout="flow",
                gap=gap, **kw)  # fmt: skip


def divider() -> Node:
    return Node(VIEWGROUP, h=2, bg=theme().divider)


def image(picture: str, w: int, h: int, desc: str = "", rid: str = "", radius: int = 0, **kw: Any) -> Node:
    """A picture: `picture` is "kind:key" (what it shows, one of `pictures.KINDS`, and the item's id); the
    same string draws the same picture at any size, in a list and on the detail page."""
    return Node(IMAGE, image=picture, w=w, h=h, desc=desc, rid=rid, radius=radius, **kw)


def icon_button(
    icon: str,
    desc: str,
    on_tap: Tap,
    rid: str = "",
    fg: str | None = None,
    size: int = 60,
    bg: str | None = None,
) -> Node:
    return Node(
        IMAGE_BUTTON,
        icon=icon,
        desc=desc,
        on_tap=on_tap,
        rid=rid,
        fg=fg or theme().ink,
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
    colour: str | None = None,
    fg: str | None = None,
    enabled: bool = True,
    **kw: Any,
) -> Node:
    t = theme()
    colour = colour or t.primary
    bg = colour if primary else None
    return Node(
        BUTTON, text=label, on_tap=on_tap, rid=rid, bg=bg if enabled else "#dadce0", border=None if primary else "#dadce0",
        fg=fg or (t.on_primary if primary else colour), bold=True, size=kw.pop("size", t.style("label").size),
        radius=kw.pop("radius", 60),
        h=kw.pop("h", 120), align="center", pad=kw.pop("pad", (40, 0, 40, 0)), enabled=enabled, **kw,
    )  # fmt: skip


def app_bar(
    title: str,
    on_back: Tap = None,
    *actions: Node | None,
    colour: str | None = None,
    fg: str | None = None,
    rid: str = "toolbar",
) -> Node:
    """The top app bar: Navigate up (when `on_back`), the title and action buttons, in the theme's bar
    colour unless told otherwise."""
    t = theme()
    on_primary = t.app_bar == "primary"
    colour = colour or (t.primary if on_primary else t.surface)
    fg = fg or (t.on_primary if on_primary else t.ink)
    return row(
        icon_button("back", "Navigate up", on_back, rid="navigate_up", fg=fg) if on_back is not None else None,
        text(title, "title", fg=fg, rid="toolbar_title", weight=1, max_lines=1,
             pad=(24 if on_back is None else 8, 0, 0, 0)),
        *actions,
        h=168, bg=colour, pad=(16, 0, 16, 0), valign="center", rid=rid,
    )  # fmt: skip


def section_header(label: str, action: str = "", on_action: Tap = None, rid: str = "section_title") -> Node:
    """A bold section title, with an optional "See all"-style link on the right."""
    title = text(label, "heading", rid=rid, pad=(40, 40, 40, 16), weight=1 if action else 0)
    if not action:
        return title
    link = text(action, "link", on_tap=on_action, rid=rid + "_action", pad=(20, 40, 40, 16))
    return row(title, link, valign="center")


def label_value(label: str, value: str, rid: str = "", bold_value: bool = False) -> Node:
    """One "Label ........ value" line of a details table."""
    return row(
        text(label, "body_small", fg=theme().muted, weight=1),
        text(value, "body_small", bold=bold_value, align="end", rid=rid, max_lines=2, w=560),
        pad=(40, 14, 40, 14), gap=20, valign="start", desc=f"{label}: {value}",
    )  # fmt: skip


def media_row(
    picture: str,
    title: str,
    meta: Sequence[str | Node | None] = (),
    on_tap: Tap = None,
    trailing: Node | None = None,
    size: int = 200,
    rid: str = "",
    desc: str = "",
) -> Node:
    """A picture with a title and meta lines beside it: a product, a hotel, a video, a business."""
    lines = [text(m, "caption", max_lines=2) if isinstance(m, str) else m for m in meta]
    return row(
        image(picture, size, size, desc=desc or title, radius=18),
        column(text(title, "subtitle", max_lines=2, rid="title"), *lines, weight=1, gap=8),
        trailing,
        on_tap=on_tap, rid=rid, desc=desc or title, pad=(40, 28, 40, 28), gap=30, valign="start",
    )  # fmt: skip


def search_field(
    field: str,
    hint: str,
    on_submit: Callable[[str], None] | None,
    rid: str = "search_src_text",
    on_change: Callable[[str], None] | None = None,
    bg: str | None = None,
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
        bg=bg or theme().pale,
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
    selectable: bool = False,
) -> Node:
    """A row: an icon or picture, a title and a subtitle; `selectable` lets a long press copy the title."""
    lead: Node | None = None
    if image is not None:
        lead = Node(IMAGE, image=image, w=140, h=140, radius=12, desc=desc)
    elif icon is not None:
        lead = Node(IMAGE, icon=icon, size=60, w=100, h=100, fg=theme().muted, align="center")
    body = column(
        text(title, size=44, rid="title", max_lines=2, selectable=selectable),
        text(subtitle, "body_small", fg=theme().muted, rid="summary", max_lines=3) if subtitle else None,
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


def chip(label: str, selected: bool, on_tap: Tap, rid: str = "chip", colour: str | None = None) -> Node:
    colour = colour or theme().primary
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


def lazy_list(
    key: str,
    count: int,
    item_h: int,
    build: Callable[[int], Node],
    rid: str = "list",
    gap: int = 2,
    **kw: Any,
) -> Node:
    """A vertical list of `count` rows of height `item_h` that fills the free space; only the rows on
    screen are built and laid out, so long result lists cost what a screenful costs."""
    kw.setdefault("weight", 1.0)
    return Node(RECYCLER, lazy=Lazy(count, item_h, build), scroll=key, rid=rid, gap=gap, **kw)


def chips(
    items: Sequence[tuple[str, bool, Tap]], scroll_key: str | None = None, rid: str = "chip", **kw: Any
) -> Node:
    """A row of filter chips (label, selected, on_tap): scrolling sideways when `scroll_key` is given,
    else wrapping onto more lines."""
    nodes = [chip(label, on, tap, rid=rid) for label, on, tap in items]
    if scroll_key is not None:
        kw.setdefault("pad", (32, 16, 32, 16))
        return scroll_list(scroll_key, nodes, rid=rid + "_group", horizontal=True, gap=18, **kw)
    return flow(*nodes, gap=18, rid=rid + "_group", pad=kw.pop("pad", (32, 16, 32, 16)), **kw)


def tabs(
    labels: Sequence[str],
    current: int,
    on_select: Callable[[int], None],
    colour: str | None = None,
    rid: str = "tabs",
) -> Node:
    colour = colour or theme().primary
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
    colour: str | None = None,
    rid: str = "bottom_navigation",
) -> Node:
    """items: (label, icon). The selected one is tinted and `selected`."""
    colour = colour or theme().primary
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


def rating(stars: float, count: int | None = None, colour: str | None = None) -> Node:
    """Stars for display: the value rounded to whole stars, the number and the review count."""
    colour = colour or theme().star
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


def star_input(value: int, on_rate: Callable[[int], None], rid: str = "rating_bar") -> Node:
    """Five tappable stars for writing a rating (a RatingBar): star i sets the rating to i."""
    colour = theme().star
    stars = [
        Node(IMAGE_BUTTON, icon="star" if i <= value else "star_outline", fg=colour, size=84, w=120, h=120,
             align="center", desc=f"{i} star" + ("s" if i > 1 else ""), on_tap=partial(on_rate, i),
             selected=i <= value, rid="star")
        for i in range(1, 6)
    ]  # fmt: skip
    return row(*stars, rid=rid, desc=f"Rating: {value} of 5", gap=8)


def _layer(card: Node, on_dismiss: Tap, valign: Align) -> Node:
    """A card over a scrim that fills the window; tapping the scrim calls `on_dismiss`."""
    scrim = Node(VIEWGROUP, bg=SCRIM, on_tap=on_dismiss, rid="touch_outside", weight=1, dumped=False)
    return Node(FRAME, layout="stack", children=[scrim, card], align="center", valign=valign)


def dialog(
    title: str, body: Sequence[Node | None], actions: Sequence[Node], on_dismiss: Tap, rid: str = "dialog"
) -> Node:
    """An alert dialog: a centred card as tall as its content; tapping outside it dismisses it."""
    card = column(
        text(title, "title", pad=(60, 60, 60, 20), rid="alertTitle"),
        *body,
        row(spacer(weight=1), *actions, pad=(40, 20, 40, 40), gap=20),
        bg=theme().surface, radius=40, w=940, rid=rid, cls=FRAME,
    )  # fmt: skip
    return _layer(card, on_dismiss, "center")


def choice_dialog(
    title: str,
    choices: Mapping[str, str],
    current: str | None,
    on_pick: Callable[[str], None],
    on_dismiss: Tap,
    *,
    cancel: bool = True,
    rid: str = "dialog",
    option_rid: str = "option",
) -> Node:
    """A single-choice dialog (Android's AlertDialog with single-choice items): a radio per choice
    (key -> label), the current one checked; picking one calls `on_pick(key)`."""
    options = [
        radio(label, key == current, partial(on_pick, key), rid=option_rid) for key, label in choices.items()
    ]
    actions = [button("Cancel", on_dismiss, primary=False)] if cancel else []
    return dialog(title, options, actions, on_dismiss, rid=rid)


def bottom_sheet(title: str, body: Sequence[Node | None], on_dismiss: Tap, rid: str = "bottom_sheet") -> Node:
    """A modal bottom sheet: a drag handle, a title with a close button, then `body`; tapping above it or
    the X dismisses it."""
    t = theme()
    card = column(
        row(spacer(weight=1), Node(VIEWGROUP, w=110, h=12, radius=6, bg=t.divider), spacer(weight=1),
            pad=(0, 20, 0, 0)),
        row(text(title, "title", weight=1, rid="sheet_title"),
            icon_button("close", "Close", on_dismiss, rid="sheet_close"), pad=(48, 8, 24, 8), valign="center"),
        *body,
        spacer(40),
        bg=t.surface, radius=36, rid=rid, cls=FRAME,
    )  # fmt: skip
    return _layer(card, on_dismiss, "end")


def price(amount: float) -> str:
    return f"${amount:,.2f}"
