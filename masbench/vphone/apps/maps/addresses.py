"""How Maps reads a typed street address, so that one door has one id however it is written.

People write "1450 Valencia Street, San Francisco, CA 94114", "1450 valencia st" and "1450 Valencia St.
San Francisco CA" for the same place. `street_key` gives every spelling of a street one form (the
USPS abbreviations: Street -> st, Avenue -> ave, North -> n, Fifth -> 5th) and `read_address` splits a
typed line into its house number, its street and the city, state or ZIP it names, with or without
commas. Both are pure: the map's cities come in as an argument.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..textmatch import fold

# the last word of a street name: its type, long and short (USPS Publication 28)
STREET_TYPES = {
    "street": "st", "avenue": "ave", "av": "ave", "boulevard": "blvd", "road": "rd",
    "drive": "dr", "lane": "ln", "place": "pl", "court": "ct", "way": "way", "parkway": "pkwy",
    "highway": "hwy", "terrace": "ter", "square": "sq", "circle": "cir", "alley": "aly", "plaza": "plz",
    "expressway": "expy", "freeway": "fwy", "trail": "trl", "crescent": "cres", "loop": "loop", "row": "row",
}  # fmt: skip
DIRECTIONS = {
    "north": "n", "south": "s", "east": "e", "west": "w",
    "northeast": "ne", "northwest": "nw", "southeast": "se", "southwest": "sw",
}  # fmt: skip
ORDINALS = {
    "first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th", "fifth": "5th", "sixth": "6th",
    "seventh": "7th", "eighth": "8th", "ninth": "9th", "tenth": "10th", "eleventh": "11th",
    "twelfth": "12th", "thirteenth": "13th", "fourteenth": "14th", "fifteenth": "15th",
    "sixteenth": "16th", "seventeenth": "17th", "eighteenth": "18th", "nineteenth": "19th", "twentieth": "20th",
}  # fmt: skip
NAME_WORDS = {"junior": "jr", **ORDINALS}
STATE_NAMES = {"CA": "California", "NY": "New York", "IL": "Illinois", "WA": "Washington", "TX": "Texas"}
STATES = {(code.lower(),): code for code in STATE_NAMES} | {
    tuple(fold(n).split()): c for c, n in STATE_NAMES.items()
}
COUNTRY = (("usa",), ("us",), ("united", "states"), ("united", "states", "of", "america"))
ZIP = re.compile(r"\d{5}(?:-\d{4})?")
TOKEN = re.compile(r"\d{5}-\d{4}|[^\W_]+(?:['’][^\W_]+)*")


def _short(table: dict[str, str]) -> dict[str, str]:
    """The table with each short form also mapping to itself."""
    return {**{short: short for short in table.values()}, **table}


TYPES, DIRS = _short(STREET_TYPES), _short(DIRECTIONS)


def _parts(street: str) -> tuple[list[str], list[str], list[str], list[str]]:
    """(directional before, name, type, directional after) of a street, each word folded and short.
    A directional or type word that is the whole name stays the name ("North Ave", "W North Ave")."""
    words = re.findall(r"[^\W_]+", fold(street.replace(".", "")))
    post = [DIRS[words.pop()]] if len(words) > 1 and words[-1] in DIRS else []
    kind = [TYPES[words.pop()]] if len(words) > 1 and words[-1] in TYPES else []
    pre = [DIRS[words.pop(0)]] if len(words) > 1 and words[0] in DIRS else []
    name = [NAME_WORDS.get(w, w) for w in words]
    if len(name) > 1 and name[0] in ("st", "saint"):  # "St Marks Pl" is Saint Marks Place
        name[0] = "saint"
    return pre, name, kind, post


def street_key(street: str) -> str:
    """The one spelling of a street that its ids are made from: lower case, no accents or dots, the
    type, directions and ordinals short ("West 42nd Street" -> "w 42nd st", "Fifth Avenue" -> "5th
    ave", "Queen Anne Avenue North" -> "queen anne ave n"). Its slug is the slug of each street the map
    draws, so those streets keep their ids."""
    return " ".join(word for part in _parts(street) for word in part)


def has_street_type(street: str) -> bool:
    """Whether the street ends in a type (St, Avenue, Blvd...), as an address does and a name rarely."""
    return bool(_parts(street)[2])


@dataclass(frozen=True)
class TypedAddress:
    """What a typed address says: a house number on a street, in some of the map's cities."""

    number: int
    street: str  # as typed, without dots: what the place is called
    cities: tuple[str, ...]  # the cities the text names (by name, state or ZIP); empty when none
    alone: bool  # the street stood alone before a comma and a city, state or ZIP followed it


def read_address(text: str, cities: Mapping[str, Mapping[str, Any]]) -> TypedAddress | None:
    """Read "1450 Valencia St, San Francisco, CA 94114", "1450 valencia street san francisco" or
    "1450 Valencia St" as a `TypedAddress`; None when the text does not start with a house number and a
    street, or names a place that is none of `cities` (name -> {"state": "CA", "zip": "941", ...}).
    The country, ZIP, state and city are read from the end, so commas are optional; what stands
    between the street and a named city (an apartment, a neighbourhood) is passed over."""
    head, _, tail = text.replace(".", "").partition(",")
    street, rest = TOKEN.findall(head), TOKEN.findall(tail)
    if len(street) < 2 or not street[0].isdigit():
        return None
    words = [fold(w) for w in street + rest]
    end = _peel(words, len(words), COUNTRY)[1]
    zipcode = words[end - 1] if end > 2 and ZIP.fullmatch(words[end - 1]) else None
    end -= zipcode is not None
    state, after_state = _peel(words, end, STATES)
    city_words = {tuple(fold(c).split()): c for c in cities}
    city, after_city = _peel(words, after_state, city_words)
    if city is None and state is not None:  # "New York" names a state and a city: here the city
        as_city, after = _peel(words, end, city_words)
        if as_city is not None:
            state, city, after_city = None, as_city, after
    end = after_city
    if city is not None:
        named = [city_words[city]]
    elif end > len(street):
        return None  # an unknown town after the street
    elif state is not None:
        named = [c for c in cities if cities[c]["state"] == STATES[state]]
    elif zipcode is not None:
        named = [c for c in cities if zipcode.startswith(str(cities[c]["zip"]))]
        if not named:
            return None
    else:
        named = []
    number, name = int(street[0]), " ".join(street[1 : min(end, len(street))])
    return TypedAddress(number, name, tuple(named), alone=bool(rest) and end >= len(street))


def _peel(
    words: list[str], end: int, phrases: Iterable[tuple[str, ...]]
) -> tuple[tuple[str, ...] | None, int]:
    """The longest of `phrases` that `words[:end]` ends with, and where it starts; a phrase is taken
    only if a house number and a street word stay before it."""
    best: tuple[str, ...] | None = None
    for phrase in phrases:
        start = end - len(phrase)
        if start >= 2 and tuple(words[start:end]) == phrase and (best is None or len(phrase) > len(best)):
            best = phrase
    return best, end - len(best) if best else end


__all__ = ["TypedAddress", "has_street_type", "read_address", "street_key"]
