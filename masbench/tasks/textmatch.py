"""Typed values in free text an agent wrote (a mail body, an event's description or location), so checks
accept every way a person writes a value and tie each value to the item it belongs to (docs/tasks.md,
"Matchers"). Task authors use these instead of hand-written regexes.

A `mentions` group (`{text: Hydro Flask, money: 47.99}`) names an item by its anchors (`text`,
`number`, `url`) and its values (`money`, `time`, `date`, `distance`, `duration`):

- the anchors are found together in one sentence (a line break alone does not end one, so
  "Product: Hydro Flask\nPrice: $47.99" is one);
- each value is the mention *of its kind* nearest to them: fewest sentence ends between, then fewest
  clause breaks (a comma, semicolon, line break, "and", "or", "but"), then one written after the item,
  then fewest characters. So two prices swapped between two products fail, while "It costs $47.99." after
  the product's sentence passes;
- a group without an anchor takes its first value as one ({date, time}: the time nearest that date).

Everything here is pure. Groups are validated when a task file loads (`normalize`) into plain data (lists
of canonical operands per kind), which `missing` reads back.
"""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any
from urllib.parse import parse_qsl, urlsplit

KINDS = ("text", "number", "url", "date", "time", "money", "distance", "duration")
ANCHORS = ("text", "number", "url")

Span = tuple[int, int]


@dataclass(frozen=True)
class Mention:
    """A value of some kind found at text[start:end]."""

    start: int
    end: int
    value: Any


# -- words (names, phrases, addresses) -----------------------------------------------------------------
# One spelling for the abbreviations people use interchangeably in names and addresses.
SAME_WORD = {
    "street": "st",
    "saint": "st",
    "sainte": "ste",
    "avenue": "ave",
    "av": "ave",
    "boulevard": "blvd",
    "road": "rd",
    "drive": "dr",
    "lane": "ln",
    "ounce": "oz",
    "ounces": "oz",
}
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|&")


def fold(text: str) -> str:
    """Lower case, accents off, apostrophes dropped ("Honoré" -> "honore", "Joe's" -> "joes")."""
    plain = unicodedata.normalize("NFKD", text.casefold().replace("ß", "ss"))
    return re.sub(r"['’]", "", "".join(ch for ch in plain if not unicodedata.combining(ch)))


def words(text: str) -> list[tuple[str, Span]]:
    """The folded words of `text` with their spans: letters and digits split apart ("32oz" is "32 oz"),
    "&" read as "and", abbreviations in one spelling ("Street" and "St" are "st")."""
    found = []
    for token in _TOKEN.finditer(text):
        folded = "and" if token.group() == "&" else fold(token.group())
        for part in re.findall(r"\d+|[^\W\d_]+", folded):
            found.append((SAME_WORD.get(part, part), token.span()))
    return found


def phrase_hits(text: str, phrase: str) -> list[Span]:
    """Where the words of `phrase` occur in order, next to each other: "rue saint-honore 177" finds
    "Rue Saint-Honoré 177", "Hydro Flask" finds "hydro flask" but not "Hydro Flasks"."""
    want = [w for w, _ in words(phrase)]
    have = words(text)
    return [
        (have[i][1][0], have[i + len(want) - 1][1][1])
        for i in range(len(have) - len(want) + 1)
        if [w for w, _ in have[i : i + len(want)]] == want
    ]


# -- numbers and ids -----------------------------------------------------------------------------------
_SEP = r"[ .\-\u00a0]"


def number_hits(text: str, digits: str) -> list[Span]:
    """An id or long number with any single space, dot or dash between its digits ("3860 449 126",
    "3860.449.126", "113-0256674-9043336"), not inside a longer number."""
    body = f"{_SEP}?".join(re.escape(d) for d in re.sub(r"\D", "", digits))
    pattern = rf"(?<!\d)(?<!\d{_SEP}){body}(?!{_SEP}?\d)"
    return [m.span() for m in re.finditer(pattern, text)]


