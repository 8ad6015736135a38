"""The product catalog: static items from catalog.yaml, priced and rated per seed, plus search.

A catalog is derived data: the app's state keeps only `catalog_seed`, and `catalog(seed)` rebuilds the
same products from it (cached), so a reset stays cheap and `cmd masbench state` stays small. ASINs come
from the item text, so the same product has the same ASIN on every seed; prices, ratings, reviews, Prime,
deals and the featured order are what the seed changes.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import yaml

from ..textmatch import words

DATA = Path(__file__).with_name("catalog.yaml")
ASIN_ALPHABET = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
STOP_WORDS = frozenset({"a", "an", "and", "the", "for", "with", "of", "in", "on", "to", "by", "&"})
DEAL_COUNT = 36
PAGE_SIZE = 10
MEMO_SIZE = 256
SORTS = {
    "featured": "Featured",
    "price-asc-rank": "Price: Low to High",
    "price-desc-rank": "Price: High to Low",
    "review-rank": "Avg. Customer Review",
    "date-desc-rank": "Newest Arrivals",
}


def query_tokens(text: str) -> list[str]:
    """The words a query must match, in one form whatever the case, accents or plural ("watches")."""
    return [t for t in words(text) if t not in STOP_WORDS]


def retail(amount: float) -> float:
    """A shelf price: whole dollars minus a cent ($129.99)."""
    return max(1, round(amount)) - 0.01


@dataclass(frozen=True)
class Category:
    slug: str
    label: str
    words: tuple[str, ...]
    about: tuple[str, ...]


@dataclass(frozen=True)
class Product:
    """One product as shown on this seed. `name` is the title without the brand."""

    asin: str
    category: str
    brand: str
    name: str
    colours: tuple[str, ...]
    sizes: tuple[str, ...]
    price: float
    list_price: float | None
    rating: float
    reviews: int
    prime: bool
    deal: bool
    bought: int  # bought in the past month (0: not shown)
    stock: int  # 0: plenty in stock, else "Only N left"
    popularity: float
    newness: float

    @property
    def is_book(self) -> bool:
        return self.category == "books"

    @property
    def title(self) -> str:
        return self.name if self.is_book else f"{self.brand} {self.name}"

    @property
    def discount(self) -> int:
        """Percent off the list price (0 when there is none)."""
        if not self.list_price:
            return 0
        return round((1 - self.price / self.list_price) * 100)

    def summary(self) -> dict[str, Any]:
        """The fields task checks match on (cart lines, lists and orders carry them)."""
        return {
            "asin": self.asin,
            "title": self.title,
            "brand": self.brand,
            "category": self.category,
            "price": self.price,
            "list_price": self.list_price,
            "rating": self.rating,
            "prime": self.prime,
            "deal": self.deal,
        }


@dataclass(frozen=True)
class _Item:
    category: str
    brand: str
    name: str
    base: float
    colours: tuple[str, ...]
    sizes: tuple[str, ...]

    @property
    def asin(self) -> str:
        digest = int(hashlib.sha1(f"{self.brand}|{self.name}".encode()).hexdigest(), 16)
        chars = []
        for _ in range(8):
            digest, r = divmod(digest, len(ASIN_ALPHABET))
            chars.append(ASIN_ALPHABET[r])
        return "B0" + "".join(chars)


def _parse_item(slug: str, spec: dict[str, Any], line: str) -> _Item:
    fields = [f.strip() for f in line.split("|")]
    brand, name, base = fields[0], fields[1], float(fields[2])
    colours = tuple(c.strip() for c in fields[3].split(",")) if len(fields) > 3 and fields[3] else ()
    if len(fields) > 4:
        sizes = () if fields[4] == "-" else tuple(s.strip() for s in fields[4].split(","))
    else:
        sizes = tuple(spec.get("sizes", ()))
    if not colours and spec.get("palette"):
        palette = spec["palette"]
        start = int(hashlib.sha1(name.encode()).hexdigest(), 16) % len(palette)
        colours = tuple(palette[(start + i) % len(palette)] for i in range(4))
    return _Item(slug, brand, name, base, colours, sizes)


@lru_cache(maxsize=1)
def _static() -> tuple[dict[str, Category], tuple[_Item, ...]]:
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    categories: dict[str, Category] = {}
    items: list[_Item] = []
    for slug, spec in data["categories"].items():
        categories[slug] = Category(slug, spec["label"], tuple(spec["words"]), tuple(spec["about"]))
        items.extend(_parse_item(slug, spec, line) for line in spec["items"])
    asins = [i.asin for i in items]
    assert len(set(asins)) == len(asins), "two catalog items share an ASIN"
    return categories, tuple(items)


def categories() -> dict[str, Category]:
    return _static()[0]


@lru_cache(maxsize=1)
def _items_by_asin() -> dict[str, _Item]:
    return {item.asin: item for item in _static()[1]}


def static_item(asin: str) -> _Item | None:
    """The seed-independent part of a catalog item (category, brand, name, colours); None if unknown."""
    return _items_by_asin().get(asin)


class Catalog:
    """All products for one catalog seed, with search, filters and sorting."""

    def __init__(self, seed: int):
        self.seed = seed
        self.categories, items = _static()
        rng = random.Random(seed)
        drafts: list[dict[str, Any]] = []
        for item in items:
            price = retail(item.base * rng.uniform(0.88, 1.12))
            drafts.append(
                {
                    "asin": item.asin,
                    "category": item.category,
                    "brand": item.brand,
                    "name": item.name,
                    "colours": item.colours,
                    "sizes": item.sizes,
                    "price": price,
                    "list_price": retail(price * rng.uniform(1.08, 1.35)) if rng.random() < 0.25 else None,
                    "rating": round(min(4.9, max(3.1, rng.gauss(4.4, 0.3))), 1),
                    "reviews": int(10 ** rng.uniform(1.3, 4.9)),
                    "prime": rng.random() < 0.8,
                    "deal": False,
                    "bought": rng.choice((0, 0, 0, 50, 100, 200, 500, 1000, 2000, 5000)),
                    "stock": rng.randint(2, 9) if rng.random() < 0.12 else 0,
                    "popularity": rng.random(),
                    "newness": rng.random(),
                }
            )
        for index in rng.sample(range(len(drafts)), DEAL_COUNT):
            draft = drafts[index]
            off = rng.choice((15, 20, 22, 25, 30, 33, 35, 40, 45, 50))
            draft.update(deal=True, list_price=retail(draft["price"] / (1 - off / 100)))
        self.products = tuple(Product(**d) for d in drafts)
        self.by_asin = {p.asin: p for p in self.products}
        self.brands = {p.brand.lower(): p.brand for p in self.products}
        self._matched: dict[tuple[tuple[str, ...], str | None], tuple[Product, ...]] = {}

    @cached_property
    def _index(self) -> dict[str, frozenset[str]]:
        index = {}
        for p in self.products:
            category = self.categories[p.category]
            fields = [p.title, p.brand, p.asin, category.label, *category.words]
            index[p.asin] = frozenset(t for w in fields for t in words(w))
        return index

    @cached_property
    def deals(self) -> tuple[Product, ...]:
        return tuple(sorted((p for p in self.products if p.deal), key=lambda p: -p.popularity))

    @cached_property
    def _phrases(self) -> tuple[str, ...]:
        """Search suggestions: brands, the last two words of titles ("running shoes") and brand + kind."""
        counts: Counter[str] = Counter()
        for p in self.products:
            words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", p.name) if w.lower() not in STOP_WORDS]
            counts[p.brand.lower()] += 3
            if len(words) >= 2:
                counts[" ".join(words[-2:]).lower()] += 2
            if words and not p.is_book:
                counts[f"{p.brand} {words[-1]}".lower()] += 1
        for category in self.categories.values():
            counts[category.label.lower()] += 2
        return tuple(sorted(counts, key=lambda k: (-counts[k], k)))

    def suggestions(self, prefix: str, limit: int = 8) -> list[str]:
        prefix = prefix.strip().lower()
        if not prefix:
            return []
        starts = [s for s in self._phrases if s.startswith(prefix)]
        inside = [s for s in self._phrases if f" {prefix}" in f" {s}" and s not in starts]
        return (starts + inside)[:limit]

    def canonical_brand(self, name: str) -> str:
        return self.brands.get(name.strip().lower(), name.strip())

    def matches(self, query: str, category: str | None = None) -> list[Product]:
        """Products for a query (every word must match; else the best partial matches), featured order.
        Screens rebuild after every input, so answers are memoised per (words, department)."""
        key = (tuple(query_tokens(query)), category or None)
        if key not in self._matched:
            if len(self._matched) > MEMO_SIZE:
                self._matched.clear()
            self._matched[key] = self._match(*key)
        return list(self._matched[key])

    def _match(self, words: tuple[str, ...], category: str | None) -> tuple[Product, ...]:
        pool = [p for p in self.products if category in (None, p.category)]
        if not words:
            return tuple(sorted(pool, key=lambda p: -p.popularity))
        scored = [(sum(w in self._index[p.asin] for w in words), p) for p in pool]
        best = max((s for s, _ in scored), default=0)
        if best == 0:
            return ()
        return tuple(p for s, p in sorted(scored, key=lambda sp: (-sp[0], -sp[1].popularity)) if s == best)

    def results(self, args: dict[str, Any]) -> list[Product]:
        """Search results for a results screen's args: query, category, brand, price, Prime, rating, sort."""
        found = self.matches(args.get("query") or "", args.get("category"))
        brand = (args.get("brand") or "").lower()
        low, high = args.get("min_price"), args.get("max_price")
        found = [
            p
            for p in found
            if (not brand or p.brand.lower() in brand.split("|"))
            and (low is None or p.price >= low)
            and (high is None or p.price <= high)
            and (not args.get("prime") or p.prime)
            and (not args.get("min_rating") or p.rating >= args["min_rating"])
        ]
        return sort_products(found, args.get("sort") or "featured")


def sort_products(products: list[Product], sort: str) -> list[Product]:
    keys = {
        "price-asc-rank": lambda p: (p.price, -p.popularity),
        "price-desc-rank": lambda p: (-p.price, -p.popularity),
        "review-rank": lambda p: (-p.rating, -p.reviews),
        "date-desc-rank": lambda p: -p.newness,
        "discount": lambda p: (-p.discount, -p.popularity),
    }
    return sorted(products, key=keys[sort]) if sort in keys else list(products)


@lru_cache(maxsize=16)
def catalog(seed: int) -> Catalog:
    return Catalog(seed)
