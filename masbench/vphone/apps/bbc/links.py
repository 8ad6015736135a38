"""Deep links into BBC News: the app's own `bbcnews://` targets and bbc.com / bbc.co.uk news addresses
(sections, `/news/articles/<id>`, legacy `/news/<slug>-<id>`, live pages and videos) as the screens they open."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlsplit

from ...app import AppContext, Screen
from . import content, model

WEB_SECTIONS = {
    "world": "world", "uk": "uk", "business": "business", "technology": "technology",
    "science_and_environment": "science", "science-environment": "science", "health": "health",
    "entertainment_and_arts": "entertainment", "entertainment-arts": "entertainment", "climate": "climate",
    "sport": "sport",
}  # fmt: skip
LEGACY_ARTICLE = re.compile(r"^[a-z_-]+-(\d{8})$")
CHARTS = {"read": "read", "mostread": "read", "watched": "watched", "mostwatched": "watched"}


def open_link(ctx: AppContext, uri: str) -> Screen:
    parts = urlsplit(uri)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if parts.scheme.lower() == "bbcnews":
        return app_target(ctx, [parts.netloc.lower(), *segments] if parts.netloc else segments, query)
    if segments[:1] == ["sport"]:
        return ctx.screen("home", section="sport")
    return web_target(ctx, segments[1:] if segments[:1] == ["news"] else segments)


def app_target(ctx: AppContext, segments: list[str], query: dict[str, str]) -> Screen:
    """bbcnews://article/<id>, live/<id>, section/<key>, mynews, topics, saved, popular, video, search?q=,
    settings; anything else opens Home."""
    head, rest = (segments[0], segments[1:]) if segments else ("home", [])
    if head in ("article", "articles", "live", "videos") and rest:
        return story(ctx, rest[0])
    if head == "section" and rest and rest[0] in content.SECTIONS:
        return ctx.screen("home", section=rest[0])
    if head == "popular":
        return ctx.screen("popular", chart=CHARTS.get(query.get("chart", "read").lower(), "read"))
    if head == "search":
        return search(ctx, query.get("q", ""))
    screens = {"mynews": "my_news", "my-news": "my_news", "topics": "topics", "saved": "saved", "video": "video",
               "settings": "settings"}  # fmt: skip
    return ctx.screen(screens.get(head, "home"))


def web_target(ctx: AppContext, segments: list[str]) -> Screen:
    """The path after /news: a section (/world/<region> too), articles/<id>, live/<id>, videos/<id>, or a
    legacy <slug>-<id> story; the news index otherwise."""
    if not segments:
        return ctx.screen("home")
    head = segments[0].lower()
    if head in ("articles", "live", "videos") and len(segments) > 1:
        return story(ctx, segments[1])
    if head in WEB_SECTIONS:
        return ctx.screen("home", section=WEB_SECTIONS[head])
    legacy = LEGACY_ARTICLE.match(head)
    if legacy:
        return story(ctx, legacy.group(1))
    return ctx.screen("home")


def story(ctx: AppContext, story_id: str) -> Screen:
    """A story's page (its live page for live coverage), recorded as read; Home if the id is unknown."""
    item = content.story(story_id)
    if item is None:
        ctx.toast("Sorry, this story is not available")
        return ctx.screen("home")
    model.remember_read(ctx.state, story_id)
    return ctx.screen("live" if item["live"] else "article", id=story_id)


def search(ctx: AppContext, query: str) -> Screen:
    query = " ".join(query.split())
    model.remember_search(ctx.state, query)
    return ctx.screen("search", query=query)
