"""What Chrome's screens share: its activities, the way back to the browser, and the rows and popups of
its menus."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import FRAME, TEXT, VIEWGROUP, Node
from ...widgets import column
from . import browser
from .web import content as web

# Activities (fully-qualified, as dumpsys reports them)
MAIN = "com.google.android.apps.chrome.Main"
LAUNCHER_SHORTCUT = "org.chromium.chrome.browser.LauncherShortcutActivity"
HISTORY = "org.chromium.chrome.browser.history.HistoryActivity"
BOOKMARKS = "org.chromium.chrome.browser.bookmarks.BookmarkActivity"
BOOKMARK_EDIT = "org.chromium.chrome.browser.bookmarks.BookmarkEditActivity"
FOLDER_PICKER = "org.chromium.chrome.browser.bookmarks.BookmarkFolderPickerActivity"
FOLDER_EDIT = "org.chromium.chrome.browser.bookmarks.BookmarkAddEditFolderActivity"
DOWNLOADS = "org.chromium.chrome.browser.download.ui.DownloadActivity"
SETTINGS = "org.chromium.chrome.browser.settings.SettingsActivity"
# A tab's transient UI: scroll, typed text, the find bar and the snackbar
PAGE_UI = ("page", "page.max", "address", "ntp_search", "finding", "find", "find_index", "snackbar", "focus")


def show_tab(ctx: AppContext) -> None:
    """Return to the browser showing the current tab: close Chrome's screens above it (or open it)."""
    phone, package = ctx.phone, ctx.app.package
    while phone.top.package == package and phone.top.name != "tab" and len(phone.stack) > 1:
        phone.pop_screen()
    if phone.top.package != package or phone.top.name != "tab":
        phone.push_screen(ctx.screen("tab", activity=MAIN))
    fresh_page(phone.top.ui)


def fresh_page(ui: dict[str, Any]) -> None:
    """Forget the shown page's scroll, typed address, find bar and snackbar (a new page is showing)."""
    for key in PAGE_UI:
        ui.pop(key, None)


def open_in_tab(ctx: AppContext, url: str) -> None:
    """Load `url` in the current tab and show it (a bookmark, a history entry, a reading list item)."""
    tab = browser.current_tab(ctx.state)
    browser.load(ctx.state, tab, url, ctx.now())
    show_tab(ctx)


def open_in_new_tab(ctx: AppContext, url: str = web.NEW_TAB, incognito: bool = False) -> None:
    tab = browser.new_tab(ctx.state, incognito=incognito)
    if url != web.NEW_TAB:
        browser.load(ctx.state, tab, url, ctx.now())
        tab["back"] = []
    show_tab(ctx)


def closing(ctx: AppContext, action: Callable[[], object]) -> Callable[[], None]:
    """A menu entry's tap handler: close the open popup or dialog, then do `action`."""

    def run() -> None:
        ctx.close()
        action()

    return run


def menu_row(label: str, on_tap: Callable[[], None] | None, rid: str, icon: str | None = None,
             enabled: bool = True) -> Node:  # fmt: skip
    """One entry of a popup menu: an icon and a label, greyed out when it does not apply."""
    return Node(TEXT, text=label, icon=icon, on_tap=on_tap if enabled else None, enabled=enabled, rid=rid,
                h=132, pad=(48, 0, 48, 0), size=42, fg=theme().ink if enabled else "#9aa0a6", desc=label)  # fmt: skip


def popup(ctx: AppContext, rows: Sequence[Node | None], rid: str, width: int = 760) -> Node:
    """A popup menu anchored at the top right, over a scrim that closes it when tapped."""
    scrim = Node(VIEWGROUP, on_tap=ctx.close, rid="touch_outside", weight=1, dumped=False)
    card = column(*rows, w=width, bg=theme().surface, radius=24, border="#dadce0", pad=(0, 16, 0, 16),
                  rid=rid, cls=FRAME)  # fmt: skip
    margin = column(card, align="end", pad=(0, 24, 24, 0))
    return Node(FRAME, layout="stack", children=[scrim, margin], valign="start")
