"""Booking.com stand-in (`com.booking`): the manifest, the seeded state, deep links and screen dispatch.

Deep links follow the real app where known (`booking://hotel/<id>`, booking.com search-results and
property URLs); the rest use the app's own `booking://` scheme. https links are not auto-verified, so
without `-p com.booking` they open in Chrome, as they do on an offline Android 12+ emulator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...ui import Node
from ...widgets import overlay
from . import account, hotel, results, search
from . import catalog as cat
from .common import (
    BLUE,
    BOOKING,
    CONFIRMATION,
    DEEPLINK,
    HOME,
    HOTEL,
    PARTY_KEYS,
    RESULTS,
    ROOMS,
    TRIP,
    WISHLIST,
)

WEB_HOSTS = ("www.booking.com", "booking.com", "m.booking.com", "secure.booking.com")
SCHEME_FILTER = IntentFilter(
    actions=(ACTION_VIEW,), categories=(CATEGORY_DEFAULT, CATEGORY_BROWSABLE), schemes=("booking",)
)
WEB_FILTER = IntentFilter(
    actions=(ACTION_VIEW,),
    categories=(CATEGORY_DEFAULT, CATEGORY_BROWSABLE),
    schemes=("https", "http"),
    hosts=WEB_HOSTS,
    path_patterns=("/searchresults*", "/hotel/*", "/mywishlist*", "/mytrips*"),
)
PUBLIC_KEYS = ("profile", "currency", "form", "recent_searches", "wishlists", "saved", "bookings")
PROFILE = {
    "first_name": "Alex",
    "last_name": "Morgan",
    "email": "alex.morgan@gmail.com",
    "phone": "+1 650 555 0142",
}
BUILDERS: dict[str, Callable[[AppContext], Node]] = {
    "search": lambda ctx: overlay(search.build_home(ctx), search.home_layer(ctx)),
    "destination": search.build_destination,
    "calendar": search.build_calendar,
    "results": results.build_results,
    "hotel": hotel.build_hotel,
    "rooms": hotel.build_rooms,
    "reserve": hotel.build_reserve,
    "confirmation": hotel.build_confirmation,
    "saved": account.build_saved,
    "wishlist": account.build_wishlist,
    "bookings": account.build_bookings,
    "trip": account.build_trip,
    "profile": account.build_profile,
}


class BookingApp(App):
    package = identity("booking").package
    label = identity("booking").label
    icon_bg = BLUE
    icon_fg = "#ffffff"
    color = BLUE
    version_name = "47.2.0.1"
    version_code = 24230
    activities = (
        Activity(HOME, "search", (LAUNCHER_FILTER,)),
        Activity(DEEPLINK, "search", (SCHEME_FILTER, WEB_FILTER)),
        Activity(RESULTS, "results", exported=False),
        Activity(HOTEL, "hotel", exported=False),
        Activity(ROOMS, "rooms", exported=False),
        Activity(BOOKING, "reserve", exported=False),
        Activity(CONFIRMATION, "confirmation", exported=False),
        Activity(WISHLIST, "wishlist", exported=False),
        Activity(TRIP, "trip", exported=False),
    )

    # -- state -------------------------------------------------------------------------------------
    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        today = now.date()
        market = cat.initial_market(rng)
        hotels = cat.catalog()
        ids = sorted(hotels)
        city = rng.choice(cat.CITIES).name
        checkin = today + timedelta(days=rng.randint(10, 40))
        recent = {
            "city": city,
            "checkin": checkin.isoformat(),
            "checkout": (checkin + timedelta(days=rng.randint(2, 4))).isoformat(),
            "adults": 2,
            "rooms": 1,
            "children": 0,
        }
        saved = [
            {"hotel_id": h["id"], "name": h["name"], "city": h["city"], "list": "My next trip"}
            for h in (hotels[i] for i in rng.sample(ids, 2))
        ]
        next_number = rng.randrange(3_000_000_000, 4_900_000_000)
        bookings = []
        for _ in range(2):
            hotel = hotels[rng.choice(ids)]
            start = today - timedelta(days=rng.randint(40, 300))
            party = {
                "checkin": start.isoformat(),
                "checkout": (start + timedelta(days=rng.randint(2, 4))).isoformat(),
                "adults": 2,
                "rooms": 1,
                "children": 0,
            }
            room = cat.fitting_rooms(hotel, party)[0]
            number = str(next_number)
            next_number += 7919
            bookings.append(
                {
                    "number": number,
                    "pin": f"{int(number) * 7 % 10000:04d}",
                    "hotel_id": hotel["id"],
                    "hotel": hotel["name"],
                    "city": hotel["city"],
                    "room": room["name"],
                    **party,
                    "nights": cat.nights(party["checkin"], party["checkout"]),
                    **PROFILE,
                    "requests": "",
                    "total": cat.room_price(hotel, room, party, market),
                    "currency": "USD",
                    "free_cancellation": hotel["free_cancellation"],
                    "status": "confirmed",
                    "booked_at": (start - timedelta(days=rng.randint(7, 60))).isoformat() + "T12:00:00+00:00",
                }
            )
        bookings.sort(key=lambda b: b["checkin"])
        return {
            "profile": dict(PROFILE),
            "currency": "USD",
            "form": {
                "city": "",
                "checkin": today.isoformat(),
                "checkout": (today + timedelta(days=1)).isoformat(),
                "adults": 2,
                "rooms": 1,
                "children": 0,
            },
            "recent_searches": [recent],
            "wishlists": ["My next trip"],
            "saved": saved,
            "bookings": bookings,
            "next_number": next_number,
            "market": market,
        }

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return {key: state[key] for key in PUBLIC_KEYS}

    # -- intents -----------------------------------------------------------------------------------
    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        if activity.cls != DEEPLINK or not intent.data:
            return ctx.screen("search", activity=HOME)
        parts = urlsplit(intent.data)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        nflt = [item for v in parse_qs(parts.query).get("nflt", []) for item in v.split(";") if "=" in item]
        segments = [s for s in parts.path.split("/") if s]
        if parts.scheme.lower() == "booking":
            target, rest = (parts.netloc or (segments[0] if segments else "")).lower(), segments
        else:
            target, rest = (segments[0].lower() if segments else ""), segments[1:]
        if target.startswith("searchresults") or target == "search":
            return self._results(ctx, query, nflt)
        if target == "hotel":
            return self._hotel(ctx, rest, query)
        if target.startswith("mywishlist") or target in ("saved", "wishlist"):
            return ctx.screen("saved", activity=HOME)
        if target.startswith("mytrips") or target in ("trips", "bookings"):
            return ctx.screen("bookings", activity=HOME)
        if target == "profile":
            return ctx.screen("profile", activity=HOME)
        if target == "mybooking" and rest:
            if any(b["number"] == rest[-1] for b in ctx.state["bookings"]):
                return ctx.screen("trip", activity=TRIP, number=rest[-1])
            ctx.toast("We couldn't find that booking")
            return ctx.screen("bookings", activity=HOME)
        return ctx.screen("search", activity=HOME)

    def _party(self, ctx: AppContext, query: dict[str, str]) -> dict[str, Any]:
        """Dates and guests from a link's query, falling back to the search box's values."""
        form = ctx.state["form"]
        today = ctx.now().date()
        party = {k: form[k] for k in PARTY_KEYS}
        checkin = _date(query.get("checkin"))
        if checkin is not None and checkin >= today:
            party["checkin"] = checkin.isoformat()
        checkout = _date(query.get("checkout"))
        start = date.fromisoformat(party["checkin"])
        if checkout is not None and 0 < (checkout - start).days <= search.MAX_NIGHTS:
            party["checkout"] = checkout.isoformat()
        elif date.fromisoformat(party["checkout"]) <= start:
            party["checkout"] = (start + timedelta(days=1)).isoformat()
        for key, name in (("adults", "group_adults"), ("rooms", "no_rooms"), ("children", "group_children")):
            if query.get(name, "").isdigit():
                low, high = search.LIMITS[key]
                party[key] = max(low, min(high, int(query[name])))
        return party

    def _results(self, ctx: AppContext, query: dict[str, str], nflt: list[str]) -> Screen:
        destination = query.get("ss", "").strip()
        if not destination:
            return ctx.screen("search", activity=HOME)
        city = cat.city_of(destination)
        params: dict[str, Any] = {"city": city.name if city else destination, **self._party(ctx, query)}
        if query.get("order") in cat.ORDERS:
            params["order"] = query["order"]
        params.update(_filters(nflt))
        if city is not None:
            ctx.state["form"].update({k: params[k] for k in ("city", *PARTY_KEYS)})
            recent = {"city": params["city"], **{k: params[k] for k in PARTY_KEYS}}
            ctx.state["recent_searches"] = [recent] + [r for r in ctx.state["recent_searches"] if r != recent]
            del ctx.state["recent_searches"][search.MAX_RECENT :]
        return ctx.screen("results", activity=RESULTS, **search.results_args(params))

    def _hotel(self, ctx: AppContext, rest: list[str], query: dict[str, str]) -> Screen:
        hotel = None
        if len(rest) == 1 and rest[0].isdigit():  # booking://hotel/<id>
            hotel = cat.catalog().get(int(rest[0]))
        elif len(rest) == 2 and rest[1].endswith(".html"):  # /hotel/<cc>/<slug>.html
            hotel = cat.hotel_by_slug(rest[0], rest[1].removesuffix(".html").split(".")[0])
        if hotel is None:
            ctx.toast("This property is no longer available")
            return ctx.screen("search", activity=HOME)
        party = self._party(ctx, query)
        return ctx.screen(
            "hotel", activity=HOTEL, hotel_id=hotel["id"], hotel=hotel["name"], city=hotel["city"], **party
        )

    # -- screens -----------------------------------------------------------------------------------
    def build(self, ctx: AppContext) -> Node:
        assert ctx.top is not None
        return BUILDERS[ctx.top.name](ctx)


def _date(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _filters(nflt: list[str]) -> dict[str, Any]:
    """booking.com's `nflt` filter codes (`class=4;review_score=80;fc=2;...`) as results arguments."""
    facility_codes = {code: key for key, (_, code) in cat.FACILITIES.items()}
    type_codes = {code: kind for kind, (_, code) in cat.TYPES.items()}
    out: dict[str, Any] = {}
    for item in nflt:
        key, _, value = item.partition("=")
        if key == "class" and value.isdigit() and 1 <= int(value) <= 5:
            out["stars"] = sorted({*out.get("stars", []), int(value)})
        elif key == "review_score" and value.isdigit() and int(value) in dict(cat.REVIEW_FILTERS):
            out["review"] = int(value)
        elif key == "fc" and value == "2":
            out["fc"] = True
        elif key == "mealplan" and value == "1":
            out["breakfast"] = True
        elif key == "hotelfacility" and value.isdigit() and int(value) in facility_codes:
            out["facilities"] = sorted({*out.get("facilities", []), facility_codes[int(value)]})
        elif key == "ht_id" and value.isdigit() and int(value) in type_codes:
            out["types"] = sorted({*out.get("types", []), type_codes[int(value)]})
        elif key == "distance" and value.isdigit() and int(value) // 1000 in dict(cat.DISTANCE_FILTERS):
            out["distance"] = int(value) // 1000
        elif key == "price":
            parts = value.split("-")  # USD-100-200-1
            bucket = f"{parts[1]}-{parts[2]}" if len(parts) >= 3 else ""
            if bucket in cat.BUDGETS:
                out["price"] = bucket
    return out
