"""Chrome's popups: the app menu (three dots) with its row of page actions, and the menu a long press on
a link opens."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ...app import AppContext
from ...ui import CHECKBOX, Node
from ...widgets import column, dialog, icon_button, row, text
from . import browser
from .common import closing, fresh_page, menu_row, open_in_new_tab, popup
from .tab import display_url
from .web import content as web


def _page_actions(ctx: AppContext, tab: dict[str, Any]) -> Node:
    """The icon row at the top of the menu: forward, bookmark, download, refresh."""
    state, url = ctx.state, tab["url"]
    on_page = url.startswith("http")
    mark = browser.bookmark_of(state, url)

    def forward() -> None:
        browser.step(state, tab, True, ctx.now())
        fresh_page(ctx.ui)

    def star() -> None:
        if mark is not None:
            ctx.go("edit_bookmark", id=mark["id"])
            return
        browser.add_bookmark(state, url, tab["title"])
        fresh_page(ctx.ui)
        ctx.ui["snackbar"] = url

    def save_page() -> None:
        name = "_".join(tab["title"].split(" - ")[0].split())[:28] + ".mhtml"
        browser.download(ctx, url, name, "240 KB")

    def maybe(enabled: bool, action: Callable[[], None]) -> Callable[[], None] | None:
        return closing(ctx, action) if enabled else None

    buttons = [
        icon_button("arrow_forward", "Forward", maybe(bool(tab["forward"]), forward), rid="forward_menu_id"),
        icon_button("star" if mark else "star_outline", "Edit bookmark" if mark else "Bookmark",
                    maybe(on_page, star), rid="bookmark_this_page_id", fg="#1a73e8" if mark else None),
        icon_button("download", "Download", maybe(on_page and not tab["incognito"], save_page), rid="offline_page_id"),
        icon_button("refresh", "Refresh", closing(ctx, lambda: fresh_page(ctx.ui)), rid="reload_menu_id"),
    ]  # fmt: skip
    for b in buttons:
        b.enabled = b.on_tap is not None
        b.fg = b.fg if b.enabled else "#bdc1c6"
    return row(*buttons, pad=(24, 0, 24, 8), gap=40, rid="icon_row_menu_id")


def app_menu(ctx: AppContext) -> Node:
    state = ctx.state
    tab = browser.current_tab(state)
    on_page = tab["url"].startswith("http")

    def to(name: str, **args: Any) -> Callable[[], None]:
        return closing(ctx, lambda: ctx.go(name, **args))

    def new_tab(incognito: bool) -> Callable[[], None]:
        return closing(ctx, lambda: open_in_new_tab(ctx, incognito=incognito))

    def read_later() -> None:
        ctx.close()
        if browser.add_to_reading_list(state, tab["url"], tab["title"], ctx.now()):
            ctx.toast("Added to reading list")

    def find() -> None:
        ctx.close()
        fresh_page(ctx.ui)
        ctx.ui.update(finding=True, focus="find")

    def desktop() -> None:
        ctx.close()
        state["settings"]["desktop_site"] = not state["settings"]["desktop_site"]

    desktop_row = Node(CHECKBOX, text="Desktop site", checkable=True, checked=state["settings"]["desktop_site"],
                       on_tap=desktop, rid="request_desktop_site_id", h=132, pad=(48, 0, 48, 0), size=42)  # fmt: skip
    return popup(ctx, [
        _page_actions(ctx, tab),
        menu_row("New tab", new_tab(False), "new_tab_menu_id", "plus"),
        menu_row("New Incognito tab", new_tab(True), "new_incognito_tab_menu_id", "incognito"),
        menu_row("History", to("history"), "open_history_menu_id", "history"),
        menu_row("Delete browsing data", to("clear_data"), "delete_browsing_data_menu_id", "delete"),
        menu_row("Downloads", to("downloads"), "downloads_menu_id", "download"),
        menu_row("Bookmarks", to("bookmarks", folder=""), "all_bookmarks_menu_id", "bookmark"),
        menu_row("Reading list", to("reading_list"), "reading_list_menu_id", "list"),
        menu_row("Add to reading list", read_later, "add_to_reading_list_menu_id", "playlist_add",
                 enabled=on_page and not tab["incognito"]),
        menu_row("Find in page", find, "find_in_page_id", "search", enabled=on_page),
        desktop_row,
        menu_row("Settings", to("settings"), "preferences_id", "settings"),
    ], rid="app_menu_list")  # fmt: skip


def link_menu(ctx: AppContext) -> Node:
    """Long press on a link: open it in a new tab or an Incognito tab, copy it, or download it."""
    url = ctx.dialog_args["url"]
    incognito = browser.current_tab(ctx.state)["incognito"]

    then = partial(closing, ctx)

    def copy() -> None:
        ctx.phone.clipboard = url

    file = web.files().get(url)
    rows = [
        None if incognito else menu_row("Open in new tab", then(lambda: browser.follow(ctx, url, new=True)),
                                        "context_menu_open_in_new_tab"),
        menu_row("Open in Incognito tab", then(lambda: open_in_new_tab(ctx, url, incognito=True)),
                 "context_menu_open_in_incognito_tab"),
        menu_row("Copy link address", then(copy), "context_menu_copy_link_address"),
        menu_row("Download link", then(lambda: browser.download(ctx, url, file.file_name, file.size)),
                 "context_menu_save_link_as") if file else None,
    ]  # fmt: skip
    header = column(
        text(display_url(url, 40), "body_small", fg="#5f6368", max_lines=1, rid="context_menu_url"),
        pad=(60, 0, 60, 20),
    )
    return dialog("Link", [header, *rows], [], ctx.close, rid="context_menu")
