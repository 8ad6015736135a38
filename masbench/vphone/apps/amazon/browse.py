"""Shopping screens: Home, search results with the filter sheet and sort menu, Today's Deals and the Menu
(departments). Filters live in the results screen's args, so a check or a deep link sees them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from math import ceil
from typing import Any

from ...app import AppContext
from ...ui import EDIT, IMAGE, Node
from ...widgets import (
    checkbox,
    choice_dialog,
    column,
    divider,
    icon_button,
    row,
    scroll_list,
    scroll_page,
    spacer,
    switch,
    text,
)
from .catalog import PAGE_SIZE, SORTS, sort_products
from .links import empty_search, number
from .parts import (
    GREY,
    INK,
    LINK,
    PANEL,
    button,
    cat,
    flow,
    go,
    page,
    pill,
    product_tile,
    result_card,
    section_title,
)

PRICE_RANGES = (
    ("Up to $25", None, 25),
    ("$25 to $50", 25, 50),
    ("$50 to $100", 50, 100),
    ("$100 to $200", 100, 200),
    ("$200 & Above", 200, None),
)
RATINGS = ((4, "4 Stars & Up"), (3, "3 Stars & Up"))
DEAL_SORTS = {
    "featured": "Featured",
    "discount": "Discount: High to Low",
    "price-asc-rank": "Price: Low to High",
    "price-desc-rank": "Price: High to Low",
}
DEALS_SHOWN = 16  # the rest behind "See more deals"
MAX_BRANDS = 8  # more behind "See more", as the real sheet does
WIDTH = 1080 - 72
PRICE_FIELD: dict[str, Any] = {  # the Min and Max fields' look
    "bg": "#ffffff",
    "border": "#888c8c",
    "radius": 12,
    "h": 104,
    "size": 38,
    "pad": (24, 0, 24, 0),
    "weight": 1,
}


# -- home ------------------------------------------------------------------------------------------------
def home(ctx: AppContext) -> Node:
    c = cat(ctx)
    chips = [
        pill(
            "Today's Deals", False, lambda: go(ctx, "deals", dept=None, sort="featured"), rid="category_chip"
        )
    ]
    chips += [
        pill(category.label, False, _department(ctx, slug), rid="category_chip")
        for slug, category in c.categories.items()
    ]
    deals = [product_tile(ctx, p, 330, rid="deal_card") for p in c.deals[:8]]
    picks = sorted((p for p in c.products if not p.deal), key=lambda p: -p.popularity)[:4]
    body = scroll_page(
        "home",
        scroll_list("home_chips", chips, horizontal=True, gap=16, pad=(28, 24, 28, 24), rid="category_chips"),
        column(
            Node(IMAGE, image="amazon-summer-hero", h=440, desc="Summer savings event"),
            text("Summer savings: up to 40% off", "heading", pad=(36, 20, 36, 0)),
            text(
                "Shop now",
                size=34,
                fg=LINK,
                pad=(36, 4, 36, 20),
                on_tap=lambda: go(ctx, "deals", dept=None, sort="featured"),
            ),
            rid="hero_banner",
        ),
        row(
            section_title("Today's Deals"),
            spacer(weight=1),
            text(
                "See all deals",
                size=34,
                fg=LINK,
                pad=(0, 36, 36, 16),
                rid="see_all_deals",
                on_tap=lambda: go(ctx, "deals", dept=None, sort="featured"),
            ),
        ),
        scroll_list("home_deals", deals, horizontal=True, gap=24, pad=(36, 0, 36, 24), rid="deals_carousel"),
        divider(),
        section_title("Top picks for you"),
        *_grid([product_tile(ctx, p, 492, rid="pick_card", discount=False) for p in picks]),
        divider(),
        section_title("Shop by department"),
        *_grid(
            [_department_tile(ctx, slug, category.label, 316) for slug, category in c.categories.items()], 3
        ),
        rid="home_feed",
    )
    return page(ctx, "Home", body, back=False)


def _grid(tiles: list[Node], columns: int = 2) -> list[Node]:
    return [row(*tiles[i : i + columns], gap=24, pad=(36, 0, 36, 28)) for i in range(0, len(tiles), columns)]


def _department(ctx: AppContext, slug: str) -> Callable[[], None]:
    return lambda: go(ctx, "results", **empty_search(category=slug))


def _department_tile(ctx: AppContext, slug: str, label: str, w: int) -> Node:
    return column(
        Node(IMAGE, image=f"dept-{slug}", h=w - 60, radius=12, bg=PANEL, desc=label),
        text(label, "small", align="center", max_lines=2),
        w=w,
        gap=8,
        on_tap=_department(ctx, slug),
        rid="department",
        desc=label,
    )


# -- results ---------------------------------------------------------------------------------------------
def refine(ctx: AppContext, **changes: Any) -> None:
    """Change filters in place: back to page 1 and the top of the list."""
    ctx.args.update(changes)
    ctx.args["page"] = 1
    ctx.ui.setdefault("scroll", {})["results"] = 0


def results(ctx: AppContext) -> Node:
    args = ctx.args
    found = cat(ctx).results(args)
    pages = max(1, ceil(len(found) / PAGE_SIZE))
    page_no = min(max(1, int(args.get("page") or 1)), pages)
    shown = found[(page_no - 1) * PAGE_SIZE : page_no * PAGE_SIZE]
    active = _active_filters(ctx)
    controls = row(
        pill(
            f"Filters ({len(active)})" if active else "Filters",
            bool(active),
            ctx.opener("filters"),
            rid="filters_button",
        ),
        pill(
            f"Sort: {SORTS.get(args.get('sort') or 'featured', 'Featured')}",
            False,
            ctx.opener("sort"),
            rid="sort_button",
        ),
        pill(
            "prime",
            bool(args.get("prime")),
            partial(toggle_prime, ctx),
            rid="prime_filter",
            desc="Prime",
        ),
        gap=16,
        pad=(28, 20, 28, 12),
    )
    department = cat(ctx).categories.get(args.get("category") or "")
    label = (
        f"“{args['query']}”" if args.get("query") else department.label if department else "all departments"
    )
    first = (page_no - 1) * PAGE_SIZE + 1
    summary = (
        f"{first}-{first + len(shown) - 1} of {len(found)} results for {label}"
        if found
        else f"No results for {label}"
    )
    items: list[Node] = [result_card(ctx, p) for p in shown]
    if not found:
        items.append(
            text(
                "Try checking your spelling, use more general terms or clear some filters.",
                size=36,
                fg=GREY,
                pad=40,
                rid="no_results",
            )
        )
    if pages > 1:
        items.append(_pager(ctx, page_no, pages))
    body = column(
        controls,
        text(summary, "body_small", pad=(36, 4, 36, 4), rid="results_count", max_lines=2),
        text(" · ".join(active), size=30, fg=LINK, pad=(36, 0, 36, 8), rid="active_filters", max_lines=2)
        if active
        else None,
        divider(),
        scroll_list("results", items, rid="search_results_list"),
        weight=1,
    )
    return page(ctx, "Home", body, value=args.get("query") or "")


def _active_filters(ctx: AppContext) -> list[str]:
    args = ctx.args
    active = []
    if args.get("brand"):
        active.append(args["brand"].replace("|", ", "))
    low, high = args.get("min_price"), args.get("max_price")
    if low is not None or high is not None:
        active.append(_price_label(low, high))
    if args.get("prime"):
        active.append("Prime")
    if args.get("min_rating"):
        active.append(f"{args['min_rating']} Stars & Up")
    return active


def _price_label(low: float | None, high: float | None) -> str:
    preset = next((label for label, lo, hi in PRICE_RANGES if lo == low and hi == high), None)
    if preset:
        return preset
    if low is not None and high is not None:
        return f"${low:g} to ${high:g}"
    return f"${low:g} & Above" if low is not None else f"Up to ${high:g}"


def _amount(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _pager(ctx: AppContext, page_no: int, pages: int) -> Node:
    def turn(to: int) -> Callable[[], None]:
        def go_to() -> None:
            ctx.args["page"] = to
            ctx.ui.setdefault("scroll", {})["results"] = 0

        return go_to

    return row(
        pill("Previous", False, turn(page_no - 1) if page_no > 1 else None, rid="pager_previous"),
        text(f"Page {page_no} of {pages}", "body", weight=1, align="center", rid="pager_label"),
        pill("Next", False, turn(page_no + 1) if page_no < pages else None, rid="pager_next"),
        pad=(36, 30, 36, 60),
        valign="center",
    )


def filters_sheet(ctx: AppContext) -> Node:
    close = partial(close_filters, ctx)
    total = len(cat(ctx).results(ctx.args))
    sheet = column(
        row(
            text("Filters", "title", weight=1, pad=(36, 0, 0, 0)),
            icon_button("close", "Close filters", close, rid="filter_close"),
            h=150,
            valign="center",
            pad=(0, 0, 16, 0),
        ),
        divider(),
        scroll_page(
            "filter_sheet",
            *_prime_and_rating_filters(ctx),
            *_price_filters(ctx),
            *_brand_filters(ctx),
            rid="filter_sheet_content",
        ),
        divider(),
        row(
            button(
                "Clear Filters", partial(clear_filters, ctx), rid="filter_clear", colour="#ffffff", weight=1
            ),
            button(f"Show {total} results", close, rid="filter_show_results", weight=1),
            gap=24,
            pad=(36, 24, 36, 24),
        ),
        bg="#ffffff",
        rid="filter_sheet",
    )
    sheet.modal = True  # a full-screen dialog window: nothing of the results shows through
    return sheet


def _prime_and_rating_filters(ctx: AppContext) -> list[Node | None]:
    args = ctx.args
    ratings = [
        pill(label, args.get("min_rating") == stars, partial(toggle_rating, ctx, stars), rid="filter_rating")
        for stars, label in RATINGS
    ]
    return [
        section_title("Prime & Delivery"),
        switch("Prime", bool(args.get("prime")), partial(toggle_prime, ctx), rid="filter_prime"),
        divider(),
        section_title("Customer Reviews"),
        row(flow(ratings, WIDTH), pad=(36, 0, 36, 24)),
        divider(),
    ]


def _price_filters(ctx: AppContext) -> list[Node | None]:
    """The preset ranges, then Min and Max fields that apply on Enter, Go or closing the sheet."""
    args = ctx.args
    presets = []
    for label, low, high in PRICE_RANGES:
        picked = args.get("min_price") == low and args.get("max_price") == high
        presets.append(
            pill(label, picked, partial(toggle_price_range, ctx, low, high, picked), rid="filter_price")
        )
    apply_typed = partial(apply_typed_prices, ctx)
    return [
        section_title("Price"),
        row(flow(presets, WIDTH), pad=(36, 0, 36, 20)),
        row(
            _price_field("low_price", "$ Min", args.get("min_price"), "low-price", apply_typed),
            text("to", size=36, fg=GREY),
            _price_field("high_price", "$ Max", args.get("max_price"), "high-price", apply_typed),
            button("Go", apply_typed, rid="price_go", colour="#ffffff", w=160, h=104),
            gap=20,
            pad=(36, 0, 36, 30),
            valign="center",
        ),
        divider(),
    ]


def _price_field(
    field: str, hint: str, value: float | None, rid: str, on_submit: Callable[[str], None]
) -> Node:
    return Node(
        EDIT, field=field, hint=hint, text=_amount(value), rid=rid, on_submit=on_submit, **PRICE_FIELD
    )


def _brand_filters(ctx: AppContext) -> list[Node | None]:
    """The brands of what the query finds, most frequent first: the top few, the rest behind See more."""
    args = ctx.args
    counts = Counter(p.brand for p in cat(ctx).matches(args.get("query") or "", args.get("category")))
    chosen = _chosen_brands(ctx)
    ranked = sorted(counts, key=lambda b: (-counts[b], b.lower()))
    brands = ranked if ctx.ui.get("all_brands") else ranked[:MAX_BRANDS]
    brands += [b for b in chosen if b not in brands]
    more = (
        text(
            "See more",
            size=36,
            fg=LINK,
            pad=(48, 10, 48, 30),
            rid="brands_see_more",
            on_tap=lambda: ctx.ui.update(all_brands=True),
        )
        if len(ranked) > len(brands)
        else None
    )
    return [
        section_title("Brands"),
        *[checkbox(b, b in chosen, partial(toggle_brand, ctx, b), rid="filter_brand") for b in brands],
        more,
    ]


# -- filter handlers: each changes the results screen's args through `refine` -----------------------------
def _chosen_brands(ctx: AppContext) -> list[str]:
    return [b for b in (ctx.args.get("brand") or "").split("|") if b]


def toggle_prime(ctx: AppContext) -> None:
    refine(ctx, prime=not ctx.args.get("prime"))


def toggle_rating(ctx: AppContext, stars: int) -> None:
    refine(ctx, min_rating=None if ctx.args.get("min_rating") == stars else stars)


def toggle_brand(ctx: AppContext, brand: str) -> None:
    chosen = _chosen_brands(ctx)
    picked = [b for b in chosen if b != brand] if brand in chosen else [*chosen, brand]
    refine(ctx, brand="|".join(picked) or None)


def toggle_price_range(ctx: AppContext, low: float | None, high: float | None, picked: bool) -> None:
    """A preset range replaces what was typed; tapping the picked one again clears the price filter."""
    _forget_typed_prices(ctx)
    refine(ctx, min_price=None if picked else low, max_price=None if picked else high)


def apply_typed_prices(ctx: AppContext, _: str = "") -> None:
    """Min and Max as typed (an empty field is no bound); untouched fields keep the applied range."""
    if any(k in ctx.ui for k in ("low_price", "high_price")):
        refine(ctx, min_price=number(ctx.ui.get("low_price")), max_price=number(ctx.ui.get("high_price")))
        _forget_typed_prices(ctx)  # the fields now show the applied range


def _forget_typed_prices(ctx: AppContext) -> None:
    ctx.ui.pop("low_price", None)
    ctx.ui.pop("high_price", None)


def clear_filters(ctx: AppContext) -> None:
    _forget_typed_prices(ctx)
    refine(ctx, brand=None, min_price=None, max_price=None, prime=False, min_rating=None)


def close_filters(ctx: AppContext) -> None:
    """Closing applies prices typed into Min/Max, as the sheet's Show results button does."""
    apply_typed_prices(ctx)
    ctx.close()


