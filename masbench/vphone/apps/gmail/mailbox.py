"""The conversation lists: the inbox (Primary, with rows for the other categories), every other folder and
label, Drafts, and the navigation drawer that switches between them."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from ...app import AppContext
from ...theme import theme
from ...ui import EDIT, IMAGE, Node
from ...widgets import button, column, divider, icon_button, lazy_list, row, scroll_list, spacer, text
from . import model
from .common import MAIN, READ_BG, ROW_H, avatar, open_folder, selection_bar, side_drawer, thread_list
from .compose import open_compose, open_draft

CATEGORY_ROWS = ("promotions", "social", "updates")


def build_mailbox(ctx: AppContext) -> Node:
    folder = ctx.args.get("folder", "inbox")
    now = ctx.now()
    if folder == "drafts":
        body = drafts_list(ctx)
    else:
        header = [category_rows(ctx)] if folder == "inbox" else []
        body = thread_list(ctx, "threads", model.folder_threads(ctx.state, folder, now), header,
                           empty=f"Nothing in {model.folder_label(folder)}")  # fmt: skip
    return column(
        selection_bar(ctx) if ctx.ui.get("selected") else search_bar(ctx),
        text(model.folder_label(folder), "overline", rid="folder_name", pad=(48, 8, 48, 16)),
        body,
        compose_bar(ctx),
        bg="#ffffff",
    )


def search_bar(ctx: AppContext) -> Node:
    """The rounded 'Search in mail' box with the drawer button and the account's avatar; submitting opens
    the search results (and leaves the box empty for next time)."""

    def submit(query: str) -> None:
        ctx.ui["search_text"] = ""
        if query.strip():
            ctx.go("search", activity=MAIN, query=query.strip())

    field = Node(EDIT, field="search_text", hint="Search in mail", rid="open_search", size=42, bg=theme().pale, weight=1, h=132,
                 on_submit=submit)  # fmt: skip
    return row(
        icon_button("menu", "Open navigation drawer", ctx.opener("drawer"), rid="drawer_button"),
        field,
        avatar("Alex", 96),
        bg=theme().pale, radius=70, h=140, pad=(8, 0, 28, 0), gap=8, valign="center", rid="search_bar",
    )  # fmt: skip


def compose_bar(ctx: AppContext) -> Node:
    """The bottom strip holding the Compose button, clear of the list so it never covers a row's star."""
    fab = button("Compose", lambda: open_compose(ctx), rid="compose_button", colour="#c2e7ff", fg="#001d35",
                 icon="edit", radius=48, h=150)  # fmt: skip
    return row(spacer(weight=1), fab, pad=(40, 16, 48, 24), bg="#ffffff")


def category_rows(ctx: AppContext) -> Node:
    """Promotions, Social and Updates as one block at the top of Primary, each with its new count."""
    now = ctx.now()
    lines = []
    for folder in CATEGORY_ROWS:
        threads = model.folder_threads(ctx.state, folder, now)
        unread = [t for t in threads if t["unread"]]
        names = ", ".join(dict.fromkeys(model.latest(t)["from"]["name"] for t in (unread or threads)[:3]))
        label, icon = model.FOLDERS[folder]
        badge = text(f"{len(unread)} new", size=30, bold=True, fg="#ffffff", bg="#188038", radius=24,
                     pad=(16, 4, 16, 4)) if unread else None  # fmt: skip
        lines.append(row(
            Node(IMAGE, icon=icon, size=52, w=112, h=64, fg=theme().muted, align="center"),
            text(label, size=38, bold=bool(unread), max_lines=1),
            text(names, size=32, fg=theme().muted, max_lines=1, weight=1),
            badge,
            on_tap=partial(open_folder, ctx, folder), rid="category_row", desc=label, gap=24, h=68,
            valign="center", pad=(40, 0, 40, 0),
        ))  # fmt: skip
    return column(*lines, h=ROW_H, gap=4, pad=(0, 4, 0, 4), bg="#ffffff")


def drafts_list(ctx: AppContext) -> Node:
    drafts = sorted(ctx.state["drafts"], key=lambda d: d["updated"], reverse=True)
    if not drafts:
        return column(
            text("No drafts", "body", fg=theme().muted, align="center", pad=(40, 200, 40, 0)), weight=1
        )
    now = ctx.now()

    def build(i: int) -> Node:
        draft = drafts[i]
        to = ", ".join(model.display_name(a) for a in draft["to"]) or "(no recipients)"
        return row(
            avatar(to),
            column(text("Draft", size=40, fg=theme().error, max_lines=1, rid="senders"),
                   text(draft["subject"] or "(no subject)", size=38, max_lines=1, rid="subject"),
                   text(f"To: {to}  {draft['body']}", size=36, fg=theme().muted, max_lines=1, rid="snippet"),
                   weight=1, gap=4),
            text(model.list_date(draft["updated"], now), size=32, fg=theme().muted, rid="date", w=190, align="end"),
            on_tap=partial(open_draft, ctx, draft["id"]), rid="viewified_conversation_item_view",
            desc=f"Draft, {draft['subject']}", pad=(40, 20, 24, 12), gap=32, valign="start", h=ROW_H, bg=READ_BG,
        )  # fmt: skip

    return lazy_list("drafts", len(drafts), ROW_H, build, rid="conversation_list_view", gap=0)


# -- the drawer -----------------------------------------------------------------------------------------


def drawer(ctx: AppContext) -> Node:
    current = ctx.args.get("folder", "inbox")
    now = ctx.now()

    def item(folder: str, label: str, icon: str, count: int) -> Node:
        chosen = folder == current
        return row(
            Node(IMAGE, icon=icon, size=56, w=80, h=80, fg=theme().ink, align="center"),
            text(label, size=40, bold=chosen, weight=1, max_lines=1),
            text(str(count), size=34, fg=theme().muted) if count else None,
            on_tap=lambda: open_folder(ctx, folder), rid="drawer_item", desc=label, selected=chosen,
            bg="#d3e3fd" if chosen else None, radius=60, h=120, gap=36, pad=(40, 0, 48, 0), valign="center",
        )  # fmt: skip

    entries = []
    for folder, (label, icon) in model.FOLDERS.items():
        count = len(ctx.state["drafts"]) if folder == "drafts" else unread_badge(ctx, folder, now)
        entries.append(item(folder, label, icon, count))
        if folder in ("updates", "trash"):
            entries.append(divider())
    entries.append(text("Labels", "overline", pad=(48, 24, 48, 8)))
    for label in ctx.state["labels"]:
        entries.append(item(f"label:{label}", label, "label", unread_badge(ctx, f"label:{label}", now)))
    entries += [divider(), item("settings", "Settings", "settings", 0)]

    def open_settings() -> None:
        ctx.close()
        ctx.go("settings", activity=None)

    entries[-1].on_tap = open_settings
    card = column(
        text("Gmail", size=56, fg="#d93025", bold=True, pad=(56, 48, 48, 24)),
        scroll_list("drawer", entries, rid="drawer_list", gap=4, pad=(0, 0, 24, 40)),
        bg="#ffffff", rid="navigation_drawer",
    )  # fmt: skip
    return side_drawer(card, ctx.close)


def unread_badge(ctx: AppContext, folder: str, now: datetime) -> int:
    """The drawer's count: unread conversations, except in folders where Gmail counts none."""
    if folder in ("sent", "all", "trash", "starred", "important", "snoozed"):
        return 0
    return model.unread_count(ctx.state, folder, now)
