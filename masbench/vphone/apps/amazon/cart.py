"""Cart, Checkout and the order confirmation: quantities, delete, save for later, delivery speed and
placing the order, all through `store` so a GUI route and a shortcut route record the same state."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from ...app import AppContext
from ...ui import BUTTON, IMAGE, VIEWGROUP, Node
from ...widgets import app_bar, column, divider, radio, row, scroll_page, spacer, text
from . import store
from .parts import (
    GREEN,
    GREY,
    HEADER,
    INK,
    LINK,
    MAIN_ACTIVITY,
    YELLOW,
    button,
    cat,
    check_mark,
    day,
    go,
    money,
    open_product,
    open_tab,
    page,
    pill,
    prime_badge,
    section_title,
    thumbnail,
)


# -- cart ------------------------------------------------------------------------------------------------
def cart(ctx: AppContext) -> Node:
    state = ctx.state
    lines, saved = state["cart"], state["saved_for_later"]
    count = store.cart_count(state)
    if lines:
        top: list[Node | None] = [
            row(
                text("Subtotal ", size=46, fg=INK),
                text(money(store.subtotal(state)), "price", rid="sc-subtotal-amount"),
                pad=(36, 36, 36, 8),
                valign="end",
            ),
            row(
                check_mark(36),
                text("Your order qualifies for FREE Shipping.", size=32, fg=GREEN),
                pad=(36, 0, 36, 20),
                gap=10,
                valign="center",
            ),
            column(
                button(
                    f"Proceed to checkout ({count} item{'s' if count != 1 else ''})",
                    lambda: go(ctx, "checkout", source="cart", lines=[], delivery="standard"),
                    rid="proceed-to-checkout",
                ),
                pad=(36, 0, 36, 30),
            ),
            divider(),
        ]
    else:
        top = [
            Node(IMAGE, image="empty-cart", h=360, desc="Empty cart"),
            text(
                "Your Amazon Cart is empty",
                "title",
                pad=(36, 30, 36, 10),
                rid="empty_cart",
            ),
            text(
                "Shop today's deals",
                size=36,
                fg=LINK,
                pad=(36, 0, 36, 30),
                on_tap=lambda: go(ctx, "deals", dept=None, sort="featured"),
            ),
        ]
    items = [_cart_line(ctx, i, line) for i, line in enumerate(lines)]
    later: list[Node] = []
    if saved:
        later.append(
            section_title(
                f"Saved for later ({len(saved)} item{'s' if len(saved) != 1 else ''})", rid="saved_for_later"
            )
        )
        later += [_saved_line(ctx, i, line) for i, line in enumerate(saved)]
    body = scroll_page("cart", *top, *items, *later, spacer(h=60), rid="cart_list")
    return page(ctx, "Cart", body)


def _cart_line(ctx: AppContext, index: int, line: dict[str, Any]) -> Node:
    state = ctx.state
    view = store.line_view(cat(ctx), line)
    title = view["title"]
    product = cat(ctx).by_asin.get(view["asin"])
    details = column(
        text(title, "body_large", max_lines=3, rid="cart_item_title"),
        text(money(view["price"]), "heading", rid="cart_item_price"),
        text("In Stock", size=30, fg=GREEN),
        text(f"Size: {view['size']}", "small", rid="cart_item_size") if view.get("size") else None,
        text(f"Colour: {view['colour']}", "small", rid="cart_item_colour") if view.get("colour") else None,
        prime_badge(28) if view.get("prime") else None,
        weight=1,
        gap=6,
    )
    return column(
        row(
            thumbnail(view["asin"], view.get("colour"), title, 250),
            details,
            gap=28,
            pad=(36, 30, 36, 16),
            on_tap=open_product(ctx, product) if product else None,
            rid="cart_item",
            desc=title,
        ),
        row(
            _quantity_stepper(state, index, title, view["quantity"]),
            pill(
                "Delete",
                False,
                partial(store.set_quantity, state, index, 0),
                rid="cart_delete",
                desc=f"Delete {title}",
            ),
            pill(
                "Save for later",
                False,
                partial(store.save_for_later, state, index),
                rid="cart_save_for_later",
                desc=f"Save for later {title}",
            ),
            gap=16,
            pad=(36, 0, 36, 30),
            valign="center",
        ),
        divider(),
    )


def _quantity_stepper(state: dict[str, Any], index: int, title: str, qty: int) -> Node:
    """Minus, the quantity, plus: down to zero deletes the line (`store.set_quantity`)."""
    return row(
        Node(
            BUTTON,
            w=110,
            h=96,
            pad=(0, 45, 0, 45),  # a plain layout, not a stack: the bar must not swallow the tap
            align="center",
            desc=f"Decrease quantity of {title}",
            rid="cart_qty_decrease",
            on_tap=partial(store.set_quantity, state, index, qty - 1),
            children=[Node(VIEWGROUP, w=32, h=6, bg=INK)],
        ),
        Node(
            BUTTON,
            text=str(qty),
            size=40,
            w=100,
            h=96,
            align="center",
            fg=INK,
            bold=True,
            rid="cart_qty",
            desc=f"Quantity {qty}, {title}",
        ),
        Node(
            BUTTON,
            icon="plus",
            size=44,
            w=110,
            h=96,
            align="center",
            fg=INK,
            desc=f"Increase quantity of {title}",
            rid="cart_qty_increase",
            on_tap=partial(store.set_quantity, state, index, qty + 1),
        ),
        border=YELLOW,
        radius=48,
        valign="center",
        rid="cart_stepper",
    )


def _saved_line(ctx: AppContext, index: int, line: dict[str, Any]) -> Node:
    state = ctx.state
    view = store.line_view(cat(ctx), line)
    return column(
        row(
            thumbnail(view["asin"], view.get("colour"), view["title"], 200),
            column(
                text(view["title"], "body", max_lines=3, rid="saved_item_title"),
                text(money(view["price"]), size=40, bold=True, fg=INK),
                weight=1,
                gap=6,
            ),
            gap=28,
            pad=(36, 20, 36, 12),
        ),
        row(
            pill(
                "Move to cart",
                False,
                partial(store.move_to_cart, state, index),
                rid="saved_move_to_cart",
                desc=f"Move to cart {view['title']}",
            ),
            pill(
                "Delete",
                False,
                partial(delete_saved, state, index),
                rid="saved_delete",
                desc=f"Delete saved {view['title']}",
            ),
            gap=16,
            pad=(36, 0, 36, 24),
        ),
        divider(),
    )


def delete_saved(state: dict[str, Any], index: int) -> None:
    state["saved_for_later"].pop(index)


# -- checkout --------------------------------------------------------------------------------------------
def _checkout_lines(ctx: AppContext) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = (
        ctx.state["cart"] if ctx.args.get("source") == "cart" else ctx.args.get("lines", [])
    )
    return lines


def checkout(ctx: AppContext) -> Node:
    lines = _checkout_lines(ctx)
    views = [store.line_view(cat(ctx), line) for line in lines]
    delivery = ctx.args.get("delivery") or "standard"
    now = ctx.now()  # the order is placed at the time the page shows
    count = sum(v["quantity"] for v in views)
    body = scroll_page(
        "checkout",
        section_title(f"Delivering to {store.USER['name']}"),
        text(f"{store.USER['address']}, {store.USER['city']}", "body", pad=(36, 0, 36, 20)),
        divider(),
        section_title("Paying with"),
        text(store.USER["card"], "body", pad=(36, 0, 36, 20)),
        divider(),
        section_title("Choose a delivery speed"),
        *_delivery_options(ctx, delivery, now),
        divider(),
        section_title("Review items"),
        *map(_review_item, views),
        divider(),
        *_order_total(views, delivery),
        column(
            button(
                "Place your order",
                partial(place_order, ctx, lines, delivery, now),
                rid="place-order-button",
                colour=YELLOW,
                enabled=bool(lines),
            ),
            pad=(36, 0, 36, 60),
        ),
        rid="checkout_page",
    )
    return column(
        app_bar(
            f"Checkout ({count} item{'s' if count != 1 else ''})",
            ctx.back,
            colour=HEADER,
            fg=INK,
            rid="checkout_toolbar",
        ),
        body,
        bg="#ffffff",
    )


def _delivery_options(ctx: AppContext, delivery: str, now: datetime) -> list[Node]:
    """One radio per speed: its arrival day, name and fee (free speeds show none)."""
    return [
        radio(
            f"{day(now + timedelta(days=days))} · {label}" + (f" ({money(fee)})" if fee else ""),
            option == delivery,
            partial(choose_delivery, ctx, option),
            rid="delivery_option",
        )
        for option, (label, fee, days) in store.DELIVERY.items()
    ]


def _review_item(view: dict[str, Any]) -> Node:
    variant = (f" · Size: {view['size']}" if view.get("size") else "") + (
        f" · Colour: {view['colour']}" if view.get("colour") else ""
    )
    return row(
        thumbnail(view["asin"], view.get("colour"), view["title"], 170),
        column(
            text(view["title"], "body_small", max_lines=2, rid="checkout_item_title"),
            text(f"Qty: {view['quantity']}{variant}", size=30, fg=GREY),
            text(money(view["price"]), size=36, bold=True, fg=INK),
            weight=1,
            gap=4,
        ),
        gap=24,
        pad=(36, 12, 36, 12),
    )


def _order_total(views: list[dict[str, Any]], delivery: str) -> list[Node]:
    """Items, shipping and tax, then the order total."""
    items_total = round(sum(v["line_total"] for v in views), 2)
    fee = store.DELIVERY[delivery][1]
    tax = round(items_total * store.TAX_RATE, 2)
    summary = [
        (f"Items ({sum(v['quantity'] for v in views)}):", money(items_total)),
        ("Shipping & handling:", money(fee)),
        ("Estimated tax:", money(tax)),
    ]
    return [
        *[row(text(k, "body", weight=1), text(v, "body"), pad=(36, 6, 36, 6)) for k, v in summary],
        row(
            text("Order total:", size=44, bold=True, fg="#b12704", weight=1),
            text(
                money(round(items_total + fee + tax, 2)), size=44, bold=True, fg="#b12704", rid="order_total"
            ),
            pad=(36, 12, 36, 24),
        ),
    ]


# -- checkout handlers -----------------------------------------------------------------------------------
def choose_delivery(ctx: AppContext, option: str) -> None:
    ctx.args["delivery"] = option


def place_order(ctx: AppContext, lines: list[dict[str, Any]], delivery: str, now: datetime) -> None:
    """Record the order (a cart checkout empties the cart) and show its confirmation."""
    if not lines:
        return
    order_id = store.place_order(ctx.state, [dict(line) for line in lines], delivery, now)
    if ctx.args.get("source") == "cart":
        ctx.state["cart"] = []
    ctx.replace("thank_you", activity=MAIN_ACTIVITY, order_id=order_id)


def thank_you(ctx: AppContext) -> Node:
    order = next((o for o in ctx.state["orders"] if o["id"] == ctx.args.get("order_id")), None)
    arrives = date.fromisoformat(order["arrives"]) if order else ctx.now().date()
    body = scroll_page(
        "thank_you",
        row(
            Node(IMAGE, icon="check", fg=GREEN, size=64, w=80, h=80),
            text("Order placed, thanks!", size=54, bold=True, fg=GREEN, rid="order_placed"),
            pad=(36, 50, 36, 10),
            gap=16,
            valign="center",
        ),
        text(f"Confirmation will be sent to {store.USER['email']}.", "body", pad=(36, 0, 36, 10)),
        text(f"Order # {ctx.args.get('order_id', '')}", "caption", pad=(36, 0, 36, 10), rid="order_id"),
        text(
            f"Arriving {arrives:%A}, {arrives:%B} {arrives.day}",
            size=40,
            bold=True,
            fg=INK,
            pad=(36, 20, 36, 20),
            rid="arrival",
        ),
        column(
            button(
                "Review or edit your recent orders",
                lambda: go(ctx, "orders"),
                rid="review_orders",
                colour="#ffffff",
            ),
            pad=(36, 20, 36, 20),
        ),
        column(
            button("Continue shopping", lambda: open_tab(ctx, "Home"), rid="continue_shopping"),
            pad=(36, 0, 36, 20),
        ),
        rid="thank_you_page",
    )
    return page(ctx, "Home", body, back=False)


__all__ = ["cart", "checkout", "thank_you"]
