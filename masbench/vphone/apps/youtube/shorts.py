"""The Shorts player: one vertical Short a page, with its actions (Like, Dislike, Comments, Share) down
the right edge and its channel, Subscribe and title at the bottom, as in the app's Shorts tab."""

from __future__ import annotations

from collections.abc import Callable

from ...app import AppContext
from ...ui import FRAME, VIEWGROUP, Node
from ...widgets import column, icon_button, image, lazy_list, row, text
from . import content as c
from . import model
from .common import avatar, nav
from .watch import subscribe_button

SHORT_H = 2019  # the screen between the status bar and the bottom navigation: one Short a page
WHITE = "#ffffff"


def reel_action(
    icon: str, desc: str, on_tap: Callable[[], None], rid: str, label: str, selected: bool = False
) -> Node:
    """One of the round actions on the right edge of a Short, its label (or count) under it."""
    button = icon_button(icon, desc, on_tap, rid=rid, fg=WHITE, size=64)
    button.selected = selected
    return column(button, text(label, "caption", fg=WHITE, align="center", w=180), align="center", w=180)


def reel(ctx: AppContext, v: c.Video) -> Node:
    ch = c.channel_of(v)
    liked = v.id in ctx.state["liked"]
    side = column(
        reel_action("thumb_up", "Unlike" if liked else "Like", lambda: model.rate(ctx.state, v.id, True),
                    "like_button", c.compact(v.likes + liked), selected=liked),
        reel_action("thumb_down", "Dislike", lambda: model.rate(ctx.state, v.id, False), "dislike_button",
                    "Dislike", selected=v.id in ctx.state["disliked"]),
        reel_action("message", "Comments", ctx.opener("comments", video_id=v.id), "comments_button", "Comments"),
        reel_action("share", "Share", ctx.opener("share", video_id=v.id), "share_button", "Share"),
        gap=30, w=180,
    )  # fmt: skip
    info = column(
        Node(VIEWGROUP, weight=1),
        row(avatar(ch, 84, ctx.link("channel", channel_id=ch.id)),
            text("@" + ch.handle, "label", fg=WHITE, max_lines=1, rid="channel_name"),
            subscribe_button(ctx, ch), gap=20, valign="center"),
        text(v.title, "body", fg=WHITE, max_lines=2, rid="reel_title"),
        gap=16, weight=1,
    )  # fmt: skip
    bar = row(info, side, pad=(36, 20, 16, 36), gap=16, bg="#00000055")  # a shade keeps white text legible
    overlay = column(Node(VIEWGROUP, weight=1), bar, weight=1)
    return Node(FRAME, layout="stack", h=SHORT_H, bg="#000000", rid="reel_player", desc=v.title,
                children=[image(f"short:{v.id}", 1080, SHORT_H, desc=v.title), overlay])  # fmt: skip


def build_shorts(ctx: AppContext) -> Node:
    """The Short that was opened first (if any), then every Short, newest first."""
    first = ctx.args.get("short_id")
    shorts = sorted(
        (v for v in c.videos().values() if v.kind == "short"), key=lambda v: (v.id != first, v.age_hours)
    )
    return column(
        lazy_list("shorts", len(shorts), SHORT_H, lambda i: reel(ctx, shorts[i]), rid="reel_recycler", gap=0,
                  bg="#000000"),
        nav(ctx, "Shorts"),
        bg="#000000",
    )  # fmt: skip
