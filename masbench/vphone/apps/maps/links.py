"""The links Maps answers, as the real app does: `geo:` (a point, a search), `google.navigation:` (start
navigating now), `https://www.google.com/maps/...` (search, place, directions, a map view with a layer)
and `comgooglemaps://` (the saved places)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, unquote_plus, urlsplit

from ...app import AppContext, Screen
from . import model
from .content import CITIES, city_near, here

LAYERS = ("none", "traffic", "transit", "bicycling")
AVOID_CODES = {"avoid_tolls": "t", "avoid_highways": "h", "avoid_ferries": "f"}


def open_uri(ctx: AppContext, uri: str) -> Screen | None:
    """The screen a link opens (None: refuse it)."""
    scheme = uri.split(":", 1)[0].lower() if ":" in uri else ""
    if scheme == "geo":
        return _geo(ctx, uri)
    if scheme == "google.navigation":
        return _navigate(ctx, _params(uri.split(":", 1)[1]))
    if scheme in ("http", "https"):
        return _web(ctx, uri)
    return ctx.screen("you" if scheme == "comgooglemaps" else "map")


def _params(query: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}


def _geo(ctx: AppContext, uri: str) -> Screen:
    parts = urlsplit(uri)
    query = _params(parts.query).get("q", "")
    try:
        lat, lng = (float(v) for v in parts.path.split(",")[:2])
    except ValueError:
        lat = lng = 0.0
    city = city_near(lat, lng) if (lat, lng) != (0.0, 0.0) else None
    if city:
        ctx.state["map"]["city"] = city
    return _search(ctx, query, city) if query else ctx.screen("map")


def _search(ctx: AppContext, query: str, city: str | None) -> Screen:
    """A single place or address opens its sheet; anything else lists results."""
    model.remember_search(ctx.state, query)
    args = model.search_args(ctx.state, query, city)
    found = None if args["category"] else model.resolve(ctx.state, query, args["city"])
    if found is None:
        return ctx.screen("results", **args)
    if found["city"] in CITIES:
        ctx.state["map"]["city"] = found["city"]
    return ctx.screen("place", place_id=found["id"])


def _drive_now(
    ctx: AppContext, origin: dict[str, Any], dest: dict[str, Any], args: dict[str, Any]
) -> Screen | None:
    """Navigation on the first route, or None when there is no route."""
    options = model.routes(origin, dest, args["mode"], args, ctx.now())
    if not options:
        return None
    model.start_navigation(ctx.state, origin, dest, args["mode"], options[0], args, ctx.now())
    return ctx.screen("navigation")


def _navigate(ctx: AppContext, params: dict[str, str]) -> Screen | None:
    query = params.get("q", "")
    dest = model.resolve(ctx.state, query)
    if dest is None:
        return _search(ctx, query, None) if query else None
    mode = model.URL_MODES.get(params.get("mode", "d"), "drive")
    args = model.directions_args(ctx.state, "here", dest["id"], mode)
    args.update({key: args[key] or code in params.get("avoid", "") for key, code in AVOID_CODES.items()})
    return _drive_now(ctx, here(), dest, args) or ctx.screen("directions", **args)


def _web(ctx: AppContext, uri: str) -> Screen:
    parts = urlsplit(uri)
    params = _params(parts.query)
    path = parts.path.rstrip("/")
    if path.startswith("/maps/dir"):
        dest = model.resolve(ctx.state, params.get("destination", ""))
        origin = model.resolve(ctx.state, params["origin"]) if params.get("origin") else here()
        mode = model.URL_MODES.get(params.get("travelmode", "driving"), "drive")
        args = model.directions_args(
            ctx.state, origin["id"] if origin else "here", dest["id"] if dest else "", mode
        )
        if params.get("dir_action") == "navigate" and origin and dest and origin["id"] == "here":
            navigating = _drive_now(ctx, origin, dest, args)
            if navigating is not None:
                return navigating
        return ctx.screen("directions", **args)
    if path.startswith("/maps/search") or params.get("q") or params.get("query"):
        query = (
            params.get("query")
            or params.get("q")
            or unquote_plus(path.removeprefix("/maps/search").strip("/"))
        )
        return _search(ctx, query, None) if query else ctx.screen("map")
    if path.startswith("/maps/place/"):
        return _search(ctx, unquote_plus(path.removeprefix("/maps/place/").split("/")[0]), None)
    try:
        lat, lng = (float(v) for v in params.get("center", "").split(",", 1))
        ctx.state["map"]["city"] = city_near(lat, lng)
    except ValueError:
        pass
    if params.get("layer") in LAYERS:
        ctx.state["map"]["layer"] = params["layer"]
    return ctx.screen("map")
