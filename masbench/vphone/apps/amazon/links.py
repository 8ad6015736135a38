"""Amazon URLs → (screen, args): the web paths the app claims (amazon.com and its private schemes) and the
search URL grammar (`k`, `i`, `rh=p_89:Brand,p_36:MIN-MAX cents,p_85:…,p_72:…`, `low-price`,
`high-price`, `s`, `page`), so a deep link lands on the same screen and filters as the GUI would."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from .catalog import SORTS, Catalog

WEB_HOSTS = ("www.amazon.com", "amazon.com", "smile.amazon.com", "m.amazon.com")
PRIVATE_SCHEMES = (
    "com.amazon.mobile.shopping",
    "com.amazon.mobile.shopping.web",
    "com.amazon.mShop.android.shopping",
)
SEARCH_ALIASES = {  # the web's search-index names (`i=`) besides the app's own category slugs
    "stripbooks": "books",
    "toys-and-games": "toys",
    "sporting": "sports",
    "garden": "kitchen",
    "fashion": "clothing",
    "fashion-mens-shoes": "shoes",
    "fashion-womens-shoes": "shoes",
    "beauty": "beauty",
    "hpc": "beauty",
    "computers": "computers",
    "electronics": "electronics",
}
SORT_ALIASES = {
    "relevanceblender": "featured",
    "relevancerank": "featured",
    "price_asc": "price-asc-rank",
    "price_desc": "price-desc-rank",
    "rating": "review-rank",
    "newest": "date-desc-rank",
}
RATING_NODES = {"1248882011": 4, "1248883011": 3, "1248884011": 2, "1248885011": 1}
TRUE = ("1", "true", "yes", "on")
ASIN_PATH = re.compile(r"/(?:dp|gp/product|gp/aw/d|exec/obidos/ASIN)/([A-Za-z0-9]{10})(?:/|$)")
PAGES = (  # (path pattern, screen)
    (re.compile(r"^/(gp/cart/view\.html|gp/aw/c|cart)/?$"), "cart"),
    (re.compile(r"^/(deals|gp/goldbox|gp/deals)(/.*)?$"), "deals"),
    (re.compile(r"^/(gp/css/order-history|gp/your-account/order-history|your-orders)(/.*)?$"), "orders"),
    (re.compile(r"^/(gp/css/homepage\.html|gp/your-account|your-account|ya)/?$"), "account"),
    (re.compile(r"^/(hz/wishlist/ls|gp/registry/wishlist|hz/wishlist)(/.*)?$"), "lists"),
)


def empty_search(**args: Any) -> dict[str, Any]:
    """A results screen's args, every filter present (so checks see a stable shape)."""
    base: dict[str, Any] = {
        "query": "",
        "category": None,
        "brand": None,
        "min_price": None,
        "max_price": None,
        "prime": False,
        "min_rating": None,
        "sort": "featured",
        "page": 1,
    }
    base.update(args)
    return base


def number(text: str | None) -> float | int | None:
    """A price from a URL or a field ("100", "99.5", "$30"); None when it is not one."""
    if text is None:
        return None
    try:
        value = float(str(text).strip().lstrip("$").replace(",", ""))
    except ValueError:
        return None
    if value < 0:
        return None
    return int(value) if value.is_integer() else value


def search_args(query: dict[str, list[str]], cat: Catalog) -> dict[str, Any]:
    def one(key: str) -> str | None:
        values = query.get(key)
        return values[-1] if values else None

    args = empty_search(query=(one("k") or one("field-keywords") or "").strip())
    index = (one("i") or "").strip()
    if index:
        args["category"] = (
            SEARCH_ALIASES.get(index, index) if index in cat.categories or index in SEARCH_ALIASES else None
        )
    for part in ",".join(query.get("rh", [])).split(","):
        key, _, value = part.partition(":")
        if key == "p_89" and value:
            args["brand"] = "|".join(cat.canonical_brand(b) for b in value.split("|"))
        elif key == "p_36" and "-" in value:
            low, high = value.split("-", 1)
            args["min_price"] = _cents(low)
            args["max_price"] = _cents(high)
        elif key == "p_85":
            args["prime"] = True
        elif key == "p_72":
            args["min_rating"] = RATING_NODES.get(value, 4)
        elif key == "n" and value in cat.categories:
            args["category"] = value
    if number(one("low-price")) is not None:
        args["min_price"] = number(one("low-price"))
    if number(one("high-price")) is not None:
        args["max_price"] = number(one("high-price"))
    if (one("prime") or "").lower() in TRUE:
        args["prime"] = True
    sort = (one("s") or "").strip()
    sort = SORT_ALIASES.get(sort, sort)
    if sort in SORTS:
        args["sort"] = sort
    page = one("page") or ""
    if page.isdigit() and int(page) > 0:
        args["page"] = int(page)
    return args


def _cents(text: str) -> float | int | None:
    value = number(text)
    return None if value is None else number(str(value / 100))


def route(uri: str, cat: Catalog) -> tuple[str, dict[str, Any]]:
    """The screen (and its args) an Amazon URL opens; unknown paths open Home, as the app's router does."""
    parts = urlsplit(uri)
    path = parts.path or "/"
    query = parse_qs(parts.query, keep_blank_values=True)
    if path in ("/s", "/s/") or path.startswith("/s/"):
        return "results", search_args(query, cat)
    found = ASIN_PATH.search(path)
    if found:
        asin = found.group(1).upper()
        return ("product", {"asin": asin}) if asin in cat.by_asin else ("not_found", {"asin": asin})
    for pattern, screen in PAGES:
        if pattern.match(path):
            if screen == "deals":
                dept = query["dept"][-1] if query.get("dept") else None
                return "deals", {"dept": dept if dept in cat.categories else None, "sort": "featured"}
            return screen, {}
    return "home", {}
