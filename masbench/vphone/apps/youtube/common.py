"""Pieces every YouTube screen shares: the activities, the top bar and bottom navigation, video cards
and rows with their duration badge and action menu, and opening a video (which records it as watched)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...app import AppContext
from ...theme import theme
from ...ui import FRAME, IMAGE, TEXT, Node, text_width
from ...widgets import bottom_nav, column, icon_button, image, row, spacer, text
from . import content as c
from . import model

# Activities, as dumpsys reports them: the launcher alias, the one main activity every screen lives in
# (modern YouTube is single-activity), the URL router and the search activity.
LAUNCHER = "com.google.android.youtube.app.honeycomb.Shell$HomeActivity"
MAIN = "com.google.android.apps.youtube.app.watchwhile.MainActivity"
URL_ROUTER = "com.google.android.apps.youtube.app.application.Shell_UrlActivity"
RESULTS = "com.google.android.youtube.app.honeycomb.Shell$ResultsActivity"
TABS = (("Home", "home"), ("Shorts", "shorts"), ("Subscriptions", "subscriptions"), ("You", "person"))
RED = "#ff0000"
BADGE_SIZE = 30


def nav(ctx: AppContext, current: str) -> Node:
    """Bottom navigation between the four tab roots; the open tab does nothing when tapped again."""

    def select(label: str) -> None:
        if label != current:
            ctx.switch_tab(ctx.screen(label.lower()))

    return bottom_nav(TABS, current, select, colour=theme().ink)


def top_bar(ctx: AppContext, title: str | None = None) -> Node:
    """The tab roots' bar: the logo (or a title), notifications and search."""
    t = theme()
    if title is None:
        lead = row(
            Node(IMAGE, icon="video", size=56, w=84, h=60, fg="#ffffff", bg=RED, radius=16, align="center"),
            text("YouTube", "title", size=54, pad=(14, 0, 0, 0)),
            valign="center",
            desc="YouTube",
            pad=(36, 0, 0, 0),
        )
    else:
        lead = text(title, "title", pad=(40, 0, 0, 0))
    return row(
        lead,
        spacer(weight=1),
        icon_button("notifications", "Notifications", ctx.link("notifications"), rid="notifications_button"),
        icon_button("search", "Search", lambda: open_search(ctx), rid="menu_item_search"),
        h=150,
        valign="center",
        bg=t.surface,
        pad=(0, 0, 16, 0),
        rid="toolbar",
    )


def inner_bar(ctx: AppContext, title: str, *actions: Node | None) -> Node:
    """An inner screen's bar: Navigate up, the title, actions."""
    return row(
        icon_button("back", "Navigate up", ctx.back, rid="navigate_up"),
        text(title, "title", weight=1, max_lines=1, rid="toolbar_title", pad=(8, 0, 0, 0)),
        *actions,
        h=150,
        valign="center",
        bg=theme().surface,
        pad=(16, 0, 16, 0),
        rid="toolbar",
    )


def open_search(ctx: AppContext, query: str = "") -> None:
    """The search screen with its field focused (and the current query in it, when editing one)."""
    ctx.go("search")
    ctx.phone.top.ui.update({"focus": "query", "query": query})


def open_video(ctx: AppContext, video_id: str) -> Callable[[], None]:
    """A tap handler that plays a video: Shorts open in the Shorts player, everything else on the watch
    page; either way it is recorded in the watch history."""

    def go() -> None:
        v = c.video(video_id)
        model.watch(ctx.state, video_id, ctx.now())
        if v is not None and v.kind == "short":
            ctx.go("shorts", short_id=video_id)
        else:
            ctx.go("watch", video_id=video_id)

    return go


# -- pictures ------------------------------------------------------------------------------------------


def badge(label: str, colour: str = "#000000cc") -> Node:
    """A small label over a thumbnail's corner (duration, LIVE, SHORTS)."""
    w = text_width(label, BADGE_SIZE) + 24
    return Node(TEXT, text=label, size=BADGE_SIZE, bold=True, fg="#ffffff",
                bg=colour, radius=8, w=w, h=46, align="center", pad=(12, 0, 12, 0), rid="duration_badge")  # fmt: skip


