"""Booking.com stand-in (`com.booking`): the manifest, theme, screens and dialogs, and the seeded state.

Deep links follow the real app where known (`booking://hotel/<id>`, booking.com search-results and
property URLs; see links.py); the rest use the app's own `booking://` scheme. https links are not
auto-verified, so without `-p com.booking` they open in Chrome, as they do on an offline Android 12+ emulator.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...theme import Theme
from . import account, calendar, hotel, reserve, results, saving, search, trips
from . import catalog as cat
from .common import BOOKING, CONFIRMATION, DEEPLINK, HOME, HOTEL, RESULTS, ROOMS, TRIP, WISHLIST
from .links import open_link

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


class BookingApp(App):
    package = identity("booking").package
    label = identity("booking").label
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
    theme = Theme(
        primary="#003b95",  # the brand's dark blue: header and app bars
        accent="#006ce4",  # buttons, links, selected tabs
        background="#f5f5f5",
        ink="#1a1a1a",
        muted="#595959",
        pale="#ebf3ff",
        error="#d4111e",
        success="#008234",
        star="#ffb700",  # stars, the search box's frame and the Genius badge
        app_bar="primary",
    )
    icon_bg = color = theme.primary
    icon_fg = theme.on_primary
    screens = {
        "search": search.build_home,
        "destination": search.build_destination,
        "calendar": calendar.build_calendar,
        "results": results.build_results,
        "hotel": hotel.build_hotel,
        "rooms": hotel.build_rooms,
        "reserve": reserve.build_reserve,
        "confirmation": reserve.build_confirmation,
        "saved": account.build_saved,
        "wishlist": account.build_wishlist,
        "bookings": trips.build_bookings,
        "trip": trips.build_trip,
        "profile": account.build_profile,
    }
    dialogs = {
        "no_destination": search.no_destination_dialog,
        "occupancy": search.occupancy_sheet,
        "sort": results.sort_sheet,
        "filters": results.filters_page,
        "save": saving.save_sheet,
        "create_list": saving.create_list_dialog,
        "cancel": trips.cancel_dialog,
        "currency": account.currency_dialog,
    }
    screen_activities = {
        **dict.fromkeys(("search", "destination", "calendar", "saved", "bookings", "profile"), HOME),
        **{a.screen: a.cls for a in activities if not a.exported},
    }

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
            party: dict[str, Any] = {
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

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        if activity.cls != DEEPLINK or not intent.data:
            return ctx.screen("search")
        return open_link(ctx, intent.data)
