"""What Gmail's screens share: its activities, ids, the letter avatars, a conversation row, the list of
rows with long-press selection and its action bar, and moving between folders, threads and compose."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from ...app import AppContext, Screen
from ...theme import theme
from ...ui import FRAME, IMAGE, TEXT, VIEWGROUP, Node
from ...widgets import column, icon_button, lazy_list, row, text
from . import model

PACKAGE = "com.google.android.gm"
MAIN = "com.google.android.gm.ConversationListActivityGmail"
COMPOSE_EXTERNAL = "com.google.android.gm.ComposeActivityGmailExternal"
COMPOSE = "com.google.android.gm.ComposeActivityGmail"
SETTINGS = "com.android.mail.ui.settings.PublicPreferenceActivity"
ROW_H = 220
AVATAR_COLOURS = ("#1a73e8", "#d93025", "#188038", "#e37400", "#9334e6", "#007b83", "#c5221f", "#5f6368")
UNREAD_BG = "#ffffff"
READ_BG = "#f6f8fc"
SELECTED_BG = "#d3e3fd"


def avatar(name: str, size: int = 112) -> Node:
    """Gmail's round letter avatar, its colour fixed by the name."""
    colour = AVATAR_COLOURS[sum(map(ord, name)) % len(AVATAR_COLOURS)]
    letter = (name.strip() or "?")[0].upper()
    return Node(TEXT, text=letter, w=size, h=size, radius=size // 2, bg=colour, fg="#ffffff", size=size // 2,
                bold=True, align="center", valign="center", desc="")  # fmt: skip


def new_id(ctx: AppContext) -> str:
    """A fresh Gmail-like id, growing with the phone's clock."""
    state = ctx.state
    state["next_seq"] = state.get("next_seq", 0) + 1
    return f"{int(ctx.now().timestamp() * 1000):011x}{0xF0000 + state['next_seq']:05x}"


# -- navigation -----------------------------------------------------------------------------------------


def root(ctx: AppContext) -> None:
    """Close this app's screens down to the inbox (opening it if the app was entered elsewhere)."""
    phone, package = ctx.phone, ctx.app.package
    while phone.top.package == package and len(phone.stack) > 1 and not _is_inbox(phone.top):
        phone.pop_screen()
    if phone.top.package != package or not _is_inbox(phone.top):
        phone.context(package).go("mailbox", activity=MAIN, folder="inbox")


def _is_inbox(screen: Screen) -> bool:
    return screen.name == "mailbox" and screen.args.get("folder") == "inbox"


def open_folder(ctx: AppContext, folder: str) -> None:
    """A drawer entry: the inbox itself, or the folder over the inbox so Back returns to it."""
    ctx.close()
    root(ctx)
    if folder != "inbox":
        ctx.phone.context(ctx.app.package).go("mailbox", activity=MAIN, folder=folder)


def open_thread(ctx: AppContext, thread_id: str) -> Callable[[], None]:
    def go() -> None:
        thread = model.find_thread(ctx.state, thread_id)
        if thread is not None:
            thread["unread"] = False
        ctx.go("thread", activity=MAIN, id=thread_id)

    return go


def toggle_star(ctx: AppContext, thread_id: str) -> Callable[[], None]:
    def flip() -> None:
        thread = model.find_thread(ctx.state, thread_id)
        if thread is not None:
            thread["starred"] = not thread["starred"]

    return flip


# -- acting on conversations: the open one, or those selected in a list ------------------------------------


def toggle_selected(ctx: AppContext, thread_id: str) -> Callable[[], None]:
    """Long press (or, once selecting, a tap) adds a row to the selection or takes it out."""

    def flip() -> None:
        chosen = ctx.ui.setdefault("selected", [])
        if thread_id in chosen:
            chosen.remove(thread_id)
        else:
            chosen.append(thread_id)
        if not chosen:
            ctx.ui.pop("selected")

    return flip


def targets(ctx: AppContext) -> list[model.Thread]:
    """The conversations an action applies to: the open one, or the ones selected in a list."""
    assert ctx.top is not None
    ids = [ctx.args.get("id", "")] if ctx.top.name == "thread" else ctx.ui.get("selected", [])
    return [t for t in (model.find_thread(ctx.state, i) for i in ids) if t is not None]


def done(ctx: AppContext, message: str) -> None:
    """After an action: an open conversation closes back to its list; a list leaves selection mode."""
    assert ctx.top is not None
    ctx.close()
    ctx.toast(message)
    if ctx.top.name == "thread":
        ctx.phone.pop_screen()
    else:
        ctx.ui.pop("selected", None)


def mark(ctx: AppContext, flag: str, value: bool, message: str) -> None:
    """Archive, delete, report spam or mark (un)read every target, then `done`."""
    for thread in targets(ctx):
        thread[flag] = value
        if flag == "archived":
            thread["snoozed_until"] = None
    done(ctx, message)


