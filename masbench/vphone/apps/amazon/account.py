"""Your Orders and an order's details (Buy it again), Your Lists, the You tab and Your Account."""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Any

from ...app import AppContext
from ...ui import IMAGE, Node
from ...widgets import column, divider, row, scroll_list, scroll_page, spacer, text
from . import store
from .catalog import Product
from .parts import (
    GREEN,
    GREY,
    INK,
    LINK,
    PANEL,
    YELLOW,
    button,
    cat,
    check_mark,
    flow,
    go,
    money,
    open_product,
    page,
    pill,
    section_title,
    stars,
    thumbnail,
)

WIDTH = 1080 - 72


# -- orders ----------------------------------------------------------------------------------------------
def _status(order: dict[str, Any]) -> str:
    when = date.fromisoformat(order["arrives"])
    label = "Delivered" if order["status"] == "Delivered" else "Arriving"
    return (
        f"{label} {when:%B} {when.day}"
        if label == "Delivered"
        else f"{label} {when:%A}, {when:%B} {when.day}"
    )


def orders(ctx: AppContext) -> Node:
    cards = [
        column(
            row(
                text(_status(o), size=40, bold=True, fg=INK, weight=1),
                Node(IMAGE, icon="chevron", size=40, w=56, h=56, fg=GREY),
                valign="center",
            ),
            *[
                row(
                    thumbnail(i["asin"], i.get("colour"), i["title"], 180),
                    text(i["title"], "body", weight=1, max_lines=3, rid="order_item_title"),
                    gap=24,
                    valign="center",
                )
                for i in o["items"]
            ],
            pad=(36, 28, 36, 28),
            gap=16,
            on_tap=lambda o=o: go(ctx, "order_detail", order_id=o["id"]),
            rid="order_card",
            desc=f"Order {o['id']}",
        )
        for o in ctx.state["orders"]
    ]
    body = column(
        text("Your Orders", "headline", pad=(36, 30, 36, 6), rid="orders_title"),
        text(f"{len(cards)} orders placed in the past 3 months", "caption", pad=(36, 0, 36, 16)),
        divider(),
        scroll_list("orders", [n for c in cards for n in (c, Node(h=16, bg=PANEL))], rid="orders_list"),
        weight=1,
    )
    return page(ctx, "You", body)


def order_detail(ctx: AppContext) -> Node:
    order = next((o for o in ctx.state["orders"] if o["id"] == ctx.args.get("order_id")), None)
    if order is None:
        return page(ctx, "You", text("This order could not be found.", "lead_muted", pad=60, weight=1))
    placed = date.fromisoformat(order["date"])
    body = scroll_page(
        "order_detail",
        text("Order Details", "price", pad=(36, 30, 36, 16), rid="order_details_title"),
        text(f"Order placed {placed:%B} {placed.day}, {placed.year}", "body", pad=(36, 0, 36, 4)),
        text(f"Order # {order['id']}", "body", pad=(36, 0, 36, 4), rid="order_id"),
        text(f"Order total {money(order['total'])}", "body", pad=(36, 0, 36, 20)),
        divider(),
        text(_status(order), size=42, bold=True, fg=INK, pad=(36, 24, 36, 0)),
        *[_ordered_item(ctx, item) for item in order["items"]],
        divider(),
        section_title("Shipping Address"),
        text(
            f"{store.USER['name']}\n{store.USER['address']}\n{store.USER['city']}",
            "body",
            pad=(36, 0, 36, 40),
        ),
        rid="order_detail_page",
    )
    return page(ctx, "You", body)


