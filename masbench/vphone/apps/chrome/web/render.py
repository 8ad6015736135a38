"""Web content as Chrome's accessibility tree shows it: one `android.webkit.WebView` node (its text the
page title) holding the page's headings, paragraphs and pictures as views and its links as clickable
views. A mobile site lays out in large type; the desktop site in the small type of a wide page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ....ui import IMAGE, TEXT, VIEW, Node
from ....widgets import GREY, column, image, price, row, text
from .content import ENGINE_COLOURS, Page, SearchPage

WEBVIEW = "android.webkit.WebView"
LINK = "#1a0dab"
MARK = "#ffeb3b"  # find-in-page highlight


@dataclass(frozen=True)
class Reader:
    """How the page is read: what a tap and a long press on a link do, what find in page marks, and
    whether the desktop site is requested."""

    open_link: Callable[[str], None]
    link_menu: Callable[[str], None]
    find: str = ""
    desktop: bool = False

    def scale(self, size: int) -> int:
        return size * 3 // 4 if self.desktop else size

    def marked(self, value: str) -> str | None:
        return MARK if self.find and self.find.lower() in value.lower() else None


def webview(title: str, *children: Node | None, bg: str = "#ffffff") -> Node:
    """The WebView of one page; its content-desc is the page title (drawn by the tab strip, not the page)."""
    return column(*children, cls=WEBVIEW, desc=title, bg=bg, pad=(0, 0, 0, 80), gap=8)


def _text(reader: Reader, value: str, size: int, **kw: Any) -> Node:
    kw.setdefault("pad", (48, 6, 48, 6))
    kw.setdefault("selectable", True)  # page text takes a long press to select and copy, as in any browser
    return Node(TEXT, text=value, size=reader.scale(size), bg=reader.marked(value), **kw)


def _link(reader: Reader, label: str, url: str, size: int = 42, rid: str = "") -> Node:
    return Node(TEXT, text=label, size=reader.scale(size), fg=LINK, bg=reader.marked(label),
                on_tap=lambda: reader.open_link(url), on_long_press=lambda: reader.link_menu(url),
                pad=(48, 16, 48, 16), rid=rid)  # fmt: skip


def _block(reader: Reader, block: dict[str, Any]) -> list[Node]:
    """The views of one content block (see sites.yaml for the kinds)."""
    if "h" in block:
        return [_text(reader, block["h"], 56, bold=True, pad=(48, 28, 48, 8))]
    if "p" in block:
        return [_text(reader, block["p"], 40)]
    if "a" in block:
        return [_link(reader, *block["a"])]
    if "file" in block:
        label, url, size = block["file"]
        return [_link(reader, label, url), _text(reader, f"PDF, {size}", 32, fg=GREY)]
    if "img" in block:
        width = 640 if reader.desktop else 984
        return [row(image(block["img"], width, width * 9 // 16, radius=16), pad=(48, 8, 48, 8))]
    if "price" in block:
        return [_text(reader, price(block["price"]), 54, bold=True, fg="#b12704")]
    if "items" in block:
        return [_text(reader, f"• {item}", 40) for item in block["items"]]
    if "steps" in block:
        return [_text(reader, f"{i}. {step}", 40) for i, step in enumerate(block["steps"], 1)]
    if "facts" in block:
        return [_text(reader, f"{k}: {v}", 40) for k, v in block["facts"].items()]
    raise ValueError(f"unknown web block {block!r}")


def site_header(name: str, colour: str, desktop: bool) -> Node:
    """The site's own banner; the desktop site adds its navigation links."""
    nav = text("Home   About   Contact", size=30, fg="#ffffffcc") if desktop else None
    return row(text(name, size=48, bold=True, fg="#ffffff", weight=1), nav,
               bg=colour, pad=(48, 36, 48, 36), valign="center", cls=VIEW, rid="site_header")  # fmt: skip


def render_page(page: Page, reader: Reader) -> Node:
    blocks = [node for block in page.blocks for node in _block(reader, block)]
    return webview(page.title, site_header(page.site.name, page.site.colour, reader.desktop), *blocks)


def render_search(page: SearchPage, reader: Reader) -> Node:
    """A results page in the engine's colours: the query, then each result's site, title link and snippet."""
    colour = ENGINE_COLOURS[page.engine]
    header = column(
        text(page.engine, size=64, bold=True, fg=colour, pad=(48, 40, 48, 16)),
        row(Node(VIEW, text=page.query, size=40, radius=48, border="#dadce0", pad=(40, 24, 40, 24), weight=1,
                 rid="search_query", desc=f"Search: {page.query}", max_lines=2), pad=(48, 0, 48, 0)),
        pad=(0, 0, 0, 24),
    )  # fmt: skip
    results: list[Node] = []
    for result in page.results():
        snippet = next((b["p"] for b in result.blocks if "p" in b), "")
        results += [
            Node(TEXT, text=f"{result.site.name} · {urlsplit(result.url).hostname}", size=reader.scale(30),
                 fg=GREY, pad=(48, 28, 48, 0)),
            _link(reader, result.title, result.url, size=46, rid="result_title"),
            _text(reader, snippet, 36, fg="#4d5156", max_lines=3),
        ]  # fmt: skip
    if not results:
        results.append(_text(reader, f"Your search - {page.query} - did not match any documents.", 40))
    return webview(page.title, header, *results)


def render_unreachable(url: str) -> Node:
    """Chrome's own error page for a host the small web does not serve."""
    host = urlsplit(url).hostname or url
    return webview(
        host,
        row(Node(IMAGE, icon="globe", size=120, w=160, h=160, fg=GREY), pad=(48, 200, 48, 0)),
        text("This site can't be reached", "headline", pad=(48, 40, 48, 20), rid="error_title"),
        text(f"Check if there is a typo in {host}.", "body", pad=(48, 0, 48, 20)),
        text("DNS_PROBE_FINISHED_NXDOMAIN", "caption", pad=(48, 0, 48, 0)),
    )
