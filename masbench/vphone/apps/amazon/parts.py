"""Pieces every Amazon screen shares: colours, the teal search header, the bottom navigation, product
cards and price lines, and navigation helpers. Resource ids follow the real app where known
(`rs_search_src_text`) and Amazon's web ids elsewhere (`add-to-cart-button`, `productTitle`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from ...app import AppContext
from ...ui import BUTTON, EDIT, IMAGE, TEXT, VIEWGROUP, Node, text_width
from ...widgets import column, divider, icon_button, row, scroll_list, spacer, text
from . import store
from .catalog import Catalog, Product, static_item
from .links import empty_search

PACKAGE = "com.amazon.mShop.android.shopping"
MAIN_ACTIVITY = "com.amazon.mShop.navigation.MainActivity"

INK = "#0f1111"
GREY = "#565959"
LINK = "#007185"
HEADER = "#8fdbe1"
SUBHEADER = "#c6eeec"
YELLOW = "#ffd814"
ORANGE = "#ffa41c"
STAR = "#ffa41c"
DEAL_RED = "#cc0c39"
PRIME = "#1a98ff"
GREEN = "#007600"
PANEL = "#f0f2f2"
TABS = (("Home", "home"), ("You", "person"), ("Cart", "cart"), ("Menu", "menu"))
TAB_SCREENS = {"Home": "home", "You": "you", "Cart": "cart", "Menu": "menu"}


# -- navigation ------------------------------------------------------------------------------------------
def go(ctx: AppContext, screen: str, **args: Any) -> None:
    ctx.go(screen, **args)


def search(ctx: AppContext, query: str, **filters: Any) -> None:
    """Run a search from a search bar or suggestion: remember it, open a fresh results screen."""
    query = query.strip()
    if not query:
        return
    ctx.ui.pop("q", None)
    ctx.ui.pop("focus", None)
    store.remember_search(ctx.state, query)
    go(ctx, "results", **empty_search(query=query, **filters))


def open_tab(ctx: AppContext, tab: str) -> None:
    """Home unwinds to the app's first screen; the other tabs open on top (Back returns)."""
    target = TAB_SCREENS[tab]
    if ctx.top is not None and ctx.top.name == target:
        return
    if target != "home":
        go(ctx, target)
        return
    stack = ctx.phone.stack
    while len(stack) > 1 and stack[-1].package == PACKAGE and stack[-2].package == PACKAGE:
        ctx.phone.pop_screen()
    if ctx.phone.top.name != "home":
        ctx.phone.pop_screen()
        go(ctx, "home")


def cat(ctx: AppContext) -> Catalog:
    return store.catalog_of(ctx.state)


def open_product(ctx: AppContext, product: Product) -> Callable[[], None]:
    return lambda: go(ctx, "product", asin=product.asin, colour=None, size=None, qty=1)


# -- text helpers ----------------------------------------------------------------------------------------
# What a product's picture shows: a word of its name first (electronics hold phones, cameras and
# headphones), else its category.
PICTURE_WORDS = (
    ("headphone", "headphones"), ("earbud", "headphones"), ("speaker", "headphones"), ("camera", "camera"),
    ("phone", "phone"), ("galaxy", "phone"), ("tablet", "phone"), ("ipad", "phone"), ("kindle", "phone"),
    ("watch", "watch"), ("laptop", "laptop"), ("macbook", "laptop"), ("chromebook", "laptop"),
    ("backpack", "bag"), ("daypack", "bag"), ("bag", "bag"), ("bottle", "beauty"), ("flask", "beauty"),
    ("skillet", "kitchen"), ("pan", "kitchen"), ("shirt", "shirt"), ("jacket", "shirt"), ("hoodie", "shirt"),
)  # fmt: skip
PICTURE_CATEGORIES = {
    "shoes": "shoe", "clothing": "shirt", "electronics": "headphones", "computers": "laptop", "watches": "watch",
    "kitchen": "kitchen", "books": "book", "toys": "toy", "sports": "sport", "beauty": "beauty",
}  # fmt: skip


