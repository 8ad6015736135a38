"""A conversation: its messages with attachments, the star, Reply / Reply all / Forward, and the toolbar's
Archive, Delete, Mark unread and overflow menu (Move to, Snooze, Label as, importance, spam). The menu and
its dialogs act on `targets`: the open conversation, or the rows selected in a list."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from ...app import AppContext
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, Intent
from ...theme import theme
from ...ui import IMAGE, Node
from ...widgets import (
    app_bar,
    bottom_sheet,
    button,
    checkbox,
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
from .common import avatar, done, mark, snooze_targets, targets, toggle_star
from .compose import open_compose
from .datepick import open_picker

MOVE_CATEGORIES = ("primary", "social", "updates", "promotions")
URL = re.compile(r"https?://[^\s<>\"]+[^\s<>\".,;:!?)]")


def _thread(ctx: AppContext) -> model.Thread | None:
    return model.find_thread(ctx.state, ctx.args.get("id", ""))


def build_thread(ctx: AppContext) -> Node:
    thread = _thread(ctx)
    if thread is None:
        return column(app_bar("", ctx.back), text("This conversation was deleted", "body", pad=60))
    actions = (
        icon_button("archive", "Archive", lambda: mark(ctx, "archived", True, "Archived"), rid="archive"),
        icon_button("delete", "Delete", lambda: mark(ctx, "trashed", True, "Moved to Trash"), rid="delete"),
        icon_button(
            "email", "Mark unread", lambda: mark(ctx, "unread", True, "Marked unread"), rid="mark_unread"
        ),
        icon_button("more_vert", "More options", ctx.opener("thread_menu"), rid="more_options"),
    )
    star = icon_button("star" if thread["starred"] else "star_outline",
                       "Starred" if thread["starred"] else "Not starred", toggle_star(ctx, thread["id"]),
                       rid="subject_star", fg="#f4b400" if thread["starred"] else theme().muted, size=56)  # fmt: skip
    star.selected = thread["starred"]
    chips = [text(name, size=30, bg=theme().pale, radius=12, pad=(16, 4, 16, 4), rid="label_chip")
             for name in _shown_labels(ctx, thread)]  # fmt: skip
    last = thread["messages"][-1]
    return column(
        app_bar("", ctx.back, *actions),
        scroll_page(
            "thread",
            row(
                text(thread["subject"], size=52, weight=1, rid="subject"),
                star,
                pad=(48, 16, 24, 8),
                valign="start",
            ),
            flow(*chips, gap=12, pad=(48, 0, 48, 16)) if chips else None,
            *[message_block(ctx, m) for m in thread["messages"]],
            rid="conversation_pager",
        ),
        divider(),
        row(
            reply_button(ctx, "Reply", "reply", "reply", last["id"], "reply_button"),
            reply_button(ctx, "Reply all", "reply_all", "reply_all", last["id"], "reply_all_button"),
            reply_button(ctx, "Forward", "forward", "forward", last["id"], "forward_button"),
            pad=(32, 24, 32, 24),
            gap=20,
            bg="#ffffff",
        ),
    )


def _shown_labels(ctx: AppContext, thread: model.Thread) -> list[str]:
    shown = ["Inbox"] if model.in_inbox(thread, ctx.now()) else []
    shown += ["Spam"] if thread["spam"] else ["Trash"] if thread["trashed"] else []
    labels: list[str] = thread["labels"]
    return shown + labels


def reply_button(ctx: AppContext, label: str, mode: str, icon: str, message_id: str, rid: str) -> Node:
    return button(label, lambda: open_compose(ctx, mode, message_id), rid=rid, primary=False, icon=icon,
                  colour=theme().ink, weight=1, pad=(16, 0, 16, 0))  # fmt: skip


def message_block(ctx: AppContext, message: dict[str, Any]) -> Node:
    """One message: who wrote to whom and when, a reply arrow (the default reply action), body, files."""
    sender = "me" if model.from_me(message) else message["from"]["name"]
    to = ", ".join(model.address_label(a) for a in message["to"])
    cc = ", ".join(model.address_label(a) for a in message["cc"])
    default = ctx.state["settings"]["default_reply"]
    header = row(
        avatar(message["from"]["name"], 104),
        column(
            row(text(sender, size=40, bold=True, max_lines=1, weight=1, rid="sender_name"),
                text(model.list_date(message["date"], ctx.now()), "caption", rid="message_date"), gap=16),
            text(f"to {to}" + (f", cc {cc}" if cc else ""), "caption", max_lines=2, rid="recipients"),
            weight=1, gap=4,
        ),
        icon_button(default, "Reply all" if default == "reply_all" else "Reply",
                    lambda: open_compose(ctx, default, message["id"]), rid="reply_message", size=52),
        pad=(48, 24, 16, 8), gap=28, valign="start",
    )  # fmt: skip
    files = [
        row(
            Node(IMAGE, icon="attach", size=44, w=70, h=70, fg=theme().muted, align="center"),
            column(
                text(a["name"], "body_small", max_lines=1),
                text(model.size_label(a["size"]), "caption"),
                weight=1,
            ),
            border="#dadce0",
            radius=20,
            pad=(20, 12, 20, 12),
            gap=16,
            valign="center",
            rid="attachment_tile",
            desc=a["name"],
        )
        for a in message["attachments"]
    ]
    return column(
        header,
        text(message["body"], "body", pad=(48, 8, 48, 16), rid="message_body", selectable=True),
        *link_rows(ctx, message["body"]),
        column(*files, gap=12, pad=(48, 0, 48, 16)) if files else None,
        divider(),
        rid="message_view",
    )


def link_rows(ctx: AppContext, body: str) -> list[Node]:
    """The links in a message, each on its own tappable line below the text (Gmail links them); a tap
    hands the address to Android, so a YouTube link opens YouTube and a web page opens in Chrome."""

    def open_link(url: str) -> None:
        if ctx.start_activity(Intent(ACTION_VIEW, data=url, categories=[CATEGORY_BROWSABLE])):
            ctx.toast("No app can open this link")

    return [
        text(url, "body_small", fg=theme().primary, max_lines=2, rid="message_link", desc=url,
             on_tap=partial(open_link, url), pad=(48, 4, 48, 12))
        for url in dict.fromkeys(URL.findall(body))
    ]  # fmt: skip


# -- acting on the thread (or the rows selected in a list) -------------------------------------------------


def thread_menu(ctx: AppContext) -> Node:
    chosen = targets(ctx)
    important = bool(chosen) and all(t["important"] for t in chosen)

    def then(dialog_name: str) -> Callable[[], None]:
        def close_and_open() -> None:
            ctx.close()
            ctx.open(dialog_name)

        return close_and_open

    def toggle_important() -> None:
        for thread in chosen:
            thread["important"] = not important
        ctx.close()

    items = [
        list_item("Move to", on_tap=then("move_to"), icon="arrow_forward", rid="menu_item"),
        list_item("Snooze", on_tap=then("snooze"), icon="schedule", rid="menu_item"),
        list_item("Label as", on_tap=then("label_as"), icon="label", rid="menu_item"),
        list_item("Mark not important" if important else "Mark important", on_tap=toggle_important, icon="flag",
                  rid="menu_item"),
        list_item("Report spam", on_tap=lambda: mark(ctx, "spam", True, "Reported as spam"), icon="info",
                  rid="menu_item"),
    ]  # fmt: skip
    return bottom_sheet("More options", items, ctx.close, rid="thread_menu")


def label_dialog(ctx: AppContext) -> Node:
    """Label as: a checkbox per label, ticked where every target has it; OK adds the newly ticked labels
    to every target and takes the unticked ones off."""
    chosen = targets(ctx)
    common = [label for label in ctx.state["labels"] if chosen and all(label in t["labels"] for t in chosen)]
    ticked: list[str] = ctx.dialog_args.setdefault("ticked", common)

    def flip(label: str) -> None:
        ticked.remove(label) if label in ticked else ticked.append(label)

    def ok() -> None:
        for thread in chosen:
            keep = {*thread["labels"], *ticked} - (set(common) - set(ticked))
            thread["labels"] = [label for label in ctx.state["labels"] if label in keep]
        ctx.close()
        ctx.toast("Labels updated")

    boxes = [checkbox(label, label in ticked, partial(flip, label), rid="label_checkbox")
             for label in ctx.state["labels"]]  # fmt: skip
    actions = [button("Cancel", ctx.close, rid="button2", primary=False), button("OK", ok, rid="button1")]
    return dialog("Label as", boxes, actions, ctx.close, rid="label_dialog")


def move_dialog(ctx: AppContext) -> Node:
    """Move to: another inbox category, Spam, Trash, or a label (which also takes it out of the inbox)."""

    def move(target: str) -> None:
        for thread in targets(ctx):
            if target in MOVE_CATEGORIES:
                thread.update(category=target, archived=False, spam=False, trashed=False)
            elif target in ("spam", "trash"):
                thread["spam" if target == "spam" else "trashed"] = True
            else:
                keep = {*thread["labels"], target}
                thread["labels"] = [label for label in ctx.state["labels"] if label in keep]
                thread["archived"] = True
        done(ctx, f"Moved to {_target_label(target)}")

    places = [*MOVE_CATEGORIES, "spam", "trash", *ctx.state["labels"]]
    rows = [list_item(_target_label(p), on_tap=partial(move, p), rid="move_target") for p in places]
    return bottom_sheet("Move to", rows, ctx.close, rid="move_sheet")


def _target_label(target: str) -> str:
    """'Primary', 'Spam'... for the built-in places; a label by its own name."""
    return target.title() if target in (*MOVE_CATEGORIES, "spam", "trash") else target


def snooze_dialog(ctx: AppContext) -> Node:
    """Snooze until: Gmail's presets with the time each means, then Pick date."""
    names = {"later_today": "Later today", "tomorrow": "Tomorrow", "weekend": "This weekend",
             "next_week": "Next week"}  # fmt: skip

    def choose(until: datetime) -> None:
        snooze_targets(ctx, until)

    rows = [
        list_item(names[key], f"{until.strftime('%a')} {until.strftime('%I:%M %p').lstrip('0')}",
                  on_tap=partial(choose, until), icon="schedule", rid="snooze_option", desc=names[key])
        for key, until in model.snooze_times(ctx.now()).items()
    ]  # fmt: skip
    tomorrow = ctx.now().date() + timedelta(days=1)

    def pick_date() -> None:
        ctx.close()
        open_picker(ctx, "snooze", tomorrow)

    rows.append(list_item("Pick date", on_tap=pick_date,
                          icon="today", rid="snooze_option", desc="Pick date"))  # fmt: skip
    return bottom_sheet("Snooze until...", rows, ctx.close, rid="snooze_sheet")
