"""The tab screens that list the edition: Home (Top Stories and one tab per section), Popular (Most read,
Most watched) and Video."""

from __future__ import annotations

from ...app import AppContext
from ...theme import theme
from ...ui import Node, measure_width
from ...widgets import column, row, scroll_list, tabs, text
from . import content, model
from .common import RED, bar_action, brand_bar, nav, story_list, story_row

CHARTS = (("read", "Most read"), ("watched", "Most watched"))
SCREEN_WIDTH = 1080


def section_tabs(ctx: AppContext, current: str) -> Node:
    """The sideways strip of Home tabs; picking one swaps the feed in place and centres the tab."""

    def pick(key: str) -> None:
        if key == content.TOP:  # the feed the app opens on carries no section, however it is reached
            ctx.args.pop("section", None)
        else:
            ctx.args["section"] = key
        ctx.ui.get("scroll", {}).pop("home_feed", None)
        ctx.ui["reveal_tab"] = True

    labels = {content.TOP: "Top Stories", **content.SECTIONS}
    cells = [
        column(
            text(label, "label", fg=RED if key == current else theme().muted, h=100, valign="center"),
            row(h=8, bg=RED if key == current else None),
            on_tap=lambda key=key: pick(key),
            selected=key == current,
            desc=label,
            rid="section_tab",
            pad=(28, 0, 28, 0),
        )
        for key, label in labels.items()
    ]
    offsets = ctx.ui.setdefault("scroll", {})
    if "section_tabs" not in offsets or ctx.ui.pop("reveal_tab", False):
        reveal(offsets, cells, list(labels).index(current))
    return scroll_list("section_tabs", cells, rid="section_tabs", horizontal=True, h=112, bg=theme().surface)


def reveal(offsets: dict[str, int], cells: list[Node], index: int) -> None:
    """Scroll the strip so the chosen tab sits mid-screen, as Material tabs do (layout clamps the ends)."""
    widths = [measure_width(cell) for cell in cells]
    offsets["section_tabs"] = max(0, sum(widths[:index]) + widths[index] // 2 - SCREEN_WIDTH // 2)


def home(ctx: AppContext) -> Node:
    section = ctx.args.get("section", content.TOP)
    heading = None
    if section != content.TOP:
        heading = text(content.SECTIONS[section], "headline", rid="section_heading", pad=(40, 32, 40, 8),
                       bg=theme().surface)  # fmt: skip
    return column(
        brand_bar(
            ctx,
            bar_action("bookmark", "Saved items", ctx.link("saved"), rid="saved_button"),
            bar_action("settings", "Settings", ctx.link("settings"), rid="settings_button"),
        ),
        section_tabs(ctx, section),
        story_list(ctx, "home_feed", model.section_feed(ctx.state, section), heading, lead=True),
        nav(ctx, "home"),
        bg=theme().background,
    )


def popular(ctx: AppContext) -> Node:
    chart = ctx.args.get("chart", "read")
    keys = [key for key, _ in CHARTS]

    def pick(i: int) -> None:
        ctx.args["chart"] = keys[i]
        ctx.ui.get("scroll", {}).pop("chart", None)

    edition = ctx.state["edition"]
    ids = edition["most_read"] if chart == "read" else edition["most_watched"]
    ranked = [
        story_row(ctx, sid, lead=text(str(rank), "display", fg=RED, w=70, rid="chart_rank"))
        for rank, sid in enumerate(ids, start=1)
    ]
    return column(
        brand_bar(ctx),
        tabs([label for _, label in CHARTS], keys.index(chart), pick, colour=RED, rid="chart_tabs"),
        scroll_list("chart", ranked, rid="story_list", gap=2, bg=theme().divider),
        nav(ctx, "popular"),
        bg=theme().background,
    )


def video(ctx: AppContext) -> Node:
    heading = text("Latest videos", "heading", pad=(40, 36, 40, 20), rid="section_title", bg=theme().surface)
    return column(
        brand_bar(ctx),
        story_list(ctx, "videos", model.videos(ctx.state), heading, lead=True),
        nav(ctx, "video"),
        bg=theme().background,
    )
