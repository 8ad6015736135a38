"""The small deterministic web behind the virtual Chrome: the sites of sites.yaml as pages, the search
engines' result pages over them, and the fix-ups the address bar applies to what is typed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote_plus, urljoin, urlsplit

import yaml

NEW_TAB = "chrome://newtab/"
ENGINES = {  # Chrome's search engine choices and how each builds a results URL
    "Google": "https://www.google.com/search?q={q}",
    "Bing": "https://www.bing.com/search?q={q}",
    "DuckDuckGo": "https://duckduckgo.com/?q={q}",
    "Yahoo!": "https://search.yahoo.com/search?p={q}",
    "Ecosia": "https://www.ecosia.org/search?q={q}",
}
ENGINE_COLOURS = {"Google": "#4285f4", "Bing": "#008373", "DuckDuckGo": "#de5833", "Yahoo!": "#6001d2",
                  "Ecosia": "#4a9b5e"}  # fmt: skip
STOP_WORDS = frozenset(
    ["a", "an", "and", "the", "of", "on", "in", "for", "to", "with", "how", "what", "is", "at", "from", "by"]
)


@dataclass(frozen=True)
class Site:
    host: str
    name: str
    colour: str


@dataclass(frozen=True)
class Page:
    """One web page: its canonical URL, its tab title, its site and its content blocks (see sites.yaml)."""

    url: str
    title: str
    site: Site
    blocks: tuple[dict[str, Any], ...]

    def text(self) -> str:
        """Every word a reader sees on the page, for search and find in page."""
        words: list[str] = [self.title]
        for block in self.blocks:
            for value in block.values():
                if isinstance(value, str):
                    words.append(value)
                elif isinstance(value, list):
                    words += [v for v in value if isinstance(v, str)]
                elif isinstance(value, dict):
                    words += [f"{k} {v}" for k, v in value.items()]
        return " ".join(words)


@dataclass(frozen=True)
class SearchPage:
    """A search engine's results page for `query`."""

    url: str
    engine: str
    query: str

    @property
    def title(self) -> str:
        return (
            f"{self.query} - {self.engine} Search"
            if self.engine != "DuckDuckGo"
            else f"{self.query} at DuckDuckGo"
        )

    def results(self) -> list[Page]:
        return search(self.query)


@dataclass(frozen=True)
class FileLink:
    """A link to a file: following it downloads the file instead of showing a page."""

    url: str
    label: str
    size: str

    @property
    def file_name(self) -> str:
        return urlsplit(self.url).path.rsplit("/", 1)[-1]


@cache
def sites() -> dict[str, Site]:
    return {s.host: s for s in _load()[0]}


@cache
def pages() -> dict[str, Page]:
    return _load()[1]


@cache
def _load() -> tuple[tuple[Site, ...], dict[str, Page]]:
    data = yaml.safe_load((Path(__file__).with_name("sites.yaml")).read_text(encoding="utf-8"))
    found_sites: list[Site] = []
    found: dict[str, Page] = {}
    for entry in data["sites"]:
        site = Site(entry["host"], entry["name"], entry["colour"])
        found_sites.append(site)
        for path, page in entry["pages"].items():
            url = f"https://{site.host}{path}"
            blocks = tuple(_absolute(block, url) for block in page["blocks"])
            found[url] = Page(url, page["title"], site, blocks)
    return tuple(found_sites), found


def _absolute(block: dict[str, Any], base: str) -> dict[str, Any]:
    """A block with its link made absolute, so renderers and the model only ever see full URLs."""
    for key in ("a", "file"):
        if key in block:
            text, href, *rest = block[key]
            return {key: [text, urljoin(base, href), *rest]}
    return block


def files() -> dict[str, FileLink]:
    """Every downloadable file linked from a page, by URL."""
    return {
        block["file"][1]: FileLink(block["file"][1], block["file"][0], block["file"][2])
        for page in pages().values()
        for block in page.blocks
        if "file" in block
    }


def normalise(url: str) -> str:
    """The URL a page is known by: https, no fragment, a bare host ending in '/', and the site's own host
    name where it was typed without its www. (as the omnibox shows it)."""
    parts = urlsplit(url)
    scheme = "https" if parts.scheme in ("http", "https") else parts.scheme
    host = _site_host(parts.hostname or "")
    path = parts.path or "/"
    query = f"?{parts.query}" if parts.query else ""
    return f"{scheme}://{host}{path}{query}"


def _site_host(host: str) -> str:
    host = host.lower()
    return f"www.{host}" if host not in sites() and f"www.{host}" in sites() else host


def redirect(url: str) -> str:
    """Where a site sends a request for its bare host name: to its www. host over https, as real sites
    redirect; any other URL loads as it is."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or _site_host(host) == host.lower():
        return url
    return parts._replace(scheme="https", netloc=_site_host(host)).geturl()


def resolve(url: str) -> Page | SearchPage | None:
    """What the web serves at `url`: a search results page, a site's page (whatever its query string,
    as the sites ignore tracking parameters), or nothing (the site can't be reached)."""
    url = normalise(url)
    search_page = _search_page(url)
    if search_page is not None:
        return search_page
    bare = url.split("?", 1)[0]
    for candidate in (bare, bare.rstrip("/"), bare.rstrip("/") + "/"):
        if candidate in pages():
            return pages()[candidate]
    return None


def _search_page(url: str) -> SearchPage | None:
    parts = urlsplit(url)
    for engine, template in ENGINES.items():
        engine_parts = urlsplit(template)
        if parts.hostname == engine_parts.hostname and parts.path == engine_parts.path:
            key = engine_parts.query.split("=")[0]
            query = parse_qs(parts.query).get(key, [""])[0]
            if query:
                return SearchPage(url, engine, query)
    return None


def search_url(engine: str, query: str) -> str:
    return ENGINES.get(engine, ENGINES["Google"]).format(q=quote_plus(query.strip()))


def fix_up(typed: str, engine: str) -> str:
    """What the address bar makes of typed text: a URL as is, a host name over https, else a search."""
    typed = typed.strip()
    if "://" in typed:
        return typed
    if "." in typed and " " not in typed:
        return f"https://{typed}"
    return search_url(engine, typed)


def _stem(word: str) -> str:
    for suffix in ("es", "s"):
        if len(word) > 4 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def terms(text: str) -> list[str]:
    """Lower-case word stems, stop words left out: what search compares."""
    return [_stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP_WORDS]


def search(query: str) -> list[Page]:
    """Pages that match the query, best first: title words count three times body words, and a page
    must match at least half of the query's words (so a typo or an extra word still finds it)."""
    wanted = terms(query)
    if not wanted:
        return []
    scored = []
    for page in pages().values():
        title, body = set(terms(page.title)), set(terms(page.text()))
        hits = [w for w in wanted if w in body]
        if len(hits) * 2 < len(wanted):
            continue
        score = sum(3 if w in title else 1 for w in hits)
        scored.append((-score, page.url, page))
    return [page for *_, page in sorted(scored, key=lambda s: (s[0], s[1]))][:10]


def title_of(url: str) -> str:
    """The tab title for `url`: the page's title, else the URL's host (as Chrome shows for a failed load)."""
    if url == NEW_TAB:
        return "New tab"
    page = resolve(url)
    return page.title if page is not None else (urlsplit(url).hostname or url)
