"""The product page: pictures, price, delivery, colour and size pickers, quantity, Add to Cart, Buy Now and
Add to List. The chosen variant and quantity are screen args; what the shopper commits goes to state."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from ...app import AppContext
from ...ui import IMAGE, VIEWGROUP, Node
from ...widgets import choice_dialog, column, divider, row, scroll_page, spacer, text
from . import store
from .catalog import Product
from .parts import (
    DEAL_RED,
    GREEN,
    GREY,
    INK,
    LINK,
    ORANGE,
    YELLOW,
    button,
    cat,
    check_mark,
    deal_badge,
    delivery_line,
    flow,
    go,
    money,
    page,
    picture,
    pill,
    prime_badge,
    section_title,
    stars,
)

MAX_PICK = 10
WIDTH = 1080 - 72


@dataclass(frozen=True)
class Choice:
    """What the shopper picked on the page (screen args): colour (the first by default), size, quantity."""

    colour: str | None
    size: str | None
    qty: int


def product(ctx: AppContext) -> Node:
    p = cat(ctx).by_asin[ctx.args["asin"]]
    choice = Choice(
        ctx.args.get("colour") or (p.colours[0] if p.colours else None),
        ctx.args.get("size"),
        int(ctx.args.get("qty") or 1),
    )
    content = scroll_page(
        "page",
        *_headline(p, choice.colour),
        *_price_and_delivery(ctx, p),
        *_variant_pickers(ctx, p, choice),
        *_buy_box(ctx, p, choice),
        *_details(ctx, p),
        text("", size=20, pad=(0, 40, 0, 40)),
        rid="product_page",
    )
    banner = _added_banner(ctx)
    return page(ctx, "Home", column(banner, content, weight=1) if banner else content)


def _headline(p: Product, colour: str | None) -> list[Node | None]:
    """Byline and stars, title, deal badge, the main picture in the chosen colour and its gallery dots."""
    return [
        row(
            text(
                f"by {p.brand}" if p.is_book else f"Visit the {p.brand} Store",
                size=32,
                fg=LINK,
                weight=1,
                rid="bylineInfo",
                max_lines=1,
            ),
            stars(p.rating, p.reviews, size=28),
            pad=(36, 24, 36, 8),
            valign="center",
        ),
        text(p.title, size=38, fg=INK, pad=(36, 0, 36, 12), rid="productTitle", max_lines=4),
        row(deal_badge(p), pad=(36, 0, 36, 12)) if p.deal else None,
        Node(
            IMAGE,
            image=picture(p.asin, colour),
            h=520,
            desc=f"{p.title}, image 1 of 5",
            rid="main_image",
            bg="#f7f7f7",
        ),
        row(
            spacer(weight=1),
            *[Node(VIEWGROUP, w=18, h=18, radius=9, bg=INK if i == 0 else "#c4c7c7") for i in range(5)],
            spacer(weight=1),
            gap=14,
            pad=(0, 14, 0, 14),
            valign="center",
            desc="Image 1 of 5",
        ),
    ]


def _price_and_delivery(ctx: AppContext, p: Product) -> list[Node | None]:
    stock = f"Only {p.stock} left in stock - order soon." if p.stock else "In Stock"
    return [
        row(
            text(f"-{p.discount}%", size=52, fg=DEAL_RED, pad=(0, 0, 20, 0)) if p.discount else None,
            text(money(p.price), size=60, fg=INK, bold=True, rid="corePrice"),
            pad=(36, 0, 36, 0),
            valign="end",
        ),
        text(
            f"{'Typical' if p.deal else 'List'} Price: {money(p.list_price)}",
            size=30,
            fg=GREY,
            pad=(36, 0, 36, 0),
        )
        if p.list_price
        else None,
        row(
            prime_badge(),
            text(delivery_line(ctx, p), "small", weight=1, max_lines=2, pad=(12, 0, 0, 0)),
            pad=(36, 10, 36, 0),
            valign="center",
        )
        if p.prime
        else text(delivery_line(ctx, p), "small", pad=(36, 10, 36, 0), max_lines=2),
        text(stock, size=36, fg=GREEN if not p.stock else DEAL_RED, pad=(36, 10, 36, 10), rid="availability"),
    ]


def _variant_pickers(ctx: AppContext, p: Product, choice: Choice) -> list[Node | None]:
    """A row of pills per dimension the product varies in (colour, size), under the value picked."""
    variants: list[Node | None] = []
    if p.colours:
        colours = [
            pill(
                c,
                c == choice.colour,
                partial(pick_variant, ctx, colour=c),
                rid="variant_colour",
                desc=f"Colour {c}",
            )
            for c in p.colours
        ]
        variants += [_label("Colour", choice.colour or ""), row(flow(colours, WIDTH), pad=(36, 0, 36, 20))]
    if p.sizes:
        sizes = [
            pill(
                s, s == choice.size, partial(pick_variant, ctx, size=s), rid="variant_size", desc=f"Size {s}"
            )
            for s in p.sizes
        ]
        variants += [_label("Size", choice.size or "Select"), row(flow(sizes, WIDTH), pad=(36, 0, 36, 20))]
    return variants


def _buy_box(ctx: AppContext, p: Product, choice: Choice) -> list[Node | None]:
    """The missing-size error, the quantity picker and the three buttons."""
    error = ctx.ui.get("error")
    return [
        text(error, size=34, fg=DEAL_RED, pad=(36, 0, 36, 10), rid="variant_error") if error else None,
        row(
            pill(
                f"Quantity: {choice.qty}",
                False,
                ctx.opener("quantity"),
                rid="quantity",
                desc=f"Quantity {choice.qty}",
            ),
            pad=(36, 10, 36, 20),
        ),
        column(
            button(
                "Add to Cart", partial(add_to_cart, ctx, p, choice), rid="add-to-cart-button", colour=YELLOW
            ),
            button("Buy Now", partial(buy_now, ctx, p, choice), rid="buy-now-button", colour=ORANGE),
            button(
                "Add to List", partial(add_to_list, ctx, p), rid="add-to-wishlist-button", colour="#ffffff"
            ),
            pad=(36, 0, 36, 20),
            gap=20,
        ),
    ]


def _details(ctx: AppContext, p: Product) -> list[Node | None]:
    """About this item (the department's bullet points) and the product information table."""
    department = cat(ctx).categories[p.category]
    information = (
        ("ASIN", p.asin),
        ("Brand" if not p.is_book else "Author", p.brand),
        ("Department", department.label),
        ("Customer Reviews", f"{p.rating:.1f} out of 5 stars ({p.reviews:,})"),
    )
    return [
        divider(),
        section_title("About this item"),
        *[
            row(
                Node(VIEWGROUP, w=12, h=12, radius=6, bg=INK),
                text(line, "body", weight=1),
                pad=(36, 6, 36, 6),
                gap=20,
                valign="center",
            )
            for line in department.about
        ],
        section_title("Product information"),
        *[
            row(text(k, "caption", w=380), text(v, "body_small", weight=1), pad=(36, 6, 36, 6))
            for k, v in information
        ],
    ]


# -- product handlers ------------------------------------------------------------------------------------
def pick_variant(ctx: AppContext, **change: str) -> None:
    """A new colour or size clears the size error and the added banner (it was about the old variant)."""
    ctx.args.update(change)
    ctx.ui.pop("error", None)
    ctx.ui.pop("added", None)


def _size_chosen(ctx: AppContext, p: Product, choice: Choice) -> bool:
    """Whether the product can go to the cart as chosen; if not, the page says to pick a size."""
    if p.sizes and not choice.size:
        ctx.ui["error"] = "Please select a Size"
        return False
    ctx.ui.pop("error", None)
    return True


def add_to_cart(ctx: AppContext, p: Product, choice: Choice) -> None:
    if _size_chosen(ctx, p, choice):
        store.add_to_cart(ctx.state, p.asin, choice.qty, choice.size, choice.colour)
        ctx.ui["added"] = "cart"
        ctx.toast("Added to Cart")


def buy_now(ctx: AppContext, p: Product, choice: Choice) -> None:
    """Checkout of this item alone, whatever the cart holds."""
    if _size_chosen(ctx, p, choice):
        line = {"asin": p.asin, "quantity": choice.qty, "size": choice.size, "colour": choice.colour}
        go(ctx, "checkout", source="buy_now", lines=[line], delivery="standard")


def add_to_list(ctx: AppContext, p: Product) -> None:
    fresh = store.add_to_wishlist(ctx.state, p.asin, ctx.now().date().isoformat())
    ctx.ui["added"] = "list"
    ctx.toast("Added to Shopping List" if fresh else "Already in your Shopping List")


def quantity_menu(ctx: AppContext) -> Node:
    qty = int(ctx.args.get("qty") or 1)

    def set_qty(n: str) -> None:
        ctx.args["qty"] = int(n)
        ctx.close()
        ctx.ui.pop("added", None)

    counts = {str(n): str(n) for n in range(1, MAX_PICK + 1)}
    return choice_dialog(
        "Quantity",
        counts,
        str(qty),
        set_qty,
        ctx.close,
        cancel=False,
        rid="quantity_menu",
        option_rid="quantity_option",
    )


def _label(name: str, value: str) -> Node:
    return row(
        text(f"{name}: ", size=34, fg=GREY),
        text(value, size=34, fg=INK, bold=True, rid=f"selected_{name.lower()}"),
        pad=(36, 10, 36, 12),
    )


def _added_banner(ctx: AppContext) -> Node | None:
    """The confirmation pinned under the search bar after Add to Cart / Add to List (the toast fades)."""
    added = ctx.ui.get("added")
    if added is None:
        return None
    if added == "cart":
        count = store.cart_count(ctx.state)
        message, detail = (
            "Added to Cart",
            f"Cart subtotal ({count} item{'s' if count != 1 else ''}): {money(store.subtotal(ctx.state))}",
        )
        link, target = "Go to Cart", "cart"
    else:
        message, detail = "Added to Shopping List", f"{len(ctx.state['wishlist'])} items in your list"
        link, target = "View Your List", "lists"
    return row(
        check_mark(44),
        column(
            text(message, size=38, fg=GREEN, bold=True, rid="added_message"),
            text(detail, "small", max_lines=1),
            weight=1,
            gap=4,
        ),
        button(
            link, lambda: go(ctx, target), rid="added_go", colour="#ffffff", h=96, size=32, pad=(28, 0, 28, 0)
        ),
        bg="#f0faf0",
        pad=(28, 20, 28, 20),
        gap=16,
        valign="center",
        rid="added_banner",
    )


def not_found(ctx: AppContext) -> Node:
    body = column(
        text("Looking for something?", "price", pad=(36, 60, 36, 20)),
        text(
            f"We're sorry. The Web address you entered is not a functioning page on our site. ({ctx.args.get('asin', '')})",
            size=36,
            fg=GREY,
            pad=(36, 0, 36, 40),
        ),
        row(
            button("Go to Amazon's home page", lambda: ctx.back(), rid="go_home", colour="#ffffff", w=700),
            pad=(36, 0, 36, 0),
        ),
        Node(IMAGE, image="amazon-dog", h=600, desc="One of Amazon's dogs", radius=20),
        weight=1,
        rid="not_found",
    )
    return page(ctx, "Home", body)


__all__ = ["not_found", "product"]
