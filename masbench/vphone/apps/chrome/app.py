"""Chrome (`com.android.chrome`): the default browser, over the small web of `web/`.

Any http(s) link no verified app claims opens here in a new tab, as on Android; so do
`googlechrome://navigate?url=...` links and the launcher shortcuts for a new (Incognito) tab. Stock Chrome
has no ACTION_WEB_SEARCH filter (that goes to the Google app), so neither has this one.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...theme import Theme
from . import bookmarks, browser, lists, menus, preferences, tab
from .common import (
    BOOKMARK_EDIT,
    BOOKMARKS,
    DOWNLOADS,
    FOLDER_EDIT,
    FOLDER_PICKER,
    HISTORY,
    LAUNCHER_SHORTCUT,
    MAIN,
    SETTINGS,
    fresh_page,
)

BROWSABLE = (CATEGORY_DEFAULT, CATEGORY_BROWSABLE)
WEB_FILTER = IntentFilter(actions=(ACTION_VIEW,), categories=BROWSABLE, schemes=("http", "https"))
NAVIGATE_FILTER = IntentFilter(actions=(ACTION_VIEW,), categories=BROWSABLE, schemes=("googlechrome",))
OPEN_NEW_TAB = "chromium.shortcut.action.OPEN_NEW_TAB"
OPEN_NEW_INCOGNITO_TAB = "chromium.shortcut.action.OPEN_NEW_INCOGNITO_TAB"
SHORTCUT_FILTER = IntentFilter(actions=(OPEN_NEW_TAB, OPEN_NEW_INCOGNITO_TAB), categories=(CATEGORY_DEFAULT,))


def navigate_target(data: str) -> str | None:
    """The page a `googlechrome://navigate?url=...` link asks for (https added when it has no scheme)."""
    url = parse_qs(urlsplit(data).query).get("url", [""])[0].strip()
    if not url:
        return None
    return url if "://" in url else f"https://{url}"


class ChromeApp(App):
    package = identity("chrome").package
    label = identity("chrome").label
    icon_bg = "#ffffff"
    icon_fg = "#1a73e8"
    icon_glyph = "globe"
    version_name = "131.0.6778.200"
    version_code = 677820033
    activities = (
        Activity(MAIN, "tab", (LAUNCHER_FILTER, WEB_FILTER, NAVIGATE_FILTER)),
        Activity(LAUNCHER_SHORTCUT, "tab", (SHORTCUT_FILTER,)),
        Activity(HISTORY, "history", exported=False),
        Activity(BOOKMARKS, "bookmarks", exported=False),
        Activity(BOOKMARK_EDIT, "edit_bookmark", exported=False),
        Activity(FOLDER_PICKER, "folder_picker", exported=False),
        Activity(FOLDER_EDIT, "new_folder", exported=False),
        Activity(DOWNLOADS, "downloads", exported=False),
        Activity(SETTINGS, "settings", exported=False),
    )
    theme = Theme(primary="#1a73e8", accent="#1a73e8", pale="#f1f3f4")
    screens = {
        "tab": tab.build_tab,
        "switcher": lists.build_switcher,
        "history": lists.build_history,
        "downloads": lists.build_downloads,
        "reading_list": lists.build_reading_list,
        "bookmarks": bookmarks.build_bookmarks,
        "edit_bookmark": bookmarks.build_edit_bookmark,
        "folder_picker": bookmarks.build_folder_picker,
        "new_folder": bookmarks.build_new_folder,
        "settings": preferences.build_settings,
        "search_engine": preferences.build_search_engine,
        "homepage": preferences.build_homepage,
        "clear_data": preferences.build_clear_data,
    }
    dialogs = {
        "menu": menus.app_menu,
        "link": menus.link_menu,
        "switcher_menu": lists.switcher_menu,
        "reading_actions": lists.reading_actions,
        "bookmark_actions": bookmarks.bookmark_actions,
        "time_range": preferences.time_range_dialog,
    }
    screen_activities = {
        "tab": MAIN,
        "switcher": MAIN,
        "history": HISTORY,
        "downloads": DOWNLOADS,
        "reading_list": BOOKMARKS,
        "bookmarks": BOOKMARKS,
        "edit_bookmark": BOOKMARK_EDIT,
        "folder_picker": FOLDER_PICKER,
        "new_folder": FOLDER_EDIT,
        **dict.fromkeys(("settings", "search_engine", "homepage", "clear_data"), SETTINGS),
    }

    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        return browser.initial_state(rng, now)

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return browser.public(state)

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        """A link opens in a new tab; a launcher shortcut opens a new (Incognito) tab; the launcher shows
        the current tab."""
        state = ctx.state
        if activity.cls == LAUNCHER_SHORTCUT:
            browser.new_tab(state, incognito=intent.action == OPEN_NEW_INCOGNITO_TAB)
        elif intent.data:
            url = navigate_target(intent.data) if intent.data.startswith("googlechrome:") else intent.data
            if url is None:
                return None
            browser.load(state, browser.new_tab(state), url, ctx.now())
            browser.current_tab(state)["back"] = []
        return ctx.screen("tab", activity=MAIN)

    def on_back(self, ctx: AppContext) -> bool:
        """Back in the browser first closes the find bar, then goes back in the tab's history."""
        if ctx.top is None or ctx.top.name != "tab":
            return False
        if ctx.ui.get("finding"):
            fresh_page(ctx.ui)
            return True
        if browser.step(ctx.state, browser.current_tab(ctx.state), False, ctx.now()):
            fresh_page(ctx.ui)
            return True
        return False


__all__ = ["ChromeApp"]