def sort_menu(ctx: AppContext) -> Node:
    current = ctx.args.get("sort") or "featured"

    def pick(key: str) -> None:
        refine(ctx, sort=key)
        ctx.close()

    return choice_dialog(
        "Sort by", SORTS, current, pick, ctx.close, cancel=False, rid="sort_menu", option_rid="sort_option"
    )


# -- today's deals ---------------------------------------------------------------------------------------
def deals(ctx: AppContext) -> Node:
    args = ctx.args
    c = cat(ctx)
    dept = args.get("dept")
    sort = args.get("sort") or "featured"
    shown = sort_products([p for p in c.deals if dept in (None, p.category)], sort)
    with_deals = [slug for slug in c.categories if any(p.category == slug for p in c.deals)]

    chips = [pill("All Deals", dept is None, partial(pick_deal_department, ctx, None), rid="deal_dept")]
    chips += [
        pill(c.categories[s].label, dept == s, partial(pick_deal_department, ctx, s), rid="deal_dept")
        for s in with_deals
    ]
    more = len(shown) > DEALS_SHOWN and not ctx.ui.get("all_deals")
    tiles = [product_tile(ctx, p, 492, rid="deal_card") for p in (shown[:DEALS_SHOWN] if more else shown)]
    body = scroll_page(
        "deals",
        text("Today's Deals", size=58, bold=True, fg=INK, pad=(36, 30, 36, 6), rid="deals_title"),
        text(f"{len(shown)} deals · new deals every day", "caption", pad=(36, 0, 36, 20)),
        row(flow(chips, WIDTH), pad=(36, 0, 36, 20)),
        row(
            pill(
                f"Sort by: {DEAL_SORTS[sort]}",
                False,
                ctx.opener("deal_sort"),
                rid="deal_sort",
            ),
            pad=(36, 0, 36, 24),
        ),
        *_grid(tiles),
        row(
            pill("See more deals", False, lambda: ctx.ui.update(all_deals=True), rid="deals_see_more"),
            pad=(36, 0, 36, 0),
        )
        if more
        else None,
        spacer(h=40),
        rid="deals_grid",
    )
    return page(ctx, "Home", body)


