"""The reader's own screens: My News (the feed of followed topics) and Add topics, Saved items, Settings
(text size, notifications) and the Search tab."""

from __future__ import annotations

from collections.abc import Callable

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    app_bar,
    button,
    choice_dialog,
    column,
    flow,
    icon_button,
    label_value,
    row,
    scroll_list,
    scroll_page,
    search_field,
    section_header,
    switch,
    text,
)
from ..textmatch import contains_words
from . import content, model
from .common import RED, brand_bar, empty_note, nav, story_list, story_row

VERSION = "7.4.1"


def my_news(ctx: AppContext) -> Node:
    followed = ctx.state["followed_topics"]
    t = theme()
    pills = [text(topic, "label", fg=RED, bg=t.pale, radius=40, pad=(28, 12, 28, 12), rid="followed_topic")
             for topic in followed]  # fmt: skip
    header = column(
        text("Your topics", "heading", rid="section_title"),
        flow(*pills, gap=16) if pills else text("You are not following any topics yet.", "body_small"),
        button("Add topics", ctx.link("topics"), rid="add_topics_button", colour=RED, w=420),
        pad=(40, 32, 40, 32),
        gap=24,
        bg=t.surface,
    )
    ids = model.my_news_feed(ctx.state)
    feed = story_list(ctx, "my_news_feed", ids, header) if ids else column(header, empty_note(
        "Follow topics to build your own feed of stories."), weight=1)  # fmt: skip
    return column(brand_bar(ctx), feed, nav(ctx, "my_news"), bg=t.background)


def topics(ctx: AppContext) -> Node:
    """Add topics: every topic with Follow / Following, narrowed by the search box as you type."""
    query = ctx.ui.get("topic_query", "")
    shown = [topic for topic in content.topics() if contains_words(topic, query)]
    followed = set(ctx.state["followed_topics"])
    t = theme()

    def topic_row(topic: str) -> Node:
        on = topic in followed
        state = text("Following" if on else "Follow", "label", fg=t.on_primary if on else RED,
                     bg=RED if on else None, border=RED, radius=40, w=270, h=84, align="center")  # fmt: skip
        return row(
            text(topic, "body", rid="topic_name", weight=1, max_lines=1),
            state,
            on_tap=lambda: model.toggle_topic(ctx.state, topic),
            selected=on,
            desc=f"{topic}, {'following' if on else 'not following'}",
            rid="topic_row",
            h=140,
            pad=(40, 0, 40, 0),
            valign="center",
            bg=t.surface,
        )

    rows = [topic_row(topic) for topic in shown] or [empty_note(f"No topics match “{query}”.")]
    return column(
        app_bar("Add topics", ctx.back),
        row(search_field("topic_query", "Search topics", None, rid="topic_search", value=query),
            pad=(32, 20, 32, 20), bg=t.surface),
        scroll_list("topics", rows, rid="topic_list", gap=2, bg=t.divider),
    )  # fmt: skip


def saved(ctx: AppContext) -> Node:
    entries = ctx.state["saved"]
    t = theme()

    def saved_row(story_id: str) -> Node:
        card = story_row(ctx, story_id, rid="saved_item")
        card.weight = 1
        headline = content.catalogue()[story_id]["headline"]

        def unsave() -> None:
            model.toggle_saved(ctx.state, story_id, ctx.now())

        remove = icon_button(
            "close", f"Remove {headline} from Saved items", unsave, rid="remove_saved_button"
        )
        return row(card, remove, valign="center", bg=t.surface, pad=(0, 0, 16, 0))

    rows = [saved_row(entry["id"]) for entry in entries]
    body = scroll_list("saved", rows, rid="saved_list", gap=2, bg=t.divider) if rows else empty_note(
        "Stories you save appear here.")  # fmt: skip
    return column(app_bar(f"Saved items ({len(entries)})", ctx.back), body, bg=t.background)


def settings(ctx: AppContext) -> Node:
    chosen = ctx.state["settings"]
    notes = chosen["notifications"]

    def toggler(key: str) -> Callable[[], None]:
        def flip() -> None:
            notes[key] = not notes[key]

        return flip

    switches = [switch(label, notes[key], toggler(key), rid="notification_switch")
                for key, label in model.NOTIFICATIONS.items()]  # fmt: skip
    size_row = row(
        text("Text size", "body", weight=1),
        text(model.TEXT_SIZES[chosen["text_size"]][0], "body_small", fg=RED, rid="text_size_value"),
        on_tap=ctx.opener("text_size"),
        desc="Text size",
        rid="text_size_setting",
        h=150,
        pad=(48, 0, 48, 0),
        valign="center",
    )
    return column(
        app_bar("Settings", ctx.back),
        scroll_page("settings", section_header("Display"), size_row, section_header("Notifications"), *switches,
                    section_header("About"), label_value("Version", VERSION), bg=theme().surface),
    )  # fmt: skip


def text_size_dialog(ctx: AppContext) -> Node:
    def pick(key: str) -> None:
        ctx.state["settings"]["text_size"] = key
        ctx.close()

    choices = {key: label for key, (label, _) in model.TEXT_SIZES.items()}
    current = ctx.state["settings"]["text_size"]
    return choice_dialog("Text size", choices, current, pick, ctx.close, option_rid="text_size_option")


def search(ctx: AppContext) -> Node:
    query = ctx.args.get("query", "")
    t = theme()

    def submit(value: str) -> None:
        ctx.args["query"] = " ".join(value.split())
        model.remember_search(ctx.state, value)
        ctx.ui.get("scroll", {}).pop("results", None)

    box = row(search_field("query", "Search BBC News", submit, rid="search_box", value=query),
              pad=(32, 20, 32, 20), bg=t.surface)  # fmt: skip
    if not query:
        recent = [text(q, "body", on_tap=lambda q=q: submit(q), rid="recent_search", pad=(40, 24, 40, 24))
                  for q in ctx.state["recent_searches"]]  # fmt: skip
        rows = (
            [section_header("Recent searches"), *recent]
            if recent
            else [empty_note("Search for stories and topics.")]
        )
        body = scroll_list("recent", rows, rid="recent_list")
    else:
        ids = model.search(ctx.state, query)
        count = text(f"{len(ids)} results for “{query}”", "caption", rid="result_count", pad=(40, 24, 40, 16),
                     bg=t.surface)  # fmt: skip
        body = story_list(ctx, "results", ids, count) if ids else empty_note(f"No results for “{query}”.")
    return column(box, body, nav(ctx, "search"), bg=t.background)
