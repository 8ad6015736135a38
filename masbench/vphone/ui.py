"""A small retained-per-frame view toolkit: apps build a tree of `Node`s, we lay it out, hit-test it,
render it (render.py) and serialise it as `uiautomator dump` XML (uidump.py).

Apps rebuild their tree from state after every input (immediate mode), so closures in `on_tap` always see
fresh state and a reset is just new state. Lengths are in pixels of the 1080x2400 screen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

import cvttf_NotoSansCJK_Regular
import font_roboto
from fontTools.ttLib import TTFont
from PIL import ImageFont

FRAME = "android.widget.FrameLayout"
LINEAR = "android.widget.LinearLayout"
TEXT = "android.widget.TextView"
BUTTON = "android.widget.Button"
IMAGE = "android.widget.ImageView"
IMAGE_BUTTON = "android.widget.ImageButton"
EDIT = "android.widget.EditText"
CHECKBOX = "android.widget.CheckBox"
SWITCH = "android.widget.Switch"
RADIO = "android.widget.RadioButton"
SCROLL = "android.widget.ScrollView"
HSCROLL = "android.widget.HorizontalScrollView"
RECYCLER = "androidx.recyclerview.widget.RecyclerView"
VIEW = "android.view.View"
VIEWGROUP = "android.view.ViewGroup"
SEEKBAR = "android.widget.SeekBar"

Box = tuple[int, int, int, int]
Align = Literal["start", "center", "end"]
Padding = int | tuple[int, int, int, int]


@dataclass(frozen=True)
class Lazy:
    """The rows of a lazy list: `count` rows of height `item_h`, built by `build(i)` only when on screen,
    as a RecyclerView binds only the items it shows (a 300-row list costs what its visible rows cost)."""

    count: int
    item_h: int
    build: Callable[[int], Node]


ROBOTO = Path(font_roboto.font_files["Roboto"])  # Android's system font, pinned by the pip package
# Android falls back to Noto for what Roboto lacks (★ ☆ ✓ arrows, CJK): Noto Sans CJK, pinned by its package.
FALLBACK = Path(cvttf_NotoSansCJK_Regular.__file__).with_name("NotoSansCJKtc-Regular.otf")


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Roboto from a pinned package, never a system font, so renders are the same bytes on every machine;
    it has accented Latin, €, £, bullets, dashes and Greek/Cyrillic, so data keeps its real spelling (Zürich, Montjuïc)."""
    return ImageFont.truetype(str(ROBOTO), size=size)


@lru_cache(maxsize=64)
def fallback_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FALLBACK), size=size)


@lru_cache(maxsize=2)
def covered(path: Path) -> frozenset[int]:
    """The code points a font has glyphs for (its character map)."""
    return frozenset(TTFont(str(path), lazy=True).getBestCmap())


# What Android draws of one line: control characters other than tab (CR, NUL, ...) and the line and paragraph
# separators take no space. raqm (Pillow's text layout) refuses CR, LF, U+001C-U+001E, U+0085 and U+2029 outright
# ("raqm_layout() failed"), so none of them may reach it.
INVISIBLE = dict.fromkeys([*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029])
del INVISIBLE[ord("\t")]
TAB_STOP = 20  # Android's Layout.TAB_INCREMENT: a tab advances to the next multiple of 20 px
SINGLE_LINE = str.maketrans({"\n": " ", "\r": ""})  # Android's SingleLineTransformationMethod


@lru_cache(maxsize=8192)
def font_runs(text: str) -> tuple[tuple[str, bool], ...]:
    """One line of `text` cut where the font changes: (run, drawn with the fallback font). Roboto draws what
    it has, the fallback the rest, glyph by glyph, as Android's font fallback does. A tab is a run of its own
    (it moves to the next tab stop); characters Android draws as nothing are left out (`INVISIBLE`)."""
    if text.isascii() and text.isprintable():
        return ((text, False),)
    roboto = covered(ROBOTO)
    runs: list[tuple[str, bool]] = []
    for ch in text.translate(INVISIBLE):
        fallback = ord(ch) not in roboto and not ch.isspace()
        if ch != "\t" and runs and runs[-1][1] == fallback and runs[-1][0] != "\t":
            runs[-1] = (runs[-1][0] + ch, fallback)
        else:
            runs.append((ch, fallback))
    return tuple(runs)


