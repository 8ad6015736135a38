"""Chrome's list screens: the tab switcher, History, Downloads and the Reading list."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from ...app import AppContext
from ...ui import Node
from ...widgets import (
    app_bar,
    column,
    dialog,
    divider,
    icon_button,
    list_item,
    row,
    scroll_page,
    search_field,
    section_header,
    tabs,
    text,
)
from . import browser
from .common import closing, menu_row, open_in_new_tab, open_in_tab, popup, show_tab


def host(url: str) -> str:
    return (urlsplit(url).hostname or url).removeprefix("www.")


def when(iso: str) -> str:
    """'Jun 9, 14:05' as History lists a visit."""
    moment = datetime.fromisoformat(iso)
    return moment.strftime("%b ") + f"{moment.day}, {moment:%H:%M}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def empty(message: str) -> Node:
    return text(message, "body", fg="#5f6368", align="center", pad=(60, 200, 60, 0), rid="empty_view")


# -- tab switcher --------------------------------------------------------------------------------------


def build_switcher(ctx: AppContext) -> Node:
    """The open tabs of one kind (regular or Incognito) as cards: tap one to show it, X to close it."""
    state, incognito = ctx.state, bool(ctx.args.get("incognito"))
    shown = [t for t in state["tabs"] if t["incognito"] == incognito]

    def select(tab_id: int) -> None:
        state["current"] = tab_id
        show_tab(ctx)

    def close(tab_id: int) -> None:
        browser.close_tab(state, tab_id)
        if not any(t["incognito"] == incognito for t in state["tabs"]):
            show_tab(ctx)

    cards = [
        row(
            column(
                text(t["title"], "subtitle", max_lines=1, rid="tab_title"),
                text(host(t["url"]) if t["url"].startswith("http") else "New tab", "caption", max_lines=1),
                weight=1,
                gap=6,
            ),
            icon_button("close", f"Close {t['title']} tab", partial(close, t["id"]), rid="tab_close_button"),
            on_tap=partial(select, t["id"]),
            rid="tab_card",
            desc=t["title"],
            selected=t["id"] == state["current"],
            bg="#e8f0fe" if t["id"] == state["current"] else "#f1f3f4",
            radius=28,
            pad=(40, 24, 16, 24),
            valign="center",
        )
        for t in shown
    ]
    groups = tabs(["Tabs", "Incognito"], int(incognito),
                  lambda i: ctx.replace("switcher", incognito=bool(i)), rid="tab_groups")  # fmt: skip
    return column(
        row(
            icon_button("back", "Navigate up", ctx.back, rid="navigate_up"),
            text(plural(len(shown), "open tab"), "title", weight=1, rid="toolbar_title"),
            icon_button("plus", "New Incognito tab" if incognito else "New tab",
                        lambda: open_in_new_tab(ctx, incognito=incognito), rid="new_tab_view_button"),
            icon_button("more", "More options", ctx.opener("switcher_menu"), rid="menu_button"),
            pad=(16, 20, 16, 20), valign="center",
        ),
        groups,
        scroll_page("tabs", *cards, empty("No open tabs") if not cards else None,
                    pad=(32, 24, 32, 24), gap=20, rid="tab_list_recycler_view"),
    )  # fmt: skip


def switcher_menu(ctx: AppContext) -> Node:
    incognito = bool(ctx.args.get("incognito"))

    def close_all() -> None:
        ctx.close()
        for tab in [t for t in ctx.state["tabs"] if t["incognito"] == incognito]:
            browser.close_tab(ctx.state, tab["id"])

    label = "Close all Incognito tabs" if incognito else "Close all tabs"
    return popup(
        ctx, [menu_row(label, close_all, "close_all_tabs_menu_id", "close")], rid="switcher_menu_list"
    )


# -- history -------------------------------------------------------------------------------------------


def build_history(ctx: AppContext) -> Node:
    """Visits newest first, filtered by the search box; X removes one visit."""
    state = ctx.state
    query = ctx.ui.get("history_search", "").strip().lower()
    entries = [h for h in reversed(state["history"])
               if not query or query in h["title"].lower() or query in h["url"].lower()]  # fmt: skip

    def remove(entry_id: int) -> None:
        state["history"] = [h for h in state["history"] if h["id"] != entry_id]

    rows = [
        list_item(h["title"], f"{host(h['url'])} · {when(h['time'])}", on_tap=partial(open_in_tab, ctx, h["url"]),
                  icon="globe", rid="history_entry", desc=h["title"],
                  trailing=icon_button("close", f"Remove {h['title']}", partial(remove, h["id"]), rid="remove"))
        for h in entries
    ]  # fmt: skip
    return column(
        app_bar("History", ctx.back),
        row(search_field("history_search", "Search your history", None, rid="search_text"), pad=(32, 8, 32, 16)),
        scroll_page(
            "history",
            text("Delete browsing data…", "link", on_tap=ctx.link("clear_data"), rid="clear_browsing_data_button",
                 pad=(48, 30, 48, 30)),
            divider(),
            *rows,
            empty("No history found" if query else "Sites you visit will appear here") if not rows else None,
            rid="history_page_recycler_view",
        ),
    )  # fmt: skip


# -- downloads -----------------------------------------------------------------------------------------


def build_downloads(ctx: AppContext) -> Node:
    rows = [
        list_item(d["file"], f"{d['size']} · {host(d['url'])} · {when(d['time'])}", icon="download",
                  rid="download_item", desc=d["file"])
        for d in reversed(ctx.state["downloads"])
    ]  # fmt: skip
    return column(
        app_bar("Downloads", ctx.back),
        scroll_page(
            "downloads", *rows, empty("No downloads here") if not rows else None, rid="download_list"
        ),
    )


# -- reading list --------------------------------------------------------------------------------------


def _mark(ctx: AppContext, url: str, read: bool) -> None:
    for item in ctx.state["reading_list"]:
        if item["url"] == url:
            item["read"] = read


def build_reading_list(ctx: AppContext) -> Node:
    """Unread pages, then read ones; opening a page marks it read."""

    def open_item(url: str) -> None:
        _mark(ctx, url, True)
        open_in_tab(ctx, url)

    def section(label: str, items: list[dict[str, Any]]) -> list[Node]:
        if not items:
            return []
        return [section_header(label)] + [
            list_item(r["title"], host(r["url"]), on_tap=partial(open_item, r["url"]), icon="globe",
                      rid="reading_list_item", desc=r["title"],
                      trailing=icon_button("more_vert", f"More options for {r['title']}",
                                           ctx.opener("reading_actions", url=r["url"]), rid="more"))
            for r in items
        ]  # fmt: skip

    items = ctx.state["reading_list"]
    unread, read = [r for r in items if not r["read"]], [r for r in items if r["read"]]
    return column(
        app_bar("Reading list", ctx.back),
        scroll_page("reading", *section("Unread", unread), *section("Read", read),
                    empty("Pages you save for later appear here") if not items else None, rid="reading_list"),
    )  # fmt: skip


def reading_actions(ctx: AppContext) -> Node:
    url = ctx.dialog_args["url"]
    item = next((r for r in ctx.state["reading_list"] if r["url"] == url), None)
    if item is None:
        return dialog("Reading list", [], [], ctx.close)

    then = partial(closing, ctx)

    def delete() -> None:
        ctx.state["reading_list"] = [r for r in ctx.state["reading_list"] if r["url"] != url]

    toggle = "Mark as unread" if item["read"] else "Mark as read"
    return dialog(item["title"], [
        menu_row(toggle, then(lambda: _mark(ctx, url, not item["read"])), "mark_read", "check"),
        menu_row("Open in new tab", then(lambda: open_in_new_tab(ctx, url)), "open_in_new_tab", "open_in_new"),
        menu_row("Delete", then(delete), "delete", "delete"),
    ], [], ctx.close, rid="reading_actions")  # fmt: skip
