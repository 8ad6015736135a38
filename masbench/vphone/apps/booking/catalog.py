"""Booking.com's content: cities, properties, rooms, prices and the search engine over them.

The property catalogue is static (built once from a fixed generator seed, so hotel names and ids are the
same on every phone and task texts can name them); the phone's seed only moves prices a little and
reorders "Our top picks", through the per-property `market` numbers kept in the app state. Names keep
their real spelling (Montjuïc, Schöneberg); only web slugs are folded to ASCII, as booking.com's are.
"""

from __future__ import annotations

import math
import random
import re
import unicodedata
import zlib
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from ..textmatch import contains_words, fold, split_place


@dataclass(frozen=True)
class City:
    name: str
    country: str
    cc: str  # two-letter code, as in booking.com/hotel/<cc>/<slug>.html
    region: str
    level: int  # typical US$ per night for a 3-star double room
    districts: tuple[str, ...]


# fmt: off
CITIES: tuple[City, ...] = (
    City("Paris", "France", "fr", "Île-de-France", 180, (
        "Le Marais", "Montmartre", "Saint-Germain", "Opéra", "Bastille", "Latin Quarter", "Champs-Élysées",
        "Louvre", "Eiffel Tower", "Canal Saint-Martin", "Montparnasse", "Batignolles",
    )),
    City("London", "United Kingdom", "gb", "Greater London", 190, (
        "Covent Garden", "Soho", "Kensington", "Camden", "Shoreditch", "Westminster", "Notting Hill",
        "Bloomsbury", "Paddington", "Southbank", "Mayfair", "Greenwich",
    )),
    City("New York", "United States", "us", "New York State", 240, (
        "Times Square", "SoHo", "Chelsea", "Midtown", "Upper West Side", "Brooklyn Bridge",
        "Greenwich Village", "Tribeca", "Central Park", "Lower East Side", "Williamsburg", "Hudson Yards",
    )),
    City("Tokyo", "Japan", "jp", "Tokyo Prefecture", 150, (
        "Shinjuku", "Shibuya", "Ginza", "Asakusa", "Ueno", "Akihabara", "Roppongi", "Ikebukuro",
        "Shinagawa", "Odaiba", "Harajuku", "Nihonbashi",
    )),
    City("Barcelona", "Spain", "es", "Catalonia", 150, (
        "Gothic Quarter", "El Born", "Eixample", "Gràcia", "Barceloneta", "Sagrada Família", "Raval",
        "Poble Sec", "Sants", "Diagonal Mar", "Ramblas", "Montjuïc",
    )),
    City("Rome", "Italy", "it", "Lazio", 150, (
        "Trastevere", "Colosseum", "Spanish Steps", "Vatican", "Pantheon", "Termini", "Monti", "Trevi",
        "Navona", "Testaccio", "Prati", "Aventino",
    )),
    City("Berlin", "Germany", "de", "Berlin State", 120, (
        "Mitte", "Kreuzberg", "Prenzlauer Berg", "Alexanderplatz", "Potsdamer Platz", "Friedrichshain",
        "Charlottenburg", "Tiergarten", "Neukölln", "Kurfürstendamm", "Schöneberg", "Museum Island",
    )),
    City("Amsterdam", "Netherlands", "nl", "North Holland", 190, (
        "Canal Ring", "Jordaan", "De Pijp", "Museum Quarter", "Dam Square", "Oud-West", "Leidseplein",
        "Rembrandtplein", "Vondelpark", "Amstel", "Oosterpark", "NDSM Wharf",
    )),
    City("Lisbon", "Portugal", "pt", "Lisbon Region", 120, (
        "Alfama", "Baixa", "Chiado", "Bairro Alto", "Belém", "Príncipe Real", "Avenida", "Graça",
        "Cais do Sodré", "Santos", "Parque das Nações", "Rossio",
    )),
    City("Sydney", "Australia", "au", "New South Wales", 170, (
        "Darling Harbour", "Circular Quay", "The Rocks", "Bondi", "Surry Hills", "Potts Point", "Manly",
        "Pyrmont", "Newtown", "Coogee", "Haymarket", "Barangaroo",
    )),
    City("Dubai", "United Arab Emirates", "ae", "Dubai Emirate", 160, (
        "Downtown", "Dubai Marina", "Jumeirah", "Palm Jumeirah", "Deira", "Bur Dubai", "Business Bay",
        "JBR", "Al Barsha", "Creek", "DIFC", "City Walk",
    )),
    City("Singapore", "Singapore", "sg", "Singapore", 200, (
        "Marina Bay", "Orchard", "Chinatown", "Clarke Quay", "Sentosa", "Little India", "Bugis",
        "Tanjong Pagar", "Kampong Glam", "Robertson Quay", "Riverside", "Novena",
    )),
    City("Prague", "Czech Republic", "cz", "Prague Region", 90, (
        "Old Town", "Malá Strana", "Wenceslas Square", "Vinohrady", "Žižkov", "Charles Bridge", "Karlín",
        "Smíchov", "Letná", "Castle District", "New Town", "Holešovice",
    )),
    City("Vienna", "Austria", "at", "Vienna State", 130, (
        "Innere Stadt", "Leopoldstadt", "Mariahilf", "Neubau", "Wieden", "Josefstadt", "Landstraße",
        "Schönbrunn", "Prater", "Naschmarkt", "Belvedere", "Alsergrund",
    )),
)
CITY_BY_KEY = {c.name.lower(): c for c in CITIES}

