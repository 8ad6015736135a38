"""Google Maps' seeded world: five cities laid out as street grids on a plane (x east, y south, in km),
landmarks at fixed spots, and seeded shops, restaurants, gas stations and hotels on the streets. An
address is a house number on a named street, so any typed address maps to a point, and routes come
from coordinates alone."""

from __future__ import annotations

import math
import random
import zlib
from typing import Any

AVENUES_X = tuple(round(0.6 + 1.1 * i, 1) for i in range(9))  # north-south streets
STREETS_Y = tuple(1.0 + 2.0 * j for j in range(7))  # east-west streets
WIDTH_KM, HEIGHT_KM = 10.0, 14.0
NUMBERS_PER_KM = 150
HOME_CITY = "San Francisco"
HERE = (6.2, 4.4)  # the phone's location, in San Francisco

CITIES: dict[str, dict[str, Any]] = {
    "San Francisco": {
        "state": "CA", "zip": "941", "area": "415", "lat": 37.7749, "lng": -122.4194,
        "avenues": ("Divisadero St", "Fillmore St", "Van Ness Ave", "Castro St", "Church St", "Dolores St", "Guerrero St", "Valencia St", "Mission St"),
        "streets": ("California St", "Geary Blvd", "Market St", "Howard St", "Folsom St", "16th St", "24th St"),
        "lines": ("14 Mission", "N Judah", "BART Yellow Line", "J Church", "22 Fillmore", "F Market & Wharves"),
        "landmarks": (("Ferry Building", "Landmark", 9.2, 2.0), ("Union Square", "Park", 7.8, 3.0),
                      ("Golden Gate Park", "Park", 0.8, 4.2), ("Dolores Park", "Park", 5.9, 9.2),
                      ("SFMOMA", "Museum", 8.4, 3.6), ("de Young Museum", "Museum", 1.2, 4.6),
                      ("San Francisco International Airport", "Airport", 6.5, 13.6),
                      ("Caltrain 4th & King Station", "Train station", 9.4, 6.0),
                      ("Civic Center BART Station", "Transit station", 7.0, 4.2), ("Oracle Park", "Stadium", 9.6, 5.4)),
    },
    "New York": {
        "state": "NY", "zip": "100", "area": "212", "lat": 40.7580, "lng": -73.9855,
        "avenues": ("11th Ave", "10th Ave", "8th Ave", "7th Ave", "6th Ave", "5th Ave", "Park Ave", "Lexington Ave", "2nd Ave"),
        "streets": ("86th St", "72nd St", "57th St", "42nd St", "34th St", "23rd St", "14th St"),
        "lines": ("A train", "L train", "Q train", "M15 bus", "6 train", "7 train"),
        "landmarks": (("Central Park", "Park", 5.5, 2.0), ("Times Square", "Landmark", 4.0, 7.0),
                      ("The Metropolitan Museum of Art", "Museum", 6.8, 1.2), ("MoMA", "Museum", 5.2, 5.2),
                      ("Grand Central Terminal", "Train station", 7.2, 7.2), ("Penn Station", "Train station", 3.2, 9.0),
                      ("John F. Kennedy International Airport", "Airport", 9.6, 13.4),
                      ("Empire State Building", "Landmark", 5.4, 9.0), ("Bryant Park", "Park", 5.0, 7.4),
                      ("Union Square Park", "Park", 6.6, 12.8)),
    },
    "Chicago": {
        "state": "IL", "zip": "606", "area": "312", "lat": 41.8781, "lng": -87.6298,
        "avenues": ("N Western Ave", "N Damen Ave", "N Ashland Ave", "N Racine Ave", "N Halsted St", "N Wells St", "N Clark St", "N State St", "N Michigan Ave"),
        "streets": ("W Fullerton Ave", "W Armitage Ave", "W North Ave", "W Division St", "W Chicago Ave", "W Randolph St", "W Madison St"),
        "lines": ("Red Line", "Blue Line", "Brown Line", "#66 bus", "#151 bus", "Green Line"),
        "landmarks": (("Art Institute of Chicago", "Museum", 9.4, 12.2), ("Millennium Park", "Park", 9.4, 11.2),
                      ("Navy Pier", "Landmark", 9.8, 9.2), ("Field Museum", "Museum", 9.6, 13.8),
                      ("O'Hare International Airport", "Airport", 0.4, 0.6), ("Union Station", "Train station", 6.2, 13.0),
                      ("Lincoln Park Zoo", "Zoo", 8.6, 1.6), ("Willis Tower", "Landmark", 6.6, 13.2),
                      ("Wrigley Field", "Stadium", 5.8, 0.4)),
    },
    "Seattle": {
        "state": "WA", "zip": "981", "area": "206", "lat": 47.6062, "lng": -122.3321,
        "avenues": ("Western Ave", "1st Ave", "2nd Ave", "3rd Ave", "4th Ave", "5th Ave", "6th Ave", "Broadway", "12th Ave"),
        "streets": ("Mercer St", "Denny Way", "Pine St", "Pike St", "Union St", "Madison St", "Yesler Way"),
        "lines": ("Link 1 Line", "RapidRide C", "Route 40", "Route 8", "Streetcar", "Route 49"),
        "landmarks": (("Space Needle", "Landmark", 2.4, 1.6), ("Pike Place Market", "Market", 1.4, 7.0),
                      ("Museum of Pop Culture", "Museum", 2.6, 1.2), ("Seattle Art Museum", "Museum", 1.8, 8.6),
                      ("Seattle-Tacoma International Airport", "Airport", 6.0, 13.8),
                      ("King Street Station", "Train station", 3.6, 13.0), ("Gas Works Park", "Park", 5.0, 0.2),
                      ("Kerry Park", "Park", 1.0, 0.4), ("Volunteer Park", "Park", 9.0, 3.0)),
    },
    "Austin": {
        "state": "TX", "zip": "787", "area": "512", "lat": 30.2672, "lng": -97.7431,
        "avenues": ("Lamar Blvd", "Guadalupe St", "Lavaca St", "Congress Ave", "Brazos St", "San Jacinto Blvd", "Red River St", "Trinity St", "Chicon St"),
        "streets": ("38th St", "MLK Jr Blvd", "15th St", "11th St", "6th St", "2nd St", "Cesar Chavez St"),
        "lines": ("MetroRapid 801", "MetroRapid 803", "Route 7", "Route 20", "MetroRail Red Line", "Route 10"),
        "landmarks": (("Texas State Capitol", "Landmark", 3.9, 5.2), ("Zilker Park", "Park", 0.6, 13.6),
                      ("Austin-Bergstrom International Airport", "Airport", 9.8, 13.8),
                      ("Blanton Museum of Art", "Museum", 5.3, 3.0), ("Barton Springs Pool", "Park", 0.9, 13.0),
                      ("Austin Central Library", "Library", 1.2, 13.0),
                      ("Bullock Texas State History Museum", "Museum", 5.0, 3.6), ("Mueller Lake Park", "Park", 9.4, 0.8)),
    },
}  # fmt: skip
LISTS = ("Favorites", "Want to go", "Travel plans", "Starred places")

