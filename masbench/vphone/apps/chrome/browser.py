"""Chrome's model: pure functions over the app's JSON state (tabs with their back/forward lists,
history, bookmarks and folders, the reading list, downloads, site data and settings), plus the few
navigation steps that also touch the phone (a link that belongs to a verified app, a download)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from ...app import AppContext
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, Intent
from .web import content as web

MOBILE = "Mobile bookmarks"
TIME_RANGES = {  # Clear browsing data's time ranges, as Chrome words them
    "Last 15 minutes": timedelta(minutes=15),
    "Last hour": timedelta(hours=1),
    "Last 24 hours": timedelta(days=1),
    "Last 7 days": timedelta(days=7),
    "Last 4 weeks": timedelta(weeks=4),
    "All time": None,
}
DATA_KINDS = ("Browsing history", "Cookies and site data", "Cached images and files")


def stamp(now: datetime) -> str:
    return now.isoformat(timespec="seconds")


def initial_state(rng: random.Random, now: datetime) -> dict[str, Any]:
    """One new tab open, two news articles bookmarked and one waiting in the reading list; the history
    starts empty (a task's setup adds what it needs)."""
    news = sorted(u for u, p in web.pages().items() if p.site.name == "Harbor Post" and u.count("/") > 3)
    saved = rng.sample(news, 3)
    day = stamp(now - timedelta(days=rng.randint(2, 9)))
    return {
        "tabs": [{"id": 1, "url": web.NEW_TAB, "title": "New tab", "incognito": False, "back": [], "forward": []}],
        "current": 1,
        "next_id": 10,
        "history": [],
        "bookmarks": [
            {"id": i + 1, "url": u, "title": web.title_of(u), "folder": MOBILE} for i, u in enumerate(saved[:2])
        ],
        "folders": [MOBILE],
        "reading_list": [{"url": saved[2], "title": web.title_of(saved[2]), "read": False, "added": day}],
        "downloads": [],
        "site_data": [],
        "settings": {"search_engine": "Google", "homepage": web.NEW_TAB, "desktop_site": False},
        "clear": {"range": "Last 15 minutes", "kinds": list(DATA_KINDS)},
    }  # fmt: skip


# -- tabs ----------------------------------------------------------------------------------------------


def current_tab(state: dict[str, Any]) -> dict[str, Any]:
    """The tab on screen (the last one if the current id is gone, a new one if none is left)."""
    if not state["tabs"]:
        return new_tab(state)
    return next((t for t in state["tabs"] if t["id"] == state["current"]), state["tabs"][-1])


def new_tab(
    state: dict[str, Any], url: str = web.NEW_TAB, incognito: bool = False, select: bool = True
) -> dict[str, Any]:
    tab = {"id": state["next_id"], "url": url, "title": web.title_of(url), "incognito": incognito,
           "back": [], "forward": []}  # fmt: skip
    state["next_id"] += 1
    state["tabs"].append(tab)
    if select:
        state["current"] = tab["id"]
    return tab


def close_tab(state: dict[str, Any], tab_id: int) -> None:
    """Close a tab; the one before it (else after it) becomes current, of the same kind if any is left."""
    tabs = state["tabs"]
    index = next(i for i, t in enumerate(tabs) if t["id"] == tab_id)
    closed = tabs.pop(index)
    if state["current"] != tab_id:
        return
    same = [t for t in tabs if t["incognito"] == closed["incognito"]] or tabs
    if not same:
        new_tab(state)
        return
    before = [t for t in same if tabs.index(t) < index]
    state["current"] = (before[-1] if before else same[0])["id"]


def load(state: dict[str, Any], tab: dict[str, Any], url: str, now: datetime) -> None:
    """Show `url` in `tab` as a new entry of its session history."""
    if tab["url"] != url:
        tab["back"].append(tab["url"])
    tab["forward"] = []
    _show(state, tab, url, now)


def step(state: dict[str, Any], tab: dict[str, Any], forward: bool, now: datetime) -> bool:
    """Back or Forward within a tab; False when there is nowhere to go."""
    source, target = ("forward", "back") if forward else ("back", "forward")
    if not tab[source]:
        return False
    tab[target].append(tab["url"])
    _show(state, tab, tab[source].pop(), now)
    return True


def _show(state: dict[str, Any], tab: dict[str, Any], url: str, now: datetime) -> None:
    url = web.redirect(url)
    tab["url"], tab["title"] = url, web.title_of(url)
    if tab["incognito"] or url == web.NEW_TAB:
        return  # Incognito leaves no history and keeps no cookies after it closes
    state["history"].append({"id": _next_id(state), "url": url, "title": tab["title"], "time": stamp(now)})
    host = urlsplit(url).hostname or ""
    state["site_data"] = [d for d in state["site_data"] if d["host"] != host]
    state["site_data"].append({"host": host, "time": stamp(now)})


def _next_id(state: dict[str, Any]) -> int:
    nid: int = state["next_id"]
    state["next_id"] = nid + 1
    return nid


# -- bookmarks, reading list, downloads ----------------------------------------------------------------


def bookmark_of(state: dict[str, Any], url: str) -> dict[str, Any] | None:
    return next((b for b in state["bookmarks"] if b["url"] == url), None)


def add_bookmark(state: dict[str, Any], url: str, title: str) -> dict[str, Any]:
    mark = {"id": _next_id(state), "url": url, "title": title, "folder": MOBILE}
    state["bookmarks"].append(mark)
    return mark


def add_folder(state: dict[str, Any], name: str) -> str:
    name = name.strip()
    if name and name not in state["folders"]:
        state["folders"].append(name)
    return name


def add_to_reading_list(state: dict[str, Any], url: str, title: str, now: datetime) -> bool:
    if any(r["url"] == url for r in state["reading_list"]) or not url.startswith("http"):
        return False
    state["reading_list"].append({"url": url, "title": title, "read": False, "added": stamp(now)})
    return True


def download(ctx: AppContext, url: str, name: str, size: str) -> None:
    """Save a file to Downloads (and to /sdcard/Download on the phone), as a download link does."""
    ctx.state["downloads"].append(
        {"id": _next_id(ctx.state), "url": url, "file": name, "size": size, "time": stamp(ctx.now())}
    )
    ctx.phone.fs.write(f"/sdcard/Download/{name}", f"downloaded from {url}\n".encode())
    ctx.toast(f"Downloading {name}…")


# -- browsing data -------------------------------------------------------------------------------------


def clear_browsing_data(state: dict[str, Any], span: str, kinds: list[str], now: datetime) -> None:
    """Delete what `kinds` names from the time range `span` (Chrome's Delete browsing data)."""
    delta = TIME_RANGES[span]
    since = "" if delta is None else stamp(now - delta)
    if "Browsing history" in kinds:
        state["history"] = [h for h in state["history"] if h["time"] < since]
    if "Cookies and site data" in kinds:
        state["site_data"] = [d for d in state["site_data"] if d["time"] < since]


# -- following links -----------------------------------------------------------------------------------


def follow(ctx: AppContext, url: str, new: bool = False) -> bool:
    """Open a link of a page: a file downloads; a verified app link opens its app (Android hands it over);
    anything else loads in this tab, or in a new background tab when `new`. True if this tab moved on."""
    linked = web.files().get(url)
    if linked is not None:
        download(ctx, url, linked.file_name, linked.size)
        return False
    intent = Intent(ACTION_VIEW, data=url, categories=[CATEGORY_BROWSABLE])
    target = ctx.phone.resolve_activity(intent)
    if target is not None and target[0].package != ctx.app.package and web.resolve(url) is None:
        ctx.start_activity(intent)
        return False
    state, tab = ctx.state, current_tab(ctx.state)
    if new:
        opened = new_tab(state, web.NEW_TAB, tab["incognito"], select=False)
        load(state, opened, url, ctx.now())
        opened["back"] = []
        ctx.toast("Tab opened in background")
        return False
    load(state, tab, url, ctx.now())
    return True


def public(state: dict[str, Any]) -> dict[str, Any]:
    """What checks read: tabs (url, title, incognito, current), history, bookmarks, folders, reading list,
    downloads, site data and settings."""
    tabs = [
        {"id": t["id"], "url": t["url"], "title": t["title"], "incognito": t["incognito"],
         "current": t["id"] == state.get("current")}
        for t in state.get("tabs", []) if isinstance(t, dict)
    ]  # fmt: skip
    keys = ("history", "bookmarks", "folders", "reading_list", "downloads", "site_data", "settings")
    return {"tabs": tabs, **{k: state[k] for k in keys if k in state}}
