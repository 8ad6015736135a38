"""Google Maps' seeded world: five cities laid out as street grids on a plane (x east, y south, in km),
landmarks at fixed spots, and seeded shops, restaurants, gas stations and hotels on the streets. An
address is a house number on a named street, so any typed address maps to a point, and routes come
from coordinates alone."""

from __future__ import annotations

import math
import random
import unicodedata
import zlib
from pathlib import Path
from typing import Any, TypedDict

import yaml

from .addresses import has_street_type, read_address, street_key

AVENUES_X = tuple(round(0.6 + 1.1 * i, 1) for i in range(9))  # north-south streets
STREETS_Y = tuple(1.0 + 2.0 * j for j in range(7))  # east-west streets
WIDTH_KM, HEIGHT_KM = 10.0, 14.0
NUMBERS_PER_KM = 150
HOME_CITY = "San Francisco"
HERE = (6.2, 4.4)  # the phone's location, in San Francisco
ARTERIALS = ((2, 6), (2, 4))  # avenue and street indices that are main roads


class City(TypedDict):
    """One city of world.yaml: where it is on Earth and what its grid's streets, lines and spots are."""

    state: str
    zip: str
    area: str  # phone area code
    lat: float
    lng: float
    avenues: list[str]  # north-south street names, west to east
    streets: list[str]  # east-west street names, north to south
    lines: list[str]  # transit lines
    landmarks: list[list[Any]]  # [name, category, x, y]
    water: list[list[float]]  # [x, y, width, height] rectangles


