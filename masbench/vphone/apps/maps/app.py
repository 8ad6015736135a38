"""Google Maps stand-in (`com.google.android.apps.maps`): a drawn map of five cities, search, place
sheets, directions for four travel modes, navigation, saved lists, Home/Work labels and route settings.
It answers the real Maps intents: `geo:`, `google.navigation:` and `https://www.google.com/maps/...`."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...theme import Theme
from . import directions, explore, links, model, navigation, place, results, you
from .content import make_places

VIEW = (ACTION_VIEW,)
BROWSABLE = (CATEGORY_DEFAULT, CATEGORY_BROWSABLE)
FILTERS = (
    LAUNCHER_FILTER,
    IntentFilter(actions=VIEW, categories=BROWSABLE, schemes=("geo",)),
    IntentFilter(actions=VIEW, categories=BROWSABLE, schemes=("google.navigation",)),
    IntentFilter(
        actions=VIEW,
        categories=BROWSABLE,
        schemes=("https", "http"),
        hosts=("www.google.com", "google.com", "maps.google.com"),
        path_patterns=("/maps", "/maps/*", "/"),
        auto_verify=True,
    ),
    IntentFilter(actions=VIEW, categories=BROWSABLE, schemes=("comgooglemaps",)),
)


class MapsApp(App):
    package = identity("maps").package
    label = identity("maps").label
    icon_bg = "#ffffff"
    icon_fg = "#ea4335"
    icon_glyph = "pin"
    version_name = "11.152.0101"
    version_code = 1115201
    activities = (Activity("com.google.android.maps.MapsActivity", "map", FILTERS),)
    theme = Theme(  # Google's blue, greys, red and green, and its rating yellow
        primary="#1a73e8",
        accent="#1a73e8",
        ink="#202124",
        muted="#5f6368",
        divider="#dadce0",
        pale="#f1f3f4",
        error="#d93025",
        success="#188038",
        star="#fbbc04",
    )
    screens = {
        "map": explore.map_home,
        "contribute": explore.contribute,
        "results": results.results,
        "place": place.place_page,
        "review": place.review,
        "directions": directions.directions,
        "navigation": navigation.navigation,
        "you": you.you,
        "saved_list": you.saved_list,
        "new_list": you.new_list,
        "settings": you.settings,
        "nav_settings": you.nav_settings,
        "labels": you.labels,
        "set_label": you.set_label,
    }
    dialogs = {
        "account": explore.account,
        "sort": results.sort,
        "save": place.save,
        "route_options": directions.route_options,
        "units": you.units,
    }

    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        return {"places": make_places(rng), **model.initial_user_state()}

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """The user's data; the place catalogue and looked-up addresses stay private."""
        return {k: v for k, v in state.items() if k not in ("places", "points")}

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        return links.open_uri(ctx, intent.data or "")