def _ordered_item(ctx: AppContext, item: dict[str, Any]) -> Node:
    """One item of an order: Buy it again (confirmed under it once added) and View your item."""
    product = cat(ctx).by_asin.get(item["asin"])
    return column(
        row(
            thumbnail(item["asin"], item.get("colour"), item["title"], 220),
            column(
                text(item["title"], "body", max_lines=3, rid="order_item_title"),
                text(money(item["price"]), size=38, bold=True, fg=INK),
                weight=1,
                gap=6,
            ),
            gap=24,
        ),
        row(
            button(
                "Buy it again",
                partial(buy_again, ctx, item),
                rid="buy-it-again",
                colour=YELLOW,
                h=100,
                size=36,
                weight=1,
                desc=f"Buy it again, {item['title']}",
            ),
            button(
                "View your item",
                open_product(ctx, product) if product else None,
                rid="view-item",
                colour="#ffffff",
                h=100,
                size=36,
                weight=1,
            ),
            gap=20,
        ),
        row(
            check_mark(40),
            text("Added to Cart", size=34, bold=True, fg=GREEN, rid="added_message"),
            gap=10,
            valign="center",
        )
        if ctx.ui.get("added") == item["asin"]
        else None,
        pad=(36, 20, 36, 20),
        gap=16,
        rid="order_item",
    )


def buy_again(ctx: AppContext, item: dict[str, Any]) -> None:
    """One more of an ordered item, in the variant ordered, to the cart."""
    store.add_to_cart(ctx.state, item["asin"], 1, item.get("size"), item.get("colour"))
    ctx.ui["added"] = item["asin"]
    ctx.toast("Added to Cart")


# -- lists -----------------------------------------------------------------------------------------------
def lists(ctx: AppContext) -> Node:
    c = cat(ctx)
    cards = [
        _wishlist_card(ctx, item, c.by_asin[item["asin"]])
        for item in reversed(ctx.state["wishlist"])
        if item["asin"] in c.by_asin
    ]
    body = column(
        text("Your Lists", "headline", pad=(36, 30, 36, 6), rid="lists_title"),
        row(
            text("Shopping List", size=42, bold=True, fg=LINK),
            text("Private · Default", "caption"),
            pad=(36, 0, 36, 20),
            gap=20,
            valign="center",
        ),
        divider(),
        scroll_list(
            "lists",
            [n for card in cards for n in (card, divider())]
            or [text("This list is empty.", size=38, fg=GREY, pad=60, rid="empty_list")],
            rid="wishlist",
        ),
        weight=1,
    )
    return page(ctx, "You", body)


def _wishlist_card(ctx: AppContext, item: dict[str, Any], product: Product) -> Node:
    return column(
        row(
            thumbnail(product.asin, None, product.title, 260),
            column(
                text(product.title, "body_large", max_lines=3, rid="wishlist_item_title"),
                stars(product.rating, product.reviews, size=28),
                text(money(product.price), "heading"),
                text(f"Item added {item.get('added', '')}", size=28, fg=GREY),
                weight=1,
                gap=8,
            ),
            gap=28,
            on_tap=partial(go, ctx, "product", asin=product.asin, colour=None, size=None, qty=1),
        ),
        row(
            button(
                "Add to Cart",
                partial(wishlist_to_cart, ctx, ctx.state, product),
                rid="wishlist_add_to_cart",
                colour=YELLOW,
                h=96,
                size=34,
                weight=1,
                desc=f"Add to Cart, {product.title}",
            ),
            button(
                "Delete",
                partial(wishlist_delete, ctx.state, product.asin),
                rid="wishlist_delete",
                colour="#ffffff",
                h=96,
                size=34,
                w=260,
                desc=f"Delete {product.title}",
            ),
            gap=20,
        ),
        pad=(36, 28, 36, 28),
        gap=20,
        rid="wishlist_item",
        desc=product.title,
    )


def wishlist_to_cart(ctx: AppContext, state: dict[str, Any], p: Product) -> None:
    """A product with sizes opens its page to pick one; any other goes to the cart in its first colour."""
    if p.sizes:
        go(ctx, "product", asin=p.asin, colour=None, size=None, qty=1)
        return
    store.add_to_cart(state, p.asin, 1, None, p.colours[0] if p.colours else None)
    ctx.toast("Added to Cart")


def wishlist_delete(state: dict[str, Any], asin: str) -> None:
    state["wishlist"] = [i for i in state["wishlist"] if i["asin"] != asin]