# Streets for the address on a property's page. New York's are streets Google Maps draws there, so an
# address read on Booking.com can be looked up in Maps; where the city writes the number first, it is.
STREETS: dict[str, tuple[str, ...]] = {
    "Paris": ("Rue de Rivoli", "Boulevard Haussmann", "Rue Saint-Honoré", "Avenue de l'Opéra", "Rue du Bac"),
    "London": ("Long Acre", "Oxford Street", "Kensington High Street", "Gower Street", "Strand"),
    "New York": ("8th Ave", "7th Ave", "6th Ave", "Lexington Ave", "42nd St", "34th St", "23rd St", "57th St"),
    "Tokyo": ("Chuo-dori", "Meiji-dori", "Yasukuni-dori", "Aoyama-dori", "Sotobori-dori"),
    "Barcelona": ("Carrer de Mallorca", "Carrer de Balmes", "Rambla de Catalunya", "Carrer de Aragó"),
    "Rome": ("Via del Corso", "Via Cavour", "Via Nazionale", "Via Merulana", "Via Cola di Rienzo"),
    "Berlin": ("Friedrichstraße", "Torstraße", "Kantstraße", "Oranienstraße", "Invalidenstraße"),
    "Amsterdam": ("Prinsengracht", "Herengracht", "Damrak", "Rokin", "Overtoom"),
    "Lisbon": ("Rua Augusta", "Avenida da Liberdade", "Rua do Alecrim", "Rua da Prata", "Rua Garrett"),
    "Sydney": ("George Street", "Pitt Street", "Oxford Street", "Macquarie Street", "Crown Street"),
    "Dubai": ("Sheikh Zayed Road", "Al Wasl Road", "Jumeirah Beach Road", "Al Maktoum Road"),
    "Singapore": ("Orchard Road", "Bras Basah Road", "River Valley Road", "Beach Road", "Tanjong Pagar Road"),
    "Prague": ("Národní", "Vodičkova", "Karlova", "Celetná", "Vinohradská"),
    "Vienna": ("Kärntner Straße", "Mariahilfer Straße", "Wiedner Hauptstraße", "Praterstraße", "Graben"),
}
NUMBER_FIRST = {"London", "New York", "Sydney", "Dubai", "Singapore"}


def street_address(city: str, hid: int) -> str:
    """A property's street and number, fixed by its id (the catalogue's generator is not touched)."""
    spot = zlib.crc32(f"booking-street:{hid}".encode())
    streets = STREETS[city]
    street = streets[spot % len(streets)]
    number = 20 + spot // 7 % 1300 if city == "New York" else 1 + spot // 7 % 180
    return f"{number} {street}" if city in NUMBER_FIRST else f"{street} {number}"


