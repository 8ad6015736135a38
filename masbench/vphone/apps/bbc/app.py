"""BBC News stand-in (`bbc.mobile.news.ww`): the manifest, theme, screens and dialogs, and the seeded state.

The real app's intent filters are not public (deeplinks.json marks its links guessed), so links follow the
public bbc.com / bbc.co.uk URL structure and the app's own `bbcnews://` scheme; see links.py. A
SearchActivity also answers `android.intent.action.SEARCH` with the `query` extra, as Android search does.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...theme import Theme
from . import article, home, mine, model
from .common import ARTICLE, HOME, LINKS, LIVE, RED, SAVED, SCREEN_ACTIVITIES, SEARCH, SETTINGS, TOPICS
from .links import open_link, search

ACTION_SEARCH = "android.intent.action.SEARCH"
BROWSABLE = (CATEGORY_DEFAULT, CATEGORY_BROWSABLE)
LINK_FILTERS = (
    IntentFilter(actions=(ACTION_VIEW,), categories=BROWSABLE, schemes=("bbcnews",)),
    IntentFilter(actions=(ACTION_VIEW,), categories=BROWSABLE, schemes=("https", "http"),
                 hosts=("www.bbc.com", "bbc.com", "www.bbc.co.uk", "bbc.co.uk", "m.bbc.co.uk"),
                 path_patterns=("/news", "/news/*", "/sport", "/sport/*")),
)  # fmt: skip
SEARCH_FILTER = IntentFilter(actions=(ACTION_SEARCH,), categories=(CATEGORY_DEFAULT,))
PUBLIC_KEYS = ("followed_topics", "saved", "settings", "history", "recent_searches")


class BbcNewsApp(App):
    package = identity("bbc").package
    label = identity("bbc").label
    version_name = mine.VERSION
    version_code = 7410
    activities = (
        Activity(HOME, "home", (LAUNCHER_FILTER,)),
        Activity(LINKS, "home", LINK_FILTERS),
        Activity(SEARCH, "search", (SEARCH_FILTER,)),
        Activity(ARTICLE, "article", exported=False),
        Activity(LIVE, "live", exported=False),
        Activity(TOPICS, "topics", exported=False),
        Activity(SAVED, "saved", exported=False),
        Activity(SETTINGS, "settings", exported=False),
    )
    theme = Theme(
        primary=RED,  # the red masthead and inner screens' bars
        accent=RED,
        background="#f2f2f2",
        ink="#141414",
        muted="#545658",
        pale="#f6e6e6",
        app_bar="primary",
    )
    icon_bg = RED
    icon_fg = "#ffffff"
    screens = {
        "home": home.home,
        "popular": home.popular,
        "video": home.video,
        "article": article.article,
        "live": article.live,
        "my_news": mine.my_news,
        "topics": mine.topics,
        "saved": mine.saved,
        "settings": mine.settings,
        "search": mine.search,
    }
    dialogs = {"share": article.share_sheet, "text_size": mine.text_size_dialog}
    screen_activities = SCREEN_ACTIVITIES

    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        return model.initial_state(rng, now)

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """The reader's own data; the edition (times, running orders, charts) stays private."""
        return {key: state[key] for key in PUBLIC_KEYS}

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        if activity.cls == SEARCH:
            return search(ctx, str(intent.extras.get("query", "")))
        if activity.cls == LINKS and intent.data:
            return open_link(ctx, intent.data)
        return ctx.screen("home")
