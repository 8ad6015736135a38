"""The reader's side of BBC News as pure functions over the app's state: followed topics, saved stories,
reading history, recent searches, settings, and the feeds built from the seeded edition."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from . import content

TEXT_SIZES = {"small": ("Small", 36), "medium": ("Medium", 42), "large": ("Large", 50), "extra_large": ("Extra large", 58)}  # fmt: skip
NOTIFICATIONS = {
    "breaking_news": "Breaking news",
    "top_stories": "Top stories",
    "uk": "UK",
    "business": "Business",
    "technology": "Technology",
    "sport": "Sport",
    "live": "Live pages",
}
ON_BY_DEFAULT = ("breaking_news", "top_stories")
STARTER_TOPICS = ("UK politics", "Football", "Space", "Music", "Economy", "Weather")
HISTORY_SIZE = 50
RECENT_SEARCHES = 5


def initial_state(rng: random.Random, now: datetime) -> dict[str, Any]:
    """A reader who follows two topics and saved two stories in the last few days."""
    edition = content.edition(rng, now)
    saved = [
        saved_entry(sid, now - timedelta(hours=rng.randint(5, 72)))
        for sid in rng.sample(sorted(content.catalogue()), 2)
    ]
    return {
        "edition": edition,
        "followed_topics": sorted(rng.sample(STARTER_TOPICS, 2), key=str.casefold),
        "saved": sorted(saved, key=lambda s: s["saved_at"], reverse=True),
        "settings": {"text_size": "medium", "notifications": {k: k in ON_BY_DEFAULT for k in NOTIFICATIONS}},
        "history": [],
        "recent_searches": [],
    }


# -- saving, following, reading ------------------------------------------------------------------------


def saved_entry(story_id: str, when: datetime) -> dict[str, Any]:
    item = content.catalogue()[story_id]
    return {
        "id": story_id,
        "headline": item["headline"],
        "section": item["section"],
        "saved_at": when.isoformat(timespec="seconds"),
    }


def is_saved(state: dict[str, Any], story_id: str) -> bool:
    return any(s["id"] == story_id for s in state["saved"])


def toggle_saved(state: dict[str, Any], story_id: str, now: datetime) -> bool:
    """Save a story (newest first) or remove it; returns whether it is saved now."""
    if is_saved(state, story_id):
        state["saved"] = [s for s in state["saved"] if s["id"] != story_id]
        return False
    state["saved"].insert(0, saved_entry(story_id, now))
    return True


def toggle_topic(state: dict[str, Any], topic: str) -> bool:
    """Follow or unfollow a topic; the list stays alphabetical. Returns whether it is followed now."""
    followed = set(state["followed_topics"])
    now_following = topic not in followed
    followed.symmetric_difference_update({topic})
    state["followed_topics"] = sorted(followed, key=str.casefold)
    return now_following


def remember_read(state: dict[str, Any], story_id: str) -> None:
    """Reading history, most recent first, each story once."""
    state["history"] = [story_id, *(h for h in state["history"] if h != story_id)][:HISTORY_SIZE]


def remember_search(state: dict[str, Any], query: str) -> None:
    query = " ".join(query.split())
    if query:
        kept = [q for q in state["recent_searches"] if q.casefold() != query.casefold()]
        state["recent_searches"] = [query, *kept][:RECENT_SEARCHES]


def text_px(state: dict[str, Any]) -> int:
    """The article body's size for the chosen text size."""
    return TEXT_SIZES[state["settings"]["text_size"]][1]


# -- feeds ---------------------------------------------------------------------------------------------


def published(state: dict[str, Any], story_id: str) -> str:
    stamp: str = state["edition"]["published"][story_id]
    return stamp


def ago(state: dict[str, Any], story_id: str) -> str:
    return content.ago(published(state, story_id), state["edition"]["fetched_at"])


def newest_first(state: dict[str, Any], ids: list[str]) -> list[str]:
    return sorted(ids, key=lambda sid: published(state, sid), reverse=True)


def section_feed(state: dict[str, Any], section: str) -> list[str]:
    """A Home tab's running order: Top Stories, or one section's stories with its lead first."""
    edition = state["edition"]
    return list(edition["top_stories"] if section == content.TOP else edition["order"][section])


def my_news_feed(state: dict[str, Any]) -> list[str]:
    """Stories filed under any followed topic, newest first."""
    followed = set(state["followed_topics"])
    stories = content.catalogue()
    return newest_first(state, [sid for sid, s in stories.items() if followed & set(s["topics"])])


def videos(state: dict[str, Any]) -> list[str]:
    return newest_first(state, [sid for sid, s in content.catalogue().items() if s["video"]])


def search(state: dict[str, Any], query: str) -> list[str]:
    """Stories matching every word of the query: those whose headline has them all first, each group
    in the section running order the app lists them in."""
    stories = content.catalogue()
    found = [sid for sid, s in stories.items() if content.matches(s, query)]
    in_headline = {
        sid for sid in found if content.matches({**stories[sid], "summary": "", "topics": []}, query)
    }
    return sorted(found, key=lambda sid: sid not in in_headline)