# -- URLs ----------------------------------------------------------------------------------------------
_URL_BODY = r"(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:[/?#][^\s<>\"'\])]*)?"
_URL = re.compile(rf"[a-z][a-z0-9+.-]*://{_URL_BODY}|(?<![\w@./:-]){_URL_BODY}", re.IGNORECASE)


@dataclass(frozen=True)
class Url:
    """A URL in comparable parts: the host in lower case without "www.", the path without a trailing "/",
    the query as sorted decoded pairs ("+" and "%20" alike)."""

    scheme: str
    host: str
    path: str
    query: tuple[tuple[str, str], ...]
    fragment: str

    @classmethod
    def parse(cls, text: str) -> Url:
        parts = urlsplit(text if "://" in text else "//" + text)
        host = (parts.netloc or "").lower().removeprefix("www.")
        query = tuple(sorted(parse_qsl(parts.query, keep_blank_values=True)))
        return cls(parts.scheme.lower(), host, parts.path.rstrip("/"), query, parts.fragment)

    def accepts(self, other: Url, query_ignore_case: bool) -> bool:
        """Is `other` this URL? Without a scheme here any scheme (or none) is fine."""
        if self.scheme and other.scheme != self.scheme:
            return False
        if (self.host, self.path, self.fragment) != (other.host, other.path, other.fragment):
            return False
        if query_ignore_case:
            return _lower_pairs(self.query) == _lower_pairs(other.query)
        return self.query == other.query


def _lower_pairs(pairs: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    return sorted((k.lower(), v.lower()) for k, v in pairs)


def url_mentions(text: str) -> list[Mention]:
    """Every link in the text, with or without its scheme; trailing punctuation is not part of it."""
    found = []
    for m in _URL.finditer(text):
        link = m.group().rstrip(".,;:!?")
        found.append(Mention(m.start(), m.start() + len(link), Url.parse(link)))
    return found


# -- money ---------------------------------------------------------------------------------------------
_MONEY = re.compile(
    r"(?P<pre>US\$|\$|€|£|(?:USD|EUR|GBP)\s?)?(?<![\d.,])(?P<num>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d+))?"
    r"(?!\d|,\d{3})(?P<post>\s?(?:(?:USD|EUR|GBP|dollars?|euros?)\b|[€$£](?!\s?\d)))?",
    re.IGNORECASE,
)
_UNIT_AFTER = re.compile(
    r"\s?(?:%|(?:mi|miles?|km|kms|kilomet(?:er|re)s?|m|ft|oz|lbs?|kg|g|ml|l|min|mins|minutes?|h|hrs?|hours?"
    r"|kcal|cal|bpm|steps?|[ap]\.?m)\b)",
    re.IGNORECASE,
)


def money_mentions(text: str) -> list[Mention]:
    """Amounts: "$47.99", "47.99 USD", "USD 47.99", "$1,299", and a bare figure with two decimals that
    no unit follows ("total 180.72"). "47.990" and "5.22 mi" are not amounts."""
    found = []
    for m in _MONEY.finditer(text):
        dec = m.group("dec")
        marked = m.group("pre") or m.group("post")
        if dec is not None and len(dec) != 2:
            continue
        if not marked and (dec is None or _UNIT_AFTER.match(text, m.end())):
            continue
        amount = Decimal(m.group("num").replace(",", "") + (f".{dec}" if dec else ""))
        found.append(Mention(m.start(), m.end(), amount))
    return found


# -- times ---------------------------------------------------------------------------------------------
_TIME = re.compile(
    r"(?<![\d:.])(?P<h>\d{1,2})(?:(?P<sep>[:.])(?P<m>\d{2}))?(?!\d)"
    r"(?P<mer>\s*(?:(?P<ap>[ap])\.?\s?m\b\.?|in the (?P<part>morning|afternoon|evening)|at night|o['’]clock))?",
    re.IGNORECASE,
)
_NAMED_TIME = re.compile(r"\b(?:(?P<noon>noon|midday)|midnight)\b", re.IGNORECASE)


def time_mentions(text: str) -> list[Mention]:
    """Times of day as (hour, minute): "9:00", "09:00", "9am", "9:00 AM", "9 a.m.", "9 pm", "21:00",
    "9:00 in the evening", "noon". A bare "9:00" is 09:00; a bare "9" (a count) and "9.00" are not times."""
    found = []
    for m in _TIME.finditer(text):
        hour, minute = int(m.group("h")), int(m.group("m") or 0)
        ap, part, mer = (m.group("ap") or "").lower(), m.group("part"), (m.group("mer") or "").strip().lower()
        pm = ap == "p" or part in ("afternoon", "evening") or mer == "at night"
        am = ap == "a" or part == "morning"
        if am or pm:
            if not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if pm else 0)
        elif m.group("sep") == "." or (m.group("m") is None and not mer.endswith("clock")) or hour > 23:
            continue
        if minute < 60:
            found.append(Mention(m.start(), m.end(), (hour, minute)))
    found += [
        Mention(m.start(), m.end(), (12, 0) if m.group("noon") else (0, 0))
        for m in _NAMED_TIME.finditer(text)
    ]
    return found


