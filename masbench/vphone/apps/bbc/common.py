"""What every BBC News screen shares: its activities, the brand bar, bottom navigation and the story cards
that open an article (recording it in the reading history) wherever a story is listed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import bottom_nav, column, icon_button, image, row, scroll_list, text
from . import content, model

PACKAGE = "bbc.mobile.news.ww"
HOME = "bbc.mobile.news.ww.HomeWwActivity"  # the launcher activity (identity.yaml)
LINKS = "bbc.mobile.news.v3.app.DeepLinkActivity"  # bbcnews:// and bbc.com / bbc.co.uk news links
SEARCH = "bbc.mobile.news.v3.ui.search.SearchActivity"  # also takes android.intent.action.SEARCH
ARTICLE = "bbc.mobile.news.v3.content.article.ArticleActivity"
LIVE = "bbc.mobile.news.v3.content.live.LiveActivity"
TOPICS = "bbc.mobile.news.v3.ui.mynews.ManageTopicsActivity"
SAVED = "bbc.mobile.news.v3.ui.saved.SavedItemsActivity"
SETTINGS = "bbc.mobile.news.v3.ui.settings.SettingsActivity"
SCREEN_ACTIVITIES = {
    **dict.fromkeys(("home", "my_news", "popular", "video"), HOME),
    "search": SEARCH,
    "article": ARTICLE,
    "live": LIVE,
    "topics": TOPICS,
    "saved": SAVED,
    "settings": SETTINGS,
}
TABS = (("Home", "home", "home"), ("My News", "star", "my_news"), ("Popular", "trophy", "popular"),
        ("Video", "video", "video"), ("Search", "search", "search"))  # fmt: skip
RED = "#b80000"
ROW_PICTURE = (300, 170)


def nav(ctx: AppContext, current: str) -> Node:
    """The bottom navigation; each tab opens its root, the open one does nothing."""
    labels = {screen: label for label, _, screen in TABS}

    def select(label: str) -> None:
        screen = next(s for lab, _, s in TABS if lab == label)
        if screen != current:
            ctx.switch_tab(ctx.screen(screen))

    return bottom_nav([(label, icon) for label, icon, _ in TABS], labels[current], select, colour=RED)


def brand_bar(ctx: AppContext, *actions: Node) -> Node:
    """The red bar of the tab screens: the BBC NEWS mark and the tab's actions."""
    t = theme()
    mark = text("BBC NEWS", size=54, bold=True, fg=t.on_primary, rid="bbc_logo", desc="BBC News", weight=1)
    return row(mark, *actions, h=168, bg=RED, pad=(44, 0, 16, 0), valign="center", rid="toolbar")


def bar_action(icon: str, desc: str, on_tap: Callable[[], None], rid: str) -> Node:
    return icon_button(icon, desc, on_tap, rid=rid, fg=theme().on_primary)


def open_story(ctx: AppContext, story_id: str) -> None:
    """Open a story where it lives (a live page or an article) and record it as read."""
    model.remember_read(ctx.state, story_id)
    ctx.go("live" if content.catalogue()[story_id]["live"] else "article", id=story_id)


def picture(item: dict[str, Any]) -> str:
    return f"{'sport' if item['section'] == 'sport' else 'news'}:{item['id']}"


def meta_line(ctx: AppContext, item: dict[str, Any]) -> Node:
    """'LIVE' / '2h | Technology' under a headline."""
    live = text("LIVE", "overline", fg=RED, bold=True, rid="live_badge") if item["live"] else None
    when = f"{model.ago(ctx.state, item['id'])} | {content.SECTIONS[item['section']]}"
    video = text("Video", "overline", bold=True, rid="video_badge") if item["video"] else None
    return row(live, text(when, "caption", rid="story_meta"), video, gap=16, valign="center", h=48)


def story_row(ctx: AppContext, story_id: str, lead: Node | None = None, rid: str = "story_card") -> Node:
    """A listed story: picture beside its headline and when it went up; `lead` goes first (a rank)."""
    item = content.catalogue()[story_id]
    width, height = ROW_PICTURE
    return row(
        lead,
        image(picture(item), width, height, desc=item["headline"], radius=8),
        column(
            text(item["headline"], "subtitle", rid="story_headline", max_lines=3),
            meta_line(ctx, item),
            weight=1,
            gap=10,
        ),
        on_tap=lambda: open_story(ctx, story_id),
        desc=item["headline"],
        rid=rid,
        pad=(40, 28, 40, 28),
        gap=28,
        valign="start",
        bg=theme().surface,
    )


def lead_card(ctx: AppContext, story_id: str) -> Node:
    """The first story of a feed: a wide picture, a large headline and the summary."""
    item = content.catalogue()[story_id]
    return column(
        image(picture(item), 1000, 560, desc=item["headline"], radius=8),
        text(item["headline"], "headline", rid="story_headline", max_lines=3),
        text(item["summary"], "body_small", rid="story_summary", max_lines=3),
        meta_line(ctx, item),
        on_tap=lambda: open_story(ctx, story_id),
        desc=item["headline"],
        rid="story_card",
        pad=(40, 32, 40, 32),
        gap=16,
        bg=theme().surface,
    )


def story_list(ctx: AppContext, key: str, ids: Sequence[str], *top: Node | None, lead: bool = False) -> Node:
    """A scrolling feed: optional header nodes, then the stories (the first as a lead card if asked)."""
    cards = [lead_card(ctx, sid) if lead and i == 0 else story_row(ctx, sid) for i, sid in enumerate(ids)]
    return scroll_list(key, [n for n in top if n is not None] + cards, rid="story_list", gap=2,
                       bg=theme().divider)  # fmt: skip


def empty_note(message: str, rid: str = "empty_message") -> Node:
    return text(message, "body", fg=theme().muted, align="center", pad=(60, 120, 60, 60), rid=rid)
