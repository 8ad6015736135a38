"""The tab roots (Home with its topic chips, Subscriptions, You; Shorts is shorts.py) and the library screens they
lead to: History, a playlist (Watch later, Liked videos, the user's or a channel's) and Notifications."""

from __future__ import annotations

from functools import partial

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    chips,
    column,
    divider,
    image,
    lazy_list,
    list_item,
    row,
    scroll_list,
    scroll_page,
    section_header,
    text,
)
from . import content as c
from . import model
from .common import (
    CARD_H,
    ROW_H,
    avatar,
    empty,
    inner_bar,
    nav,
    open_video,
    thumbnail,
    top_bar,
    video_card,
    video_row,
)

PROFILE = ("Alex Morgan", "@alexmorgan")


def feed_order(v: c.Video) -> float:
    """Home's ranking: popular and recent first (views per day of age)."""
    return -v.views / (v.age_hours + 24)


def cards(ctx: AppContext, key: str, found: list[c.Video], rid: str = "results") -> Node:
    if not found:
        return empty("No videos here yet")
    return lazy_list(key, len(found), CARD_H, lambda i: video_card(ctx, found[i]), rid=rid, gap=0)


def build_home(ctx: AppContext) -> Node:
    chosen = ctx.ui.get("chip", "All")

    def pick(label: str) -> None:
        ctx.ui["chip"] = label
        ctx.ui.get("scroll", {}).pop("home", None)

    every = sorted((v for v in c.videos().values() if v.kind != "short"), key=feed_order)
    if chosen == "Live":
        found = [v for v in every if v.kind == "live"]
    elif chosen != "All":
        found = [v for v in every if c.channel_of(v).chip == chosen]
    else:
        found = every
    row_of_chips = chips([(label, label == chosen, partial(pick, label)) for label in c.CHIPS],
                         scroll_key="chips", rid="chip")  # fmt: skip
    return column(top_bar(ctx), row_of_chips, cards(ctx, "home", found), nav(ctx, "Home"), bg=theme().surface)


def build_subscriptions(ctx: AppContext) -> Node:
    subscribed = [c.channels()[cid] for cid in ctx.state["subscriptions"] if cid in c.channels()]
    avatars = [
        column(avatar(ch, 130), text(ch.name, "caption", max_lines=1, align="center", w=190),
               on_tap=ctx.link("channel", channel_id=ch.id), align="center", w=190, gap=8, desc=ch.name,
               rid="subscribed_channel")
        for ch in subscribed
    ]  # fmt: skip
    found = sorted((v for v in c.videos().values() if v.channel_id in ctx.state["subscriptions"]
                    and v.kind != "short"), key=lambda v: v.age_hours)  # fmt: skip
    strip = scroll_list(
        "channels", avatars, rid="channels_bar", horizontal=True, gap=12, pad=(24, 16, 24, 16)
    )
    body = (
        cards(ctx, "subscriptions", found)
        if subscribed
        else empty("Don't miss new videos", "Subscribe to channels to see their latest videos here.")
    )
    return column(top_bar(ctx), strip if subscribed else None, divider(), body, nav(ctx, "Subscriptions"),
                  bg=theme().surface)  # fmt: skip