# -- dates ---------------------------------------------------------------------------------------------
MONTHS = {
    name: n
    for n, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sept", "sep"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
WEEKDAYS = {
    name: n
    for n, names in enumerate(
        (
            ("monday", "mon"),
            ("tuesday", "tues", "tue"),
            ("wednesday", "wed"),
            ("thursday", "thurs", "thu"),
            ("friday", "fri"),
            ("saturday", "sat"),
            ("sunday", "sun"),
        )
    )
    for name in names
}
_MON = "|".join(sorted(MONTHS, key=len, reverse=True))
_WD = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_YEAR = r"(?:,?\s+(?P<y>\d{4})(?![\d/:-]))?"
_WD_BEFORE = rf"(?:\b(?P<wd>{_WD})\b\.?,?\s+(?:the\s+)?)?"
_DATES = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"(?<![\d-])(?P<y>\d{4})-(?P<mo>\d{1,2})-(?P<d>\d{1,2})(?![\d-])",
        rf"{_WD_BEFORE}\b(?P<mon>{_MON})\b\.?\s+(?:the\s+)?(?P<d>\d{{1,2}})(?!\d)(?:st|nd|rd|th)?\b(?![:.]\d){_YEAR}",
        rf"{_WD_BEFORE}(?<![\d.,/$])(?P<d>\d{{1,2}})(?!\d)(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<mon>{_MON})\b\.?{_YEAR}",
        r"(?<![\d/.\-])(?P<mo>\d{1,2})/(?P<d>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?(?![\d/])",
        r"\b(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    )
]


@dataclass(frozen=True)
class DateSaid:
    """A date as written: any part may be missing ("Saturday" has only a weekday, 0 Monday)."""

    year: int | None
    month: int | None
    day: int | None
    weekday: int | None


def _date_said(m: re.Match[str]) -> DateSaid | None:
    parts = m.groupdict()
    year = int(parts["y"]) if parts.get("y") else None
    if year is not None and year < 100:
        year += 2000
    month = (
        MONTHS[parts["mon"].lower()] if parts.get("mon") else int(parts["mo"]) if parts.get("mo") else None
    )
    day = int(parts["d"]) if parts.get("d") else None
    weekday = WEEKDAYS[parts["wd"].lower()] if parts.get("wd") else None
    if month is not None and not (1 <= month <= 12 and day is not None and 1 <= day <= 31):
        return None
    return DateSaid(year, month, day, weekday)