def picture(asin: str, colour: str | None = None) -> str:
    """The product's picture (`kind:ASIN:colour`): the same in results, cart, lists and on its page."""
    item = static_item(asin)
    if item is None:
        return f"photo:{asin}:{colour or ''}"
    words = item.name.lower()
    kind = next(
        (k for word, k in PICTURE_WORDS if word in words), PICTURE_CATEGORIES.get(item.category, "photo")
    )
    return f"{kind}:{asin}:{colour or (item.colours[0] if item.colours else '')}"


def thumbnail(asin: str, colour: str | None, title: str, size: int, radius: int = 8) -> Node:
    """A product's square picture, as results, cart, lists and orders show it."""
    return Node(IMAGE, image=picture(asin, colour), w=size, h=size, radius=radius, bg=PANEL, desc=title)


def money(amount: float) -> str:
    return f"${amount:,.2f}"


def day(moment: datetime) -> str:
    return f"{moment:%A}, {moment:%B} {moment.day}"


def delivery_line(ctx: AppContext, product: Product) -> str:
    now = ctx.now()
    if product.prime:
        return f"FREE delivery {day(now + timedelta(days=1))}"
    return f"FREE delivery {day(now + timedelta(days=5))} on orders shipped by Amazon over $35"


def count_label(n: int) -> str:
    return f"{n / 1000:.1f}K".replace(".0K", "K") if n >= 1000 else f"{n:,}"


# -- shared widgets --------------------------------------------------------------------------------------
def header(ctx: AppContext, value: str = "", back: bool = True) -> Node:
    """The teal bar with the search field (suggestions show while it is focused) and the address strip."""
    field = Node(
        EDIT,
        field="q",
        hint="Search Amazon",
        text=value,
        rid="rs_search_src_text",
        icon="search",
        bg="#ffffff",
        radius=16,
        h=112,
        pad=(28, 0, 28, 0),
        size=40,
        weight=1,
        border="#9fb5b6",
        on_submit=lambda v: search(ctx, v),
    )

    def clear() -> None:
        ctx.ui.update(q="", focus="q")

    typed = str(ctx.ui.get("q", value))
    top = row(
        icon_button("back", "Navigate up", ctx.back, rid="navigate_up", size=52) if back else spacer(w=24),
        field,
        icon_button("close", "Clear search", clear, rid="clear_search", size=44) if typed else None,
        icon_button("mic", "Search by voice", lambda: None, rid="voice_search", size=52),
        bg=HEADER,
        pad=(8, 22, 8, 18),
        gap=4,
        valign="center",
    )
    deliver = row(
        Node(IMAGE, icon="pin", size=38, w=56, h=56, fg=INK),
        text(
            f"Deliver to {store.USER['name'].split()[0]} - {store.USER['city'].split(', ')[0]} 10118",
            "body_small",
        ),
        bg=SUBHEADER,
        h=76,
        pad=(32, 0, 32, 0),
        gap=8,
        valign="center",
        rid="glow_subnav_label",
    )
    return column(top, deliver, rid="chrome_action_bar")


def suggestions(ctx: AppContext) -> Node:
    """What the search field offers while typing: matching recent searches, then catalog phrases."""
    typed = str(ctx.ui.get("q", "")).strip()
    recent = [q for q in ctx.state["recent_searches"] if q.lower().startswith(typed.lower())]
    phrases = (
        [s for s in cat(ctx).suggestions(typed) if s not in {r.lower() for r in recent}] if typed else []
    )
    rows = [
        row(
            Node(IMAGE, icon="calendar" if kind == "recent" else "search", size=40, w=64, h=64, fg=GREY),
            text(s, "lead", weight=1, rid="iss_search_dropdown_item_text", max_lines=1),
            Node(IMAGE, icon="back", size=34, w=48, h=48, fg=GREY, desc="Use suggestion"),
            on_tap=lambda s=s: search(ctx, s),
            pad=(40, 28, 40, 28),
            gap=24,
            valign="center",
            rid="iss_search_dropdown_item",
            desc=s,
        )
        for kind, s in [("recent", r) for r in recent[:4]] + [("suggest", p) for p in phrases]
    ]
    return scroll_list("suggestions", rows, rid="iss_search_suggestions", bg="#ffffff")


