"""Amazon Shopping stand-in (`com.amazon.mShop.android.shopping`): the manifest, state and intent routing.

Activities follow the real app: the launcher's `splashscreen.StartupActivity` hands over to
`navigation.MainActivity`, android_world's `home.HomeActivity` is startable by component, and
`android.home.PublicUrlActivity` claims amazon.com web links (not auto-verified, so without `-p` they open
in the browser, as on Android 12+) and the app's three private schemes.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...theme import TextStyle, Theme
from . import account, browse, cart, item, store
from .links import PRIVATE_SCHEMES, WEB_HOSTS, route
from .parts import DEAL_RED, GREEN, GREY, INK, LINK, MAIN_ACTIVITY, ORANGE, PANEL

STARTUP_ACTIVITY = "com.amazon.mShop.splashscreen.StartupActivity"
HOME_ACTIVITY = "com.amazon.mShop.home.HomeActivity"
PUBLIC_URL_ACTIVITY = "com.amazon.mShop.android.home.PublicUrlActivity"
LINK_FILTERS = (
    IntentFilter(
        actions=(ACTION_VIEW,),
        categories=(CATEGORY_DEFAULT, CATEGORY_BROWSABLE),
        schemes=("https", "http"),
        hosts=WEB_HOSTS,
    ),
    IntentFilter(
        actions=(ACTION_VIEW,),
        categories=(CATEGORY_DEFAULT, CATEGORY_BROWSABLE),
        schemes=tuple(s.lower() for s in PRIVATE_SCHEMES),
    ),
)
SCREENS = {
    "home": browse.home,
    "results": browse.results,
    "deals": browse.deals,
    "menu": browse.menu,
    "product": item.product,
    "not_found": item.not_found,
    "cart": cart.cart,
    "checkout": cart.checkout,
    "thank_you": cart.thank_you,
    "orders": account.orders,
    "order_detail": account.order_detail,
    "lists": account.lists,
    "you": account.you,
    "account": account.account,
}


class AmazonApp(App):
    package = identity("amazon").package
    label = identity("amazon").label
    icon_bg = "#232f3e"
    icon_fg = "#ff9900"
    icon_glyph = "cart"
    version_name = "28.10.0.100"
    version_code = 1241261011
    activities = (
        Activity(STARTUP_ACTIVITY, "home", (LAUNCHER_FILTER,)),
        Activity(MAIN_ACTIVITY, "home", (), exported=False),
        Activity(HOME_ACTIVITY, "home"),
        Activity(PUBLIC_URL_ACTIVITY, "home", LINK_FILTERS),
    )
    theme = Theme(
        primary="#232f3e", accent=LINK, ink=INK, muted=GREY, pale=PANEL, error=DEAL_RED, success=GREEN, star=ORANGE,
        styles={
            **Theme().styles,
            "body": TextStyle(34), "small": TextStyle(30), "body_small": TextStyle(32), "body_large": TextStyle(36),
            "lead": TextStyle(42), "lead_muted": TextStyle(40, role="muted"), "caption": TextStyle(32, role="muted"),
            "headline": TextStyle(56, bold=True), "price": TextStyle(54, bold=True), "title": TextStyle(50, bold=True),
        },
    )  # fmt: skip
    screens = SCREENS
    dialogs = {
        "filters": browse.filters_sheet,
        "sort": browse.sort_menu,
        "deal_sort": browse.deal_sort_menu,
        "quantity": item.quantity_menu,
    }
    screen_activities = dict.fromkeys(SCREENS, MAIN_ACTIVITY)  # every page runs in the main activity

    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        return store.initial_state(rng, now)

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen:
        """Launches open Home; a link (or an explicit start with data) opens the page its URL names."""
        name = "home"
        args: dict[str, Any] = {}
        if intent.data:
            name, args = route(intent.data, store.catalog_of(ctx.state))
        if name == "product":
            args.update(colour=None, size=None, qty=1)
        return ctx.screen(name, **args)

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return store.public_state(state)
