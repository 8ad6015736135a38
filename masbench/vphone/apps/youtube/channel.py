"""A channel's page: banner, name, handle and Subscribe, then its tabs (Home, Videos with Latest /
Popular / Oldest, Shorts, Playlists, About)."""

from __future__ import annotations

from functools import partial

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import chips, column, icon_button, image, label_value, scroll_page, section_header, tabs, text
from . import content as c
from .common import avatar, empty, inner_bar, open_search, video_row
from .search import playlist_result
from .watch import subscribe_button

TABS = ("Home", "Videos", "Shorts", "Playlists", "About")
ORDERS = {"latest": "Latest", "popular": "Popular", "oldest": "Oldest"}


def sorted_videos(ch: c.Channel, order: str) -> list[c.Video]:
    newest = c.uploads(ch.id)
    if order == "popular":
        return sorted(newest, key=lambda v: -v.views)
    return newest[::-1] if order == "oldest" else newest


def tab_body(ctx: AppContext, ch: c.Channel, tab: str) -> list[Node]:
    if tab == "Home":
        popular = sorted_videos(ch, "popular")[:3]
        return [section_header("Popular videos", rid="shelf_title"), *(video_row(ctx, v) for v in popular)]
    if tab == "Videos":
        order = ctx.ui.get("order", "latest")

        def pick(key: str) -> None:
            ctx.ui["order"] = key

        row_of_chips = chips([(label, key == order, partial(pick, key)) for key, label in ORDERS.items()],
                             rid="sort_chip")  # fmt: skip
        return [row_of_chips, *(video_row(ctx, v) for v in sorted_videos(ch, order))]
    if tab == "Shorts":
        shorts = c.uploads(ch.id, "short")
        return [video_row(ctx, v) for v in shorts] or [empty("This channel has no Shorts")]
    if tab == "Playlists":
        return [playlist_result(ctx, ch)]
    regular = c.uploads(ch.id)
    views = sum(v.views for v in c.videos().values() if v.channel_id == ch.id and v.kind != "live")
    return [
        text(ch.about, "body", pad=(40, 32, 40, 24), rid="channel_about"),
        label_value("Handle", "@" + ch.handle),
        label_value("Subscribers", f"{ch.subscribers:,}"),
        label_value("Videos", str(len(regular))),
        label_value("Views", f"{views:,}"),
    ]


def build_channel(ctx: AppContext) -> Node:
    ch = c.channel(ctx.args["channel_id"])
    if ch is None:
        return column(inner_bar(ctx, "YouTube"), empty("This channel doesn't exist"), bg=theme().surface)
    tab = ctx.ui.get("tab", "Home")
    regular = c.uploads(ch.id)

    def select(i: int) -> None:
        ctx.ui["tab"] = TABS[i]
        ctx.ui.get("scroll", {}).pop("channel", None)

    header = column(
        image(f"channel:{ch.id}", 1080, 240, desc=f"{ch.name} banner"),
        column(
            avatar(ch, 170),
            text(ch.name, "headline", max_lines=1, rid="channel_title"),
            text(f"@{ch.handle} · {c.compact(ch.subscribers)} subscribers · {len(regular)} videos", "caption",
                 max_lines=2, rid="channel_subtitle"),
            text(ch.about, "body_small", fg=theme().muted, max_lines=2),
            subscribe_button(ctx, ch),
            pad=(40, 24, 40, 16), gap=12,
        ),
    )  # fmt: skip
    search = open_search_button(ctx)
    return column(
        inner_bar(ctx, ch.name, search),
        scroll_page(
            "channel",
            header,
            tabs(TABS, TABS.index(tab), select, colour=theme().ink, rid="channel_tabs"),
            *tab_body(ctx, ch, tab),
        ),
        bg=theme().surface,
    )


def open_search_button(ctx: AppContext) -> Node:
    return icon_button("search", "Search", lambda: open_search(ctx), rid="menu_item_search")