def run_font(size: int, fallback: bool) -> ImageFont.FreeTypeFont:
    return fallback_font(size) if fallback else font(size)


def placed_runs(text: str, size: int) -> tuple[list[tuple[str, bool, float]], float]:
    """The runs of one line with the x where each starts, and the line's advance (tabs to their stops)."""
    placed, x = [], 0.0
    for run, fallback in font_runs(text):
        if run == "\t":
            x = (x // TAB_STOP + 1) * TAB_STOP
            continue
        placed.append((run, fallback, x))
        x += run_font(size, fallback).getlength(run)
    return placed, x


@lru_cache(maxsize=20000)
def text_width(text: str, size: int) -> int:
    """Width of the widest line of `text`, as drawn."""
    return max(int(placed_runs(line, size)[1]) + 1 for line in text.split("\n"))


def fit_prefix(text: str, size: int, width: int) -> int:
    """How many leading characters of one line fit in `width` (at least one, so a line always advances).
    Every glyph has an advance of at least a pixel, so no more than `width` characters are tried."""
    lo, hi = 1, min(len(text), max(1, width))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid], size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def fit_suffix(text: str, size: int, width: int) -> str:
    """The end of one line that fits in `width`: what a single-line field scrolled to its cursor shows."""
    lo, hi = 0, min(len(text), max(0, width))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[len(text) - mid :], size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[len(text) - lo :] if lo else ""


def line_height(size: int) -> int:
    return int(size * 1.32)


@lru_cache(maxsize=8192)
def wrap(text: str, size: int, width: int, max_lines: int | None) -> tuple[str, ...]:
    """Greedy word wrap at spaces and line breaks, a word wider than the line broken between characters (as
    Android's StaticLayout does); the last kept line gets an ellipsis when lines are cut."""
    if width <= 0:
        return (text,)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            candidate = word if not current else current + " " + word
            if text_width(candidate, size) <= width:
                current = candidate
                continue
            if current:
                lines.append(current)
            while text_width(word, size) > width:
                cut = fit_prefix(word, size, width)
                lines.append(word[:cut])
                word = word[cut:]
            current = word
            if max_lines and len(lines) > max_lines:
                break  # enough lines to cut: the rest of a long text is never measured
        lines.append(current)
        if max_lines and len(lines) > max_lines:
            break
    if max_lines and len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        while last and text_width(last + "…", size) > width:
            last = last[:-1]
        lines[-1] = last + "…"
    return tuple(lines)


