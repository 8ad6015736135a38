"""Compose: To, Cc and Bcc as chips with contact suggestions, subject, body and attachments from the phone's
files; Send files the mail in Sent; leaving any other way keeps it as a draft, and Drafts opens it again.
Replies and forwards come here with their headers filled in."""

from __future__ import annotations

from functools import partial
from typing import Any

from ...app import AppContext, Screen
from ...theme import theme
from ...ui import BUTTON, EDIT, IMAGE, Node
from ...widgets import (
    app_bar,
    bottom_sheet,
    button,
    column,
    dialog,
    divider,
    flow,
    icon_button,
    list_item,
    row,
    scroll_page,
    text,
)
from . import model
from .common import COMPOSE, new_id
from .content import ME, contact_list, iso

RECIPIENT_FIELDS = ("to", "cc", "bcc")
TITLES = {
    "new": "Compose",
    "reply": "Reply",
    "reply_all": "Reply all",
    "forward": "Forward",
    "draft": "Compose",
}


# -- opening ----------------------------------------------------------------------------------------------


def compose_screen(ctx: AppContext, mode: str = "new", activity: str = COMPOSE, **fill: Any) -> Screen:
    """A compose screen (not yet shown) with its fields filled: `fill` may hold to/cc/bcc (lists), subject,
    body, attachments, and the links of a reply or forward (in_reply_to, thread_id, forward_of, draft_id)."""
    links = {k: fill.get(k) for k in ("in_reply_to", "thread_id", "forward_of", "draft_id")}
    screen = ctx.screen("compose", activity=activity, mode=mode, **links)
    fields = {
        "recipients": {f: list(dict.fromkeys(fill.get(f) or [])) for f in RECIPIENT_FIELDS},
        "subject": fill.get("subject") or "",
        "body": fill.get("body") or "",
        "attachments": list(fill.get("attachments") or []),
        "show_cc": bool(fill.get("cc") or fill.get("bcc")),
    }
    screen.ui.update(fields, initial=_snapshot(fields))
    return screen


def open_compose(ctx: AppContext, mode: str = "new", message_id: str | None = None) -> None:
    """A new mail, or a reply / reply-all / forward of one message."""
    fill: dict[str, Any] = {}
    found = model.find_message(ctx.state, message_id) if message_id else None
    if found is not None:
        thread, message = found
        fill = model.reply_headers(ctx.state, message, mode)
        fill["thread_id"] = thread["id"]
        fill["forward_of" if mode == "forward" else "in_reply_to"] = message["id"]
    ctx.phone.push_screen(compose_screen(ctx, mode, **fill))


def open_draft(ctx: AppContext, draft_id: str) -> None:
    draft = next((d for d in ctx.state["drafts"] if d["id"] == draft_id), None)
    if draft is not None:
        ctx.phone.push_screen(compose_screen(ctx, "draft", draft_id=draft_id, **{
            k: draft[k] for k in ("to", "cc", "bcc", "subject", "body", "attachments", "in_reply_to",
                                  "thread_id", "forward_of")}))  # fmt: skip


# -- the screen --------------------------------------------------------------------------------------------


def build_compose(ctx: AppContext) -> Node:
    ui = ctx.ui
    mode = ctx.args.get("mode", "new")
    focus = ui.get("focus")
    rows: list[Node | None] = [
        row(
            text("From", "body", fg=theme().muted, w=150),
            text(ME[1], "body", max_lines=1, rid="from_account", weight=1),
            pad=(48, 24, 48, 24),
            valign="center",
        ),
        divider(),
    ]
    for field in RECIPIENT_FIELDS if ui.get("show_cc") else ("to",):
        rows += [recipient_row(ctx, field), divider()]
        if focus == field:
            rows += suggestion_rows(ctx, field)
    rows += [
        Node(
            EDIT, field="subject", hint="Subject", rid="subject", size=42, bg="#ffffff", pad=(48, 30, 48, 30)
        ),
        divider(),
        Node(
            EDIT,
            field="body",
            multiline=True,
            hint="Compose email",
            rid="body",
            size=42,
            bg="#ffffff",
            pad=(48, 30, 48, 30),
            h=180,
        ),
        *[attachment_row(ctx, name) for name in ui.get("attachments", [])],
        signature_block(ctx),
        quoted_block(ctx),
    ]
    return column(
        app_bar(
            TITLES.get(mode, "Compose"),
            lambda: leave(ctx),
            icon_button("attach", "Attach file", ctx.opener("attach"), rid="add_attachment"),
            icon_button("send", "Send", lambda: send(ctx), rid="send", fg=theme().primary),
        ),
        scroll_page("compose", *rows, rid="compose_scroll"),
    )