def date_mentions(text: str) -> list[Mention]:
    """Dates: "June 7", "Jun. 7", "7 June", "June 7th", "7th of June", "Saturday, June 7, 2025",
    "2025-06-07", "6/7" (month first), and a weekday alone ("Saturday"); a weekday inside a longer date
    is part of it."""
    found = [
        Mention(m.start(), m.end(), said)
        for pattern in _DATES
        for m in pattern.finditer(text)
        if (said := _date_said(m)) is not None
    ]
    return _outermost(found)


def _outermost(found: list[Mention]) -> list[Mention]:
    """Drop mentions that lie inside a longer one."""
    kept: list[Mention] = []
    for mention in sorted(found, key=lambda x: (x.start, x.start - x.end)):
        if not any(k.start <= mention.start and mention.end <= k.end for k in kept):
            kept.append(mention)
    return kept


# -- distances and durations ---------------------------------------------------------------------------
KM_PER = {"km": Decimal(1), "mi": Decimal("1.609344")}
_DISTANCE = re.compile(
    r"(?<![\d.,])(?P<n>\d+(?:\.\d+)?)\s?-?\s?(?P<unit>mi|miles?|km|kms|kilomet(?:er|re)s?)\b", re.IGNORECASE
)
_DURATION = re.compile(
    r"(?<![\d.,])(?:(?P<h>\d+(?:\.\d+)?)\s?-?\s?(?:h|hrs?|hours?)\b\.?"
    r"(?:\s*(?:and\s+)?(?P<hm>\d{1,2})\s?-?\s?(?:m|mins?|minutes?)\b)?"
    r"|(?P<m>\d+)\s?-?\s?(?:mins?|minutes?)\b)",
    re.IGNORECASE,
)


def distance_mentions(text: str) -> list[Mention]:
    """Distances as (figure as written, unit): "5.22 mi", "5.22 miles", "8.4 km", "8.40 kilometres"."""
    return [
        Mention(m.start(), m.end(), (Decimal(m.group("n")), "mi" if m.group("unit")[0] in "mM" else "km"))
        for m in _DISTANCE.finditer(text)
    ]


def duration_mentions(text: str) -> list[Mention]:
    """Durations in minutes: "29 min", "29 mins", "29 minutes", "29-minute", "1 h 5 min", "1.5 hours"."""
    found = []
    for m in _DURATION.finditer(text):
        if m.group("m") is not None:
            minutes = Decimal(m.group("m"))
        else:
            minutes = Decimal(m.group("h")) * 60 + Decimal(m.group("hm") or 0)
        found.append(Mention(m.start(), m.end(), minutes))
    return found


def same_distance(said: tuple[Decimal, str], value: Decimal, unit: str) -> bool:
    """In the asked unit the figure is the value; in the other unit it is the value converted and rounded
    to the decimals written, at least one (5.22 mi: "8.4 km", "8.40 km"; not "8 km" or "8.41 km")."""
    figure, said_unit = said
    if said_unit == unit:
        return figure == value
    exponent = figure.as_tuple().exponent
    if not isinstance(exponent, int):  # NaN or infinity, which no written figure is
        return False
    places = -exponent
    if places < 1:
        return False
    converted = value * KM_PER[unit] / KM_PER[said_unit]
    return converted.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP) == figure


# -- operands: validated once, kept as plain data ------------------------------------------------------
def _text(operand: Any) -> str:
    if not isinstance(operand, str) or not words(operand):
        raise ValueError(f"needs a phrase with at least one word, got {operand!r}")
    return operand


def _number(operand: Any) -> str:
    text = str(operand) if isinstance(operand, int) and not isinstance(operand, bool) else operand
    if not isinstance(text, str) or not re.fullmatch(r"\d+(?:[ .\-]\d+)*", text):
        raise ValueError(f"needs digits (optionally grouped by spaces, dots or dashes), got {operand!r}")
    return text


