"""Yelp's seeded catalogue: businesses in five cities (names, categories, price, rating, address, hours,
features) and local events. Everything comes from the phone's `rng`, so a seed fixes the content; reviews
are derived from each business id on demand to keep the state small."""

from __future__ import annotations

import math
import random
import string
from datetime import datetime, timedelta
from typing import Any, TypedDict

from ..textmatch import contains_words, fold


class City(TypedDict):
    """A catalogue city: its neighbourhoods (name, zip) and the streets its businesses are on."""

    name: str
    state: str
    area: str  # phone area code
    hoods: tuple[tuple[str, str], ...]
    streets: tuple[str, ...]


CITIES: tuple[City, ...] = (
    {"name": "San Francisco", "state": "CA", "area": "415",
     "hoods": (("Mission", "94110"), ("Hayes Valley", "94102"), ("North Beach", "94133"), ("SoMa", "94103"), ("Inner Sunset", "94122"), ("Marina", "94123")),
     "streets": ("Valencia St", "Mission St", "Hayes St", "Columbus Ave", "Irving St", "Chestnut St", "Divisadero St", "Folsom St")},
    {"name": "New York", "state": "NY", "area": "212",
     "hoods": (("East Village", "10003"), ("West Village", "10014"), ("Williamsburg", "11211"), ("Chelsea", "10011"), ("Lower East Side", "10002"), ("Upper West Side", "10024")),
     "streets": ("Broadway", "2nd Ave", "Bleecker St", "Bedford Ave", "8th Ave", "Orchard St", "Amsterdam Ave", "Mott St")},
    {"name": "Chicago", "state": "IL", "area": "312",
     "hoods": (("Wicker Park", "60622"), ("Logan Square", "60647"), ("River North", "60654"), ("West Loop", "60607"), ("Lincoln Park", "60614"), ("Pilsen", "60608")),
     "streets": ("N Milwaukee Ave", "W Randolph St", "N Clark St", "W Armitage Ave", "W 18th St", "N Wells St", "W Division St")},
    {"name": "Seattle", "state": "WA", "area": "206",
     "hoods": (("Capitol Hill", "98102"), ("Ballard", "98107"), ("Fremont", "98103"), ("Belltown", "98121"), ("Queen Anne", "98109"), ("Pioneer Square", "98104")),
     "streets": ("Pike St", "Broadway E", "NW Market St", "Fremont Ave N", "2nd Ave", "Queen Anne Ave N", "1st Ave S")},
    {"name": "Austin", "state": "TX", "area": "512",
     "hoods": (("Downtown", "78701"), ("South Congress", "78704"), ("East Austin", "78702"), ("Hyde Park", "78751"), ("Zilker", "78704"), ("Mueller", "78723")),
     "streets": ("S Congress Ave", "E 6th St", "Rainey St", "S Lamar Blvd", "E Cesar Chavez St", "Guadalupe St", "Burnet Rd")},
)  # fmt: skip
CITY_NAMES = tuple(f"{c['name']}, {c['state']}" for c in CITIES)
DEFAULT_LOCATION = CITY_NAMES[0]