def snooze_targets(ctx: AppContext, until: datetime) -> None:
    """Hide every target until `until`, then `done`."""
    for thread in targets(ctx):
        model.snooze(thread, until)
    done(ctx, f"Snoozed until {model.day_label(until.date())}, " + until.strftime("%I:%M %p").lstrip("0"))


def selection_bar(ctx: AppContext) -> Node:
    """The bar that replaces search while rows are selected: how many, Archive, Delete, Mark read or
    unread, and the overflow menu."""
    chosen = targets(ctx)
    all_unread = all(t["unread"] for t in chosen)
    toggle_read = (lambda: mark(ctx, "unread", False, "Marked read")) if all_unread else (
        lambda: mark(ctx, "unread", True, "Marked unread"))  # fmt: skip
    return row(
        icon_button("close", "Exit selection mode", lambda: ctx.ui.pop("selected", None), rid="exit_selection"),
        text(str(len(chosen)), "title", weight=1, rid="selection_count", pad=(16, 0, 0, 0)),
        icon_button("archive", "Archive", lambda: mark(ctx, "archived", True, "Archived"), rid="archive"),
        icon_button("delete", "Delete", lambda: mark(ctx, "trashed", True, "Moved to Trash"), rid="delete"),
        icon_button("email", "Mark read" if all_unread else "Mark unread", toggle_read, rid="mark_unread"),
        icon_button("more_vert", "More options", ctx.opener("thread_menu"), rid="more_options"),
        h=140, bg="#d3e3fd", radius=70, pad=(8, 0, 8, 0), valign="center", rid="selection_bar",
    )  # fmt: skip


# -- the conversation list --------------------------------------------------------------------------------


def thread_row(ctx: AppContext, thread: model.Thread) -> Node:
    """Sender(s), subject, snippet, date and star; unread rows in bold on white."""
    unread = thread["unread"]
    ink, muted = theme().ink, theme().muted
    last = model.latest(thread)
    clip = Node(IMAGE, icon="attach", size=36, w=44, h=44, fg=muted) if model.has_attachment(thread) else None
    star = icon_button("star" if thread["starred"] else "star_outline",
                       "Starred" if thread["starred"] else "Not starred", toggle_star(ctx, thread["id"]),
                       rid="star", fg="#f4b400" if thread["starred"] else muted, size=52)  # fmt: skip
    star.selected = thread["starred"]
    middle = column(
        text(model.senders_line(thread), size=42, bold=unread, fg=ink, max_lines=1, rid="senders"),
        text(thread["subject"], size=38, bold=unread, fg=ink, max_lines=1, rid="subject"),
        text(model.snippet(thread), size=36, fg=muted, max_lines=1, rid="snippet"),
        weight=1, gap=4,
    )  # fmt: skip
    right = column(
        row(
            clip,
            text(
                model.list_date(last["date"], ctx.now()),
                size=32,
                bold=unread,
                fg=ink if unread else muted,
                rid="date",
                max_lines=1,
            ),
            gap=4,
            valign="center",
            h=56,
        ),
        star,
        align="end",
        w=190,
        gap=8,
    )
    desc = ("Unread, " if unread else "") + f"{model.senders_line(thread)}, {thread['subject']}"
    selecting = bool(ctx.ui.get("selected"))
    picked = thread["id"] in ctx.ui.get("selected", [])
    face = avatar(model.face(thread))
    if picked:
        face = Node(IMAGE, icon="check", size=64, w=112, h=112, radius=56, bg=theme().primary, fg="#ffffff",
                    align="center")  # fmt: skip
    return row(
        face, middle, right,
        on_tap=toggle_selected(ctx, thread["id"]) if selecting else open_thread(ctx, thread["id"]),
        on_long_press=toggle_selected(ctx, thread["id"]), selected=picked,
        rid="viewified_conversation_item_view", desc=desc, pad=(40, 20, 24, 12), gap=32, valign="start", h=ROW_H,
        bg=SELECTED_BG if picked else UNREAD_BG if unread else READ_BG,
    )  # fmt: skip


def thread_list(ctx: AppContext, key: str, threads: list[model.Thread], header: list[Node] | None = None,
                empty: str = "Nothing in here") -> Node:  # fmt: skip
    """Rows of conversations, after optional header rows (category rows of the inbox), lazily built."""
    header = header or []
    if not threads and not header:
        return column(text(empty, "body", fg=theme().muted, align="center", pad=(40, 200, 40, 0)), weight=1)

    def build(i: int) -> Node:
        return header[i] if i < len(header) else thread_row(ctx, threads[i - len(header)])

    return lazy_list(key, len(header) + len(threads), ROW_H, build, rid="conversation_list_view", gap=0)


def side_drawer(card: Node, on_dismiss: Callable[[], None]) -> Node:
    """A navigation drawer: `card` down the left edge over a scrim; tapping the scrim closes it."""
    scrim = Node(VIEWGROUP, bg="#00000088", on_tap=on_dismiss, rid="touch_outside", weight=1, dumped=False)
    card.w, card.weight = 860, 1.0
    return Node(FRAME, layout="stack", children=[scrim, card], align="start", valign="start")
