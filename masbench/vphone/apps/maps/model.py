"""What Maps does with its state apart from drawing it: resolve what a user typed (a place, an address,
"Home"), search with filters, compute routes for each travel mode, start navigation, and keep saved lists,
labels, reviews and settings. GUI and intents both come through here, so checks see one truth."""

from __future__ import annotations

import math
import random
import re
from datetime import datetime, timedelta
from typing import Any, TypeAlias

from ..textmatch import contains_words, fold, same, split_place, words
from .content import (
    AVENUES_X,
    CATEGORY_WORDS,
    CITIES,
    HEIGHT_KM,
    HOME_CITY,
    LISTS,
    STREETS_Y,
    WIDTH_KM,
    city_near,
    distance_km,
    geocode,
    here,
    open_status,
    point_at,
    snap,
)

MODES = ("drive", "transit", "walk", "bicycle")
MODE_LABELS = {"drive": "Drive", "transit": "Transit", "walk": "Walk", "bicycle": "Bike"}
URL_MODES = {"driving": "drive", "walking": "walk", "bicycling": "bicycle", "transit": "transit", "two-wheeler": "drive",
             "d": "drive", "w": "walk", "b": "bicycle", "l": "drive"}  # fmt: skip
HIGHWAYS = {
    "San Francisco": "US-101",
    "New York": "FDR Dr",
    "Chicago": "I-90/94",
    "Seattle": "I-5",
    "Austin": "I-35",
}
SORTS = {"relevance": "Relevance", "distance": "Distance", "rating": "Rating"}
LABELS = {"home": "Home", "work": "Work"}
MAX_RESULTS = 20
State: TypeAlias = dict[str, Any]
Place: TypeAlias = dict[str, Any]


def initial_user_state() -> dict[str, Any]:
    return {
        "map": {"city": HOME_CITY, "layer": "none"},
        "home": None,
        "work": None,
        "lists": [{"name": name, "places": []} for name in LISTS],
        "recent_searches": [],
        "reviews": [],
        "navigation": {"active": False},
        "settings": {
            "distance_units": "automatic",
            "avoid_highways": False,
            "avoid_tolls": False,
            "avoid_ferries": False,
        },
        "points": {},
    }


def minute_of(now: datetime) -> tuple[int, int]:
    return now.weekday(), now.hour * 60 + now.minute


# -- places --------------------------------------------------------------------------------------------


def place(state: State, place_id: str) -> dict[str, Any] | None:
    """A catalogue place, a looked-up address, "here" or a label (Home/Work) by id."""
    if place_id == "here":
        return here()
    if place_id.startswith("label:"):
        label = place_id.removeprefix("label:")
        point = state.get(label)
        return {**point, "id": place_id, "name": LABELS[label]} if point else None
    found: Place | None = state["places"].get(place_id) or state["points"].get(place_id)
    return found


def remember(state: State, point: dict[str, Any]) -> dict[str, Any]:
    """Keep a looked-up address so screens can refer to it by id."""
    if point["id"].startswith("addr:"):
        state["points"][point["id"]] = point
    return point


def _city_in(state: State, text: str) -> tuple[str, str | None]:
    """Split "museums in Chicago", "Chicago museums", "museum chicago" or "Navy Pier, Chicago" into
    ("museums", "Chicago"). A city in a place's own name ("Art Institute of Chicago") stays there unless
    "in" or "near" links it."""
    what, city = split_place(text, CITIES)
    if city is not None and (
        category_of(what)
        or re.search(rf"\b(?:in|near) {re.escape(fold(city))}\b", fold(text))
        or not name_matches(state, text)
    ):
        return what, city
    if text.strip().lower().endswith(" near me"):
        return text.strip()[:-8].strip(), HOME_CITY
    return text.strip(), None


def category_of(text: str) -> str | None:
    """The category a query names ("museums", "Museum", "cafés"), if any."""
    return next((cat for cat, names in CATEGORY_WORDS.items() if any(same(text, n) for n in names)), None)


def name_matches(state: State, text: str) -> list[dict[str, Any]]:
    """Places whose name holds every typed word, in any order ("pier navy", "cafe" for "Café ...")."""
    return [p for p in state["places"].values() if words(text) and contains_words(p["name"], text)]


