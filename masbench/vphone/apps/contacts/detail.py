"""The contact card: name and avatar, Call / Text / Email, every phone, email and detail, and the bar's
star, edit and overflow menu (Share, Delete with a confirmation)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from urllib.parse import quote

from ...app import AppContext
from ...intents import ACTION_VIEW, Intent
from ...theme import theme
from ...ui import Node
from ...widgets import (
    app_bar,
    bottom_sheet,
    button,
    column,
    dialog,
    divider,
    icon_button,
    list_item,
    row,
    scroll_page,
    text,
)
from . import model
from .common import avatar
from .content import full_name

ACTION_SENDTO = "android.intent.action.SENDTO"


def _contact(ctx: AppContext) -> model.Contact | None:
    return model.contact(ctx.state, ctx.args["id"])


def _reach(ctx: AppContext, kind: str, target: str | None) -> None:
    """Call, text or email: the app records what was started; an email opens the mail app's compose
    (`SENDTO mailto:`, as the real card does), a call or text only says so (no dialer on this phone)."""
    if not target:
        ctx.toast(f"No {'email address' if kind == 'email' else 'phone number'}")
        return
    ctx.state["interactions"].append({"kind": kind, "contact_id": ctx.args["id"], "target": target})
    ctx.log("contact_" + kind, target=target)
    if kind == "email" and not ctx.start_activity(Intent(ACTION_SENDTO, data=f"mailto:{target}")):
        return
    ctx.toast({"call": "Calling ", "text": "Messaging ", "email": "Emailing "}[kind] + target)


def _show_on_map(ctx: AppContext, address: str) -> None:
    """Tapping the address opens it in a maps app (`geo:0,0?q=`), as the real card does."""
    if ctx.start_activity(Intent(ACTION_VIEW, data=f"geo:0,0?q={quote(address)}")):
        ctx.toast("No app can show this address")


def _action(icon: str, label: str, on_tap: Callable[[], None], rid: str) -> Node:
    return column(
        icon_button(icon, label, on_tap, rid=rid, fg=theme().primary, bg=theme().pale),
        text(label, "caption", align="center"),
        gap=8,
        align="center",
        weight=1,
    )


def build_detail(ctx: AppContext) -> Node:
    c = _contact(ctx)
    if c is None:  # deleted or merged away while this card was open
        return column(app_bar("Contact", ctx.back), text("This contact no longer exists", "body", pad=60))
    cid = c["id"]
    phone = c["phones"][0]["number"] if c["phones"] else None
    email = c["emails"][0]["address"] if c["emails"] else None

    def star() -> None:
        ctx.toast("Added to favourites" if model.toggle_star(ctx.state, cid) else "Removed from favourites")

    info: list[Node | None] = [
        *(
            list_item(
                p["number"],
                p["type"],
                partial(_reach, ctx, "call", p["number"]),
                icon="call",
                rid="phone_row",
                selectable=True,
            )
            for p in c["phones"]
        ),
        *(
            list_item(
                e["address"],
                e["type"],
                partial(_reach, ctx, "email", e["address"]),
                icon="email",
                rid="email_row",
                selectable=True,
            )
            for e in c["emails"]
        ),
        list_item(
            c["address"],
            "Address",
            partial(_show_on_map, ctx, c["address"]),
            icon="location",
            rid="address_row",
            selectable=True,
        )
        if c["address"]
        else None,
        list_item(model.birthday_label(c["birthday"]), "Birthday", icon="cake", rid="birthday_row")
        if c["birthday"]
        else None,
        list_item(", ".join(c["labels"]), "Labels", icon="label", rid="labels_row") if c["labels"] else None,
    ]
    work = " · ".join(part for part in (c.get("title", ""), c.get("company", "")) if part)
    return column(
        app_bar(
            "",
            ctx.back,
            icon_button(
                "star" if c["starred"] else "star_outline",
                "Remove from favourites" if c["starred"] else "Add to favourites",
                star,
                rid="menu_star",
                fg=theme().primary if c["starred"] else None,
            ),
            icon_button("edit", "Edit contact", ctx.link("editor", id=cid), rid="menu_edit"),
            icon_button("more_vert", "More options", ctx.opener("contact_menu"), rid="menu_more"),
        ),
        scroll_page(
            "detail",
            column(
                avatar(c, 260),
                text(full_name(c), "headline", rid="large_title", align="center", max_lines=2),
                text(work, "caption", align="center", rid="company") if work else None,
                align="center",
                gap=16,
                pad=(40, 20, 40, 30),
            ),
            row(
                _action("call", "Call", lambda: _reach(ctx, "call", phone), "call_button"),
                _action("message", "Text", lambda: _reach(ctx, "text", phone), "text_button"),
                _action("email", "Email", lambda: _reach(ctx, "email", email), "email_button"),
                pad=(60, 0, 60, 30),
            ),
            divider(),
            text("Contact info", "heading", pad=(48, 30, 48, 10)),
            *info,
            rid="contact_detail",
        ),
    )


def contact_menu(ctx: AppContext) -> Node:
    def share() -> None:
        ctx.close()
        c = _contact(ctx)
        ctx.toast(f"Sharing {full_name(c)}" if c else "Nothing to share")

    def delete() -> None:
        ctx.open("delete_contact")

    return bottom_sheet(
        "More options",
        [
            list_item("Share", on_tap=share, icon="forward", rid="menu_share"),
            list_item("Delete", on_tap=delete, icon="delete", rid="menu_delete"),
        ],
        ctx.close,
    )


def delete_dialog(ctx: AppContext) -> Node:
    def confirm() -> None:
        ctx.close()
        model.delete(ctx.state, ctx.args["id"])
        ctx.toast("Contact deleted")
        ctx.back()

    c = _contact(ctx)
    return dialog(
        "Delete this contact?",
        [
            text(
                f"{full_name(c) if c else 'This contact'} will be removed from your contacts.",
                "body",
                pad=(60, 0, 60, 20),
            )
        ],
        [
            button("Cancel", ctx.close, primary=False, rid="cancel_button"),
            button("Delete", confirm, rid="delete_confirm_button"),
        ],
        ctx.close,
    )