def recipient_row(ctx: AppContext, field: str) -> Node:
    """'To' with its chips, the field to type more into and, on To, the arrow that shows Cc and Bcc."""
    chips = [
        Node(
            BUTTON,
            text=model.display_name(address),
            desc=f"Remove {address}",
            rid="recipient_chip",
            on_tap=partial(remove_recipient, ctx, field, address),
            h=84,
            radius=42,
            pad=(28, 0, 28, 0),
            size=36,
            bg=theme().pale,
            border="#dadce0",
            align="center",
        )
        for address in ctx.ui["recipients"][field]
    ]
    entry = Node(EDIT, field=field, rid=field, size=42, bg="#ffffff", h=96, w=360 if chips else 2000, pad=(8, 0, 8, 0),
                 on_submit=lambda value: add_typed(ctx, field, value))  # fmt: skip
    expand = None
    if field == "to" and not ctx.ui.get("show_cc"):
        expand = icon_button("expand_more", "Show Cc and Bcc", lambda: ctx.ui.update(show_cc=True),
                             rid="show_cc_bcc", size=52)  # fmt: skip
    label = text(field.title(), "body", fg=theme().muted, w=150, h=96, valign="center")
    return row(label, flow(*chips, entry, gap=12, weight=1), expand, pad=(48, 12, 24, 12), valign="start")


def remove_recipient(ctx: AppContext, field: str, address: str) -> None:
    ctx.ui["recipients"][field].remove(address)


def suggestion_rows(ctx: AppContext, field: str) -> list[Node]:
    typed = str(ctx.ui.get(field, ""))
    return [
        list_item(
            c["name"],
            c["email"],
            on_tap=partial(add_address, ctx, field, c["email"]),
            rid="suggestion",
            desc=f"{c['name']} {c['email']}",
        )
        for c in model.suggestions(typed, contact_list())
    ]


def attachment_row(ctx: AppContext, name: str) -> Node:
    size = model.file_sizes(ctx.state).get(name, 0)
    return row(
        Node(IMAGE, icon="attach", size=48, w=80, h=80, fg=theme().muted, align="center"),
        column(text(name, "body_small", max_lines=1, rid="attachment_name"),
               text(model.size_label(size), "caption"), weight=1),
        icon_button("close", f"Remove {name}", lambda: ctx.ui["attachments"].remove(name), rid="remove_attachment",
                    size=48),
        border="#dadce0", radius=20, pad=(24, 12, 12, 12), gap=20, valign="center", rid="attachment",
    )  # fmt: skip


def signature_block(ctx: AppContext) -> Node | None:
    """The mobile signature Gmail adds below what is written (Settings), shown but not part of the body."""
    signature = ctx.state["settings"]["signature"]
    return (
        text(f"--\n{signature}", "body_small", fg=theme().muted, pad=(48, 8, 48, 16), rid="signature")
        if signature
        else None
    )


def quoted_block(ctx: AppContext) -> Node | None:
    """The message replied to or forwarded, below the body, as Gmail shows it (not part of the body)."""
    source = ctx.args.get("forward_of") or ctx.args.get("in_reply_to")
    found = model.find_message(ctx.state, source) if source else None
    if found is None:
        return None
    thread, message = found
    head = ("---------- Forwarded message ---------" if ctx.args.get("forward_of") else
            f"On {model.long_date(message['date'])} {message['from']['name']} wrote:")  # fmt: skip
    return column(
        text(head, "caption", max_lines=2),
        text(f"Subject: {thread['subject']}", "caption", max_lines=2) if ctx.args.get("forward_of") else None,
        text(message["body"], "caption", max_lines=6),
        pad=(48, 24, 48, 40),
        gap=8,
        rid="quoted_text",
    )


# -- recipients -------------------------------------------------------------------------------------------


def add_address(ctx: AppContext, field: str, address: str) -> None:
    chosen = ctx.ui["recipients"][field]
    if address not in chosen:
        chosen.append(address)
    ctx.ui[field] = ""
    ctx.ui["focus"] = field


def add_typed(ctx: AppContext, field: str, value: str) -> None:
    """Enter in a recipient field: an address, or the one contact the name matches, becomes a chip."""
    address = model.address_of(value, contact_list())
    if address is not None:
        add_address(ctx, field, address)
        ctx.ui.pop("focus", None)
    elif value.strip():
        ctx.toast(f"Not a valid address: {value.strip()}")