WORLD = yaml.safe_load(Path(__file__).with_name("world.yaml").read_text(encoding="utf-8"))
CITIES: dict[str, City] = WORLD["cities"]
GENERATED: dict[str, dict[str, Any]] = WORLD["generated"]  # per category: count, names, words, hours
HOURS: dict[str, list[int]] = WORLD["hours"]  # opening and closing minute by profile
CATEGORY_WORDS: dict[str, list[str]] = WORLD["category_words"]  # what people type for each category
LISTS = ("Favorites", "Want to go", "Travel plans", "Starred places")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def unaccented(text: str) -> str:
    """The text without accents: "Café" -> "Cafe"."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def slug(text: str) -> str:
    """An ASCII id part: "Café Wren" -> "cafe-wren"."""
    out = "".join(ch.lower() if ch.isalnum() else "-" for ch in unaccented(text))
    return "-".join(part for part in out.split("-") if part)


# -- geometry and addresses ---------------------------------------------------------------------------


def snap(x: float, y: float) -> tuple[str, float, float, int]:
    """The nearest street to a point: (street kind 'ave'|'st', index, snapped x, snapped y)."""
    ax = min(range(len(AVENUES_X)), key=lambda i: abs(AVENUES_X[i] - x))
    sy = min(range(len(STREETS_Y)), key=lambda j: abs(STREETS_Y[j] - y))
    if abs(AVENUES_X[ax] - x) <= abs(STREETS_Y[sy] - y):
        return "ave", AVENUES_X[ax], round(y, 2), ax
    return "st", round(x, 2), STREETS_Y[sy], sy


def address_of(city: str, x: float, y: float) -> tuple[str, str, float, float]:
    """(street address, full address, x, y) of the street point nearest to (x, y)."""
    info = CITIES[city]
    kind, sx, sy, index = snap(x, y)
    if kind == "ave":
        number, street = max(2, int(sy * NUMBERS_PER_KM) // 2 * 2), info["avenues"][index]
    else:
        number, street = max(1, int(sx * NUMBERS_PER_KM) // 2 * 2 + 1), info["streets"][index]
    line = f"{number} {street}"
    zipcode = f"{info['zip']}{10 + int(sy // 2):02d}"
    return line, f"{line}, {city}, {info['state']} {zipcode}", sx, sy


def geocode(text: str, default_city: str) -> dict[str, Any] | None:
    """A typed street address ("1450 Valencia St, San Francisco") as a point, or None. Without a city,
    the map's city is tried first, then any city that has that street; a street no grid draws is placed
    in the named city, or in the map's city when the text names none but ends in a street type."""
    typed = read_address(text, CITIES)
    if typed is None:
        return None
    key = street_key(typed.street)
    for city in typed.cities or (default_city, *(c for c in CITIES if c != default_city)):
        found = _on_street(city, typed.number, key)
        if found is not None:
            return found
    if not (typed.alone or has_street_type(typed.street)):
        return None  # "24 hour pharmacy" is no address
    # a street the grid does not draw: place it at a stable spot of its city, as a geocoder would
    city = typed.cities[0] if typed.cities else default_city
    spot = zlib.crc32(f"{city}|{key}|{typed.number}".encode())
    x, y = 0.5 + (spot % 900) / 100, 0.5 + (spot // 900 % 1300) / 100
    _, _, sx, sy = address_of(city, x, y)
    line = f"{typed.number} {typed.street}"
    return _address(address_id(line, city), line, city, sx, sy, f"{line}, {city}, {CITIES[city]['state']}")


def _on_street(city: str, number: int, key: str) -> dict[str, Any] | None:
    """The point at `number` on the grid street of `city` whose `street_key` is `key`, if it has one."""
    info = CITIES[city]
    for i, avenue in enumerate(info["avenues"]):
        if street_key(avenue) == key:
            return point_at(city, AVENUES_X[i], min(HEIGHT_KM, number / NUMBERS_PER_KM), f"{number} {avenue}")
    for j, street in enumerate(info["streets"]):
        if street_key(street) == key:
            return point_at(city, min(WIDTH_KM, number / NUMBERS_PER_KM), STREETS_Y[j], f"{number} {street}")
    return None


def address_id(line: str, city: str, postal: str = "") -> str:
    """The id of a street address, the same however it was typed: "addr:" and the slug of its house
    number, its street's `street_key`, its city and, for streets the grid draws, the state and ZIP the
    map gives them ("addr:1450-valencia-st-san-francisco-ca-94114"). The one place ids of addresses
    are made, so search, links, directions, labels and lists agree."""
    number, street = line.split(" ", 1)
    return f"addr:{slug(f'{number} {street_key(street)} {city} {postal}')}"


def point_at(city: str, x: float, y: float, line: str | None = None) -> dict[str, Any]:
    """An address point; `line` keeps the house number as typed instead of the nearest one."""
    nearest, full, _, _ = address_of(city, x, y)
    if line is not None:
        full = line + full[len(nearest) :]
    line = line or nearest
    postal = full.rsplit(", ", 1)[1]  # "CA 94114"
    return _address(address_id(line, city, postal), line, city, round(x, 2), round(y, 2), full)


def _address(pid: str, name: str, city: str, x: float, y: float, address: str) -> dict[str, Any]:
    """A street address as a place."""
    where = {"city": city, "x": x, "y": y}
    return {"id": pid, "name": name, "category": "Address", **where, "address": address}


def latlng(city: str, x: float, y: float) -> tuple[float, float]:
    info = CITIES[city]
    lat = info["lat"] - (y - HEIGHT_KM / 2) / 111.0
    lng = info["lng"] + (x - WIDTH_KM / 2) / (111.0 * math.cos(math.radians(info["lat"])))
    return round(lat, 5), round(lng, 5)


def city_near(lat: float, lng: float) -> str:
    return min(CITIES, key=lambda c: (CITIES[c]["lat"] - lat) ** 2 + (CITIES[c]["lng"] - lng) ** 2)


def distance_km(a: dict[str, Any], b: dict[str, Any]) -> float:
    """Street distance inside a city (grid), great-circle distance times 1.2 between cities."""
    if a["city"] == b["city"]:
        grid_km: float = abs(a["x"] - b["x"]) + abs(a["y"] - b["y"])
        return grid_km
    (la, ga), (lb, gb) = latlng(a["city"], a["x"], a["y"]), latlng(b["city"], b["x"], b["y"])
    p1, p2 = math.radians(la), math.radians(lb)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(gb - ga) / 2) ** 2
    return 1.2 * 2 * 6371 * math.asin(math.sqrt(h))


def here() -> dict[str, Any]:
    point = point_at(HOME_CITY, *HERE)
    return {**point, "id": "here", "name": "Your location"}


# -- the seeded catalogue -----------------------------------------------------------------------------


