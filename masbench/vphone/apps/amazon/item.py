"""The product page: pictures, price, delivery, colour and size pickers, quantity, Add to Cart, Buy Now and
Add to List. The chosen variant and quantity are screen args; what the shopper commits goes to state."""

from __future__ import annotations

from collections.abc import Callable

from ...app import AppContext
from ...ui import IMAGE, VIEWGROUP, Node
from ...widgets import choice_dialog, column, divider, row, scroll_page, spacer, text
from . import store
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


def product(ctx: AppContext) -> Node:
    args = ctx.args
    p = cat(ctx).by_asin[args["asin"]]
    colour = args.get("colour") or (p.colours[0] if p.colours else None)
    size = args.get("size")
    qty = int(args.get("qty") or 1)

    def chosen() -> bool:
        if p.sizes and not size:
            ctx.ui["error"] = "Please select a Size"
            return False
        ctx.ui.pop("error", None)
        return True

    def add() -> None:
        if chosen():
            store.add_to_cart(ctx.state, p.asin, qty, size, colour)
            ctx.ui["added"] = "cart"
            ctx.toast("Added to Cart")

    def buy_now() -> None:
        if chosen():
            line = {"asin": p.asin, "quantity": qty, "size": size, "colour": colour}
            go(ctx, "checkout", source="buy_now", lines=[line], delivery="standard")

    def add_to_list() -> None:
        fresh = store.add_to_wishlist(ctx.state, p.asin, ctx.now().date().isoformat())
        ctx.ui["added"] = "list"
        ctx.toast("Added to Shopping List" if fresh else "Already in your Shopping List")

    def pick(**change: str) -> Callable[[], None]:
        return lambda: (args.update(change), ctx.ui.pop("error", None), ctx.ui.pop("added", None))

    variants: list[Node | None] = []
    if p.colours:
        variants += [
            _label("Colour", colour or ""),
            row(
                flow(
                    [
                        pill(c, c == colour, pick(colour=c), rid="variant_colour", desc=f"Colour {c}")
                        for c in p.colours
                    ],
                    WIDTH,
                ),
                pad=(36, 0, 36, 20),
            ),
        ]
    if p.sizes:
        variants += [
            _label("Size", size or "Select"),
            row(
                flow(
                    [pill(s, s == size, pick(size=s), rid="variant_size", desc=f"Size {s}") for s in p.sizes],
                    WIDTH,
                ),
                pad=(36, 0, 36, 20),
            ),
        ]
    error = ctx.ui.get("error")
    stock = f"Only {p.stock} left in stock - order soon." if p.stock else "In Stock"
    content = scroll_page(
        "page",
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
        *variants,
        text(error, size=34, fg=DEAL_RED, pad=(36, 0, 36, 10), rid="variant_error") if error else None,
        row(
            pill(
                f"Quantity: {qty}",
                False,
                ctx.opener("quantity"),
                rid="quantity",
                desc=f"Quantity {qty}",
            ),
            pad=(36, 10, 36, 20),
        ),
        column(
            button("Add to Cart", add, rid="add-to-cart-button", colour=YELLOW),
            button("Buy Now", buy_now, rid="buy-now-button", colour=ORANGE),
            button("Add to List", add_to_list, rid="add-to-wishlist-button", colour="#ffffff"),
            pad=(36, 0, 36, 20),
            gap=20,
        ),
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
            for line in cat(ctx).categories[p.category].about
        ],
        section_title("Product information"),
        *[
            row(text(k, "caption", w=380), text(v, "body_small", weight=1), pad=(36, 6, 36, 6))
            for k, v in (
                ("ASIN", p.asin),
                ("Brand" if not p.is_book else "Author", p.brand),
                ("Department", cat(ctx).categories[p.category].label),
                ("Customer Reviews", f"{p.rating:.1f} out of 5 stars ({p.reviews:,})"),
            )
        ],
        text("", size=20, pad=(0, 40, 0, 40)),
        rid="product_page",
    )
    banner = _added_banner(ctx)
    return page(ctx, "Home", column(banner, content, weight=1) if banner else content)


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