# Facilities: key -> (label, booking.com `hotelfacility` filter code)
FACILITIES: dict[str, tuple[str, int]] = {
    "free_wifi": ("Free WiFi", 107),
    "parking": ("Parking", 2),
    "pool": ("Swimming pool", 433),
    "fitness": ("Fitness centre", 11),
    "spa": ("Spa", 54),
    "restaurant": ("Restaurant", 3),
    "airport_shuttle": ("Airport shuttle", 17),
    "pets": ("Pets allowed", 4),
    "family_rooms": ("Family rooms", 28),
    "non_smoking": ("Non-smoking rooms", 16),
}
# Property types: key -> (filter label, booking.com `ht_id` code)
TYPES: dict[str, tuple[str, int]] = {
    "Hotel": ("Hotels", 204),
    "Apartment": ("Apartments", 201),
    "Hostel": ("Hostels", 203),
    "Guest house": ("Guest houses", 216),
    "Bed and breakfast": ("Bed and breakfasts", 208),
}
REVIEW_FILTERS = ((90, "Wonderful: 9+"), (80, "Very good: 8+"), (70, "Good: 7+"), (60, "Pleasant: 6+"))
DISTANCE_FILTERS = ((1, "Less than 1 km"), (3, "Less than 3 km"), (5, "Less than 5 km"))
BUDGETS = ("0-100", "100-200", "200-300", "300-max")  # per night, in the display currency
# Sort orders: booking.com's `order` values and the app's labels
ORDERS: dict[str, str] = {
    "popularity": "Our top picks",
    "price": "Price (low to high)",
    "bayesian_review_score": "Top reviewed",
    "class": "Property rating (high to low)",
    "distance_from_search": "Distance from city centre",
}
CURRENCIES: dict[str, tuple[str, str, float]] = {  # code -> (name, symbol, units per US$)
    "USD": ("U.S. dollar", "US$", 1.0),
    "EUR": ("Euro", "EUR ", 0.92),
    "GBP": ("British pound", "GBP ", 0.79),
    "JPY": ("Japanese yen", "JPY ", 155.0),
}
FILTER_DEFAULTS: dict[str, Any] = {
    "price": "",
    "fc": False,
    "review": 0,
    "stars": [],
    "breakfast": False,
    "types": [],
    "facilities": [],
    "distance": 0,
}

_BRANDS = (
    ("Ibis", "Motel One", "Holiday Inn Express", "Meininger", "Best Western"),
    ("Novotel", "Mercure", "NH", "citizenM", "Holiday Inn", "Park Inn"),
    ("Radisson Blu", "Pullman", "Sofitel", "Hyatt Regency", "Hilton", "NH Collection", "Park Plaza"),
)
_HOTEL_FORMS = (
    "Hotel {d}", "{d} Hotel", "The {d} House", "{d} Grand Hotel", "{d} Boutique Hotel", "{b} {c} {d}",
    "{d} Palace", "Residence {d}", "{d} Inn", "The {d} Rooms", "{d} Central Hotel",
)
_APARTMENT_FORMS = (
    "{d} Apartments", "{d} Suites", "Sunny Studio in {d}", "{d} Lofts", "{d} Serviced Apartments",
)
_HOSTEL_FORMS = ("{d} Hostel", "The {d} Backpackers", "Generator {c} {d}")
_GUEST_FORMS = ("{d} Guest House", "Casa {d}", "Villa {d}")
_BNB_FORMS = ("{d} Bed and Breakfast", "{d} Garden Rooms", "Maison {d}")
_ROOMS: dict[str, tuple[tuple[str, str, int, float], ...]] = {  # name, beds, sleeps, price factor
    "Hotel": (
        ("Single Room", "1 single bed", 1, 0.8),
        ("Standard Double Room", "1 double bed", 2, 1.0),
        ("Twin Room", "2 single beds", 2, 1.05),
        ("Superior Double Room", "1 large double bed", 2, 1.25),
        ("Deluxe King Room", "1 extra-large double bed", 2, 1.45),
        ("Family Room", "1 double bed and 2 single beds", 4, 1.5),
        ("Junior Suite", "1 extra-large double bed and 1 sofa bed", 3, 1.65),
    ),
    "Apartment": (
        ("Studio", "1 double bed", 2, 0.85),
        ("One-Bedroom Apartment", "1 double bed and 1 sofa bed", 4, 1.0),
        ("Two-Bedroom Apartment", "2 double beds and 1 sofa bed", 6, 1.5),
    ),
    "Hostel": (
        ("Bed in 6-Bed Mixed Dormitory Room", "1 bunk bed", 1, 0.45),
        ("Bed in 4-Bed Female Dormitory Room", "1 bunk bed", 1, 0.55),
        ("Double Room with Private Bathroom", "1 double bed", 2, 1.0),
        ("Quadruple Room", "2 bunk beds", 4, 1.6),
    ),
    "Guest house": (
        ("Double Room", "1 double bed", 2, 1.0),
        ("Double Room with Garden View", "1 large double bed", 2, 1.15),
        ("Triple Room", "1 double bed and 1 single bed", 3, 1.35),
    ),
}
_ROOMS["Bed and breakfast"] = _ROOMS["Guest house"]
_REVIEW_TEXTS = (
    "The location was perfect, a short walk from everything in {d}.",
    "Staff were incredibly friendly and helpful from check-in to check-out.",
    "Room was spotless and the bed very comfortable.",
    "Breakfast had a great variety and the coffee was excellent.",
    "A bit noisy at night, but great value for the area.",
    "Amazing views from the rooftop terrace.",
    "Check-in was quick and the room was ready early.",
    "Lovely quiet street, close to the metro and lots of restaurants.",
    "The room was smaller than expected but very well designed.",
    "Would definitely stay here again on my next trip to {c}.",
    "Great shower, strong WiFi and a really comfy bed.",
    "Perfect base for exploring {c} on foot.",
)
_REVIEWERS = (
    ("Emma", "United Kingdom"), ("Lucas", "France"), ("Sofia", "Italy"), ("Noah", "United States"),
    ("Mia", "Germany"), ("Hiro", "Japan"), ("Ana", "Portugal"), ("Liam", "Australia"), ("Chloe", "Canada"),
    ("Mateo", "Spain"), ("Freya", "Denmark"), ("Omar", "United Arab Emirates"), ("Wei", "Singapore"),
)
# fmt: on