def thumbnail(v: c.Video, w: int, h: int, radius: int = 20) -> Node:
    """The video's frame with its duration (or LIVE / SHORTS) in the bottom-right corner."""
    if v.kind == "live":
        label, colour = "LIVE", RED
    elif v.kind == "short":
        label, colour = "SHORTS", "#000000cc"
    else:
        label, colour = c.duration(v.seconds), "#000000cc"
    kind = "short" if v.kind == "short" else "video"
    corner = Node(FRAME, layout="stack", w=w, h=h, align="end", valign="end", pad=(0, 0, 14, 14),
                  children=[badge(label, colour)])  # fmt: skip
    return Node(FRAME, layout="stack", w=w, h=h, children=[image(f"{kind}:{v.id}", w, h, radius=radius,
                desc=v.title), corner], rid="thumbnail")  # fmt: skip


def avatar(ch: c.Channel, size: int, on_tap: Callable[[], None] | None = None) -> Node:
    return image(
        f"avatar:{ch.id}", size, size, desc=ch.name, radius=size // 2, on_tap=on_tap, rid="channel_avatar"
    )


# -- videos in lists -----------------------------------------------------------------------------------


def menu_button(ctx: AppContext, v: c.Video, source: str | None) -> Node:
    """The three-dot button on a video: its action menu, which knows the list it was opened from (to remove it there)."""
    return icon_button("more_vert", f"Action menu for {v.title}", ctx.opener("video_menu", video_id=v.id,
                       source=source), rid="menu_button", size=52)  # fmt: skip


CARD_H = 608 + 210


def video_card(ctx: AppContext, v: c.Video) -> Node:
    """A home- or subscriptions-feed card: the full-width thumbnail, the channel avatar, title and meta."""
    ch = c.channel_of(v)
    return column(
        thumbnail(v, 1080, 608, radius=0),
        row(
            avatar(ch, 96, ctx.link("channel", channel_id=ch.id)),
            column(
                text(v.title, "subtitle", max_lines=2, rid="video_title"),
                text(c.meta_line(v), "caption", max_lines=1, rid="video_meta"),
                weight=1,
                gap=6,
            ),
            menu_button(ctx, v, None),
            pad=(32, 24, 8, 24),
            gap=24,
            valign="start",
        ),
        h=CARD_H,
        on_tap=open_video(ctx, v.id),
        desc=f"{v.title} - {c.meta_line(v)}",
        rid="video_card",
    )


ROW_H = 300


def video_row(ctx: AppContext, v: c.Video, source: str | None = None, extra: Sequence[str] = ()) -> Node:
    """A compact row (results, history, playlists, channel videos): thumbnail, title, meta, three-dot menu."""
    lines = [text(c.channel_of(v).name, "caption", max_lines=1, rid="channel_name"),
             text(" · ".join([c.views_label(v), "LIVE" if v.kind == "live" else c.ago(v.age_hours)]), "caption",
                  max_lines=1, rid="video_meta"),
             *(text(line, "caption", max_lines=1) for line in extra)]  # fmt: skip
    return row(
        thumbnail(v, 440, 248, radius=18),
        column(
            text(v.title, "body", size=39, bold=True, max_lines=2, rid="video_title"), *lines, weight=1, gap=4
        ),
        menu_button(ctx, v, source),
        h=ROW_H,
        pad=(32, 26, 0, 26),
        gap=28,
        valign="start",
        on_tap=open_video(ctx, v.id),
        desc=f"{v.title} - {c.meta_line(v)}",
        rid="video_row",
    )


def empty(message: str, detail: str = "") -> Node:
    return column(
        text(message, "heading", align="center"),
        text(detail, "body_small", fg=theme().muted, align="center") if detail else None,
        pad=80,
        gap=20,
        rid="empty_state",
    )
