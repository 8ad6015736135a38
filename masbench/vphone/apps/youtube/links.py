"""Intents into YouTube as the screens they open: `vnd.youtube:` video links, youtube.com and youtu.be
web addresses (watch, results, @handle and /channel pages, feeds, Shorts, playlists), the SEARCH intent
and the launcher shortcuts' actions."""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

from ...app import AppContext, Screen
from ...intents import Intent
from . import content as c
from . import model
from .search import results_args

OPEN_SHORTS = "com.google.android.youtube.action.open.shorts"
OPEN_SUBSCRIPTIONS = "com.google.android.youtube.action.open.subscriptions"
SEARCH = "android.intent.action.SEARCH"
MEDIA_SEARCH = "android.media.action.MEDIA_PLAY_FROM_SEARCH"
FEEDS = {"subscriptions": "subscriptions", "library": "you", "you": "you", "history": "history",
         "activity": "notifications", "notifications": "notifications", "trending": "home"}  # fmt: skip


def open_intent(ctx: AppContext, intent: Intent) -> Screen:
    """The screen an intent that reached YouTube opens; anything it does not know opens Home."""
    if intent.action == OPEN_SHORTS:
        return ctx.screen("shorts")
    if intent.action == OPEN_SUBSCRIPTIONS:
        return ctx.screen("subscriptions")
    if intent.action in (SEARCH, MEDIA_SEARCH):
        query = " ".join(str(intent.extras.get("query", "")).split())
        return results(ctx, query) if query else ctx.screen("search")
    if intent.data:
        return open_link(ctx, intent.data)
    return ctx.screen("home")


def open_link(ctx: AppContext, uri: str) -> Screen:
    parts = urlsplit(uri)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    scheme = parts.scheme.lower()
    if scheme.startswith("vnd.youtube"):
        # vnd.youtube:<id>, vnd.youtube://<id>, vnd.youtube://feed/subscriptions
        target = (parts.netloc + parts.path).strip("/") or query.get("v", "")
        if target.startswith("feed/"):
            return feed(ctx, target.removeprefix("feed/"))
        return watch(ctx, target)
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if (parts.hostname or "").lower() == "youtu.be":
        return watch(ctx, segments[0]) if segments else ctx.screen("home")
    head = segments[0] if segments else ""
    if head == "watch":
        return watch(ctx, query.get("v", ""))
    if head == "results":
        text = " ".join(query.get("search_query", query.get("q", "")).split())
        return results(ctx, text) if text else ctx.screen("search")
    if head.startswith("@"):
        return channel(ctx, c.channel_by_handle(head))
    if head in ("channel", "c", "user") and len(segments) > 1:
        found = c.channel(segments[1]) or c.channel_by_handle(segments[1])
        return channel(ctx, found)
    if head == "feed" and len(segments) > 1:
        return feed(ctx, segments[1])
    if head == "shorts" and len(segments) > 1:
        short = c.video(segments[1])
        if short is not None and short.kind == "short":
            model.watch(ctx.state, short.id, ctx.now())
            return ctx.screen("shorts", short_id=short.id)
        ctx.toast("This Short isn't available")
    if head == "playlist" and model.list_videos(ctx.state, query.get("list", "")) is not None:
        return ctx.screen("playlist", list_id=query["list"])
    return ctx.screen("home")


def watch(ctx: AppContext, video_id: str) -> Screen:
    """A video's watch page; playing it records it in the history. An unknown id shows "unavailable"."""
    video = c.video(video_id)
    if video is not None and video.kind == "short":
        model.watch(ctx.state, video.id, ctx.now())
        return ctx.screen("shorts", short_id=video.id)
    if video is not None:
        model.watch(ctx.state, video.id, ctx.now())
    return ctx.screen("watch", video_id=video_id)


def results(ctx: AppContext, query: str) -> Screen:
    model.remember_search(ctx.state, query)
    return ctx.screen("results", **results_args(query))


def channel(ctx: AppContext, found: c.Channel | None) -> Screen:
    if found is None:
        ctx.toast("This channel doesn't exist")
        return ctx.screen("home")
    return ctx.screen("channel", channel_id=found.id)


def feed(ctx: AppContext, name: str) -> Screen:
    return ctx.screen(FEEDS.get(name.strip("/"), "home"))
