"""Reading a story: the article page (a video player first for video stories), the live page of running
updates, Save and the Share sheet. Body text follows the Text size setting."""

from __future__ import annotations

import zlib
from datetime import datetime
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import app_bar, bottom_sheet, column, icon_button, image, list_item, row, scroll_page, text
from . import content, model
from .common import RED, meta_line, picture, story_row

SEND = "android.intent.action.SEND"


def actions(ctx: AppContext, item: dict[str, Any]) -> list[Node]:
    """Save (a bookmark, selected when saved) and Share, in the bar of every story page."""
    saved = model.is_saved(ctx.state, item["id"])

    def toggle() -> None:
        now_saved = model.toggle_saved(ctx.state, item["id"], ctx.now())
        ctx.toast("Saved to your list" if now_saved else "Removed from Saved items")

    fg = theme().on_primary
    save = icon_button("bookmark", "Remove from saved" if saved else "Save", toggle, rid="save_button", fg=fg)
    save.selected = saved
    share = icon_button("share", "Share", ctx.opener("share", id=item["id"]), rid="share_button", fg=fg)
    return [save, share]


def headline_block(ctx: AppContext, item: dict[str, Any], size: int) -> list[Node]:
    published = datetime.fromisoformat(model.published(ctx.state, item["id"]))
    return [
        text(item["headline"], "headline", size=size + 16, rid="article_headline", pad=(40, 32, 40, 8)),
        text(
            f"Published {published.day} {published:%B %Y, %H:%M} GMT",
            "caption",
            rid="article_time",
            pad=(40, 0, 40, 16),
        ),
        row(meta_line(ctx, item), pad=(40, 0, 40, 16)),
    ]


def related(ctx: AppContext, item: dict[str, Any]) -> list[Node]:
    heading = text("Related stories", "heading", rid="related_title", pad=(40, 48, 40, 16))
    return [heading, *(story_row(ctx, sid, rid="related_link") for sid in item["related"])]


def video_player(ctx: AppContext, item: dict[str, Any]) -> Node:
    """The player at the top of a video story: a still with Play, and the clip's length."""
    seconds = 45 + zlib.crc32(item["id"].encode()) % 240
    playing = ctx.ui.get("playing", False)

    def play() -> None:
        ctx.ui["playing"] = not playing

    control = icon_button("play", "Pause" if playing else "Play video", play, rid="play_button", fg=RED)
    status = "Playing" if playing else f"Video, {seconds // 60}:{seconds % 60:02d}"
    return column(
        image(picture(item), 1080, 608, desc=item["headline"], rid="video_player"),
        row(
            control,
            text(status, "body_small", rid="video_status"),
            gap=12,
            pad=(24, 8, 24, 8),
            valign="center",
        ),
        bg=theme().surface,
    )


def article(ctx: AppContext) -> Node:
    item = content.catalogue()[ctx.args["id"]]
    size = model.text_px(ctx.state)
    lead = (
        video_player(ctx, item) if item["video"] else image(picture(item), 1080, 608, desc=item["headline"])
    )
    body = [
        text(p, "body", size=size, rid="article_paragraph", pad=(40, 12, 40, 12), selectable=True)
        for p in content.paragraphs(item)
    ]
    topics = text(
        "Topics: " + ", ".join(item["topics"]), "caption", rid="article_topics", pad=(40, 24, 40, 0)
    )
    return column(
        app_bar(content.SECTIONS[item["section"]], ctx.back, *actions(ctx, item)),
        scroll_page("article", lead, *headline_block(ctx, item, size), *body, topics, *related(ctx, item),
                    bg=theme().surface),
    )  # fmt: skip


def live(ctx: AppContext) -> Node:
    item = content.catalogue()[ctx.args["id"]]
    size = model.text_px(ctx.state)
    edition = ctx.state["edition"]
    posts = [
        column(
            text(f"{when:%H:%M}", "label", fg=RED, rid="live_update_time"),
            text(post, "body", size=size, rid="live_update"),
            pad=(40, 24, 40, 24),
            gap=8,
        )
        for when, post in content.live_updates(
            item, model.published(ctx.state, item["id"]), edition["fetched_at"]
        )
    ]
    return column(
        app_bar("Live", ctx.back, *actions(ctx, item)),
        scroll_page("live", image(picture(item), 1080, 520, desc=item["headline"]), *headline_block(ctx, item, size),
                    text(item["summary"], "body", size=size, rid="article_paragraph", pad=(40, 0, 40, 16)),
                    text("Latest updates", "heading", rid="section_title", pad=(40, 32, 40, 8)), *posts,
                    *related(ctx, item), bg=theme().surface),
    )  # fmt: skip


def share_sheet(ctx: AppContext) -> Node:
    item = content.catalogue()[ctx.dialog_args["id"]]
    url = content.web_url(item)

    def copy() -> None:
        ctx.phone.clipboard = url
        ctx.close()
        ctx.toast("Link copied")

    def send() -> None:
        ctx.close()
        ctx.share(url, subject=item["headline"])

    return bottom_sheet(
        "Share",
        [
            text(url, "caption", rid="share_url", pad=(48, 0, 48, 16), max_lines=2),
            list_item("Copy link", icon="copy", on_tap=copy, rid="share_copy_link"),
            list_item("Share via…", icon="share", on_tap=send, rid="share_more"),
        ],
        ctx.close,
    )