def _url(operand: Any) -> dict[str, Any]:
    spec = operand if isinstance(operand, dict) else {"value": operand}
    extra = set(spec) - {"value", "query_ignore_case"}
    value, fold_query = spec.get("value"), spec.get("query_ignore_case", False)
    if extra or not isinstance(value, str) or not isinstance(fold_query, bool):
        raise ValueError(f"needs a link or {{value: LINK, query_ignore_case: true|false}}, got {operand!r}")
    if "." not in Url.parse(value).host:
        raise ValueError(f"{value!r} has no host (write it as youtu.be/ID or https://...)")
    return {"value": value, "query_ignore_case": fold_query}


def _date(operand: Any) -> dict[str, Any]:
    spec = operand if isinstance(operand, dict) else {"value": operand}
    value, weekday = spec.get("value"), spec.get("weekday", False)
    if isinstance(value, dt.date):
        value = value.isoformat()
    if set(spec) - {"value", "weekday"} or not isinstance(weekday, bool) or not isinstance(value, str):
        raise ValueError(
            f"needs YYYY-MM-DD, --MM-DD (any year) or {{value: DATE, weekday: true}}, got {operand!r}"
        )
    any_year = value.startswith("--")
    try:
        date = dt.date.fromisoformat("2000" + value[1:] if any_year else value)  # 2000 has a 29 February
    except ValueError:
        raise ValueError(f"{value!r} is not a date: write YYYY-MM-DD, or --MM-DD for any year") from None
    if weekday and any_year:
        raise ValueError(f"{value!r} has no year, so it has no weekday")
    return {"value": f"--{date:%m-%d}" if any_year else date.isoformat(), "weekday": weekday}


def _time(operand: Any) -> str:
    if isinstance(operand, int) and not isinstance(operand, bool):
        hours, minutes = divmod(operand, 60)
        shown = f"{hours}:{minutes:02d}"
        raise ValueError(f"got the number {operand} (YAML reads an unquoted {shown} so): quote it, '{shown}'")
    if not isinstance(operand, str) or not re.fullmatch(r"([01]?\d|2[0-3]):[0-5]\d", operand):
        raise ValueError(f"needs a 24-hour time 'HH:MM', got {operand!r}")
    return operand.zfill(5)


def _amount(operand: Any, what: str) -> int | float:
    if isinstance(operand, bool) or not isinstance(operand, int | float) or operand < 0:
        raise ValueError(f"needs {what}, got {operand!r}")
    return operand


def _distance(operand: Any) -> dict[str, Any]:
    if not isinstance(operand, dict) or set(operand) != {"value", "unit"} or operand["unit"] not in KM_PER:
        raise ValueError(f"needs {{value: NUMBER, unit: mi|km}}, got {operand!r}")
    return {"value": _amount(operand["value"], "a distance"), "unit": operand["unit"]}


def _duration(operand: Any) -> int:
    if isinstance(operand, bool) or not isinstance(operand, int) or operand <= 0:
        raise ValueError(f"needs whole minutes, got {operand!r}")
    return operand


OPERANDS: dict[str, Callable[[Any], Any]] = {
    "text": _text,
    "number": _number,
    "url": _url,
    "date": _date,
    "time": _time,
    "money": lambda operand: _amount(operand, "an amount such as 47.99"),
    "distance": _distance,
    "duration": _duration,
}


def normalize(operand: Any) -> list[dict[str, list[Any]]]:
    """The operand of `mentions` as a list of groups, each {kind: [operands]} with every operand checked:
    a group dict, a list of groups, or a phrase (a `text` group). A list of operands under one kind means
    all of them (`text: [Hydro Flask, 32 oz]`)."""
    groups = operand if isinstance(operand, list) else [operand]
    if not groups:
        raise ValueError("mentions needs at least one group")
    return [_group(group, n) for n, group in enumerate(groups, start=1)]