def _place(
    rng: random.Random, city: str, name: str, category: str, x: float, y: float, profile: str
) -> dict[str, Any]:
    line, full, sx, sy = address_of(city, x, y)
    start, end = HOURS[profile]
    closed = rng.randrange(7) if category == "Museum" and rng.random() < 0.7 else None
    chain = category in (
        "Gas station",
        "Grocery store",
        "Pharmacy",
    )  # many of one name: the street tells them apart
    return {
        "id": f"{slug(name)}-{slug(city)}" + (f"-{slug(line)}" if chain else ""),
        "name": name,
        "category": category,
        "city": city,
        "x": sx,
        "y": sy,
        "address": full,
        "rating": round(min(4.9, max(3.1, rng.gauss(4.3, 0.3))), 1),
        "reviews": int(rng.lognormvariate(6.0, 1.2)) + 20,
        "phone": f"({CITIES[city]['area']}) 555-{rng.randrange(100, 9999):04d}",
        "hours": [None if d == closed else [start, end] for d in range(7)],
        "price": rng.choice((1, 2, 2, 3)) if category in ("Restaurant", "Bar", "Hotel") else 0,
    }


def make_places(rng: random.Random) -> dict[str, dict[str, Any]]:
    places: dict[str, dict[str, Any]] = {}
    for city, info in CITIES.items():
        for name, category, x, y in info["landmarks"]:
            always = category in ("Airport", "Train station", "Transit station")
            profile = "always" if always else category if category in HOURS else "Landmark"
            _add(places, _place(rng, city, name, category, x, y, profile))
        for category, kind in GENERATED.items():
            count, templates, words, profile = kind["count"], kind["names"], kind["words"], kind["hours"]
            names = rng.sample(words, k=count) if templates == ["{w}"] else None
            used: set[str] = set()
            for k in range(count):
                name = names[k] if names else rng.choice(templates).format(w=rng.choice(words))
                while name in used:
                    name = rng.choice(templates).format(w=rng.choice(words))
                used.add(name)
                x, y = rng.uniform(0.3, 9.7), rng.uniform(0.3, 13.7)
                _add(places, _place(rng, city, name, category, x, y, profile))
    return places


def _add(places: dict[str, dict[str, Any]], place: dict[str, Any]) -> None:
    while place["id"] in places:
        place["id"] += "-2"
    places[place["id"]] = place


def reviews_for(place: dict[str, Any]) -> list[dict[str, Any]]:
    rng = random.Random(place["id"])
    reviews = []
    for _ in range(3):
        who, stars = (
            rng.choice(WORLD["reviewers"]),
            max(2, min(5, round(place["rating"] + rng.uniform(-1, 0.8)))),
        )
        says, age = rng.choice(WORLD["review_lines"]), f"{rng.randrange(1, 11)} months ago"
        reviews.append({"user": who, "rating": stars, "text": says, "age": age})
    return reviews


# -- hours --------------------------------------------------------------------------------------------


def clock(minutes: int) -> str:
    minutes %= 24 * 60
    h, m = divmod(minutes, 60)
    return f"{(h % 12) or 12}{f':{m:02d}' if m else ''} {'AM' if h < 12 else 'PM'}"


def open_status(place: dict[str, Any], weekday: int, minute: int) -> tuple[bool, str]:
    """(open now?, "Open · Closes 10 PM" / "Open 24 hours" / "Closed · Opens 10 AM")."""
    hours = place.get("hours")
    if not hours:
        return True, ""
    today, yesterday = hours[weekday], hours[(weekday - 1) % 7]
    if today == [0, 24 * 60]:
        return True, "Open 24 hours"
    if yesterday and yesterday[1] > 24 * 60 and minute < yesterday[1] - 24 * 60:
        return True, f"Open · Closes {clock(yesterday[1])}"
    if today and today[0] <= minute < today[1]:
        return True, f"Open · Closes {clock(today[1])}"
    if today and minute < today[0]:
        return False, f"Closed · Opens {clock(today[0])}"
    for ahead in range(1, 8):
        nxt = hours[(weekday + ahead) % 7]
        if nxt:
            return False, f"Closed · Opens {clock(nxt[0])} {DAYS[(weekday + ahead) % 7][:3]}"
    return False, "Closed"


def hours_line(interval: list[int] | None) -> str:
    if not interval:
        return "Closed"
    if interval == [0, 24 * 60]:
        return "Open 24 hours"
    return f"{clock(interval[0])} - {clock(interval[1])}"
