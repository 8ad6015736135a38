"""YouTube's model: the seeded library of a signed-in user (subscriptions, history, Watch later, liked
videos, playlists), search with YouTube's filters, and the pure state changes every screen shares.

The state holds ids only; `public_state` spells them out with their channel, so a check reads
`watch_later` items by `video_id` and `subscriptions` by `channel_id`; the user's own playlists are its
`lists` (a list the user names is identified by that name, `lists.N.name`)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any, TypedDict

from ..textmatch import contains_words, fold, words
from . import content as c

WATCH_LATER = "WL"
LIKED = "LL"
PRIVACY = {"public": "Public", "unlisted": "Unlisted", "private": "Private"}
UPLOAD_DATES = {"hour": ("Last hour", 1), "today": ("Today", 24), "week": ("This week", 24 * 7),
                "month": ("This month", 24 * 30), "year": ("This year", 24 * 365)}  # fmt: skip
TYPES = {"video": "Video", "channel": "Channel", "playlist": "Playlist", "movie": "Movie"}
DURATIONS = {"short": ("Under 4 minutes", 0, 240), "medium": ("4 - 20 minutes", 240, 1200),
             "long": ("Over 20 minutes", 1200, 10**9)}  # fmt: skip
SORTS = {"relevance": "Relevance", "date": "Upload date", "views": "View count", "rating": "Rating"}
FILTER_KEYS = ("upload", "type", "duration")
SPEEDS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0)
PLAYLIST_NAMES = ("Favourites", "Music for focus", "Try this weekend", "Learn something")
SEARCH_POOL = ("lofi", "home workout", "bread baking", "minecraft", "space documentary", "guitar lesson")


class Playlist(TypedDict):
    """One of the user's own playlists, as `state["playlists"]` holds it."""

    id: str
    name: str
    privacy: str  # a key of PRIVACY
    videos: list[str]  # video ids, in play order


# -- the seeded library --------------------------------------------------------------------------------


def initial_state(rng: random.Random, now: datetime) -> dict[str, Any]:
    """A signed-in user's library: five subscriptions, ten watched videos, a few saved and liked ones and
    one playlist of their own."""
    regular = sorted(v.id for v in c.videos().values() if v.kind == "video")
    watched = rng.sample(regular, 10)
    history = [
        {"video_id": vid, "watched_at": (now - timedelta(hours=3 * (i + 1))).isoformat()}
        for i, vid in enumerate(watched)
    ]
    rest = [vid for vid in regular if vid not in watched]
    name = rng.choice(PLAYLIST_NAMES)
    return {
        "epoch": now.isoformat(),
        "subscriptions": sorted(rng.sample(sorted(c.channels()), 5), key=channel_order),
        "history": history,
        "watch_later": rng.sample(rest, 4),
        "liked": rng.sample(watched, 3),
        "disliked": [],
        "playlists": [
            Playlist(id=playlist_id(name, 0), name=name, privacy="private", videos=rng.sample(rest, 3))
        ],
        "comments": [],
        "settings": {},
        "now_playing": None,
        "downloads": [],
        "searches": rng.sample(SEARCH_POOL, 3),
        "next_playlist": 1,
    }


def channel_order(channel_id: str) -> int:
    return list(c.channels()).index(channel_id)


def playlist_id(name: str, serial: int) -> str:
    return "PL" + c.token(f"{name}:{serial}", 32)


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    def clip(vid: str) -> dict[str, Any]:
        v = c.video(vid)
        return {"video_id": vid, "channel_id": v.channel_id if v else None, "title": v.title if v else None}

    def chan(cid: str) -> dict[str, Any]:
        ch = c.channel(cid)
        return {"channel_id": cid, "handle": "@" + ch.handle if ch else None, "name": ch.name if ch else None}

    return {
        "subscriptions": [chan(cid) for cid in state["subscriptions"]],
        "lists": [{**p, "videos": [clip(v) for v in p["videos"]]} for p in state["playlists"]],
        "watch_later": [clip(v) for v in state["watch_later"]],
        "liked": [clip(v) for v in state["liked"]],
        "disliked": [clip(v) for v in state["disliked"]],
        "history": [{**clip(h["video_id"]), "watched_at": h["watched_at"]} for h in state["history"]],
        "comments": list(state["comments"]),
        "settings": [{"video_id": vid, **s} for vid, s in state["settings"].items()],
        "now_playing": state["now_playing"],
        "downloads": [clip(v) for v in state["downloads"]],
        "searches": list(state["searches"]),
    }