def _fields(ctx: AppContext) -> dict[str, Any]:
    ui = ctx.ui
    return {
        "recipients": {f: list(ui["recipients"][f]) for f in RECIPIENT_FIELDS},
        "subject": str(ui.get("subject", "")),
        "body": str(ui.get("body", "")),
        "attachments": list(ui.get("attachments", [])),
        "typed": {f: str(ui.get(f, "")).strip() for f in RECIPIENT_FIELDS},
    }


def _snapshot(fields: dict[str, Any]) -> dict[str, Any]:
    """A copy of what the mail holds, to tell on leaving whether anything changed."""
    return {
        "recipients": {f: list(fields["recipients"][f]) for f in RECIPIENT_FIELDS}, "subject": fields["subject"],
        "body": fields["body"], "attachments": list(fields["attachments"]),
        "typed": dict.fromkeys(RECIPIENT_FIELDS, ""),
    }  # fmt: skip


def _message(ctx: AppContext) -> dict[str, Any] | None:
    """The mail as it stands, leftover typed addresses included; None (and a dialog) if one is not valid."""
    fields = _fields(ctx)
    out: dict[str, Any] = {}
    for field in RECIPIENT_FIELDS:
        addresses = list(fields["recipients"][field])
        typed = fields["typed"][field]
        if typed:
            address = model.address_of(typed, contact_list())
            if address is None:
                ctx.open("invalid", address=typed)
                return None
            addresses.append(address)
        out[field] = list(dict.fromkeys(addresses))
    links = {k: ctx.args.get(k) for k in ("in_reply_to", "thread_id", "forward_of")}
    return {**out, "subject": fields["subject"], "body": fields["body"], "attachments": fields["attachments"],
            "id": ctx.args.get("draft_id"), **links}  # fmt: skip


# -- sending and leaving -------------------------------------------------------------------------------------


def send(ctx: AppContext) -> None:
    message = _message(ctx)
    if message is None:
        return
    if not (message["to"] or message["cc"] or message["bcc"]):
        ctx.open("no_recipients")
        return
    model.send(ctx.state, message, ctx.now(), lambda: new_id(ctx))
    ctx.log("email_sent", to=message["to"], subject=message["subject"])
    ctx.phone.pop_screen()
    ctx.toast("Sent")


def save_draft(ctx: AppContext) -> None:
    """Keep what was written as a draft (or update the draft being edited) unless nothing changed."""
    fields = _fields(ctx)
    draft_id = ctx.args.get("draft_id")
    if _snapshot(fields) == ctx.ui.get("initial") and not any(fields["typed"].values()):
        return
    draft = {
        "id": draft_id or new_id(ctx),
        **{f: fields["recipients"][f] for f in RECIPIENT_FIELDS},
        "subject": fields["subject"], "body": fields["body"], "attachments": fields["attachments"],
        **{k: ctx.args.get(k) for k in ("in_reply_to", "thread_id", "forward_of")},
        "updated": iso(ctx.now()),
    }  # fmt: skip
    drafts = [d for d in ctx.state["drafts"] if d["id"] != draft["id"]]
    ctx.state["drafts"] = [draft, *drafts]
    ctx.toast("Draft saved")


def leave(ctx: AppContext) -> None:
    """Navigate up from compose: save the draft, then close."""
    save_draft(ctx)
    ctx.phone.pop_screen()


# -- dialogs and sheets ------------------------------------------------------------------------------------


def attach_sheet(ctx: AppContext) -> Node:
    def attach(name: str) -> None:
        if name not in ctx.ui["attachments"]:
            ctx.ui["attachments"].append(name)
        ctx.close()

    rows = [
        list_item(
            f["name"],
            model.size_label(f["size"]),
            on_tap=partial(attach, f["name"]),
            icon="attach",
            rid="file_item",
            desc=f["name"],
        )
        for f in ctx.state["files"]
    ]
    return bottom_sheet("Attach file", rows, ctx.close, rid="attach_sheet")


def no_recipients_dialog(ctx: AppContext) -> Node:
    return dialog("Add at least one recipient", [], [button("OK", ctx.close, rid="button1")], ctx.close)


def invalid_dialog(ctx: AppContext) -> Node:
    typed = ctx.dialog_args.get("address", "")
    return dialog(
        "Invalid address",
        [text(f"The address <{typed}> is not valid.", "body", pad=(60, 0, 60, 20))],
        [button("OK", ctx.close, rid="button1")],
        ctx.close,
    )