# -- you & account ---------------------------------------------------------------------------------------
def you(ctx: AppContext) -> Node:
    state = ctx.state
    c = cat(ctx)
    shortcuts = [
        pill("Your Orders", False, lambda: go(ctx, "orders"), rid="you_orders"),
        pill("Buy Again", False, lambda: go(ctx, "orders"), rid="you_buy_again"),
        pill("Your Account", False, lambda: go(ctx, "account"), rid="you_account"),
        pill("Your Lists", False, lambda: go(ctx, "lists"), rid="you_lists"),
    ]
    recent = [c.by_asin[i["asin"]] for o in state["orders"] for i in o["items"] if i["asin"] in c.by_asin][:6]
    tiles = [
        column(
            thumbnail(p.asin, None, p.title, 260, radius=10),
            text(p.title, size=28, fg=INK, max_lines=2, w=260),
            on_tap=open_product(ctx, p),
            gap=8,
            rid="you_order_tile",
            desc=p.title,
        )
        for p in recent
    ]
    body = scroll_page(
        "you",
        row(
            Node(IMAGE, icon="person", size=80, w=120, h=120, fg=GREY, bg=PANEL, radius=60),
            text(f"Hello, {store.USER['name'].split()[0]}", "headline"),
            pad=(36, 30, 36, 20),
            gap=24,
            valign="center",
        ),
        row(flow(shortcuts, WIDTH), pad=(36, 0, 36, 24)),
        divider(),
        row(
            section_title("Your Orders"),
            spacer(weight=1),
            text(
                "See all",
                size=34,
                fg=LINK,
                pad=(0, 36, 36, 16),
                on_tap=lambda: go(ctx, "orders"),
                rid="you_see_all_orders",
            ),
        ),
        scroll_list(
            "you_orders", tiles, horizontal=True, gap=24, pad=(36, 0, 36, 24), rid="you_orders_carousel"
        ),
        divider(),
        section_title("Your Lists"),
        row(
            Node(IMAGE, icon="bookmark", size=56, w=80, h=80, fg=LINK),
            column(
                text("Shopping List", size=40, fg=INK, bold=True),
                text(f"{len(state['wishlist'])} items · Private", size=30, fg=GREY),
                weight=1,
            ),
            Node(IMAGE, icon="chevron", size=40, w=56, h=56, fg=GREY),
            on_tap=lambda: go(ctx, "lists"),
            pad=(36, 10, 36, 30),
            gap=20,
            valign="center",
            rid="you_shopping_list",
            desc="Shopping List",
        ),
        divider(),
        section_title("Your Account"),
        row(
            text("Manage your account, addresses and payments", size=34, fg=LINK, weight=1),
            on_tap=lambda: go(ctx, "account"),
            pad=(36, 0, 36, 40),
            rid="you_account_link",
        ),
        rid="you_page",
    )
    return page(ctx, "You", body)


ACCOUNT_ROWS = (
    ("Your Orders", "orders"),
    ("Your Lists", "lists"),
    ("Login & security", None),
    ("Prime membership", None),
    ("Your Addresses", None),
    ("Your Payments", None),
    ("Your Subscribe & Save", None),
    ("Customer Service", None),
)


def account(ctx: AppContext) -> Node:
    rows = [
        row(
            text(label, "lead", weight=1),
            Node(IMAGE, icon="chevron", size=40, w=56, h=56, fg=GREY),
            on_tap=(lambda s=screen: go(ctx, s)) if screen else (lambda: None),
            pad=(36, 38, 36, 38),
            valign="center",
            rid="account_item",
            desc=label,
        )
        for label, screen in ACCOUNT_ROWS
    ]
    body = scroll_page(
        "account",
        text("Your Account", "headline", pad=(36, 30, 36, 6), rid="account_title"),
        text(f"{store.USER['name']} · {store.USER['email']}", "caption", pad=(36, 0, 36, 20)),
        divider(),
        *[n for r in rows for n in (r, divider())],
        rid="account_list",
    )
    return page(ctx, "You", body)


__all__ = ["account", "lists", "order_detail", "orders", "you"]