@dataclass(eq=False)
class Node:
    """One view. Content attributes mirror what `uiautomator dump` reports; the rest is layout and style."""

    cls: str = FRAME
    text: str = ""
    rid: str = ""  # short resource id; dumped as "<package>:id/<rid>"
    desc: str = ""  # content-desc
    children: list[Node] = field(default_factory=list)
    # behaviour
    on_tap: Callable[[], None] | None = None
    on_long_press: Callable[[], None] | None = None
    selectable: bool = False  # TextView textIsSelectable: a long press offers Copy (phone.py's text toolbar)
    checkable: bool = False
    checked: bool = False
    selected: bool = False
    enabled: bool = True
    password: bool = False
    multiline: bool = False  # EditText of inputType textMultiLine: wraps and shows line breaks
    field: str | None = None  # EditText: key of its value in the screen's ui state
    hint: str = ""
    on_submit: Callable[[str], None] | None = None  # Enter / IME action on a focused field
    on_change: Callable[[str], None] | None = None
    # layout
    layout: Literal["v", "h", "stack", "flow"] = "v"  # flow: left to right, wrapping into rows
    w: int | None = None  # None: fill the parent (v/stack) or wrap content (h/flow without weight)
    h: int | None = None  # None: wrap content
    weight: float = 0.0  # share of the free space along the parent's axis; in a stack: fill it
    pad: Padding = 0
    gap: int = 0
    align: Align = "start"  # text alignment, and cross-axis of children
    valign: Align = "center"  # text within its box
    scroll: str | None = None  # scroll container: key of its offset in the screen's ui state
    lazy: Lazy | None = None  # a vertical scroll container whose rows are built when visible
    modal: bool = False  # a dialog or sheet layer: on Android its own window, so a dump shows only it
    dumped: bool = True  # False: drawn and touchable but no view, like the dim area around a dialog window
    # style
    bg: str | None = None
    fg: str = "#202124"
    size: int = 40
    bold: bool = False
    radius: int = 0
    border: str | None = None
    icon: str | None = None  # glyph name drawn by the renderer (see icons.ICONS)
    image: str | None = None  # placeholder picture: a colour seed string
    max_lines: int | None = None
    # filled by layout
    bounds: Box = (0, 0, 0, 0)
    clip: Box = (0, 0, 0, 0)  # visible part after scroll clipping
    lines: tuple[str, ...] = ()

    # -- derived flags -------------------------------------------------------------------------------
    @property
    def clickable(self) -> bool:
        return self.on_tap is not None or self.field is not None or self.checkable

    @property
    def long_clickable(self) -> bool:
        """Takes a long press: its own handler, an EditText's Paste, a selectable text's Copy."""
        return self.on_long_press is not None or self.field is not None or self.selectable

    @property
    def scrollable(self) -> bool:
        return self.scroll is not None

    @property
    def padding(self) -> tuple[int, int, int, int]:
        return (self.pad,) * 4 if isinstance(self.pad, int) else self.pad

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.walk()

    def visible(self) -> bool:
        x1, y1, x2, y2 = self.clip
        return x2 > x1 and y2 > y1

    def shown_text(self, value: str | None = None) -> str:
        """Text a field shows: its value (masked for passwords), or its hint when empty."""
        if self.field is None:
            return self.text
        value = self.text if value is None else value
        if not value:
            return self.hint
        return "•" * len(value) if self.password else value


# -- layout ------------------------------------------------------------------------------------------


def _text_box(node: Node, width: int) -> int:
    left, top, right, bottom = node.padding
    icon = node.size + 12 if node.icon and node.text else 0
    text, max_lines = node.shown_text(), node.max_lines
    if node.field is not None and not node.multiline:  # a single-line field is one line high
        text, max_lines = text.translate(SINGLE_LINE), 1
    node.lines = wrap(text, node.size, max(1, width - left - right - icon), max_lines)
    return top + bottom + line_height(node.size) * len(node.lines)


def measure_width(node: Node) -> int:
    """Intrinsic width, used for wrap-content children of horizontal stacks."""
    if node.w is not None:
        return node.w
    left, _, right, _ = node.padding
    if not node.children:
        content = text_width(node.shown_text(), node.size) if node.shown_text() else 0
        if node.icon:
            content += node.size + (12 if content else 0)
        return left + right + content
    widths = [measure_width(c) for c in node.children]
    if node.layout in ("h", "flow"):
        return left + right + sum(widths) + node.gap * (len(widths) - 1)
    return left + right + max(widths)


