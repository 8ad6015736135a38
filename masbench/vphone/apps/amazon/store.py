"""The shopper's data: cart, saved-for-later, Shopping List, orders and recent searches.

Stored lines are small (`{asin, quantity, size, colour}`) so a task's setup patch can pre-seed a cart with
just ASINs; `public_state` adds each product's title, brand, category and price for the checks. Every
change goes through these functions, so the GUI, deep links and RPA scripts record outcomes alike.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from .catalog import Catalog, catalog

MAX_QUANTITY = 30
RECENT_SEARCHES = 10
TAX_RATE = 0.08875
USER = {
    "name": "Alex Morgan",
    "address": "350 5th Ave, Apt 12",
    "city": "New York, NY 10118",
    "card": "Visa ending in 4242",
    "email": "alex.morgan@example.com",
}
DELIVERY = {  # option: (label, shipping fee, days from now)
    "standard": ("FREE delivery", 0.0, 3),
    "one_day": ("FREE Prime One-Day Delivery", 0.0, 1),
    "same_day": ("Same-Day Delivery", 2.99, 0),
}
HISTORY_CATEGORIES = ("kitchen", "books", "beauty", "toys", "computers")


def initial_state(rng: random.Random, now: datetime) -> dict[str, Any]:
    seed = rng.getrandbits(31)
    cat = catalog(seed)
    pool = [p for p in cat.products if p.category in HISTORY_CATEGORIES and not p.sizes]
    picks = rng.sample(pool, 6)
    orders = []
    for age, items in zip((9, 23, 41, 67), (picks[0:2], picks[2:3], picks[3:4], picks[4:6]), strict=True):
        lines = [{"asin": p.asin, "quantity": 1, "size": None, "colour": None} for p in items]
        placed = now - timedelta(days=age)
        orders.append(
            _order(cat, _order_id(rng), lines, "standard", placed, "Delivered", placed + timedelta(days=3))
        )
    wish = rng.sample([p for p in cat.products if p.category in ("books", "toys")], 2)
    return {
        "catalog_seed": seed,
        "cart": [],
        "saved_for_later": [],
        "wishlist": [
            {"asin": p.asin, "added": (now - timedelta(days=5 + i)).date().isoformat()}
            for i, p in enumerate(wish)
        ],
        "orders": orders,
        "recent_searches": [],
        "next_order": 1,
    }


def catalog_of(state: dict[str, Any]) -> Catalog:
    return catalog(int(state["catalog_seed"]))


def _order_id(rng: random.Random) -> str:
    return f"11{rng.randint(1, 4)}-{rng.randint(0, 9_999_999):07d}-{rng.randint(0, 9_999_999):07d}"


def _order(
    cat: Catalog,
    order_id: str,
    lines: list[dict[str, Any]],
    delivery: str,
    placed: datetime,
    status: str,
    arrives: datetime,
) -> dict[str, Any]:
    items = [line_view(cat, line) for line in lines]
    subtotal = round(sum(i["line_total"] for i in items), 2)
    fee = DELIVERY[delivery][1]
    return {
        "id": order_id,
        "date": placed.date().isoformat(),
        "arrives": arrives.date().isoformat(),
        "status": status,
        "delivery": delivery,
        "items": items,
        "subtotal": subtotal,
        "total": round(subtotal + fee + subtotal * TAX_RATE, 2),
    }


def product_view(cat: Catalog, asin: str) -> dict[str, Any]:
    product = cat.by_asin.get(asin)
    return product.summary() if product else {"asin": asin, "title": "Unavailable item", "price": 0.0}


def line_view(cat: Catalog, line: dict[str, Any]) -> dict[str, Any]:
    """A stored line with its product's fields, as checks and screens see it."""
    quantity = int(line.get("quantity") or 1)
    base = product_view(cat, line.get("asin", ""))
    return {
        **base,
        "quantity": quantity,
        "size": line.get("size"),
        "colour": line.get("colour"),
        "line_total": round(base["price"] * quantity, 2),
    }


def _same(line: dict[str, Any], asin: str, size: str | None, colour: str | None) -> bool:
    return line.get("asin") == asin and line.get("size") == size and line.get("colour") == colour


# -- cart ----------------------------------------------------------------------------------------------
def add_to_cart(
    state: dict[str, Any], asin: str, quantity: int = 1, size: str | None = None, colour: str | None = None
) -> None:
    for line in state["cart"]:
        if _same(line, asin, size, colour):
            line["quantity"] = min(MAX_QUANTITY, int(line.get("quantity") or 1) + quantity)
            return
    state["cart"].append(
        {"asin": asin, "quantity": min(MAX_QUANTITY, quantity), "size": size, "colour": colour}
    )


def set_quantity(state: dict[str, Any], index: int, quantity: int) -> None:
    if quantity <= 0:
        state["cart"].pop(index)
    else:
        state["cart"][index]["quantity"] = min(MAX_QUANTITY, quantity)


def save_for_later(state: dict[str, Any], index: int) -> None:
    state["saved_for_later"].append(state["cart"].pop(index))


def move_to_cart(state: dict[str, Any], index: int) -> None:
    line = state["saved_for_later"].pop(index)
    add_to_cart(state, line["asin"], int(line.get("quantity") or 1), line.get("size"), line.get("colour"))


def cart_count(state: dict[str, Any]) -> int:
    return sum(int(line.get("quantity") or 1) for line in state["cart"])


def subtotal(state: dict[str, Any]) -> float:
    cat = catalog_of(state)
    total: float = sum(line_view(cat, line)["line_total"] for line in state["cart"])
    return round(total, 2)


# -- lists and searches --------------------------------------------------------------------------------
def add_to_wishlist(state: dict[str, Any], asin: str, today: str) -> bool:
    """Add to the Shopping List; False when it is already there."""
    if any(item["asin"] == asin for item in state["wishlist"]):
        return False
    state["wishlist"].append({"asin": asin, "added": today})
    return True


def remember_search(state: dict[str, Any], query: str) -> None:
    query = query.strip()
    searches = [q for q in state["recent_searches"] if q.lower() != query.lower()]
    state["recent_searches"] = [query, *searches][:RECENT_SEARCHES]


# -- orders --------------------------------------------------------------------------------------------
def place_order(state: dict[str, Any], lines: list[dict[str, Any]], delivery: str, now: datetime) -> str:
    """Record a new order (newest first) and return its id."""
    rng = random.Random(f"{state['catalog_seed']}:order:{state['next_order']}")
    state["next_order"] += 1
    order_id = _order_id(rng)
    arrives = now + timedelta(days=DELIVERY[delivery][2])
    state["orders"].insert(0, _order(catalog_of(state), order_id, lines, delivery, now, "Ordered", arrives))
    return order_id


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """What checks read: lines carry product fields; `order_items` flattens orders for `items` checks."""
    cat = catalog_of(state)
    cart = [line_view(cat, line) for line in state["cart"]]
    order_items = [
        {**item, "order_id": o["id"], "status": o["status"], "delivery": o["delivery"], "date": o["date"]}
        for o in state["orders"]
        for item in o["items"]
    ]
    return {
        "cart": cart,
        "cart_count": cart_count(state),
        "subtotal": round(sum(line["line_total"] for line in cart), 2),
        "saved_for_later": [line_view(cat, line) for line in state["saved_for_later"]],
        "wishlist": [
            product_view(cat, item["asin"]) | {"added": item.get("added")} for item in state["wishlist"]
        ],
        "orders": state["orders"],
        "order_items": order_items,
        "recent_searches": state["recent_searches"],
    }