def resolve(state: State, text: str, city: str | None = None) -> dict[str, Any] | None:
    """The one place a typed origin/destination means, or None when it is unknown or ambiguous."""
    raw = text.strip()
    low = raw.lower()
    if not raw:
        return None
    if low in ("your location", "my location", "current location"):
        return here()
    if low in ("home", "work"):
        return place(state, f"label:{low}")
    city = city or state["map"]["city"]
    m = re.fullmatch(r"(-?\d+(?:\.\d+)?),\s*(-?\d+(?:\.\d+)?)", raw)
    if m:
        return remember(state, _point_at(float(m.group(1)), float(m.group(2))))
    point = geocode(raw, city)
    if point is not None:
        return remember(state, point)
    name, named_city = _city_in(state, raw)
    exact = [p for p in state["places"].values() if fold(p["name"]) == fold(name)]
    found = exact or name_matches(state, name)
    if named_city or len(found) > 1:
        local = [p for p in found if p["city"] == (named_city or city)]
        found = local if (local or named_city) else found
    return found[0] if len(found) == 1 else None


def _point_at(lat: float, lng: float) -> dict[str, Any]:
    """The street point nearest to coordinates, in the nearest city."""
    city = city_near(lat, lng)
    lat0, lng0 = CITIES[city]["lat"], CITIES[city]["lng"]
    y = min(HEIGHT_KM, max(0.0, HEIGHT_KM / 2 - (lat - lat0) * 111.0))
    x = min(WIDTH_KM, max(0.0, WIDTH_KM / 2 + (lng - lng0) * 111.0 * math.cos(math.radians(lat0))))
    return point_at(city, x, y)


def center(state: State, city: str) -> dict[str, Any]:
    """Where "nearby" is measured from: the phone in its city, else the city centre."""
    if city == HOME_CITY:
        return here()
    return {"id": f"center:{city}", "name": city, "city": city, "x": 5.0, "y": 7.0}


# -- search --------------------------------------------------------------------------------------------


def search_args(state: State, query: str, city: str | None = None) -> dict[str, Any]:
    what, named_city = _city_in(state, query)
    return {
        "query": query.strip(),
        "city": named_city or city or state["map"]["city"],
        "category": category_of(what) or "",
        "open_now": False,
        "top_rated": False,
        "sort": "relevance",
    }


def search(state: State, args: dict[str, Any], now: datetime) -> list[dict[str, Any]]:
    """Places a results list shows, filtered and sorted as its args say (at most 20)."""
    city = args["city"]
    what, _ = _city_in(state, args["query"])
    if args.get("category"):
        found = [
            p for p in state["places"].values() if p["city"] == city and p["category"] == args["category"]
        ]
    else:
        matches = name_matches(state, what)
        found = [p for p in matches if p["city"] == city] or matches
    weekday, minute = minute_of(now)
    if args.get("open_now"):
        found = [p for p in found if open_status(p, weekday, minute)[0]]
    if args.get("top_rated"):
        found = [p for p in found if p["rating"] >= 4.5]
    origin = center(state, city)
    sort = args.get("sort", "relevance")
    if sort == "distance":
        found.sort(key=lambda p: distance_km(origin, p))
    elif sort == "rating":
        found.sort(key=lambda p: (-p["rating"], -p["reviews"]))
    else:
        found.sort(key=lambda p: 0.35 * distance_km(origin, p) - 1.5 * p["rating"])
    return found[:MAX_RESULTS]


def directions_args(state: State, origin: str, destination: str, mode: str = "drive") -> dict[str, Any]:
    """A directions screen's arguments: the trip, its first route and the saved avoid options."""
    avoid = {k: state["settings"][k] for k in ("avoid_tolls", "avoid_highways", "avoid_ferries")}
    return {"origin": origin, "destination": destination, "mode": mode, "route": 0, **avoid}


def remember_search(state: State, query: str) -> None:
    if query:
        state["recent_searches"] = [query, *[q for q in state["recent_searches"] if q != query]][:10]


# -- routes --------------------------------------------------------------------------------------------


def street_of(p: Place) -> str:
    kind, _, _, index = snap(p["x"], p["y"])
    info = CITIES[p["city"]]
    return info["avenues"][index] if kind == "ave" else info["streets"][index]


def _cross_street(p: Place, rng: random.Random) -> str:
    kind, _, _, _ = snap(p["x"], p["y"])
    info = CITIES[p["city"]]
    if kind == "ave":
        j = min(range(len(STREETS_Y)), key=lambda j: abs(STREETS_Y[j] - p["y"]))
        return info["streets"][j]
    i = min(range(len(AVENUES_X)), key=lambda i: abs(AVENUES_X[i] - p["x"]))
    return info["avenues"][(i + rng.randrange(1, 3)) % len(AVENUES_X)]