# category -> (count per city, name templates, words, hours profile)
GENERATED: dict[str, tuple[int, tuple[str, ...], tuple[str, ...], str]] = {
    "Restaurant": (6, ("{w} Kitchen", "Cafe {w}", "{w} Bistro", "The {w} Table", "{w} Grill"),
                   ("Olive", "Harbor", "Juniper", "Saffron", "Copper", "Maple", "Fig", "Sage", "Ember", "Lotus", "Basil", "Willow"), "dinner"),
    "Coffee shop": (4, ("{w} Coffee", "{w} Espresso Bar", "Cafe {w}"),
                    ("Bluebird", "Steam", "Crema", "Nomad", "Wren", "Drip", "Parlor", "Morning"), "cafe"),
    "Gas station": (4, ("{w}",), ("Shell", "Chevron", "76", "Arco", "Exxon", "Valero", "BP", "Mobil"), "always"),
    "Hotel": (4, ("The {w} Hotel", "{w} Inn & Suites", "Hotel {w}", "{w} Grand"),
              ("Marlowe", "Beacon", "Harbor View", "Parkside", "Regent", "Juniper", "Lumen", "Crescent"), "always"),
    "Grocery store": (2, ("{w}",), ("Safeway", "Whole Foods Market", "Trader Joe's", "Sprouts Farmers Market", "Kroger"), "grocery"),
    "Pharmacy": (2, ("{w}",), ("CVS Pharmacy", "Walgreens", "Rite Aid"), "pharmacy"),
    "Bar": (2, ("The {w}", "{w} Tavern", "{w} Taproom"), ("Owl", "Velvet", "Copper Fox", "Black Cat", "Lucky Penny", "Hideaway"), "bar"),
}  # fmt: skip
HOURS = {
    "dinner": (11 * 60 + 30, 22 * 60), "cafe": (6 * 60 + 30, 18 * 60), "always": (0, 24 * 60),
    "grocery": (7 * 60, 22 * 60), "pharmacy": (8 * 60, 21 * 60), "bar": (16 * 60, 26 * 60),
    "Museum": (10 * 60, 17 * 60), "Park": (5 * 60, 24 * 60), "Landmark": (8 * 60, 20 * 60),
    "Market": (9 * 60, 18 * 60), "Library": (10 * 60, 20 * 60), "Zoo": (10 * 60, 17 * 60),
    "Stadium": (9 * 60, 17 * 60),
}  # fmt: skip
# what people type for each category
CATEGORY_WORDS = {
    "Restaurant": ("restaurant", "restaurants", "food", "dinner", "lunch"),
    "Coffee shop": ("coffee", "cafe", "cafes", "coffee shop", "coffee shops"),
    "Gas station": ("gas", "gas station", "gas stations", "fuel", "petrol"),
    "Hotel": ("hotel", "hotels", "lodging"),
    "Grocery store": ("grocery", "groceries", "supermarket", "grocery store", "grocery stores"),
    "Pharmacy": ("pharmacy", "pharmacies", "drugstore"),
    "Bar": ("bar", "bars", "nightlife"),
    "Museum": ("museum", "museums"),
    "Park": ("park", "parks"),
    "Airport": ("airport", "airports"),
    "Train station": ("train station", "station", "train", "transit"),
    "Transit station": ("transit station", "station", "transit", "bart"),
}  # fmt: skip
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def slug(text: str) -> str:
    out = "".join(ch.lower() if ch.isalnum() else "-" for ch in text)
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
    the map's city is tried first, then any city that has that street."""
    head, *rest = [part.strip() for part in text.split(",")]
    named = next((c for c in CITIES if any(c.lower() in part.lower() for part in rest)), None)
    words = head.split(" ", 1)
    if len(words) != 2 or not words[0].isdigit():
        return None
    number, name = int(words[0]), words[1].lower().rstrip(".")
    for city in [named] if named else [default_city, *(c for c in CITIES if c != default_city)]:
        found = _on_street(city, number, name)
        if found is not None:
            return found
    if named is None:
        return None
    # a street the grid does not draw: place it at a stable spot of the named city, as a geocoder would
    spot = zlib.crc32(f"{named}|{name}|{number}".encode())
    x, y = 0.5 + (spot % 900) / 100, 0.5 + (spot // 900 % 1300) / 100
    _, _, sx, sy = address_of(named, x, y)
    return {"id": f"addr:{slug(head + ' ' + named)}", "name": head, "category": "Address", "city": named, "x": sx, "y": sy,
            "address": f"{head}, {named}, {CITIES[named]['state']}"}  # fmt: skip


def _on_street(city: str, number: int, name: str) -> dict[str, Any] | None:
    info = CITIES[city]
    for i, avenue in enumerate(info["avenues"]):
        if _same_street(avenue, name):
            return point_at(city, AVENUES_X[i], min(HEIGHT_KM, number / NUMBERS_PER_KM), f"{number} {avenue}")
    for j, street in enumerate(info["streets"]):
        if _same_street(street, name):
            return point_at(city, min(WIDTH_KM, number / NUMBERS_PER_KM), STREETS_Y[j], f"{number} {street}")
    return None


def _same_street(street: str, typed: str) -> bool:
    short = {"street": "st", "avenue": "ave", "boulevard": "blvd", "road": "rd", "north": "n", "west": "w"}
    norm = " ".join(short.get(w, w) for w in typed.replace(".", "").split())
    return street.lower() == norm


def point_at(city: str, x: float, y: float, line: str | None = None) -> dict[str, Any]:
    """An address point; `line` keeps the house number as typed instead of the nearest one."""
    nearest, full, _, _ = address_of(city, x, y)
    if line is not None:
        full = line + full[len(nearest) :]
    return {"id": f"addr:{slug(full)}", "name": line or nearest, "category": "Address", "city": city, "x": round(x, 2),
            "y": round(y, 2), "address": full}  # fmt: skip


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
        return abs(a["x"] - b["x"]) + abs(a["y"] - b["y"])
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
    return {
        "id": f"{slug(name)}-{slug(city)}" + (f"-{slug(line)}" if category in ("Gas station", "Grocery store", "Pharmacy") else ""),
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
    }  # fmt: skip


def make_places(rng: random.Random) -> dict[str, dict[str, Any]]:
    places: dict[str, dict[str, Any]] = {}
    for city, info in CITIES.items():
        for name, category, x, y in info["landmarks"]:
            profile = (
                category if category in HOURS else ("always" if category in ("Airport",) else "Landmark")
            )
            if category in ("Train station", "Transit station"):
                profile = "always"
            _add(places, _place(rng, city, name, category, x, y, profile))
        for category, (count, templates, words, profile) in GENERATED.items():
            names = rng.sample(words, k=count) if templates == ("{w}",) else None
            used: set[str] = set()
            for k in range(count):
                name = names[k] if names else rng.choice(templates).format(w=rng.choice(words))
                while name in used:
                    name = rng.choice(templates).format(w=rng.choice(words))
                used.add(name)
                _add(
                    places,
                    _place(rng, city, name, category, rng.uniform(0.3, 9.7), rng.uniform(0.3, 13.7), profile),
                )
    return places


def _add(places: dict[str, dict[str, Any]], place: dict[str, Any]) -> None:
    while place["id"] in places:
        place["id"] += "-2"
    places[place["id"]] = place


def reviews_for(place: dict[str, Any]) -> list[dict[str, Any]]:
    rng = random.Random(place["id"])
    names = ("Maya R.", "Jordan K.", "Priya S.", "Sam T.", "Elena V.", "Marcus L.", "Aiko N.", "Chris B.")
    lines = ("Worth the visit.", "Clean and easy to find.", "Friendly staff, quick service.",
             "A bit crowded at peak times.", "Great spot, would come again.", "Parking was tricky.")  # fmt: skip
    return [
        {"user": rng.choice(names), "rating": max(2, min(5, round(place["rating"] + rng.uniform(-1, 0.8)))),
         "text": rng.choice(lines), "age": f"{rng.randrange(1, 11)} months ago"}
        for _ in range(3)
    ]  # fmt: skip


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