def slugify(text: str) -> str:
    """A booking.com page name: ASCII, lower case, dashes ("Schöneberg Apartments" -> schoneberg-apartments)."""
    folded = unicodedata.normalize("NFKD", text.replace("ß", "ss")).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")


def _stars(rng: random.Random, kind: str) -> int:
    return rng.choice(
        {
            "Hotel": (2, 3, 3, 4, 4, 4, 5, 5),
            "Apartment": (0, 0, 3, 4),
            "Hostel": (0, 1, 2),
            "Guest house": (0, 2, 3),
            "Bed and breakfast": (0, 3, 4),
        }[kind]
    )


def _hotel(
    rng: random.Random, city: City, kind: str, stars: int, name: str, district: str, hid: int
) -> dict[str, Any]:
    factor = {
        "Hotel": (0.55, 0.7, 0.75, 1.0, 1.4, 2.2)[stars],
        "Apartment": rng.uniform(0.9, 1.3),
        "Hostel": rng.uniform(0.3, 0.42),
        "Guest house": rng.uniform(0.6, 0.85),
        "Bed and breakfast": rng.uniform(0.7, 0.95),
    }[kind]
    base = round(city.level * factor * rng.uniform(0.85, 1.2))
    score = round(min(9.8, max(6.0, rng.gauss(8.0 + 0.25 * (max(stars, 2) - 3), 0.6))), 1)
    luxury = stars >= 4
    warm = city.name in ("Dubai", "Singapore", "Sydney", "Barcelona", "Lisbon")
    chance = {
        "free_wifi": 0.92,
        "parking": 0.4,
        "pool": (0.55 if warm else 0.2) if luxury else 0.05,
        "fitness": 0.65 if luxury else 0.15,
        "spa": 0.5 if stars == 5 else 0.05,
        "restaurant": 0.7 if kind == "Hotel" else 0.1,
        "airport_shuttle": 0.2,
        "pets": 0.25,
        "family_rooms": 0.45,
        "non_smoking": 0.85,
    }
    facilities = [key for key in FACILITIES if rng.random() < chance[key]]
    rooms = sorted(
        rng.sample(_ROOMS[kind], k=min(len(_ROOMS[kind]), rng.choice((3, 3, 4)))), key=lambda r: r[3]
    )
    reviews = [
        {
            "author": who,
            "country": where,
            "score": round(min(10.0, max(5.0, score + rng.uniform(-1.2, 1.0))), 1),
            "text": text.format(d=district, c=city.name),
        }
        for (who, where), text in zip(rng.sample(_REVIEWERS, 3), rng.sample(_REVIEW_TEXTS, 3), strict=True)
    ]
    return {
        "id": hid,
        "name": name,
        "slug": slugify(name),
        "city": city.name,
        "cc": city.cc,
        "country": city.country,
        "district": district,
        "type": kind,
        "stars": stars,
        "score": score,
        "reviews_count": int(rng.lognormvariate(6.3, 1.0)) + 12,
        "base": base,
        "distance": round(rng.uniform(0.15, 1.0) ** 1.6 * 7.5 + 0.1, 1),
        "facilities": facilities,
        "breakfast": rng.random() < (0.1 if kind == "Hostel" else 0.35),
        "free_cancellation": rng.random() < 0.6,
        "rooms": [{"name": n, "beds": b, "sleeps": s, "factor": f} for n, b, s, f in rooms],
        "reviews": reviews,
    }