def build_you(ctx: AppContext) -> Node:
    s = ctx.state
    t = theme()
    recent = [c.videos()[h["video_id"]] for h in s["history"][:8] if h["video_id"] in c.videos()]
    shelf = [
        column(thumbnail(v, 400, 225), text(v.title, "body_small", max_lines=2, w=400, rid="history_title"),
               w=400, gap=10, on_tap=open_video(ctx, v.id), desc=v.title, rid="history_item")
        for v in recent
    ]  # fmt: skip
    header = row(
        image("avatar:you", 150, 150, radius=75, desc=PROFILE[0]),
        column(text(PROFILE[0], "headline", size=56), text(PROFILE[1], "caption")),
        pad=(40, 24, 40, 24), gap=32, valign="center",
    )  # fmt: skip

    def entry(list_id: str, icon: str, title: str, subtitle: str) -> Node:
        return list_item(
            title,
            subtitle,
            icon=icon,
            on_tap=ctx.link("playlist", list_id=list_id),
            rid="playlist_entry",
            desc=title,
        )

    lists = [
        entry(model.WATCH_LATER, "watch_later", "Watch later", videos_count(len(s["watch_later"]))),
        entry(model.LIKED, "thumb_up", "Liked videos", videos_count(len(s["liked"]))),
        *(entry(p["id"], "list", p["name"], f"{model.PRIVACY[p['privacy']]} · {videos_count(len(p['videos']))}")
          for p in s["playlists"]),
    ]  # fmt: skip
    page = scroll_page(
        "you",
        header,
        section_header("History", "View all", ctx.link("history"), rid="history_header"),
        scroll_list("history_shelf", shelf, rid="history_shelf", horizontal=True, gap=24, pad=(40, 0, 40, 16))
        if shelf else text("Videos you watch will show up here.", "body_small", fg=t.muted, pad=(40, 0, 40, 16)),
        section_header("Playlists", "New playlist", ctx.opener("new_playlist"), rid="playlists_header"),
        *lists,
    )  # fmt: skip
    return column(top_bar(ctx), page, nav(ctx, "You"), bg=t.surface)


def videos_count(n: int) -> str:
    return f"{n} video{'s' if n != 1 else ''}"


def rows(ctx: AppContext, key: str, ids: list[str], source: str | None, message: str) -> Node:
    found = [c.videos()[vid] for vid in ids if vid in c.videos()]
    if not found:
        return empty(message)
    return lazy_list(key, len(found), ROW_H, lambda i: video_row(ctx, found[i], source), rid="results", gap=0)


def build_history(ctx: AppContext) -> Node:
    ids = [h["video_id"] for h in ctx.state["history"]]
    return column(inner_bar(ctx, "History"), rows(ctx, "history", ids, "history", "Your watch history is empty"),
                  bg=theme().surface)  # fmt: skip


def build_playlist(ctx: AppContext) -> Node:
    list_id = ctx.args["list_id"]
    ids = model.list_videos(ctx.state, list_id)
    if ids is None:
        return column(inner_bar(ctx, "Playlist"), empty("This playlist doesn't exist"), bg=theme().surface)
    own = model.playlist(ctx.state, list_id)
    mine = own is not None or list_id in (model.WATCH_LATER, model.LIKED)
    if mine:
        owner, privacy = PROFILE[0], model.PRIVACY[own["privacy"]] if own else "Private"
    else:
        ch = model.channel_of_playlist(list_id)
        assert ch is not None  # list_videos knows only the user's lists and channels' playlists
        owner, privacy = ch.name, "Public"
    line = f"{owner} · {privacy} · {videos_count(len(ids))}"
    summary = text(line, "caption", pad=(40, 0, 40, 16), rid="playlist_summary")
    source = list_id if mine else None  # only the user's own lists offer "Remove from ..."
    return column(
        inner_bar(ctx, model.list_name(ctx.state, list_id)),
        summary,
        divider(),
        rows(ctx, "playlist", list(ids), source, "No videos in this playlist yet"),
        bg=theme().surface,
    )


def build_notifications(ctx: AppContext) -> Node:
    """New uploads of the channels the user follows, from the past week, newest first."""
    found = sorted((v for v in c.videos().values() if v.channel_id in ctx.state["subscriptions"]
                    and v.age_hours < 24 * 7), key=lambda v: v.age_hours)  # fmt: skip

    def item(i: int) -> Node:
        v = found[i]
        ch = c.channel_of(v)
        return row(
            avatar(ch, 90),
            column(text(f"{ch.name} uploaded: {v.title}", "body_small", max_lines=2, rid="notification_text"),
                   text(c.ago(v.age_hours), "caption"), weight=1, gap=6),
            thumbnail(v, 240, 135, radius=12),
            h=210, pad=(36, 24, 36, 24), gap=24, valign="start", on_tap=open_video(ctx, v.id), desc=v.title,
            rid="notification_item",
        )  # fmt: skip

    body = (
        lazy_list("notifications", len(found), 210, item, rid="notifications_list", gap=0)
        if found
        else empty("No notifications yet", "New videos from your subscriptions will show up here.")
    )
    return column(inner_bar(ctx, "Notifications"), body, bg=theme().surface)