def _heading(a: dict[str, Any], b: dict[str, Any]) -> str:
    if a["city"] != b["city"]:
        return "north" if CITIES[b["city"]]["lat"] > CITIES[a["city"]]["lat"] else "south"
    dx, dy = b["x"] - a["x"], b["y"] - a["y"]
    if abs(dx) > abs(dy):
        return "east" if dx > 0 else "west"
    return "south" if dy > 0 else "north"


def _spot(point: dict[str, Any]) -> str:
    """Where a point is, whatever it is called: Work and the address it labels get the same routes."""
    return f"{point['city']}:{point['x']:.4f},{point['y']:.4f}"


def routes(
    origin: dict[str, Any], dest: dict[str, Any], mode: str, avoid: dict[str, bool], now: datetime
) -> list[dict[str, Any]]:
    """Route options for a trip, best first (transit: by departure time), after the avoid options."""
    km = distance_km(origin, dest)
    if km < 0.05:
        return []
    rng = random.Random(f"{_spot(origin)}>{_spot(dest)}:{mode}")
    same = origin["city"] == dest["city"]
    first = f"Head {_heading(origin, dest)} on {street_of(origin)} toward {_cross_street(origin, rng)}"
    if mode == "drive":
        options = _drive(origin, dest, km, same, rng)
        kept = [
            r
            for r in options
            if not (avoid.get("avoid_tolls") and r.get("toll"))
            and not (avoid.get("avoid_highways") and r.get("highway"))
        ]
        slow = options[-1]["minutes"] + 9
        options = kept or [
            dict(options[-1], highway=False, toll=False, minutes=slow, name=f"via {street_of(dest)}")
        ]
        options.sort(key=lambda r: r["minutes"])
    elif not same:
        return []
    elif mode == "transit":
        options = _transit(origin, km, rng, now)
    else:
        speed, label = (4.8, "") if mode == "walk" else (14.0, " bike lane")
        base = km * 1.05 / speed * 60 + (2 if mode == "bicycle" else 0)
        options = [
            dict(name=f"via {street_of(dest)}{label}", minutes=max(1, round(base)), km=round(km * 1.05, 1)),
            dict(
                name=f"via {street_of(origin)}{label}",
                minutes=max(2, round(base * 1.12) + 1),
                km=round(km * 1.15, 1),
            ),
        ]
    for i, option in enumerate(options):
        option.setdefault("highway", False)
        option.setdefault("toll", False)
        option["mode"] = mode
        option["first_step"] = first
        option["summary"] = option.get("summary") or ("Fastest route" if i == 0 and mode != "transit" else "")
    return options


def _drive(
    origin: dict[str, Any], dest: dict[str, Any], km: float, same: bool, rng: random.Random
) -> list[dict[str, Any]]:
    if not same:
        hw = HIGHWAYS[origin["city"]]
        base = km / 95 * 60 + 12
        return [
            {"name": f"via {hw}", "minutes": round(base), "km": round(km, 1), "highway": True, "toll": rng.random() < 0.5},
            {"name": f"via {HIGHWAYS[dest['city']]} and US-20", "minutes": round(base * 1.08), "km": round(km * 1.05, 1),
             "highway": True, "toll": False},
        ]  # fmt: skip
    hw = HIGHWAYS[origin["city"]]
    options = [
        {"name": f"via {street_of(dest)}", "minutes": round(3 + km * 1.05 / 24 * 60 * rng.uniform(0.95, 1.1)), "km": round(km * 1.05, 1)},
        {"name": f"via {street_of(origin)}", "minutes": round(4 + km * 1.2 / 25 * 60 * rng.uniform(0.95, 1.1)), "km": round(km * 1.2, 1)},
    ]  # fmt: skip
    if km > 3:
        minutes, toll = round(3 + km * 1.3 / 45 * 60), rng.random() < 0.6
        options.append(
            dict(name=f"via {hw}", minutes=minutes, km=round(km * 1.3, 1), highway=True, toll=toll)
        )
    return options