@lru_cache(maxsize=1)
def catalog() -> dict[int, dict[str, Any]]:
    """Every property by id; built once per process from a fixed seed (never from the phone's)."""
    hotels: dict[int, dict[str, Any]] = {}
    for city in CITIES:
        rng = random.Random(f"booking-catalog:{city.name}")
        kinds = ["Hotel"] * 10 + ["Apartment"] * 4 + ["Hostel"] * 2 + ["Guest house", "Bed and breakfast"]
        districts = list(city.districts)
        rng.shuffle(districts)
        names: set[str] = set()
        for i, kind in enumerate(kinds):
            district = districts[i % len(districts)]
            forms = {
                "Hotel": _HOTEL_FORMS,
                "Apartment": _APARTMENT_FORMS,
                "Hostel": _HOSTEL_FORMS,
                "Guest house": _GUEST_FORMS,
                "Bed and breakfast": _BNB_FORMS,
            }[kind]
            stars = _stars(rng, kind)
            brands = _BRANDS[0 if stars <= 2 else 1 if stars == 3 else 2]
            name = ""
            while not name or name in names:
                name = rng.choice(forms).format(d=district, c=city.name, b=rng.choice(brands))
                district = rng.choice(city.districts) if name in names else district
            names.add(name)
            hid = rng.randrange(100_000, 9_999_999)
            while hid in hotels:
                hid = rng.randrange(100_000, 9_999_999)
            hotels[hid] = _hotel(rng, city, kind, stars, name, district, hid)
            hotels[hid]["street"] = street_address(city.name, hid)
    return hotels


def city_of(text: str) -> City | None:
    """The catalogue city a destination string names ("paris", "Paris, France", "hotels in Paris")."""
    _, named = split_place(text, CITY_BY_KEY)
    return CITY_BY_KEY[named] if named else None


def hotels_in(city: str) -> list[dict[str, Any]]:
    return [h for h in catalog().values() if h["city"] == city]


def hotel_by_slug(cc: str, slug: str) -> dict[str, Any] | None:
    return next((h for h in catalog().values() if h["cc"] == cc.lower() and h["slug"] == slug), None)


def initial_market(rng: random.Random) -> dict[str, list[float]]:
    """Per-property [price factor, popularity] for one phone seed: what makes prices and top picks move."""
    return {str(hid): [round(rng.uniform(0.9, 1.12), 3), round(rng.random(), 4)] for hid in sorted(catalog())}


# -- prices --------------------------------------------------------------------------------------------


def nights(checkin: str, checkout: str) -> int:
    return max(1, (date.fromisoformat(checkout) - date.fromisoformat(checkin)).days)


def _night_factor(day: date) -> float:
    season = {6: 1.1, 7: 1.2, 8: 1.2, 12: 1.1}.get(day.month, 1.0)
    weekend = 1.15 if day.weekday() in (4, 5) else 1.0  # Friday and Saturday nights
    return season * weekend


def fitting_rooms(hotel: dict[str, Any], party: dict[str, Any]) -> list[dict[str, Any]]:
    """Room types that sleep the party's guests per room, cheapest first."""
    per_room = math.ceil((party["adults"] + party.get("children", 0)) / max(1, party["rooms"]))
    return [r for r in hotel["rooms"] if r["sleeps"] >= per_room]


def room_price(
    hotel: dict[str, Any], room: dict[str, Any], party: dict[str, Any], market: dict[str, list[float]]
) -> int:
    """Total US$ for the stay: nightly rate x season x occupancy x rooms, moved by the seed's factor."""
    start = date.fromisoformat(party["checkin"])
    stay = sum(
        _night_factor(start + timedelta(days=i)) for i in range(nights(party["checkin"], party["checkout"]))
    )
    per_room = math.ceil((party["adults"] + party.get("children", 0)) / max(1, party["rooms"]))
    occupancy = {1: 0.85, 2: 1.0}.get(per_room, 1.0 + 0.1 * (per_room - 2))
    jitter = market.get(str(hotel["id"]), [1.0, 0.0])[0]
    total: int = round(hotel["base"] * jitter * stay * room["factor"] * occupancy * max(1, party["rooms"]))
    return total


