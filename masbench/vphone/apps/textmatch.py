"""How the apps' search boxes read what people type, shared so every app forgives the same things.

Real search finds "Chicago museums", "museum chicago" and "museums in Chicago" alike: case, accents
(Montjuic ~ Montjuïc, Zurich ~ Zürich), apostrophes, plurals (s / es / ies) and word order do not
matter, and a known place named in the query ("X in City", "X near City", "City X", "X, City") says
where to look. Everything here is pure and deterministic; apps keep their own ranking.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

PLACE_LINKS = ("in", "near", "around", "at")  # "museums in Chicago": the word before the place


def fold(text: str) -> str:
    """Lower case, accents off, apostrophes dropped ("Joe's" -> "joes"), "&" as "and"."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return re.sub(r"['’]", "", plain.replace("ß", "ss")).replace("&", " and ")


def singular(word: str) -> str:
    """One form for singular and plural: "museums", "churches", "bakeries" -> "museum", "church",
    "bakery". Short words and -ss/-us/-is endings ("glass", "bus", "paris") are left alone."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """The folded, singular words of a text, in order."""
    return [singular(w) for w in re.findall(r"[^\W_]+", fold(text))]


def contains_words(text: str, query: str) -> bool:
    """Every word of `query` starts a word of `text` (in any order): "tofu hous" finds "Tofu House".
    An empty query matches everything."""
    have = words(text)
    return all(any(h.startswith(w) for h in have) for w in words(query))


def same(a: str, b: str) -> bool:
    """The same words in the same order: "Zurich" and "Zürich", "museums" and "Museum"."""
    return words(a) == words(b)


def split_place(query: str, places: Iterable[str]) -> tuple[str, str | None]:
    """("what", place) for a query naming one of `places`: "museums in Chicago", "Chicago museums",
    "museum chicago", "museums, Chicago" all give ("museums", "Chicago"). The longest place named wins;
    the linking word before it ("in", "near") goes with it. Without a place: (query, None)."""
    tokens = re.findall(r"[^\W_]+(?:['’][^\W_]+)?", query)
    folded = [singular(fold(t)) for t in tokens]
    best: tuple[int, int, str] | None = None  # start, length, place
    for place in places:
        want = words(place)
        for start in range(len(folded) - len(want) + 1):
            if want and folded[start : start + len(want)] == want and (best is None or len(want) > best[1]):
                best = (start, len(want), place)
    if best is None:
        return query.strip(), None
    start, length, place = best
    if start > 0 and folded[start - 1] in PLACE_LINKS:
        start, length = start - 1, length + 1
    rest = tokens[:start] + tokens[start + length :]
    return " ".join(rest), place


__all__ = ["contains_words", "fold", "same", "singular", "split_place", "words"]
