"""What Yelp does with its state, apart from drawing it: search with filters and sort, bookmarks, reviews,
event RSVPs and history. GUI screens and deep links both come through here, so task checks see the same
records whichever route an agent took."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..textmatch import split_place
from .content import (
    CATEGORIES,
    CITIES,
    CITY_ALIASES,
    DEFAULT_LOCATION,
    city_of,
    location_label,
    matches,
    open_status,
    recommended_score,
)

MAX_RESULTS = 20
SORTS = {"recommended": "Recommended", "rating": "Highest Rated", "review_count": "Most Reviewed"}
RATINGS = ((0.0, "Any rating"), (3.5, "3.5 stars & up"), (4.0, "4.0 stars & up"), (4.5, "4.5 stars & up"))
DISTANCES = ((0.0, "Bird's-eye View"), (5.0, "Driving (5 mi.)"), (2.0, "Biking (2 mi.)"),
             (1.0, "Walking (1 mi.)"), (0.25, "Within 4 blocks"))  # fmt: skip
FILTER_KEYS = ("open_now", "price", "min_rating", "distance", "features", "sort")


def search_args(
    query: str = "",
    location: str = DEFAULT_LOCATION,
    category: str = "",
    open_now: bool = False,
    price: list[int] | None = None,
    min_rating: float = 0.0,
    distance: float = 0.0,
    features: list[str] | None = None,
    sort: str = "recommended",
) -> dict[str, Any]:
    """The args of a results screen, all keys present so checks and the UI can rely on them. A city named
    in the query ("pizza in Chicago", "Chicago pizza") is where to search, as on Yelp."""
    terms, named_city = split_place(query, [*(c["name"] for c in CITIES), *CITY_ALIASES])
    if named_city is not None:
        query, location = terms, CITY_ALIASES.get(named_city, named_city)
    city = city_of(location)
    return {
        "query": query.strip(),
        "location": location_label(city) if city else location.strip(),
        "category": category,
        "open_now": open_now,
        "price": sorted(set(price or [])),
        "min_rating": min_rating,
        "distance": distance,
        "features": [
            f for f in ("delivery", "takeout", "outdoor_seating", "reservations") if f in (features or [])
        ],
        "sort": sort if sort in SORTS else "recommended",
    }


def _in_category(business: dict[str, Any], category: str) -> bool:
    if category == "restaurants":
        kind: str = business["kind"]
        return kind == "food"
    title = CATEGORIES[category][0] if category in CATEGORIES else category
    return business["category"] == category or title in business["categories"]


def search(state: dict[str, Any], args: dict[str, Any], now: datetime) -> list[dict[str, Any]]:
    """The businesses a results screen lists, filtered and sorted as its args say (at most 20)."""
    city = city_of(args.get("location") or "") or city_of(state["location"])
    found = [b for b in state["businesses"].values() if b["city"] == city]
    category = args.get("category") or ""
    if category:
        found = [b for b in found if _in_category(b, category)]
    query = args.get("query") or ""
    category_title = CATEGORIES[category][0] if category in CATEGORIES else category
    if query and query.lower() != category_title.lower():
        found = [b for b in found if matches(b, query)]
    if args.get("open_now"):
        found = [b for b in found if open_status(b, now)[0]]
    if args.get("price"):
        found = [b for b in found if b["price"] in args["price"]]
    if args.get("min_rating"):
        found = [b for b in found if b["rating"] >= args["min_rating"]]
    if args.get("distance"):
        found = [b for b in found if b["distance"] <= args["distance"]]
    for feature in args.get("features") or []:
        found = [b for b in found if feature in b["features"]]
    sort = args.get("sort", "recommended")
    if sort == "rating":
        found.sort(key=lambda b: (-b["rating"], -b["review_count"]))
    elif sort == "review_count":
        found.sort(key=lambda b: -b["review_count"])
    else:
        found.sort(key=lambda b: -recommended_score(b))
    return found[:MAX_RESULTS]


def remember_search(state: dict[str, Any], query: str, location: str) -> None:
    if not query:
        return
    entry = {"query": query, "location": location}
    recent = [e for e in state["recent_searches"] if e != entry]
    state["recent_searches"] = [entry, *recent][:10]


def remember_view(state: dict[str, Any], biz_id: str) -> None:
    state["recently_viewed"] = [biz_id, *[b for b in state["recently_viewed"] if b != biz_id]][:20]


def is_bookmarked(state: dict[str, Any], biz_id: str) -> bool:
    return any(b["id"] == biz_id for b in state["bookmarks"])


def bookmark(state: dict[str, Any], business: dict[str, Any], now: datetime) -> None:
    """Save to My Bookmarks with what a check may ask about (category, price, rating, open when saved)."""
    if is_bookmarked(state, business["id"]):
        return
    keep = ("id", "alias", "name", "city", "neighborhood", "category", "categories", "price", "rating",
            "review_count", "distance", "features")  # fmt: skip
    record = {k: business[k] for k in keep}
    record["open_now"] = open_status(business, now)[0]
    record["saved_at"] = now.isoformat(timespec="seconds")
    state["bookmarks"].insert(0, record)


def unbookmark(state: dict[str, Any], biz_id: str) -> None:
    state["bookmarks"] = [b for b in state["bookmarks"] if b["id"] != biz_id]


def post_review(
    state: dict[str, Any], business: dict[str, Any], rating: int, text: str, now: datetime
) -> None:
    """A posted review replaces the user's earlier review of the same business, as on Yelp."""
    state["reviews"] = [r for r in state["reviews"] if r["biz_id"] != business["id"]]
    state["reviews"].insert(
        0,
        {
            "biz_id": business["id"],
            "name": business["name"],
            "city": business["city"],
            "rating": rating,
            "text": text.strip(),
            "date": now.date().isoformat(),
        },
    )


def rsvp_status(state: dict[str, Any], event_id: str) -> str | None:
    return next((r["status"] for r in state["event_rsvps"] if r["event_id"] == event_id), None)


def set_rsvp(state: dict[str, Any], event: dict[str, Any], status: str) -> None:
    """ "interested" or "going"; choosing the current status again withdraws it."""
    current = rsvp_status(state, event["id"])
    state["event_rsvps"] = [r for r in state["event_rsvps"] if r["event_id"] != event["id"]]
    if current == status:
        return
    state["event_rsvps"].insert(
        0,
        {
            "event_id": event["id"],
            "name": event["name"],
            "city": event["city"],
            "category": event["category"],
            "date": event["start"][:10],
            "venue": event["venue"],
            "status": status,
        },
    )
