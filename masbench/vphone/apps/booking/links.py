"""Deep links into Booking.com: `booking://` targets and booking.com web addresses (search results with
dates, guests, order and `nflt` filter codes; property pages; wish lists; trips) as the screens they open."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ...app import AppContext, Screen
from . import catalog as cat
from .calendar import MAX_NIGHTS
from .common import PARTY_KEYS
from .search import LIMITS, remember, results_args


def open_link(ctx: AppContext, uri: str) -> Screen:
    parts = urlsplit(uri)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    nflt = [item for v in parse_qs(parts.query).get("nflt", []) for item in v.split(";") if "=" in item]
    segments = [s for s in parts.path.split("/") if s]
    if parts.scheme.lower() == "booking":
        target, rest = (parts.netloc or (segments[0] if segments else "")).lower(), segments
    else:
        target, rest = (segments[0].lower() if segments else ""), segments[1:]
    if target.startswith("searchresults") or target == "search":
        return results(ctx, query, nflt)
    if target == "hotel":
        return hotel(ctx, rest, query)
    if target.startswith("mywishlist") or target in ("saved", "wishlist"):
        return ctx.screen("saved")
    if target.startswith("mytrips") or target in ("trips", "bookings"):
        return ctx.screen("bookings")
    if target == "profile":
        return ctx.screen("profile")
    if target == "mybooking" and rest:
        if any(b["number"] == rest[-1] for b in ctx.state["bookings"]):
            return ctx.screen("trip", number=rest[-1])
        ctx.toast("We couldn't find that booking")
        return ctx.screen("bookings")
    return ctx.screen("search")


def party(ctx: AppContext, query: dict[str, str]) -> dict[str, Any]:
    """Dates and guests from a link's query, falling back to the search box's values."""
    form = ctx.state["form"]
    today = ctx.now().date()
    found = {k: form[k] for k in PARTY_KEYS}
    checkin = parse_date(query.get("checkin"))
    if checkin is not None and checkin >= today:
        found["checkin"] = checkin.isoformat()
    checkout = parse_date(query.get("checkout"))
    start = date.fromisoformat(found["checkin"])
    if checkout is not None and 0 < (checkout - start).days <= MAX_NIGHTS:
        found["checkout"] = checkout.isoformat()
    elif date.fromisoformat(found["checkout"]) <= start:
        found["checkout"] = (start + timedelta(days=1)).isoformat()
    for key, name in (("adults", "group_adults"), ("rooms", "no_rooms"), ("children", "group_children")):
        if query.get(name, "").isdigit():
            low, high = LIMITS[key]
            found[key] = max(low, min(high, int(query[name])))
    return found


def results(ctx: AppContext, query: dict[str, str], nflt: list[str]) -> Screen:
    destination = query.get("ss", "").strip()
    if not destination:
        return ctx.screen("search")
    city = cat.city_of(destination)
    params: dict[str, Any] = {"city": city.name if city else destination, **party(ctx, query)}
    if query.get("order") in cat.ORDERS:
        params["order"] = query["order"]
    params.update(filters(nflt))
    if city is not None:
        ctx.state["form"].update({k: params[k] for k in ("city", *PARTY_KEYS)})
        remember(ctx.state, params)
    return ctx.screen("results", **results_args(params))


def hotel(ctx: AppContext, rest: list[str], query: dict[str, str]) -> Screen:
    found = None
    if len(rest) == 1 and rest[0].isdigit():  # booking://hotel/<id>
        found = cat.catalog().get(int(rest[0]))
    elif len(rest) == 2 and rest[1].endswith(".html"):  # /hotel/<cc>/<slug>.html
        found = cat.hotel_by_slug(rest[0], rest[1].removesuffix(".html").split(".")[0])
    if found is None:
        ctx.toast("This property is no longer available")
        return ctx.screen("search")
    return ctx.screen(
        "hotel", hotel_id=found["id"], hotel=found["name"], city=found["city"], **party(ctx, query)
    )


def parse_date(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def filters(nflt: list[str]) -> dict[str, Any]:
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