def bottom_nav(ctx: AppContext, current: str) -> Node:
    count = store.cart_count(ctx.state)
    cells = []
    for label, icon in TABS:
        on = label == current
        colour = LINK if on else INK
        glyph = Node(IMAGE, icon=icon, size=64, h=84, fg=colour, align="center")
        if label == "Cart":
            badge = Node(
                TEXT,
                text=str(count),
                size=28,
                bold=True,
                fg=ORANGE if count else colour,
                align="center",
                h=34,
            )
            glyph = Node(
                VIEWGROUP,
                layout="stack",
                h=84,
                valign="start",
                children=[glyph, column(badge, pad=(8, 4, 0, 0))],
            )
        cells.append(
            column(
                Node(VIEWGROUP, h=8, bg=LINK if on else None),
                glyph,
                text(label, size=30, fg=colour, align="center", bold=on),
                on_tap=lambda label=label: open_tab(ctx, label),
                weight=1,
                selected=on,
                desc=f"Cart, {count} item{'s' if count != 1 else ''}" if label == "Cart" else label,
                rid="nav_" + label.lower(),
                pad=(0, 0, 0, 10),
            )
        )
    return column(divider(), row(*cells, h=176, bg="#ffffff"), rid="bottom_tab_bar")


def page(ctx: AppContext, tab: str, body: Node, value: str = "", back: bool = True) -> Node:
    """Header + body (or suggestions while the search field is focused) + bottom navigation."""
    typing = ctx.ui.get("focus") == "q"
    return column(
        header(ctx, value, back),
        suggestions(ctx) if typing else body,
        bottom_nav(ctx, tab),
        bg="#ffffff",
        rid="amazon_root",
    )


def stars(rating: float, reviews: int | None = None, size: int = 30) -> Node:
    full = int(rating)
    half = rating - full >= 0.5
    icons = [
        Node(
            IMAGE,
            icon="star" if i < full or (i == full and half) else "star_outline",
            fg=STAR,
            size=size,
            w=size + 4,
            h=size + 4,
        )
        for i in range(5)
    ]
    label = (
        [text(f"({count_label(reviews)})", size=size, fg=LINK, pad=(8, 0, 0, 0))]
        if reviews is not None
        else []
    )
    return row(
        text(f"{rating:.1f}", size=size, fg=INK, pad=(0, 0, 8, 0)),
        *icons,
        *label,
        desc=f"{rating:.1f} out of 5 stars, {reviews or 0} ratings",
        valign="center",
        rid="rating",
    )


def check_mark(size: int = 40) -> Node:
    return Node(IMAGE, icon="check", fg=GREEN, size=size, w=size + 12, h=size + 12)


def prime_badge(size: int = 32) -> Node:
    return row(
        Node(IMAGE, icon="check", fg=ORANGE, size=size, w=size + 6, h=size + 6),
        text("prime", size=size, fg=PRIME, bold=True),
        desc="Prime",
        valign="center",
        rid="prime_badge",
    )


def deal_badge(product: Product, size: int = 28) -> Node:
    return row(
        Node(
            TEXT,
            text=f"{product.discount}% off",
            size=size,
            bg=DEAL_RED,
            fg="#ffffff",
            bold=True,
            pad=(14, 6, 14, 6),
            radius=6,
        ),
        text("Limited time deal", size=size, fg=DEAL_RED, bold=True, pad=(14, 0, 0, 0)),
        valign="center",
        rid="deal_badge",
    )