def epoch(state: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(state["epoch"])


# -- search --------------------------------------------------------------------------------------------


def matches(v: c.Video, query: str) -> bool:
    return contains_words(f"{v.title} {c.channel_of(v).name}", query)


def relevance(v: c.Video, query: str) -> tuple[int, int]:
    """Title words first (a channel-name match ranks below), then popularity."""
    title = words(v.title)
    hits = sum(any(t.startswith(w) for t in title) for w in words(query))
    return (-hits, -v.views)


def search_videos(query: str, args: dict[str, Any]) -> list[c.Video]:
    """Videos for a query under the Filters sheet's upload date, duration and sort order."""
    found = [v for v in c.videos().values() if matches(v, query)]
    if args.get("upload"):
        limit = UPLOAD_DATES[args["upload"]][1]
        found = [v for v in found if v.age_hours < limit]
    if args.get("duration"):
        _, low, high = DURATIONS[args["duration"]]
        found = [v for v in found if v.kind != "live" and low <= v.seconds < high]
    order = args.get("sort") or "relevance"
    keys = {
        "relevance": lambda v: relevance(v, query),
        "date": lambda v: (v.age_hours, -v.views),
        "views": lambda v: (-v.views,),
        "rating": lambda v: (-v.likes / max(v.views, 1), -v.views),
    }
    return sorted(found, key=keys[order])


def search_channels(query: str) -> list[c.Channel]:
    q = fold(query).replace(" ", "")
    return [
        ch
        for ch in c.channels().values()
        if contains_words(ch.name, query) or (q and ch.handle.startswith(q.lstrip("@")))
    ]


def search(query: str, args: dict[str, Any]) -> list[tuple[str, Any]]:
    """Result rows as (kind, item): channels, channel playlists or videos, as the Type filter asks. With no
    type, a matching channel leads the videos unless an upload date or duration filter is on."""
    kind = args.get("type")
    if kind == "movie":
        return []
    if kind == "channel":
        return [("channel", ch) for ch in search_channels(query)]
    if kind == "playlist":
        return [("playlist", ch) for ch in c.channels().values()
                if contains_words(f"{ch.playlist} {ch.name}", query)]  # fmt: skip
    rows: list[tuple[str, Any]] = []
    if kind is None and not args.get("upload") and not args.get("duration"):
        rows += [("channel", ch) for ch in search_channels(query)[:1]]
    return rows + [("video", v) for v in search_videos(query, args)]


def suggestions(state: dict[str, Any], typed: str) -> list[str]:
    """Recent searches that start with what is typed, then titles that contain it (lower case, as the app
    suggests them)."""
    typed_f = fold(typed).strip()
    recent = [q for q in state["searches"] if fold(q).startswith(typed_f)]
    if not typed_f:
        return recent
    titles = [v.title.lower() for v in c.videos().values() if contains_words(v.title, typed)]
    return list(dict.fromkeys([*recent, *sorted(titles)]))[:8]


def remember_search(state: dict[str, Any], query: str) -> None:
    state["searches"] = [query, *[q for q in state["searches"] if fold(q) != fold(query)]][:10]


# -- the library ---------------------------------------------------------------------------------------


def watch(state: dict[str, Any], video_id: str, now: datetime) -> None:
    """Start a video: it plays, and it moves to the top of the watch history."""
    entry = {"video_id": video_id, "watched_at": now.isoformat()}
    state["history"] = [entry, *[h for h in state["history"] if h["video_id"] != video_id]]
    state["now_playing"] = {"video_id": video_id, "playing": True}


def toggle(items: list[str], item: str) -> bool:
    """Add `item` at the front or remove it; True when it is now in the list."""
    if item in items:
        items.remove(item)
        return False
    items.insert(0, item)
    return True


def rate(state: dict[str, Any], video_id: str, liked: bool) -> None:
    """Like or dislike; the two exclude each other, and tapping the lit one again clears it."""
    mine, other = ("liked", "disliked") if liked else ("disliked", "liked")
    if toggle(state[mine], video_id) and video_id in state[other]:
        state[other].remove(video_id)


def playlist(state: dict[str, Any], list_id: str) -> Playlist | None:
    return next((p for p in state["playlists"] if p["id"] == list_id), None)


def list_videos(state: dict[str, Any], list_id: str) -> list[str] | None:
    """The video ids of Watch later, Liked videos, a playlist of the user's or a channel's."""
    if list_id in (WATCH_LATER, LIKED):
        saved: list[str] = state["watch_later" if list_id == WATCH_LATER else "liked"]
        return saved
    own = playlist(state, list_id)
    if own is not None:
        return own["videos"]
    ch = channel_of_playlist(list_id)
    return [v.id for v in c.channel_playlist(ch.id)] if ch else None


def list_name(state: dict[str, Any], list_id: str) -> str:
    if list_id == WATCH_LATER:
        return "Watch later"
    if list_id == LIKED:
        return "Liked videos"
    own = playlist(state, list_id)
    if own is not None:
        return own["name"]
    ch = channel_of_playlist(list_id)
    return ch.playlist if ch else "Playlist"


def channel_playlist_id(ch: c.Channel) -> str:
    return "PL" + c.token("channel:" + ch.handle, 32)


def channel_of_playlist(list_id: str) -> c.Channel | None:
    return next((ch for ch in c.channels().values() if channel_playlist_id(ch) == list_id), None)


def toggle_saved(state: dict[str, Any], list_id: str, video_id: str) -> bool:
    """Tick or untick a video in Watch later or one of the user's playlists (newest first / appended)."""
    if list_id == WATCH_LATER:
        return toggle(state["watch_later"], video_id)
    videos = list_videos(state, list_id)
    assert videos is not None and playlist(state, list_id) is not None
    if video_id in videos:
        videos.remove(video_id)
        return False
    videos.append(video_id)
    return True


def create_playlist(state: dict[str, Any], name: str, privacy: str, videos: Iterable[str]) -> str:
    serial = state["next_playlist"]
    state["next_playlist"] = serial + 1
    new = Playlist(id=playlist_id(name, serial), name=name, privacy=privacy, videos=list(videos))
    state["playlists"].append(new)
    return new["id"]


def add_comment(state: dict[str, Any], video_id: str, text: str, now: datetime) -> None:
    state["comments"].append({"video_id": video_id, "text": text, "posted_at": now.isoformat()})


def player_settings(state: dict[str, Any], video_id: str) -> dict[str, Any]:
    chosen: dict[str, Any] = state["settings"].get(video_id, {"captions": "Off", "speed": 1.0})
    return chosen


def set_player(state: dict[str, Any], video_id: str, key: str, value: Any) -> None:
    state["settings"][video_id] = {**player_settings(state, video_id), key: value}


def speed_label(speed: float) -> str:
    return "Normal" if speed == 1.0 else f"{speed:g}x"
