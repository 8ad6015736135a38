"""YouTube stand-in (`com.google.android.youtube`): the manifest, theme, screens and sheets, and the
seeded library of a signed-in user.

Every screen lives in the one main activity, as in today's single-activity app; the launcher alias
`Shell$HomeActivity` also answers the launcher shortcuts' actions (open Shorts, open Subscriptions),
`Shell$ResultsActivity` the SEARCH intent and the URL router `vnd.youtube:` and youtube.com / youtu.be
links (verified app links, so they open here without `-p`)."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...theme import Theme
from . import channel, feeds, model, saving, search, shorts, watch
from .common import LAUNCHER, MAIN, RESULTS, URL_ROUTER
from .links import MEDIA_SEARCH, OPEN_SHORTS, OPEN_SUBSCRIPTIONS, SEARCH, open_intent

WEB_HOSTS = ("youtube.com", "www.youtube.com", "m.youtube.com", "youtu.be")
VIEW_SCHEMES = IntentFilter(
    actions=(ACTION_VIEW,),
    categories=(CATEGORY_DEFAULT, CATEGORY_BROWSABLE),
    schemes=("vnd.youtube", "vnd.youtube.launch"),
)
VIEW_WEB = IntentFilter(
    actions=(ACTION_VIEW,),
    categories=(CATEGORY_DEFAULT, CATEGORY_BROWSABLE),
    schemes=("https", "http"),
    hosts=WEB_HOSTS,
    auto_verify=True,
)
SHORTCUT_ACTIONS = IntentFilter(actions=(OPEN_SHORTS, OPEN_SUBSCRIPTIONS), categories=(CATEGORY_DEFAULT,))
SEARCHES = IntentFilter(actions=(SEARCH, MEDIA_SEARCH), categories=(CATEGORY_DEFAULT,))


class YouTubeApp(App):
    package = identity("youtube").package
    label = identity("youtube").label
    version_name = "19.24.35"
    version_code = 1546520000
    activities = (
        Activity(LAUNCHER, "home", (LAUNCHER_FILTER, SHORTCUT_ACTIONS)),
        Activity(URL_ROUTER, "home", (VIEW_SCHEMES, VIEW_WEB)),
        Activity(RESULTS, "results", (SEARCHES,)),
        Activity(MAIN, "home", exported=False),
    )
    theme = Theme(
        primary="#0f0f0f",  # YouTube's near-black: buttons, selected chips and tabs
        accent="#065fd4",  # links and the blue of "Unsubscribe"
        background="#ffffff",
        ink="#0f0f0f",
        muted="#606060",
        pale="#f2f2f2",
        divider="#e5e5e5",
        error="#cc0000",
        app_bar="surface",
    )
    icon_bg = "#ff0000"
    icon_fg = "#ffffff"
    icon_glyph = "play"
    screens = {
        "home": feeds.build_home,
        "shorts": shorts.build_shorts,
        "subscriptions": feeds.build_subscriptions,
        "you": feeds.build_you,
        "history": feeds.build_history,
        "playlist": feeds.build_playlist,
        "notifications": feeds.build_notifications,
        "search": search.build_search,
        "results": search.build_results,
        "watch": watch.build_watch,
        "channel": channel.build_channel,
    }
    dialogs = {
        "filters": search.filters_sheet,
        "player_settings": watch.player_settings_sheet,
        "captions": watch.captions_sheet,
        "speed": watch.speed_sheet,
        "comments": watch.comments_sheet,
        "unsubscribe": watch.unsubscribe_dialog,
        "video_menu": saving.video_menu,
        "save": saving.save_sheet,
        "new_playlist": saving.new_playlist_dialog,
        "share": saving.share_sheet,
    }
    screen_activities = dict.fromkeys(screens, MAIN)

    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        return model.initial_state(rng, now)

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return model.public_state(state)

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        return open_intent(ctx, intent)