def _group(group: Any, n: int) -> dict[str, list[Any]]:
    where = f"mentions group {n}"
    if isinstance(group, str):
        group = {"text": group}
    if not isinstance(group, dict) or not group:
        raise ValueError(
            f"{where}: needs matchers such as {{text: Hydro Flask, money: 47.99}}, got {group!r}"
        )
    unknown = sorted(set(group) - set(KINDS))
    if unknown:
        raise ValueError(f"{where}: unknown matcher {unknown[0]!r}; matchers are {', '.join(KINDS)}")
    checked: dict[str, list[Any]] = {}
    for kind in (k for k in KINDS if k in group):
        operands = group[kind] if isinstance(group[kind], list) else [group[kind]]
        try:
            if not operands:
                raise ValueError("needs at least one value")
            checked[kind] = [OPERANDS[kind](o) for o in operands]
        except ValueError as exc:
            raise ValueError(f"{where}: {kind}: {exc}") from None
    return checked


def describe(group: dict[str, list[Any]]) -> str:
    """`text 'Hydro Flask' + money 47.99`, for check details."""
    parts = []
    for kind, operands in group.items():
        for o in operands:
            if kind == "url":
                shown = o["value"] + (" (query in any case)" if o["query_ignore_case"] else "")
            elif kind == "date":
                shown = o["value"] + (" or its weekday" if o["weekday"] else "")
            elif kind == "distance":
                shown = f"{o['value']} {o['unit']}"
            elif kind == "duration":
                shown = f"{o} min"
            else:
                shown = repr(o) if kind == "text" else str(o)
            parts.append(f"{kind} {shown}")
    return " + ".join(parts)


# -- matching ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Matcher:
    """One operand of a group: `scan` finds every mention of its kind, `accepts` the wanted ones."""

    kind: str
    scan: Callable[[str], list[Mention]]
    accepts: Callable[[Any], bool]


def matcher(kind: str, operand: Any) -> Matcher:
    """The matcher for a normalized operand of `kind`."""
    if kind in ("text", "number"):
        spans = phrase_hits if kind == "text" else number_hits
        return Matcher(
            kind, lambda text: [Mention(a, b, None) for a, b in spans(text, operand)], lambda _: True
        )
    if kind == "url":
        want = Url.parse(operand["value"])
        return Matcher(kind, url_mentions, lambda got: want.accepts(got, operand["query_ignore_case"]))
    if kind == "date":
        return Matcher(kind, date_mentions, lambda got: _same_date(got, operand["value"], operand["weekday"]))
    if kind == "time":
        hour, minute = operand.split(":")
        return Matcher(kind, time_mentions, lambda got: got == (int(hour), int(minute)))
    if kind == "money":
        amount = Decimal(str(operand))
        return Matcher(kind, money_mentions, lambda got: got == amount)
    if kind == "distance":
        value = Decimal(str(operand["value"]))
        return Matcher(kind, distance_mentions, lambda got: same_distance(got, value, operand["unit"]))
    if kind == "duration":
        return Matcher(kind, duration_mentions, lambda got: got == operand)
    raise ValueError(f"unknown matcher {kind!r}")


def _same_date(said: DateSaid, value: str, weekday_alone: bool) -> bool:
    """The written date is `value` (YYYY-MM-DD, or --MM-DD for any year): month and day agree, and so do
    a year or weekday when both sides have one. A weekday alone counts only when `weekday_alone`."""
    year = None if value.startswith("--") else int(value[:4])
    month, day = int(value[-5:-3]), int(value[-2:])
    real_weekday = dt.date(year, month, day).weekday() if year is not None else None
    if said.month is None:
        return weekday_alone and said.weekday == real_weekday
    return (
        (said.month, said.day) == (month, day)
        and (said.year is None or year is None or said.year == year)
        and (said.weekday is None or real_weekday is None or said.weekday == real_weekday)
    )