def pick_deal_department(ctx: AppContext, slug: str | None) -> None:
    """Deals of one department (None: all), back to the first few and the top of the grid."""
    ctx.args.update(dept=slug)
    ctx.ui.pop("all_deals", None)
    ctx.ui.setdefault("scroll", {}).update(deals=0)


def deal_sort_menu(ctx: AppContext) -> Node:
    sort = ctx.args.get("sort") or "featured"

    def choose(key: str) -> None:
        ctx.args["sort"] = key
        ctx.close()

    return choice_dialog(
        "Sort by",
        DEAL_SORTS,
        sort,
        choose,
        ctx.close,
        cancel=False,
        rid="sort_menu",
        option_rid="sort_option",
    )


# -- menu ------------------------------------------------------------------------------------------------
def menu(ctx: AppContext) -> Node:
    c = cat(ctx)
    links: tuple[tuple[str, str | None, dict[str, Any]], ...] = (
        ("Today's Deals", "deals", {"dept": None, "sort": "featured"}),
        ("Your Orders", "orders", {}),
        ("Your Lists", "lists", {}),
        ("Your Account", "account", {}),
        ("Customer Service", None, {}),
        ("Settings", None, {}),
    )
    rows = [
        row(
            text(label, "lead", weight=1),
            Node(IMAGE, icon="chevron", size=40, w=56, h=56, fg=GREY),
            on_tap=(lambda s=screen, a=args: go(ctx, s, **a)) if screen else (lambda: None),
            pad=(36, 36, 36, 36),
            valign="center",
            rid="menu_item",
            desc=label,
        )
        for label, screen, args in links
    ]
    body = scroll_page(
        "menu",
        section_title("Shop by Department"),
        *_grid(
            [_department_tile(ctx, slug, category.label, 316) for slug, category in c.categories.items()], 3
        ),
        divider(),
        section_title("Programs & Features"),
        *rows,
        rid="menu_list",
    )
    return page(ctx, "Menu", body)


__all__ = ["deals", "home", "menu", "results"]
