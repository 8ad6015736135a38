"""Google Maps stand-in (`com.google.android.apps.maps`): a drawn map of five cities, search, place
sheets, directions for four travel modes, navigation, saved lists, Home/Work labels and route settings.
It answers the real Maps intents: `geo:`, `google.navigation:` and `https://www.google.com/maps/...`."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, unquote_plus, urlsplit

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from . import directions, explore, model, navigation, place, results, you
from .common import MAPS_THEME
from .content import CITIES, city_near, make_places

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
LAYERS = ("none", "traffic", "transit", "bicycling")


class MapsApp(App):
    package = identity("maps").package
    label = identity("maps").label
    icon_bg = "#ffffff"
    icon_fg = "#ea4335"
    icon_glyph = "pin"
    version_name = "11.152.0101"
    version_code = 1115201
    activities = (Activity("com.google.android.maps.MapsActivity", "map", FILTERS),)
    theme = MAPS_THEME
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

    # -- intents ---------------------------------------------------------------------------------------
    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        uri = intent.data or ""
        scheme = uri.split(":", 1)[0].lower() if ":" in uri else ""
        if scheme == "geo":
            return self._geo(ctx, uri)
        if scheme == "google.navigation":
            return self._navigate(ctx, _params(uri.split(":", 1)[1]))
        if scheme in ("http", "https"):
            return self._web(ctx, uri)
        if scheme == "comgooglemaps":
            return ctx.screen("you")
        return ctx.screen("map")

    def _geo(self, ctx: AppContext, uri: str) -> Screen:
        parts = urlsplit(uri)
        coords = parts.path.split(",")
        query = _params(parts.query).get("q", "")
        try:
            lat, lng = float(coords[0]), float(coords[1])
        except (ValueError, IndexError):
            lat = lng = 0.0
        city = city_near(lat, lng) if (lat, lng) != (0.0, 0.0) else None
        if city:
            ctx.state["map"]["city"] = city
        if not query:
            return ctx.screen("map")
        return self._search(ctx, query, city)

    def _search(self, ctx: AppContext, query: str, city: str | None) -> Screen:
        model.remember_search(ctx.state, query)
        args = model.search_args(ctx.state, query, city)
        found = None if args["category"] else model.resolve(ctx.state, query, args["city"])
        if found is not None:
            if found["city"] in CITIES:
                ctx.state["map"]["city"] = found["city"]
            return ctx.screen("place", place_id=found["id"])
        return ctx.screen("results", **args)

    def _navigate(self, ctx: AppContext, params: dict[str, str]) -> Screen | None:
        dest = model.resolve(ctx.state, params.get("q", ""))
        if dest is None:
            return self._search(ctx, params.get("q", ""), None) if params.get("q") else None
        mode = model.URL_MODES.get(params.get("mode", "d"), "drive")
        avoid = params.get("avoid", "")
        args = model.directions_args(ctx.state, "here", dest["id"], mode)
        args.update(
            {
                k: v or args[k]
                for k, v in (
                    ("avoid_tolls", "t" in avoid),
                    ("avoid_highways", "h" in avoid),
                    ("avoid_ferries", "f" in avoid),
                )
            }
        )
        origin = model.place(ctx.state, "here")
        options = model.routes(origin, dest, mode, args, ctx.now())
        if not options:
            return ctx.screen("directions", **args)
        model.start_navigation(ctx.state, origin, dest, mode, options[0], args, ctx.now())
        return ctx.screen("navigation")

    def _web(self, ctx: AppContext, uri: str) -> Screen:
        parts = urlsplit(uri)
        params = _params(parts.query)
        path = parts.path.rstrip("/")
        if path.startswith("/maps/dir"):
            dest = model.resolve(ctx.state, params.get("destination", ""))
            origin = (
                model.resolve(ctx.state, params["origin"])
                if params.get("origin")
                else model.place(ctx.state, "here")
            )
            mode = model.URL_MODES.get(params.get("travelmode", "driving"), "drive")
            args = model.directions_args(
                ctx.state, origin["id"] if origin else "here", dest["id"] if dest else "", mode
            )
            if params.get("dir_action") == "navigate" and origin and dest and origin["id"] == "here":
                options = model.routes(origin, dest, mode, args, ctx.now())
                if options:
                    model.start_navigation(ctx.state, origin, dest, mode, options[0], args, ctx.now())
                    return ctx.screen("navigation")
            return ctx.screen("directions", **args)
        if path.startswith("/maps/search") or params.get("q") or params.get("query"):
            query = (
                params.get("query")
                or params.get("q")
                or unquote_plus(path.removeprefix("/maps/search").strip("/"))
            )
            return self._search(ctx, query, None) if query else ctx.screen("map")
        if path.startswith("/maps/place/"):
            return self._search(ctx, unquote_plus(path.removeprefix("/maps/place/").split("/")[0]), None)
        if params.get("center"):
            try:
                lat, lng = (float(v) for v in params["center"].split(",", 1))
                ctx.state["map"]["city"] = city_near(lat, lng)
            except ValueError:
                pass
        if params.get("layer") in LAYERS:
            ctx.state["map"]["layer"] = params["layer"]
        return ctx.screen("map")


def _params(query: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}