# Words a "." follows without ending a sentence ("9 a.m.", "St. Louis", "Jun. 7").
ABBREVIATIONS = frozenset(
    [
        *("am", "pm", "st", "ste", "ave", "blvd", "rd", "dr", "mr", "mrs", "ms", "jr", "sr", "vs", "etc"),
        *("eg", "ie", "no", "approx", "mt", "ft"),
        *(name for name in MONTHS | WEEKDAYS if len(name) <= 4),
    ]
)
_SENTENCE_END = re.compile(r"[.!?]*[ \t]*\n[ \t]*\n\s*|[.!?]+(?=\s|$)")  # a blank line, or a stop
_CLAUSE_BREAK = re.compile(r"\n|;|,(?!\d)|\b(?:and|or|but|while|whereas|vs)\b", re.IGNORECASE)


class Layout:
    """Where a text's sentences end (at ". ! ?" or a blank line), to measure how far apart mentions are."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sentences = [m.end() for m in _SENTENCE_END.finditer(text) if self._ends(m)]

    def _ends(self, m: re.Match[str]) -> bool:
        if "\n" in m.group():
            return True
        before = re.search(r"[\w.]+$", self.text[: m.start()])
        word = before.group().replace(".", "").lower() if before else ""
        return not (len(word) == 1 and word.isalpha()) and word not in ABBREVIATIONS

    def sentence(self, pos: int) -> int:
        return bisect.bisect_right(self.sentences, pos)

    def together(self, mentions: Iterable[Mention]) -> bool:
        """All in one sentence (a single line break does not end one)."""
        return len({self.sentence(m.start) for m in mentions}) <= 1

    def distance(self, anchor: Mention, value: Mention) -> tuple[int, int, int, int]:
        """How far `value` is from `anchor`: (sentence ends, clause breaks, 1 if it comes before the anchor,
        characters) between them; all 0 when they overlap. A value written after its item wins a tie, as
        in "Venu Sq 2\n$262.99"."""
        first, second = (anchor, value) if anchor.start <= value.start else (value, anchor)
        if second.start < first.end:
            return (0, 0, 0, 0)
        gap = self.text[first.end : second.start]
        sentences = abs(self.sentence(anchor.start) - self.sentence(value.start))
        return (sentences, len(_CLAUSE_BREAK.findall(gap)), int(value is first), len(gap))


def found(text: str, group: dict[str, list[Any]]) -> bool:
    """Does the text mention the group: its anchors together in one sentence, and each value the
    nearest mention of its kind to them (module docstring)?"""
    matchers = [matcher(kind, o) for kind, operands in group.items() for o in operands]
    anchors = [m for m in matchers if m.kind in ANCHORS] or matchers[:1]
    values = [m for m in matchers if m.kind not in ANCHORS and m is not anchors[0]]
    layout = Layout(text)
    anchor_hits = [[x for x in m.scan(text) if m.accepts(x.value)] for m in anchors]
    scanned = [(m, m.scan(text)) for m in values]
    for combo in itertools.product(*anchor_hits):
        if layout.together(combo) and all(_nearest(m, seen, combo, layout) for m, seen in scanned):
            return True
    return False


def _nearest(m: Matcher, seen: list[Mention], anchors: tuple[Mention, ...], layout: Layout) -> bool:
    """Is a wanted mention among those of its kind nearest to the anchors (ties allowed)?"""
    others = [x for x in seen if not any(a.start < x.end and x.start < a.end for a in anchors)]
    if not any(m.accepts(x.value) for x in others):
        return False
    away = {x: min(layout.distance(a, x) for a in anchors) for x in others}
    best = min(away.values())
    return any(m.accepts(x.value) and away[x] == best for x in others)


def missing(text: str, groups: list[dict[str, list[Any]]]) -> list[dict[str, list[Any]]]:
    """The groups (normalized) that `text` does not mention; empty when all are there."""
    return [group for group in groups if not found(text, group)]


__all__ = [
    "KINDS",
    "Layout",
    "Mention",
    "Url",
    "date_mentions",
    "describe",
    "distance_mentions",
    "duration_mentions",
    "found",
    "missing",
    "money_mentions",
    "normalize",
    "number_hits",
    "phrase_hits",
    "time_mentions",
    "url_mentions",
    "words",
]