# alias -> (title, kind, hours profile, price levels, extra tags, name templates, words)
CATEGORIES: dict[str, tuple[str, str, str, tuple[int, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "italian": ("Italian", "food", "dinner", (2, 3, 4), ("Wine Bars", "Pasta Shops"),
                ("Trattoria {w}", "Osteria {w}", "Cucina {w}", "{w} Pasta Bar", "Ristorante {w}"),
                ("Bella", "Nonna", "Toscana", "Lucca", "Roma", "Siena", "Forno", "Aurora", "Vespa", "Gemma", "Sorrento", "Portofino", "Amalfi", "Verona", "Fiore")),
    "sushi": ("Sushi Bars", "food", "dinner", (1, 2, 3, 4), ("Japanese",),
              ("Sushi {w}", "{w} Sushi", "{w} Omakase", "Sushi Bar {w}"),
              ("Hana", "Kaze", "Sakura", "Umi", "Kiku", "Mizu", "Yuki", "Tora", "Sora", "Kai", "Nami", "Ren", "Hoshi", "Taka", "Koi")),
    "mexican": ("Mexican", "food", "allday", (1, 2), ("Tacos",),
                ("Taqueria {w}", "{w} Cantina", "La {w}", "El {w}", "Tacos {w}"),
                ("Paloma", "Jalisco", "Oaxaca", "Agave", "Cielo", "Azul", "Sol", "Nopal", "Mezcal", "Fuego", "Primavera", "Chula")),
    "chinese": ("Chinese", "food", "allday", (1, 2), ("Dim Sum", "Noodles"),
                ("{w} Dumpling House", "Golden {w}", "{w} Garden", "{w} Noodle Bar", "Lucky {w}"),
                ("Jade", "Dragon", "Lotus", "Panda", "Bamboo", "Peony", "Phoenix", "Lantern", "Harmony", "Orchid")),
    "thai": ("Thai", "food", "allday", (1, 2), ("Noodles",),
             ("{w} Thai", "Thai {w}", "Baan {w}", "{w} Thai Kitchen"),
             ("Siam", "Lanna", "Chiang Mai", "Bangkok", "Basil", "Lemongrass", "Mango", "Sukhothai", "Krua", "Jasmine")),
    "indpak": ("Indian", "food", "dinner", (1, 2, 3), ("Vegetarian",),
               ("{w} Indian Kitchen", "Tandoor {w}", "{w} Curry House", "Masala {w}"),
               ("Taj", "Saffron", "Bombay", "Chutney", "Punjab", "Kerala", "Namaste", "Tamarind", "Cardamom")),
    "burgers": ("Burgers", "food", "allday", (1, 2), ("American",),
                ("{w} Burgers", "{w} Burger Co.", "The {w} Grill", "{w} Smash Burgers"),
                ("Roadside", "Char", "Stack", "Ranch", "Backyard", "Blue Collar", "Copper", "Crown", "Corner", "Union")),
    "pizza": ("Pizza", "food", "allday", (1, 2), ("Italian",),
              ("{w} Pizza", "{w} Pizzeria", "Slice of {w}", "{w} Pie Co."),
              ("Brooklyn", "Vesuvio", "Little Star", "Neapolitan", "Fire Brick", "Margherita", "Gino's", "Tony's", "Mamma's", "Stone Oven")),
    "ramen": ("Ramen", "food", "dinner", (1, 2), ("Japanese", "Noodles"),
              ("{w} Ramen", "Ramen {w}", "{w} Noodle House", "Menya {w}"),
              ("Ippo", "Ichiro", "Kotetsu", "Daikoku", "Tonkotsu", "Shoyu", "Yuzu", "Ryu", "Hinode", "Kizuna")),
    "bbq": ("Barbeque", "food", "allday", (1, 2), ("Smokehouse",),
            ("{w} BBQ", "{w} Smokehouse", "{w} Barbecue"),
            ("Hickory", "Post Oak", "Mesquite", "Lone Star", "Pit Stop", "Brisket Bros", "Smoky", "Red Ember")),
    "breakfast_brunch": ("Breakfast & Brunch", "food", "brunch", (1, 2), ("Cafes",),
                         ("{w} Kitchen", "The {w} Cafe", "{w} Brunch House", "Sunny {w}"),
                         ("Morning Glory", "Early Bird", "Griddle", "Sunny Side", "Buttermilk", "Hash House", "Maple", "Biscuit")),
    "seafood": ("Seafood", "food", "dinner", (2, 3, 4), ("Oysters",),
                ("{w} Oyster Bar", "The {w} Fish House", "{w} Crab Shack"),
                ("Pier 9", "Saltwater", "Harbor", "Anchor", "Blue Fin", "Tidewater", "Driftwood")),
    "korean": ("Korean", "food", "dinner", (1, 2, 3), ("Korean BBQ",),
               ("{w} Korean BBQ", "{w} Tofu House", "Seoul {w}"),
               ("Gangnam", "Hanok", "Kimchi", "Bibim", "Jeju", "Bulgogi", "Insa")),
    "vegan": ("Vegan", "food", "allday", (1, 2), ("Vegetarian", "Salad"),
              ("{w} Vegan", "Plant {w}", "Green {w}", "{w} Greens"),
              ("Leaf", "Sprout", "Root", "Harvest", "Kale", "Lentil", "Clover")),
    "coffee": ("Coffee & Tea", "cafe", "cafe", (1, 2), ("Cafes", "Bakeries"),
               ("{w} Coffee", "{w} Coffee Roasters", "Cafe {w}", "{w} Espresso", "{w} Tea House"),
               ("Bluebird", "Ember", "Fogline", "Steam", "Grounded", "Drip", "Crema", "Copper Kettle", "Lighthouse", "Parlor", "Nomad", "Elm", "Sparrow", "Meridian", "Juniper", "Wren")),
    "bars": ("Bars", "bar", "bar", (1, 2, 3), ("Cocktail Bars", "Dive Bars", "Wine Bars", "Sports Bars"),
             ("The {w}", "{w} Tavern", "{w} Taproom", "{w} Lounge", "{w} Pub"),
             ("Rusty Anchor", "Velvet", "Owl", "Copper Fox", "Lucky Penny", "Black Cat", "Red Door", "Hideaway", "Golden Hour", "Ironside")),
    "bakeries": ("Bakeries", "cafe", "bakery", (1, 2), ("Desserts",),
                 ("{w} Bakery", "{w} Bake Shop", "Boulangerie {w}", "{w} Pastry"),
                 ("Flour", "Butter", "Rise", "Crumb", "Golden Crust", "Sugar", "Levain", "Knead", "Sweet Rye")),
    "gyms": ("Gyms", "service", "gym", (2, 3), ("Trainers",),
             ("{w} Fitness", "{w} Gym", "{w} Strength Club", "{w} Athletic"),
             ("Iron", "Peak", "Pulse", "Core", "Summit", "Forge", "Momentum", "Titan")),
    "hair": ("Hair Salons", "service", "salon", (2, 3), ("Blow Dry",),
             ("{w} Salon", "Studio {w}", "{w} Hair Studio"),
             ("Luxe", "Bloom", "Mane", "Gloss", "Velvet", "Halo", "Shear")),
    "barbers": ("Barbers", "service", "salon", (1, 2), ("Men's Hair",),
                ("{w} Barbershop", "{w} Barbers", "The {w} Barber"),
                ("Fade", "Classic", "Gentleman's", "Sharp", "Razor", "Old Town", "Dapper")),
}  # fmt: skip

# How many of each category every city gets (42 per city, 210 in all).
CITY_MIX = (("italian", 4), ("sushi", 4), ("mexican", 3), ("chinese", 2), ("thai", 2), ("indpak", 1),
            ("burgers", 2), ("pizza", 2), ("ramen", 2), ("bbq", 1), ("breakfast_brunch", 2), ("seafood", 1),
            ("korean", 1), ("vegan", 1), ("coffee", 6), ("bars", 3), ("bakeries", 2), ("gyms", 1),
            ("hair", 1), ("barbers", 1))  # fmt: skip

# Opening hours in minutes after midnight per profile: (open choices, close choices, closed-day chance).
HOURS: dict[str, tuple[tuple[int, ...], tuple[int, ...], float]] = {
    "dinner": ((11 * 60 + 30, 17 * 60, 17 * 60 + 30), (21 * 60 + 30, 22 * 60, 23 * 60), 0.5),
    "allday": ((10 * 60 + 30, 11 * 60), (21 * 60, 22 * 60, 23 * 60 + 30), 0.2),
    "brunch": ((7 * 60, 8 * 60), (14 * 60, 15 * 60), 0.2),
    "cafe": ((6 * 60 + 30, 7 * 60), (17 * 60, 18 * 60, 20 * 60), 0.0),
    "bar": ((16 * 60, 17 * 60), (26 * 60, 26 * 60, 24 * 60), 0.3),
    "bakery": ((7 * 60, 8 * 60), (15 * 60, 17 * 60), 0.3),
    "gym": ((5 * 60, 6 * 60), (22 * 60, 23 * 60), 0.0),
    "salon": ((9 * 60, 10 * 60), (18 * 60, 19 * 60), 0.6),
}
FEATURES = ("delivery", "takeout", "outdoor_seating", "reservations")
FEATURE_LABELS = {
    "delivery": "Offers Delivery",
    "takeout": "Offers Takeout",
    "outdoor_seating": "Outdoor Seating",
    "reservations": "Takes Reservations",
}
EVENT_CATEGORIES = (
    "Music",
    "Food & Drink",
    "Arts & Culture",
    "Nightlife",
    "Sports & Active Life",
    "Kids & Family",
)
EVENT_NAMES: dict[str, tuple[str, ...]] = {
    "Music": ("Jazz Night", "Indie Rock Showcase", "Live Blues Jam", "Acoustic Sessions", "Soul & Funk Revue", "Open Mic Night"),
    "Food & Drink": ("Taco Crawl", "Wine Tasting Evening", "Craft Beer Festival", "Dumpling Workshop", "Farmers Market Brunch", "Chili Cook-Off"),
    "Arts & Culture": ("Gallery Walk", "Street Art Tour", "Poetry Slam", "Pottery Class", "Film Under the Stars"),
    "Nightlife": ("Salsa Social", "80s Dance Party", "Trivia Night", "Karaoke Showdown", "Rooftop DJ Set"),
    "Sports & Active Life": ("Sunrise Yoga", "5K Fun Run", "Group Bike Ride", "Bouldering Meetup"),
    "Kids & Family": ("Family Story Time", "Kids Cooking Class", "Puppet Show", "Science Fair for Kids"),
}  # fmt: skip
EVENT_VENUE_KIND = {"Music": "bars", "Nightlife": "bars", "Food & Drink": "food", "Arts & Culture": "cafe",
                    "Sports & Active Life": "gyms", "Kids & Family": "cafe"}  # fmt: skip
REVIEWERS = ("Maya R.", "Jordan K.", "Priya S.", "Sam T.", "Elena V.", "Marcus L.", "Hannah W.", "Diego M.",
             "Aiko N.", "Chris B.", "Fatima Z.", "Tom H.", "Grace C.", "Leo P.")  # fmt: skip
REVIEW_LINES = {
    5: ("Absolutely loved it. The {item} was perfect and the staff made us feel at home.",
        "Best {item} in the neighborhood, hands down. Already planning my next visit.",
        "Five stars without hesitation: great vibe, friendly service and an amazing {item}."),
    4: ("Really solid spot. The {item} was great, though it got busy around 7.",
        "Good {item} and a cozy room. A little pricey but worth it.",
        "Friendly staff and tasty {item}. Would come back with friends."),
    3: ("Decent {item}, nothing special. Service was a bit slow.",
        "It was fine. The {item} was okay but the wait was long.",
        "Mixed feelings: nice space, average {item}."),
    2: ("The {item} was cold and we waited 40 minutes. Disappointing.",
        "Not great. Overpriced {item} and a noisy room."),
}  # fmt: skip
REVIEW_ITEMS = {
    "italian": ("pasta", "tiramisu", "risotto"),
    "sushi": ("omakase", "salmon nigiri", "spicy tuna roll"),
    "mexican": ("tacos", "carnitas", "mole"),
    "chinese": ("dumplings", "chow mein", "mapo tofu"),
    "thai": ("pad thai", "green curry", "khao soi"),
    "indpak": ("butter chicken", "biryani", "naan"),
    "burgers": ("burger", "fries", "milkshake"),
    "pizza": ("pizza", "margherita", "garlic knots"),
    "ramen": ("tonkotsu ramen", "gyoza", "broth"),
    "bbq": ("brisket", "ribs", "mac and cheese"),
    "breakfast_brunch": ("pancakes", "eggs benedict", "brunch"),
    "seafood": ("oysters", "crab", "fish tacos"),
    "korean": ("bulgogi", "bibimbap", "kimchi stew"),
    "vegan": ("grain bowl", "vegan burger", "salad"),
    "bakeries": ("croissant", "sourdough", "cinnamon roll"),
    "cafe": ("latte", "cold brew", "croissant", "pastry", "pour-over"),
    "bar": ("cocktail", "happy hour", "beer list", "old fashioned"),
    "service": ("haircut", "class", "service", "appointment"),
}
ID_ALPHABET = string.ascii_letters + string.digits + "-_"
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def slug(text: str) -> str:
    """Yelp-style alias part: lower case words joined by dashes ("Gino's Pizza" -> "gino-s-pizza")."""
    out = "".join(ch.lower() if ch.isalnum() else "-" for ch in text)
    return "-".join(part for part in out.split("-") if part)


def _hours(rng: random.Random, profile: str) -> list[list[int] | None]:
    opens, closes, closed_chance = HOURS[profile]
    start, end = rng.choice(opens), rng.choice(closes)
    closed_day = rng.randrange(7) if rng.random() < closed_chance else None
    week: list[list[int] | None] = []
    for day in range(7):
        if day == closed_day or (profile == "salon" and day == 6):
            week.append(None)
        else:
            late = 60 if profile in ("dinner", "allday", "bar") and day in (4, 5) else 0
            week.append([start, end + late])
    return week


def _features(rng: random.Random, kind: str, price: int) -> list[str]:
    if kind not in ("food", "cafe", "bar"):
        return []
    odds = {"delivery": 0.55, "takeout": 0.8, "outdoor_seating": 0.4, "reservations": 0.25 + 0.2 * price}
    if kind != "food":
        odds.update(delivery=0.2, reservations=0.1)
    return [f for f in FEATURES if rng.random() < odds[f]]


def make_business(rng: random.Random, city: City, alias: str, used: set[str]) -> dict[str, Any]:
    title, kind, profile, prices, tags, templates, words = CATEGORIES[alias]
    name = rng.choice(templates).format(w=rng.choice(words))
    while name in used:
        name = rng.choice(templates).format(w=rng.choice(words))
    used.add(name)
    hood, zipcode = rng.choice(city["hoods"])
    price = rng.choice(prices)
    rating = round(min(4.9, max(2.6, rng.gauss(4.1, 0.45))), 1)
    categories = [title] + ([rng.choice(tags)] if rng.random() < 0.6 else [])
    street = f"{rng.randrange(100, 3999)} {rng.choice(city['streets'])}"
    return {
        "id": "".join(rng.choice(ID_ALPHABET) for _ in range(22)),
        "alias": f"{slug(name)}-{slug(city['name'])}",
        "name": name,
        "category": alias,
        "categories": categories,
        "kind": kind,
        "price": price,
        "rating": rating,
        "review_count": int(rng.lognormvariate(5.2, 1.0)) + 12,
        "address": street,
        "neighborhood": hood,
        "city": city["name"],
        "state": city["state"],
        "zip": zipcode,
        "phone": f"({city['area']}) 555-{rng.randrange(100, 9999):04d}",
        "distance": round(rng.uniform(0.1, 6.0) ** 1.1, 1),
        "hours": _hours(rng, profile),
        "features": _features(rng, kind, price),
        "website": f"https://www.{slug(name).replace('-', '')}.com",
        "boost": round(rng.random(), 3),
    }


def make_businesses(rng: random.Random) -> list[dict[str, Any]]:
    used: set[str] = set()
    out: list[dict[str, Any]] = []
    for city in CITIES:
        for alias, count in CITY_MIX:
            out.extend(make_business(rng, city, alias, used) for _ in range(count))
    return out


def make_events(rng: random.Random, businesses: list[dict[str, Any]], now: datetime) -> list[dict[str, Any]]:
    """Seven events per city over the next three weeks, each at one of the city's businesses."""
    events: list[dict[str, Any]] = []
    start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    for city in CITIES:
        in_city = [b for b in businesses if b["city"] == city["name"]]
        used: set[str] = set()
        for _ in range(7):
            category = rng.choice(EVENT_CATEGORIES)
            name = rng.choice(EVENT_NAMES[category])
            while name in used:
                category = rng.choice(EVENT_CATEGORIES)
                name = rng.choice(EVENT_NAMES[category])
            used.add(name)
            kind = EVENT_VENUE_KIND[category]
            venues = [b for b in in_city if kind in (b["kind"], b["category"])]
            venue = rng.choice(venues)
            day = start + timedelta(days=rng.randrange(1, 22))
            hour = {"Sports & Active Life": 8, "Kids & Family": 10, "Food & Drink": 12}.get(category, 19)
            when = day.replace(hour=hour + rng.randrange(3), minute=rng.choice((0, 30)))
            events.append(
                {
                    "id": f"{slug(name)}-{slug(city['name'])}-{when:%m%d}",
                    "name": name,
                    "category": category,
                    "city": city["name"],
                    "start": when.strftime("%Y-%m-%dT%H:%M"),
                    "venue_id": venue["id"],
                    "venue": venue["name"],
                    "address": f"{venue['address']}, {city['name']}, {city['state']} {venue['zip']}",
                    "price": rng.choice(("Free", "Free", "$10", "$15", "$25", "$40")),
                    "interested": rng.randrange(8, 400),
                }
            )
    events.sort(key=lambda e: (e["start"], e["name"]))
    return events


def reviews_for(business: dict[str, Any]) -> list[dict[str, Any]]:
    """Three reviews, derived from the business id so they cost no state and never change for a seed."""
    rng = random.Random(business["id"])
    items = REVIEW_ITEMS.get(business["category"]) or REVIEW_ITEMS.get(
        business["kind"], REVIEW_ITEMS["service"]
    )
    out = []
    for i in range(3):
        stars = max(2, min(5, round(business["rating"] + rng.uniform(-1.2, 0.9))))
        text = rng.choice(REVIEW_LINES[stars]).format(item=rng.choice(items))
        out.append(
            {
                "user": rng.choice(REVIEWERS),
                "rating": stars,
                "text": text,
                "age_days": 3 + 17 * i + rng.randrange(15),
            }
        )
    return out


# -- time ---------------------------------------------------------------------------------------------


def clock(minutes: int) -> str:
    """Minutes after midnight as Yelp writes them: "10:30 PM" (past midnight wraps)."""
    minutes %= 24 * 60
    h, m = divmod(minutes, 60)
    return f"{(h % 12) or 12}:{m:02d} {'AM' if h < 12 else 'PM'}"


def open_status(business: dict[str, Any], now: datetime) -> tuple[bool, str]:
    """(open now?, the line Yelp shows: "Open until 10:00 PM" / "Closed until 11:30 AM")."""
    day, minute = now.weekday(), now.hour * 60 + now.minute
    today = business["hours"][day]
    yesterday = business["hours"][(day - 1) % 7]
    if yesterday and yesterday[1] > 24 * 60 and minute < yesterday[1] - 24 * 60:
        return True, f"Open until {clock(yesterday[1])}"
    if today and today[0] <= minute < today[1]:
        return True, f"Open until {clock(today[1])}"
    if today and minute < today[0]:
        return False, f"Closed until {clock(today[0])}"
    for ahead in range(1, 8):
        nxt = business["hours"][(day + ahead) % 7]
        if nxt:
            label = "tomorrow" if ahead == 1 else DAYS[(day + ahead) % 7]
            return False, f"Closed until {clock(nxt[0])} {label}"
    return False, "Closed"


def hours_line(interval: list[int] | None) -> str:
    return "Closed" if not interval else f"{clock(interval[0])} - {clock(interval[1])}"


# -- search -------------------------------------------------------------------------------------------


def haystack(business: dict[str, Any]) -> str:
    words = [business["name"], business["category"], *business["categories"], business["neighborhood"]]
    words += [FEATURE_LABELS[f] for f in business["features"]]
    if business["kind"] == "food":
        words.append("restaurants food")
    return " ".join(words).lower().replace("&", " ")


def matches(business: dict[str, Any], query: str) -> bool:
    return contains_words(haystack(business), query)


CITY_ALIASES = {"sf": "San Francisco", "nyc": "New York", "ny": "New York", "chi": "Chicago", "atx": "Austin"}


def city_of(location: str) -> str | None:
    """The catalogue city a typed location names ("seattle", "Austin, TX", "NYC"...), if any."""
    text = fold(location).strip()
    if text in CITY_ALIASES:
        return CITY_ALIASES[text]
    for city in CITIES:
        name = fold(city["name"])
        if text and (name in text or (len(text) >= 4 and name.startswith(text.split(",")[0].strip()))):
            return city["name"]
    return None


def location_label(city: str) -> str:
    return next(label for label in CITY_NAMES if label.startswith(city + ","))


def recommended_score(business: dict[str, Any]) -> float:
    score: float = business["rating"] + 0.25 * math.log10(business["review_count"]) + 0.4 * business["boost"]
    return score