def offer(hotel: dict[str, Any], party: dict[str, Any], market: dict[str, list[float]]) -> int | None:
    """The cheapest total for the party, or None when no room type fits it."""
    rooms = fitting_rooms(hotel, party)
    return min((room_price(hotel, r, party, market) for r in rooms), default=None)


def convert(usd: float, currency: str) -> float:
    return usd * CURRENCIES.get(currency, CURRENCIES["USD"])[2]


def money(usd: float, currency: str) -> str:
    """ "US$1,234" / "EUR 1,135": whole units, as the app shows totals."""
    symbol = CURRENCIES.get(currency, CURRENCIES["USD"])[1]
    return f"{symbol}{round(convert(usd, currency)):,}"


# -- labels --------------------------------------------------------------------------------------------


def score_label(score: float) -> str:
    for threshold, label in (
        (9.5, "Exceptional"),
        (9.0, "Wonderful"),
        (8.5, "Excellent"),
        (8.0, "Very good"),
        (7.0, "Good"),
        (6.0, "Pleasant"),
    ):
        if score >= threshold:
            return label
    return "Review score"


def budget_label(bucket: str, currency: str) -> str:
    low, high = bucket.split("-")
    symbol = CURRENCIES.get(currency, CURRENCIES["USD"])[1].strip()
    return f"{symbol} {low}+" if high == "max" else f"{symbol} {low} - {symbol} {high}"


# -- search --------------------------------------------------------------------------------------------


def matches(hotel: dict[str, Any], filters: dict[str, Any], per_night: float) -> bool:
    """Does a property with this nightly price (display currency) pass the results filters?"""
    if filters.get("price"):
        low, high = filters["price"].split("-")
        if per_night < float(low) or (high != "max" and per_night >= float(high)):
            return False
    if filters.get("fc") and not hotel["free_cancellation"]:
        return False
    if filters.get("review") and hotel["score"] * 10 < filters["review"]:
        return False
    if filters.get("stars") and hotel["stars"] not in filters["stars"]:
        return False
    if filters.get("breakfast") and not hotel["breakfast"]:
        return False
    if filters.get("types") and hotel["type"] not in filters["types"]:
        return False
    if any(f not in hotel["facilities"] for f in filters.get("facilities", ())):
        return False
    return not (filters.get("distance") and hotel["distance"] >= filters["distance"])


def search(
    args: dict[str, Any], market: dict[str, list[float]], currency: str
) -> list[tuple[dict[str, Any], int]]:
    """(property, total US$) for a results screen's city, dates, party, filters and order."""
    found = []
    for hotel in hotels_in(args.get("city", "")):
        total = offer(hotel, args, market)
        if total is None:
            continue
        per_night = convert(total, currency) / nights(args["checkin"], args["checkout"])
        if matches(hotel, args, per_night):
            found.append((hotel, total))
    order = args.get("order", "popularity")
    keys = {
        "price": lambda ht: (ht[1], ht[0]["id"]),
        "bayesian_review_score": lambda ht: (-ht[0]["score"], -ht[0]["reviews_count"]),
        "class": lambda ht: (-ht[0]["stars"], -ht[0]["score"]),
        "distance_from_search": lambda ht: (ht[0]["distance"], ht[0]["id"]),
    }
    default = lambda ht: (-market.get(str(ht[0]["id"]), [1.0, 0.0])[1] - ht[0]["score"] / 20, ht[0]["id"])  # noqa: E731
    return sorted(found, key=keys.get(order, default))


def suggestions(text: str, limit: int = 8) -> list[tuple[str, str, int | None]]:
    """Destination suggestions for typed text: (title, subtitle, hotel id or None for a city). Case,
    accents and word order do not matter, and a city named with other words ("hotels in Paris",
    "Schoneberg Apartments Berlin") is suggested first, with that city's matching properties."""
    query = fold(text).strip()
    if not query:
        return []
    what, named = split_place(text, CITY_BY_KEY)
    name_words, in_city = (what, CITY_BY_KEY[named].name) if named and what else (text, None)
    cities = [
        (c.name, f"{c.region}, {c.country}", None)
        for c in CITIES
        if c.name == in_city or query in fold(c.name) or query in fold(c.country)
    ]
    props = [
        (h["name"], f"{h['district']}, {h['city']}, {h['country']}", h["id"])
        for h in catalog().values()
        if len(fold(name_words).strip()) >= 3
        and in_city in (None, h["city"])
        and contains_words(h["name"], name_words)
    ]
    return (cities + sorted(props, key=lambda p: p[0]))[:limit]
