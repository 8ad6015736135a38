"""The browser screen: the toolbar (home, address bar, tab switcher, menu) or the find bar, the current
tab's page in a WebView, and the snackbar a new bookmark shows."""

from __future__ import annotations

from typing import Any

from ...app import AppContext
from ...ui import BUTTON, EDIT, IMAGE, TEXT, Node, text_width
from ...widgets import button, column, icon_button, row, scroll_page, text
from . import browser
from .common import fresh_page
from .web import content as web
from .web.render import Reader, render_page, render_search, render_unreachable, webview

INCOGNITO_BAR = "#3c4043"


def display_url(url: str, limit: int = 0) -> str:
    """The address as the omnibox shows it: no scheme, no www; cut to `limit` characters with an
    ellipsis where a line must hold it (a URL has no spaces to wrap at)."""
    shown = url.split("://", 1)[-1].removeprefix("www.").rstrip("/")
    return shown if not limit or len(shown) <= limit else shown[: limit - 1] + "…"


def address_line(url: str, incognito: bool) -> Node:
    """The full address under the toolbar, in type small enough for one line."""
    room = 1080 - 96
    size = max(12, min(28, 28 * room // text_width(url, 28)))
    return text(url, size=size, fg="#9aa0a6" if incognito else "#5f6368", max_lines=1,
                bg=INCOGNITO_BAR if incognito else "#ffffff", pad=(48, 0, 48, 8), rid="page_url")  # fmt: skip


NATIVE_PAGES = {  # chrome:// addresses that open Chrome's own screens
    "chrome://history": "history",
    "chrome://bookmarks": "bookmarks",
    "chrome://downloads": "downloads",
    "chrome://settings": "settings",
}


def go(ctx: AppContext, typed: str) -> None:
    """Enter in the address bar: a chrome:// page, a URL or a search with the chosen engine."""
    if not typed.strip():
        return
    url = web.fix_up(typed, ctx.state["settings"]["search_engine"])
    native = NATIVE_PAGES.get(url.rstrip("/").lower())
    if native is not None:
        fresh_page(ctx.ui)
        ctx.go(native)
        return
    browser.load(ctx.state, browser.current_tab(ctx.state), url, ctx.now())
    fresh_page(ctx.ui)


def go_home(ctx: AppContext) -> None:
    browser.load(ctx.state, browser.current_tab(ctx.state), ctx.state["settings"]["homepage"], ctx.now())
    fresh_page(ctx.ui)


def follow(ctx: AppContext, url: str) -> None:
    """A tap on a link; the page's scroll and find bar go only if the tab moved on."""
    ui = ctx.ui
    if browser.follow(ctx, url):
        fresh_page(ui)


def _tab_count(ctx: AppContext, incognito: bool) -> Node:
    count = sum(1 for t in ctx.state["tabs"] if t["incognito"] == incognito)
    fg = "#ffffff" if incognito else "#3c4043"
    return Node(BUTTON, text=str(count), on_tap=ctx.link("switcher", incognito=incognito), rid="tab_switcher_button",
                desc=f"Switch or close tabs, {count} open", w=84, h=84, radius=14, border=fg, fg=fg, size=34,
                bold=True, align="center")  # fmt: skip


def toolbar(ctx: AppContext, tab: dict[str, Any]) -> Node:
    incognito = tab["incognito"]
    fg = "#ffffff" if incognito else "#3c4043"
    shown = "" if tab["url"] == web.NEW_TAB else display_url(tab["url"])
    address = Node(
        EDIT, field="address", text="", hint=shown or "Search or type web address", size=38,
        fg=fg, bg="#5f6368" if incognito else "#f1f3f4", radius=60, h=120, weight=1, pad=(36, 0, 36, 0),
        rid="url_bar", on_submit=lambda v: go(ctx, v), max_lines=1,
    )  # fmt: skip
    return row(
        icon_button("home", "Open the home page", lambda: go_home(ctx), rid="home_button", fg=fg),
        address,
        _tab_count(ctx, incognito),
        icon_button("more", "Customize and control Google Chrome", ctx.opener("menu"), rid="menu_button", fg=fg),
        pad=(16, 20, 16, 20), gap=12, valign="center", bg=INCOGNITO_BAR if incognito else "#ffffff", rid="toolbar",
    )  # fmt: skip


def find_bar(ctx: AppContext, matches: int) -> Node:
    query = ctx.ui.get("find", "")
    index = min(ctx.ui.get("find_index", 0), max(0, matches - 1))

    def move(delta: int) -> None:
        if matches:
            ctx.ui["find_index"] = (index + delta) % matches

    status = f"{index + 1}/{matches}" if matches else "0/0"
    return row(
        Node(EDIT, field="find", text="", hint="Find in page", size=40, weight=1, h=120, rid="find_query",
             pad=(24, 0, 24, 0), on_submit=lambda v: None),
        text(status if query else "", "body_small", rid="find_status", w=120, align="end"),
        icon_button("expand_less", "Previous result", lambda: move(-1), rid="find_prev_button"),
        icon_button("expand_more", "Next result", lambda: move(1), rid="find_next_button"),
        icon_button("close", "Close find bar", lambda: fresh_page(ctx.ui), rid="close_find_button"),
        pad=(32, 20, 16, 20), gap=8, valign="center", bg="#ffffff", rid="find_toolbar",
    )  # fmt: skip


def new_tab_page(ctx: AppContext, incognito: bool) -> Node:
    if incognito:
        return webview(
            "New Incognito tab",
            Node(IMAGE, icon="incognito", size=160, h=400, fg="#e8eaed", align="center"),
            text("You've gone Incognito", "headline", fg="#e8eaed", align="center"),
            text(
                "Others who use this device won't see your activity. Chrome won't save your browsing history,"
                " cookies and site data.",
                "body",
                fg="#bdc1c6",
                pad=(60, 40, 60, 0),
            ),
            bg="#202124",
        )
    engine = ctx.state["settings"]["search_engine"]
    return webview(
        "New tab",
        text(engine, size=110, bold=True, fg=web.ENGINE_COLOURS[engine], align="center", pad=(0, 300, 0, 60),
             rid="search_provider_logo"),
        row(
            Node(EDIT, field="ntp_search", text="", hint="Search or type web address", size=40, weight=1, h=130,
                 radius=66, bg="#f1f3f4", icon="search", pad=(40, 0, 40, 0), rid="search_box_text",
                 on_submit=lambda v: go(ctx, v)),
            pad=(60, 0, 60, 0),
        ),
    )  # fmt: skip


def page_view(ctx: AppContext, tab: dict[str, Any]) -> Node:
    """The tab's content: the new tab page, a site's page, search results or Chrome's error page."""
    if tab["url"] == web.NEW_TAB:
        return new_tab_page(ctx, tab["incognito"])
    reader = Reader(
        open_link=lambda url: follow(ctx, url),
        link_menu=lambda url: ctx.open("link", url=url),
        find=ctx.ui.get("find", "") if ctx.ui.get("finding") else "",
        desktop=ctx.state["settings"]["desktop_site"],
    )
    page = web.resolve(tab["url"])
    if isinstance(page, web.SearchPage):
        return render_search(page, reader)
    if isinstance(page, web.Page):
        return render_page(page, reader)
    return render_unreachable(tab["url"])


def find_matches(view: Node, query: str) -> int:
    """How often the query occurs in the page's text (find in page counts every occurrence)."""
    if not query:
        return 0
    needle = query.lower()
    return sum(n.text.lower().count(needle) for n in view.walk() if n.cls == TEXT and n.text)


def snackbar(ctx: AppContext) -> Node | None:
    mark = browser.bookmark_of(ctx.state, ctx.ui.get("snackbar", ""))
    if mark is None:
        return None
    return row(
        text(f"Bookmarked in {mark['folder']}", "body_small", fg="#ffffff", weight=1, max_lines=2),
        button("Edit", ctx.link("edit_bookmark", id=mark["id"]), rid="snackbar_button", primary=False,
               colour="#8ab4f8", h=110),
        bg="#303134", pad=(40, 16, 24, 16), valign="center", rid="snackbar", radius=12,
    )  # fmt: skip


def build_tab(ctx: AppContext) -> Node:
    tab = browser.current_tab(ctx.state)
    view = page_view(ctx, tab)
    top = (
        find_bar(ctx, find_matches(view, ctx.ui.get("find", "")))
        if ctx.ui.get("finding")
        else toolbar(ctx, tab)
    )
    address = None
    if tab["url"] != web.NEW_TAB and not ctx.ui.get("finding"):
        address = address_line(tab["url"], tab["incognito"])
    return column(
        top,
        address,
        scroll_page("page", view, rid="compositor_view_holder", bg=view.bg),
        snackbar(ctx),
        rid="control_container",
    )