def measure_height(node: Node, width: int) -> int:
    """Intrinsic height for a given width (wrap content)."""
    if node.h is not None:
        return node.h
    left, top, right, bottom = node.padding
    inner = width - left - right
    if node.lazy is not None:
        return top + bottom + _lazy_content(node)
    if not node.children:
        if node.shown_text() or node.icon:
            return _text_box(node, width) if node.shown_text() else top + bottom + node.size
        return top + bottom
    if node.layout == "v":
        heights = [measure_height(c, _child_width(c, inner)) for c in node.children]
        return top + bottom + sum(heights) + node.gap * (len(heights) - 1)
    if node.layout == "h":
        widths = _h_widths(node, inner)
        return top + bottom + max(measure_height(c, w) for c, w in zip(node.children, widths, strict=True))
    if node.layout == "flow":
        rows = _flow_rows(node, inner)
        return top + bottom + sum(h for _, h in rows) + node.gap * (len(rows) - 1)
    return top + bottom + max(measure_height(c, _child_width(c, inner)) for c in node.children)


def _lazy_content(node: Node) -> int:
    lazy = node.lazy
    assert lazy is not None
    return max(0, lazy.count * (lazy.item_h + node.gap) - node.gap)


def _flow_rows(node: Node, inner: int) -> list[tuple[list[tuple[Node, int]], int]]:
    """Children in rows of at most `inner` pixels: ([(child, width)], row height) per row."""
    rows: list[tuple[list[tuple[Node, int]], int]] = []
    current: list[tuple[Node, int]] = []
    used = 0
    for child in node.children:
        w = min(measure_width(child), inner)
        if current and used + node.gap + w > inner:
            rows.append((current, max(measure_height(c, cw) for c, cw in current)))
            current, used = [], 0
        used += (node.gap if current else 0) + w
        current.append((child, w))
    if current:
        rows.append((current, max(measure_height(c, cw) for c, cw in current)))
    return rows


def _child_width(child: Node, inner: int) -> int:
    return min(child.w, inner) if child.w is not None else inner


def _h_widths(node: Node, inner: int) -> list[int]:
    fixed = [0 if (c.weight and c.w is None) else measure_width(c) for c in node.children]
    free = max(0, inner - sum(fixed) - node.gap * (len(node.children) - 1))
    total_weight = sum(c.weight for c in node.children if c.weight and c.w is None) or 1.0
    return [
        int(free * c.weight / total_weight) if (c.weight and c.w is None) else fixed[i]
        for i, c in enumerate(node.children)
    ]


def layout(node: Node, x: int, y: int, w: int, h: int, clip: Box, offsets: dict[str, int]) -> None:
    """Place `node` at (x, y, w, h), then its children; `offsets` holds scroll offsets by key and is
    clamped in place so a scroll past the end stops at the end."""
    node.bounds = (x, y, x + w, y + h)
    node.clip = (max(x, clip[0]), max(y, clip[1]), min(x + w, clip[2]), min(y + h, clip[3]))
    if node.lazy is not None:
        _layout_lazy(node, offsets)
        return
    if not node.children:
        if node.shown_text():
            _text_box(node, w)
        return
    left, top, right, bottom = node.padding
    ix, iy, iw, ih = x + left, y + top, w - left - right, h - top - bottom
    inner_clip = node.clip
    if node.scroll is not None:
        if node.layout == "h":
            content = sum(measure_width(c) for c in node.children) + node.gap * (len(node.children) - 1)
            limit = max(0, content - iw)
        else:
            content = sum(measure_height(c, _child_width(c, iw)) for c in node.children)
            content += node.gap * (len(node.children) - 1)
            limit = max(0, content - ih)
        offset = min(max(0, offsets.get(node.scroll, 0)), limit)
        offsets[node.scroll] = offset
        offsets[node.scroll + ".max"] = limit
        if node.layout == "h":
            ix -= offset
        else:
            iy -= offset
    if node.layout == "flow":
        cy = iy
        for row, row_h in _flow_rows(node, iw):
            cx = ix
            for child, cw in row:
                ch = child.h if child.h is not None else measure_height(child, cw)
                layout(child, cx, cy + _cross_offset(node.valign, row_h, ch), cw, ch, inner_clip, offsets)
                cx += cw + node.gap
            cy += row_h + node.gap
    elif node.layout == "v":
        heights = [
            0 if (c.weight and c.h is None) else measure_height(c, _child_width(c, iw)) for c in node.children
        ]
        free = max(0, ih - sum(heights) - node.gap * (len(heights) - 1))
        total_weight = sum(c.weight for c in node.children if c.weight and c.h is None) or 1.0
        cy = iy
        for child, ch in zip(node.children, heights, strict=True):
            if child.weight and child.h is None and node.scroll is None:
                ch = int(free * child.weight / total_weight)
            cw = _child_width(child, iw)
            cx = ix + _cross_offset(node.align, iw, cw)
            layout(child, cx, cy, cw, ch, inner_clip, offsets)
            cy += ch + node.gap
    elif node.layout == "h":
        widths = _h_widths(node, iw) if node.scroll is None else [measure_width(c) for c in node.children]
        cx = ix
        for child, cw in zip(node.children, widths, strict=True):
            ch = ih if child.h is None else min(child.h, ih)
            cy = iy + _cross_offset(node.valign, ih, ch)
            layout(child, cx, cy, cw, ch, inner_clip, offsets)
            cx += cw + node.gap
    else:  # stack: later children on top; a child wraps its content unless it fills (weight) or has a size
        for child in node.children:
            cw = _child_width(child, iw)
            if child.h is not None:
                ch = min(child.h, ih)
            else:
                ch = ih if child.weight else min(ih, measure_height(child, cw))
            layout(
                child,
                ix + _cross_offset(node.align, iw, cw),
                iy + _cross_offset(node.valign, ih, ch),
                cw,
                ch,
                inner_clip,
                offsets,
            )


