"""Yelp stand-in (`com.yelp.android`): businesses and events in five US cities, search with filters,
business pages, bookmarks, reviews and event RSVPs. Deep links follow the real app's schemes
(`yelp-app-indexing://biz/ID`, `yelp:///search?terms=`, `https://www.yelp.com/...`)."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...theme import TextStyle, Theme
from . import biz_screens, model, more_screens, search_screens
from .common import (
    BIZ,
    COLLECTIONS,
    EVENT,
    EVENTS,
    GREY,
    INK,
    NEARBY,
    RED,
    REVIEW,
    ROUTER,
    SCREEN_ACTIVITY,
    SEARCH,
)
from .content import CATEGORIES, DEFAULT_LOCATION, city_of, location_label, make_businesses, make_events, slug

VIEW = (ACTION_VIEW,)
BROWSABLE = (CATEGORY_DEFAULT, CATEGORY_BROWSABLE)
LINK_FILTERS = (
    IntentFilter(actions=VIEW, categories=BROWSABLE, schemes=("yelp",)),
    IntentFilter(actions=VIEW, categories=BROWSABLE, schemes=("yelp-app-indexing",), hosts=("biz",)),
    IntentFilter(actions=VIEW, categories=BROWSABLE, schemes=("http", "https"), hosts=("www.yelp.com", "yelp.com", "m.yelp.com"),
                 path_patterns=("/search*", "/biz/*", "/events*", "/collections*", "/user_details_bookmarks*")),
)  # fmt: skip
PRICE_ATTR = "RestaurantsPriceRange2."
TRUE = ("1", "true", "yes", "on")


class YelpApp(App):
    package = identity("yelp").package
    label = identity("yelp").label
    icon_bg = "#d32323"
    icon_fg = "#ffffff"
    version_name = "24.20.0"
    version_code = 24200
    activities = (
        Activity(NEARBY, "home", (LAUNCHER_FILTER,)),
        Activity(ROUTER, "home", LINK_FILTERS),
        Activity(SEARCH, "results", (), exported=False),
        Activity(BIZ, "business", (), exported=False),
        Activity(REVIEW, "write_review", (), exported=False),
        Activity(EVENTS, "events", (), exported=False),
        Activity(EVENT, "event", (), exported=False),
        Activity(COLLECTIONS, "collection", (), exported=False),
    )

    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        businesses = make_businesses(rng)
        return {
            "location": DEFAULT_LOCATION,
            "user": {"name": "Alex Jordan", "location": DEFAULT_LOCATION},
            "businesses": {b["id"]: b for b in businesses},
            "events": make_events(rng, businesses, now),
            "bookmarks": [],
            "reviews": [],
            "event_rsvps": [],
            "recent_searches": [],
            "recently_viewed": [],
            "calls": [],
        }

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """The user's own data; the catalogue stays private to keep `cmd masbench state` small."""
        return {k: v for k, v in state.items() if k not in ("businesses", "events")}

    # -- intents ---------------------------------------------------------------------------------------
    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        if activity.cls == NEARBY or not intent.data:
            return ctx.screen("home")
        return self._route(ctx, intent.data)

    def _route(self, ctx: AppContext, uri: str) -> Screen:
        parts = urlsplit(uri)
        route = (
            (parts.netloc if parts.scheme != "https" and parts.scheme != "http" else "") + parts.path
        ).strip("/")
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        head, _, rest = route.partition("/")
        if head == "search":
            return self._search(ctx, query)
        if head == "biz":
            biz = self._find_business(ctx.state, unquote(rest))
            if biz is not None:
                model.remember_view(ctx.state, biz["id"])
                return ctx.screen("business", biz_id=biz["id"])
        if head == "events":
            where = query.get("find_loc") or query.get("location") or unquote(rest).replace("-", " ")
            city = city_of(where)
            return ctx.screen("events", location=location_label(city) if city else ctx.state["location"],
                          category=query.get("category", "All"))  # fmt: skip
        if head in ("bookmarks", "collections", "user_details_bookmarks"):
            return ctx.screen("collection", collection="My Bookmarks")
        return ctx.screen("not_found", uri=uri)

    def _search(self, ctx: AppContext, query: dict[str, str]) -> Screen:
        category = query.get("category") or query.get("cflt") or ""
        if category not in CATEGORIES and category != "restaurants":
            category = ""
        prices = [int(p) for p in query.get("price", "").split(",") if p.strip().isdigit()]
        prices += [
            int(a[len(PRICE_ATTR)])
            for a in query.get("attrs", "").split(",")
            if a.startswith(PRICE_ATTR) and a[-1:].isdigit()
        ]
        terms = query.get("terms") or query.get("find_desc") or ""
        if not terms and category:
            terms = "Restaurants" if category == "restaurants" else CATEGORIES[category][0]
        args = model.search_args(
            terms,
            query.get("location") or query.get("find_loc") or ctx.state["location"],
            category=category,
            open_now=query.get("open_now", "").lower() in TRUE,
            price=[p for p in prices if 1 <= p <= 4],
            sort={"rating": "rating", "review_count": "review_count"}.get(
                query.get("sortby", ""), "recommended"
            ),
        )
        model.remember_search(ctx.state, args["query"], args["location"])
        return ctx.screen("results", **args)

    @staticmethod
    def _find_business(state: dict[str, Any], key: str) -> dict[str, Any] | None:
        """By Yelp id or by alias ("name-city"), as yelp.com/biz/ accepts both."""
        businesses: dict[str, dict[str, Any]] = state["businesses"]
        if key in businesses:
            return businesses[key]
        key = slug(key)
        return next((b for b in businesses.values() if b["alias"] == key), None)

    # -- screens ---------------------------------------------------------------------------------------
    theme = Theme(
        primary=RED, accent=RED, star=RED, ink=INK, muted=GREY,
        styles={
            **Theme().styles,
            "body": TextStyle(36), "body_small": TextStyle(38), "lead": TextStyle(40, role="muted"),
            "caption": TextStyle(34, role="muted"), "meta": TextStyle(32, role="muted"),
            "overline": TextStyle(30, role="muted"), "subtitle": TextStyle(40, bold=True),
            "name": TextStyle(42, bold=True), "rank": TextStyle(48, bold=True),
        },
    )  # fmt: skip
    screens = {
        "home": search_screens.home,
        "results": search_screens.results,
        "categories": search_screens.categories,
        "filters": search_screens.filters,
        "business": biz_screens.business,
        "write_review": biz_screens.write_review,
        "collections": biz_screens.collections,
        "collection": biz_screens.collection,
        "not_found": biz_screens.not_found,
        "events": more_screens.events,
        "event": more_screens.event,
        "me": more_screens.me,
        "my_reviews": more_screens.my_reviews,
        "my_events": more_screens.my_events,
        "projects": more_screens.projects,
    }
    dialogs = {
        "location": search_screens.location_dialog,
        "sort": search_screens.sort_dialog,
        "unsave": biz_screens.unsave_dialog,
    }
    screen_activities = SCREEN_ACTIVITY