def price_line(product: Product, size: int = 52) -> Node:
    parts = [text(money(product.price), size=size, fg=INK, bold=True, rid="price")]
    if product.list_price:
        label = "List" if not product.deal else "Typical"
        parts.append(
            text(f"{label}: {money(product.list_price)}", size=size * 3 // 5, fg=GREY, pad=(16, 0, 0, 0))
        )
    return row(*parts, valign="end")


def result_card(ctx: AppContext, product: Product) -> Node:
    """A search result: picture, title, stars, price, badges, delivery and a quick Add to cart."""
    needs_choice = bool(product.sizes)

    def quick_add() -> None:
        store.add_to_cart(ctx.state, product.asin, 1, None, product.colours[0] if product.colours else None)
        ctx.toast("Added to Cart")

    action = (
        Node(
            BUTTON,
            text="See options",
            size=32,
            fg=INK,
            bg="#ffffff",
            border="#b8bdbd",
            radius=40,
            h=84,
            pad=(36, 0, 36, 0),
            align="center",
            on_tap=open_product(ctx, product),
            rid="see_options",
        )
        if needs_choice
        else Node(
            BUTTON,
            text="Add to cart",
            size=32,
            fg=INK,
            bg=YELLOW,
            radius=40,
            h=84,
            pad=(36, 0, 36, 0),
            align="center",
            on_tap=quick_add,
            rid="result_add_to_cart",
            desc=f"Add to cart, {product.title}",
        )
    )
    body = column(
        text(product.title, "body_large", max_lines=3, rid="item_title"),
        text(f"by {product.brand}", size=30, fg=GREY) if product.is_book else None,
        stars(product.rating, product.reviews, size=28),
        text(f"{count_label(product.bought)}+ bought in past month", size=28, fg=GREY)
        if product.bought
        else None,
        price_line(product, 50),
        deal_badge(product) if product.deal else None,
        prime_badge() if product.prime else None,
        text(delivery_line(ctx, product), size=28, fg=INK, max_lines=2),
        row(action),
        weight=1,
        gap=8,
    )
    return column(
        row(
            thumbnail(product.asin, None, product.title, 300),
            body,
            gap=28,
            pad=(28, 30, 28, 30),
        ),
        divider(),
        on_tap=open_product(ctx, product),
        rid="search_result",
        desc=product.title,
    )


def flow(nodes: Sequence[Node], width: int, gap: int = 16) -> Node:
    """Wrap chips into rows that fit `width`, so every option stays on screen (and in the UI dump)."""
    rows: list[list[Node]] = [[]]
    used = 0
    for node in nodes:
        w = node.w or (
            text_width(node.text, node.size) + sum(node.padding[::2]) + (node.size + 12 if node.icon else 0)
        )
        if rows[-1] and used + gap + w > width:
            rows.append([])
            used = 0
        rows[-1].append(node)
        used += w + (gap if used else 0)
    return column(*[row(*r, gap=gap) for r in rows if r], gap=gap)


def pill(label: str, on: bool, on_tap: Callable[[], None] | None, rid: str, desc: str = "") -> Node:
    """An option chip (variant, filter, department): outlined, teal when selected."""
    return Node(
        BUTTON,
        text=label,
        size=34,
        fg=INK,
        bg="#e6f6f7" if on else "#ffffff",
        border=LINK if on else "#a2a6ac",
        radius=14,
        h=92,
        pad=(30, 0, 30, 0),
        align="center",
        on_tap=on_tap,
        selected=on,
        rid=rid,
        desc=desc,
    )


def section_title(label: str, rid: str = "") -> Node:
    return text(label, size=44, fg=INK, bold=True, pad=(36, 36, 36, 16), rid=rid)


def product_tile(ctx: AppContext, product: Product, w: int, rid: str, discount: bool = True) -> Node:
    """A compact tile for carousels and grids: picture, deal badge, price, title."""
    return column(
        Node(IMAGE, image=picture(product.asin), h=w, radius=10, bg=PANEL, desc=product.title),
        row(
            Node(
                TEXT,
                text=f"{product.discount}% off",
                size=28,
                bg=DEAL_RED,
                fg="#ffffff",
                bold=True,
                pad=(12, 4, 12, 4),
                radius=6,
            )
        )
        if discount and product.deal
        else None,
        text("Limited time deal", size=26, fg=DEAL_RED, bold=True, max_lines=1)
        if discount and product.deal
        else None,
        text(money(product.price), size=42, fg=INK, bold=True, rid="price"),
        text(f"{'Typical' if product.deal else 'List'}: {money(product.list_price)}", size=26, fg=GREY)
        if product.list_price
        else None,
        text(product.title, "small", max_lines=2, rid="tile_title"),
        w=w,
        gap=8,
        on_tap=open_product(ctx, product),
        rid=rid,
        desc=product.title,
    )


def button(label: str, on_tap: Callable[[], None] | None, rid: str, colour: str = YELLOW, **kw: Any) -> Node:
    """Amazon's rounded call-to-action button (yellow, orange or outlined white)."""
    return Node(
        BUTTON,
        text=label,
        size=kw.pop("size", 40),
        fg=INK,
        bg=colour,
        radius=60,
        h=kw.pop("h", 120),
        align="center",
        on_tap=on_tap,
        rid=rid,
        border="#a2a6ac" if colour == "#ffffff" else None,
        **kw,
    )
