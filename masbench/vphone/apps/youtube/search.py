"""Search: the query screen with suggestions, the results (channels, playlists and videos) and the
Search filters sheet (upload date, type, duration, sort by). The query and filters are the results
screen's arguments, so a task can read what is shown."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    bottom_sheet,
    button,
    chips,
    column,
    icon_button,
    list_item,
    row,
    scroll_list,
    search_field,
    spacer,
    text,
)
from . import content as c
from . import model
from .common import avatar, empty, open_search, video_row
from .watch import subscribe_button

FILTER_SECTIONS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("upload", "Upload date", {k: label for k, (label, _) in model.UPLOAD_DATES.items()}),
    ("type", "Type", model.TYPES),
    ("duration", "Duration", {k: label for k, (label, _, _) in model.DURATIONS.items()}),
    ("sort", "Sort by", model.SORTS),
)


def results_args(query: str, **filters: Any) -> dict[str, Any]:
    return {"query": query, "upload": None, "type": None, "duration": None, "sort": "relevance", **filters}


def run_search(ctx: AppContext, query: str) -> None:
    """Show results for `query` in place of the search screen (Back returns to where search began)."""
    query = " ".join(query.split())
    if not query:
        return
    model.remember_search(ctx.state, query)
    ctx.replace("results", **results_args(query))


def build_search(ctx: AppContext) -> Node:
    typed = str(ctx.ui.get("query", ""))
    field = search_field("query", "Search YouTube", lambda value: run_search(ctx, value),
                         rid="search_edit_text", value=typed)  # fmt: skip
    recent = set(ctx.state["searches"])
    hints = [
        list_item(s, icon="history" if s in recent else "search", on_tap=partial(run_search, ctx, s),
                  rid="search_suggestion", desc=s)
        for s in model.suggestions(ctx.state, typed)
    ]  # fmt: skip
    return column(
        row(icon_button("back", "Navigate up", ctx.back, rid="navigate_up"), field, pad=(16, 16, 32, 16), gap=8,
            valign="center"),
        scroll_list("suggestions", hints, rid="suggestions_list"),
        bg=theme().surface,
    )  # fmt: skip


def channel_result(ctx: AppContext, ch: c.Channel) -> Node:
    return row(
        avatar(ch, 200),
        column(text(ch.name, "subtitle", max_lines=1, rid="channel_title"),
               text(f"@{ch.handle} · {c.compact(ch.subscribers)} subscribers", "caption", max_lines=2),
               subscribe_button(ctx, ch), weight=1, gap=10),
        pad=(60, 28, 40, 28), gap=60, valign="center", on_tap=ctx.link("channel", channel_id=ch.id),
        desc=ch.name, rid="channel_result",
    )  # fmt: skip


def playlist_result(ctx: AppContext, ch: c.Channel) -> Node:
    videos = c.channel_playlist(ch.id)
    return row(
        avatar(ch, 160),
        column(text(ch.playlist, "subtitle", max_lines=1, rid="playlist_title"),
               text(f"{ch.name} · Playlist · {len(videos)} videos", "caption", max_lines=2), weight=1, gap=8),
        pad=(40, 28, 40, 28), gap=40, valign="center",
        on_tap=ctx.link("playlist", list_id=model.channel_playlist_id(ch)), desc=ch.playlist, rid="playlist_result",
    )  # fmt: skip


def build_results(ctx: AppContext) -> Node:
    args = ctx.args
    t = theme()
    found = model.search(args["query"], args)
    builders: dict[str, Callable[[Any], Node]] = {
        "channel": lambda ch: channel_result(ctx, ch),
        "playlist": lambda ch: playlist_result(ctx, ch),
        "video": lambda v: video_row(ctx, v),
    }
    listing = (
        scroll_list("results", [builders[kind](item) for kind, item in found], rid="results")
        if found
        else empty("No results found", "Try different keywords or remove search filters")
    )
    box = text(args["query"], "body", max_lines=1, bg=t.pale, radius=60, h=120, pad=(40, 0, 40, 0), weight=1,
               on_tap=lambda: open_search(ctx, args["query"]), rid="search_query", desc="Search YouTube")  # fmt: skip
    active = sum(bool(args.get(k)) for k in model.FILTER_KEYS) + (
        args.get("sort", "relevance") != "relevance"
    )
    filters = icon_button("filter", f"Search filters{f' ({active} applied)' if active else ''}",
                          ctx.opener("filters", pending={k: args.get(k) for k, _, _ in FILTER_SECTIONS}),
                          rid="filter_button")  # fmt: skip
    filters.selected = bool(active)
    return column(
        row(icon_button("back", "Navigate up", ctx.back, rid="navigate_up"), box, filters,
            pad=(16, 16, 16, 16), gap=8, valign="center"),
        listing,
        bg=t.surface,
    )  # fmt: skip


def filters_sheet(ctx: AppContext) -> Node:
    """Search filters: one choice per section; tapping the chosen one again clears it; Apply reruns."""
    pending = ctx.dialog_args["pending"]

    def pick(key: str, value: str) -> Callable[[], None]:
        def run() -> None:
            default = "relevance" if key == "sort" else None
            pending[key] = default if pending.get(key) == value else value

        return run

    sections: list[Node] = []
    for key, title, choices in FILTER_SECTIONS:
        current = pending.get(key) or ("relevance" if key == "sort" else None)
        sections.append(text(title.upper(), "overline", bold=True, pad=(48, 20, 48, 0)))
        sections.append(chips([(label, value == current, pick(key, value)) for value, label in choices.items()],
                              rid="filter_chip", pad=(40, 8, 40, 8)))  # fmt: skip

    def apply() -> None:
        ctx.args.update(pending)
        ctx.args["sort"] = ctx.args.get("sort") or "relevance"
        ctx.close()
        ctx.ui.get("scroll", {}).pop("results", None)

    ink = theme().ink
    buttons = row(
        spacer(weight=1), button("Apply", apply, rid="apply_button", colour=ink), pad=(48, 16, 48, 0)
    )
    return bottom_sheet("Search filters", [*sections, buttons], ctx.close, rid="filters_sheet")
