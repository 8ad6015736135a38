"""Deep links into Fitbit as the screens they open: the documented app link
`https://www.fitbit.com/in-app/today`, the `fitbit://` hosts the real app declares (challenges,
core-stats/<stat>, workouts...) and the app's own log forms (`fitbit://log/<water|food|exercise|weight>`)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from ...app import AppContext, Screen
from . import content
from .stats import METRICS

LOGS = {"water": "water", "food": "food", "weight": "weight", "exercise": "exercise"}
FORMS = {"water": "log_water", "food": "food_search", "exercise": "log_exercise", "weight": "log_weight"}
PAGES = {"goals": "goals", "badges": "badges", "settings": "settings", "you": "you", "today": "today"}


def open_link(ctx: AppContext, uri: str) -> Screen:
    parts = urlsplit(uri)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    segments = [s.lower() for s in parts.path.split("/") if s]
    if parts.scheme in ("http", "https"):
        host, segments = (segments[1] if len(segments) > 1 else "today"), segments[2:]  # /in-app/<page>
    else:
        host = parts.netloc.lower()
    if host == "challenges":
        known = {c["id"] for c in ctx.state["challenges"]}
        if query.get("challenge_id") in known:
            return ctx.screen("challenge", id=query["challenge_id"])
        return ctx.screen("discover")
    if host == "core-stats" and segments:
        stat = segments[0]
        if stat in METRICS:
            return ctx.screen("stats", metric=stat)
        if stat in LOGS:
            return ctx.screen(LOGS[stat])
    if host == "workouts":
        return ctx.screen("exercise")
    if host == "log" and segments and segments[0] in FORMS:
        return log_form(ctx, segments[0], query)
    return ctx.screen(PAGES.get(host, "today"))


def log_form(ctx: AppContext, kind: str, query: dict[str, str]) -> Screen:
    """A log form, with the exercise type or the meal filled in when the link names a known one."""
    args: dict[str, str] = {}
    kind_value = query.get("type", "").capitalize()
    meal = query.get("meal", "").capitalize()
    if kind == "exercise" and kind_value in content.EXERCISE_TYPES:
        args["type"] = kind_value
    if kind == "food" and meal in content.MEALS:
        args["meal"] = meal
    return ctx.screen(FORMS[kind], **args)