def _transit(origin: dict[str, Any], km: float, rng: random.Random, now: datetime) -> list[dict[str, Any]]:
    lines = CITIES[origin["city"]]["lines"]
    start = rng.randrange(len(lines))
    options: list[dict[str, Any]] = []
    for k in range(3):
        line = lines[(start + 2 * k) % len(lines)]
        walk_to, walk_from = rng.randrange(2, 9), rng.randrange(2, 8)
        ride = max(3, round(km * rng.uniform(0.75, 1.35) / 20 * 60))
        depart = now + timedelta(minutes=2 + 7 * k + rng.randrange(4))
        minutes = walk_to + ride + walk_from
        arrive = (depart + timedelta(minutes=minutes)).strftime("%H:%M")
        summary = f"Walk {walk_to} min · {line} · Walk {walk_from} min"
        times = dict(depart=depart.strftime("%H:%M"), arrive=arrive, summary=summary)
        options.append(dict(name=line, minutes=minutes, km=round(km * 1.1, 1), **times))
    seen: set[int] = set()
    for option in options:  # keep durations distinct so "the fastest" is always one route
        while option["minutes"] in seen:
            option["minutes"] += 1
        seen.add(option["minutes"])
    return options


def start_navigation(
    state: State, origin: Place, dest: Place, mode: str, route: Place, avoid: dict[str, bool], now: datetime
) -> None:
    state["navigation"] = {
        "active": True,
        "origin": {k: origin[k] for k in ("id", "name", "city")},
        "destination": {**{k: dest[k] for k in ("id", "name", "city")}, "address": dest.get("address", "")},
        "mode": mode,
        "route": route["name"],
        **{k: route[k] for k in ("minutes", "km", "highway", "toll")},
        **{k: bool(avoid.get(k)) for k in ("avoid_tolls", "avoid_highways", "avoid_ferries")},
        "muted": False,
        "started_at": now.isoformat(timespec="seconds"),
    }


# -- lists, labels, reviews ----------------------------------------------------------------------------


def lists_with(state: State, place_id: str) -> list[str]:
    return [lst["name"] for lst in state["lists"] if any(p["id"] == place_id for p in lst["places"])]


def toggle_in_list(state: State, list_name: str, p: Place) -> bool:
    """Add the place to the list, or take it out if it is there; True when it is now in the list."""
    lst = next(x for x in state["lists"] if x["name"] == list_name)
    if any(q["id"] == p["id"] for q in lst["places"]):
        lst["places"] = [q for q in lst["places"] if q["id"] != p["id"]]
        return False
    lst["places"].append(
        {k: p[k] for k in ("id", "name", "city")} | {k: p.get(k, "") for k in ("category", "address")}
    )
    return True


def new_list(state: State, name: str) -> bool:
    name = name.strip()
    if not name or any(x["name"].lower() == name.lower() for x in state["lists"]):
        return False
    state["lists"].append({"name": name, "places": []})
    return True


def set_label(state: State, label: str, point: dict[str, Any]) -> None:
    where = {k: point[k] for k in ("city", "x", "y")}
    address = point.get("address", point["name"])
    state[label] = {
        "id": point["id"],
        "name": point["name"],
        "category": "Address",
        **where,
        "address": address,
    }


def post_review(state: State, p: Place, rating: int, text: str, now: datetime) -> None:
    state["reviews"] = [r for r in state["reviews"] if r["place_id"] != p["id"]]
    review = {"place_id": p["id"], "name": p["name"], "city": p["city"], "rating": rating}
    state["reviews"].insert(0, {**review, "text": text.strip(), "date": now.date().isoformat()})


# -- formatting ----------------------------------------------------------------------------------------


def miles(state: State) -> bool:
    units: str = state["settings"]["distance_units"]
    return units != "kilometers"


def distance_text(state: State, km: float) -> str:
    if miles(state):
        mi = km * 0.621371
        return f"{round(mi * 5280 / 100) * 100:,} ft" if mi < 0.2 else f"{mi:,.1f} mi"
    return f"{round(km * 1000 / 50) * 50} m" if km < 1 else f"{km:,.1f} km"


def duration_text(minutes: int) -> str:
    if minutes < 60:
        return f"{minutes} min"
    hours, rest = divmod(minutes, 60)
    if hours >= 24:
        days, hours = divmod(hours, 24)
        return f"{days} d {hours} hr"
    return f"{hours} hr {rest} min" if rest else f"{hours} hr"


def clock_text(hhmm: str) -> str:
    h, m = (int(v) for v in hhmm.split(":"))
    return f"{(h % 12) or 12}:{m:02d} {'AM' if h < 12 else 'PM'}"
