"""The BBC News stand-in's stories: the fixed catalogue from articles.yaml (ids, web slugs, related stories,
body paragraphs and live updates derived from each story, so they never change between resets) and the
seeded edition a reset publishes (when each story went up, the editorial order of every section, Top
Stories and the Most read / Most watched charts)."""

from __future__ import annotations

import random
import zlib
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from ..textmatch import contains_words

DATA = yaml.safe_load(Path(__file__).with_name("articles.yaml").read_text(encoding="utf-8"))
SECTIONS: dict[str, str] = {s["key"]: s["name"] for s in DATA["sections"]}  # key -> tab label, in tab order
TOP = "top"  # the Home tab's own feed, before the sections
CHART_SIZE = 10
RELATED = 3

QUOTES = (
    '"This is a significant moment," one person closely involved told the BBC. "We will be judged on what happens next."',
    "Officials said they were studying the details carefully and would set out their response in the coming days.",
    "Critics were quick to respond, saying the announcement did not go far enough and left important questions unanswered.",
)
CONTEXT = (  # topics are named as the app's coverage pages are, so they keep their capitals
    "It is the latest in a run of developments BBC News has followed closely this year; there is more in our {topics} coverage.",
    "The pressures behind it have been building for months, as readers of our {topics} coverage will know.",
    "Analysts say it could shape the debate well beyond the people it affects directly. Find more in our {topics} coverage.",
)
NEXT = (
    "More details are expected later this week, and we will update this story as we learn more.",
    "Those involved say they hope to agree the next steps before the end of the month.",
    "A full report is due to be published in the new year.",
)
LIVE_UPDATES = (
    "Welcome to our live coverage. Stay with us for the latest updates, reaction and analysis.",
    "Our correspondent at the scene says the mood has changed noticeably over the last hour.",
    "Here is a quick recap of what we know so far: {summary}",
    "We have just heard from officials, who say a statement is expected shortly.",
    "Thank you for your messages. Many of you have been asking what this means for you; we will answer some of your questions here.",
    "That is all from us for now. You can find more on the story across the BBC News website and app.",
)


@cache
def catalogue() -> dict[str, dict[str, Any]]:
    """Every story by id, in section order, with what can be derived from its text alone."""
    stories: dict[str, dict[str, Any]] = {}
    for section in DATA["sections"]:
        for item in section["articles"]:
            story_id = str(60_000_000 + zlib.crc32(item["headline"].encode()) % 9_000_000)
            if story_id in stories:
                raise ValueError(f"articles.yaml: two stories share the id {story_id}")
            stories[story_id] = {
                "id": story_id,
                "headline": item["headline"],
                "summary": item["summary"],
                "section": section["key"],
                "slug": section["slug"],
                "topics": list(item["topics"]),
                "video": bool(item.get("video")),
                "live": bool(item.get("live")),
            }
    for story in stories.values():
        story["related"] = related_ids(story, stories)
    return stories


def related_ids(story: dict[str, Any], stories: dict[str, dict[str, Any]]) -> list[str]:
    """The stories an article links to: most shared topics first, then its own section, catalogue order."""
    topics = set(story["topics"])

    def closeness(other: dict[str, Any]) -> tuple[int, int]:
        return -len(topics & set(other["topics"])), other["section"] != story["section"]

    others = [s for s in stories.values() if s["id"] != story["id"]]
    return [s["id"] for s in sorted(others, key=closeness)[:RELATED]]


def story(story_id: str) -> dict[str, Any] | None:
    return catalogue().get(story_id)


@cache
def topics() -> tuple[str, ...]:
    """Every topic a story is filed under, alphabetically: the list My News offers to follow."""
    return tuple(sorted({t for s in catalogue().values() for t in s["topics"]}, key=str.casefold))


def web_url(item: dict[str, Any]) -> str:
    """The story's address on bbc.com, as Share > Copy link gives it."""
    if item["live"]:
        return f"https://www.bbc.com/news/live/{item['id']}"
    return f"https://www.bbc.com/news/{item['slug']}-{item['id']}"


def pick(options: tuple[str, ...], story_id: str, salt: str) -> str:
    """One of `options`, fixed by the story's id, so a story reads the same after every reset."""
    return options[zlib.crc32(f"{salt}:{story_id}".encode()) % len(options)]


def paragraphs(item: dict[str, Any]) -> list[str]:
    names = " and ".join(item["topics"])
    return [
        item["summary"],
        pick(QUOTES, item["id"], "quote"),
        pick(CONTEXT, item["id"], "context").format(topics=names),
        pick(NEXT, item["id"], "next"),
    ]


def live_updates(item: dict[str, Any], published: str, fetched_at: str) -> list[tuple[datetime, str]]:
    """A live page's posts, newest first, spread evenly from when the page opened to the latest fetch."""
    start, end = datetime.fromisoformat(published), datetime.fromisoformat(fetched_at)
    step = (end - start) / len(LIVE_UPDATES)
    posts = [(start + step * i, text.format(**item)) for i, text in enumerate(LIVE_UPDATES)]
    return posts[::-1]


def matches(item: dict[str, Any], query: str) -> bool:
    """Search reads the headline, the summary, the topics and the section, forgiving word order and plurals."""
    haystack = " ".join((item["headline"], item["summary"], *item["topics"], SECTIONS[item["section"]]))
    return bool(query.strip()) and contains_words(haystack, query)


# -- the seeded edition --------------------------------------------------------------------------------


def edition(rng: random.Random, now: datetime) -> dict[str, Any]:
    """What a reset publishes: when each story went up (4 minutes to a day and a half before `now`), each
    section's running order, Top Stories (every section's lead, then a few more) and the two charts."""
    stories = catalogue()
    published = {
        sid: (now - timedelta(minutes=rng.randint(4, 36 * 60))).isoformat(timespec="seconds")
        for sid in stories
    }
    order: dict[str, list[str]] = {}
    for key in SECTIONS:
        ids = [sid for sid, s in stories.items() if s["section"] == key]
        rng.shuffle(ids)
        order[key] = ids
    leads = [ids[0] for ids in order.values()]
    rng.shuffle(leads)
    seconds = [order[key][1] for key in rng.sample(sorted(SECTIONS), 3)]
    videos = [sid for sid, s in stories.items() if s["video"]]
    return {
        "fetched_at": now.isoformat(timespec="seconds"),
        "published": published,
        "order": order,
        "top_stories": leads + seconds,
        "most_read": rng.sample(sorted(stories), CHART_SIZE),
        "most_watched": rng.sample(sorted(videos), CHART_SIZE),
    }


def ago(published: str, fetched_at: str) -> str:
    """'12m', '3h', '1d': how long before the feed was fetched a story went up, as the cards print it."""
    minutes = int(
        (datetime.fromisoformat(fetched_at) - datetime.fromisoformat(published)).total_seconds() // 60
    )
    if minutes < 60:
        return f"{max(minutes, 1)}m"
    if minutes < 24 * 60:
        return f"{minutes // 60}h"
    return f"{minutes // (24 * 60)}d"