def _layout_lazy(node: Node, offsets: dict[str, int]) -> None:
    """Build and place only the rows of a lazy list that intersect its box."""
    lazy = node.lazy
    assert lazy is not None and node.scroll is not None
    x1, y1, x2, y2 = node.bounds
    left, top, right, bottom = node.padding
    ix, iy, iw, ih = x1 + left, y1 + top, x2 - x1 - left - right, y2 - y1 - top - bottom
    pitch = lazy.item_h + node.gap
    limit = max(0, _lazy_content(node) - ih)
    offset = min(max(0, offsets.get(node.scroll, 0)), limit)
    offsets[node.scroll] = offset
    offsets[node.scroll + ".max"] = limit
    first = offset // pitch if pitch else 0
    last = min(lazy.count - 1, (offset + ih) // pitch if pitch else 0)
    node.children = [lazy.build(i) for i in range(first, last + 1)]
    for i, child in zip(range(first, last + 1), node.children, strict=True):
        layout(child, ix, iy - offset + i * pitch, iw, lazy.item_h, node.clip, offsets)


def _cross_offset(align: str, space: int, size: int) -> int:
    if align == "center":
        return max(0, (space - size) // 2)
    if align == "end":
        return max(0, space - size)
    return 0


# -- hit testing -------------------------------------------------------------------------------------


def _contains(box: Box, x: int, y: int) -> bool:
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def hit(node: Node, x: int, y: int, want: Callable[[Node], bool]) -> Node | None:
    """Topmost visible node under (x, y) that `want` accepts; stacks are searched top layer first."""
    if not node.visible() or not _contains(node.clip, x, y):
        return None
    for child in reversed(node.children):
        found = hit(child, x, y, want)
        if found is not None:
            return found
        if child.modal and child.visible():
            return None  # a dialog or sheet is its own window: nothing beneath it takes the touch
        if node.layout == "stack" and child.visible() and _contains(child.clip, x, y) and child.bg:
            break  # an opaque layer hides the layers below it, but the stack itself may still take the touch
    return node if want(node) else None


def find(root: Node, predicate: Callable[[Node], bool]) -> Node | None:
    return next((n for n in root.walk() if predicate(n)), None)
