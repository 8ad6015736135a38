"""Guests: the form lists them (each with a remove button) under an "Add people" row that opens the
people picker, a screen with a search box whose suggestions come from the Contacts app's people when it
is installed (else from the shared people list); a typed address is added with Enter.

The picker edits the guest list of the event form beneath it, as the real app's picker returns its
choice to the form."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from ...app import AppContext, Screen
from ...identity import identity
from ...theme import theme
from ...ui import EDIT, Node
from ...widgets import app_bar, button, column, icon_button, list_item, row, scroll_list, text
from ..people import people
from ..textmatch import fold

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
MAX_SUGGESTIONS = 6


def directory(ctx: AppContext) -> list[tuple[str, str]]:
    """(name, email) of everyone the picker can suggest: Contacts' people if that app is on the phone."""
    book = ctx.phone.app_states.get(identity("contacts").package)
    if book is None:
        return [(p["name"], p["email"]) for p in people()]
    found = []
    for c in sorted(book["contacts"].values(), key=lambda c: c["id"]):
        name = " ".join(part for part in (c["first"], c["last"]) if part)
        found += [(name, e["address"]) for e in c["emails"]]
    return found


def suggestions(ctx: AppContext, query: str, chosen: list[str]) -> list[tuple[str, str]]:
    q = fold(query.strip())
    if not q:
        return []
    hits = [(n, e) for n, e in directory(ctx) if (q in fold(n) or q in fold(e)) and e not in chosen]
    return hits[:MAX_SUGGESTIONS]


def _form(ctx: AppContext) -> Screen:
    """The event form the picker was opened from (directly beneath it)."""
    return ctx.phone.stack[-2]


def open_picker(ctx: AppContext, current: list[str]) -> None:
    """Open the picker over the form, which from now on holds its guest list in its ui state."""
    ctx.ui["guests"] = list(current)
    ctx.go("guests")
    ctx.phone.top.ui["focus"] = "guest_query"


def guest_rows(ctx: AppContext, chosen: list[str]) -> list[Node]:
    """The form's guest list: one row per address with a remove button."""

    def remove(email: str) -> None:
        ctx.ui["guests"] = [g for g in chosen if g != email]

    return [
        list_item(
            email,
            icon="person",
            rid="guest_row",
            trailing=icon_button(
                "close", f"Remove {email}", partial(remove, email), rid="remove_guest", size=48
            ),
        )
        for email in chosen
    ]


def build_picker(ctx: AppContext) -> Node:
    form = _form(ctx)
    form_ctx = AppContext(ctx.phone, ctx.app, form)
    chosen = list(form.ui.get("guests", []))

    def add(email: str) -> None:
        form.ui["guests"] = sorted({*chosen, email})
        ctx.ui["guest_query"] = ""

    def typed(entry: str) -> None:
        address = entry.strip()
        if EMAIL.match(address):
            add(address)
        else:
            ctx.toast("Enter a valid email address")

    query = str(ctx.ui.get("guest_query", ""))
    box = Node(EDIT, field="guest_query", hint="Add people", text=query, rid="guest_input", size=44, h=140,
               on_submit=typed, weight=1, icon="person_add", bg=theme().pale, radius=20, pad=(30, 0, 30, 0))  # fmt: skip
    hints = [
        list_item(name, email, on_tap=partial(add, email), icon="person", rid="guest_suggestion", desc=name)
        for name, email in suggestions(ctx, query, chosen)
    ]
    added = [text(f"Guests ({len(chosen)})", "caption", pad=(48, 20, 48, 4)), *guest_rows(form_ctx, chosen)]
    return column(
        app_bar("Add people", ctx.back, button("Done", ctx.back, rid="done_button", h=110, size=38)),
        row(box, pad=(40, 16, 40, 16)),
        scroll_list("guests", [*hints, *(added if chosen else [])], rid="guest_list"),
    )


def prefill_guests(extras: dict[str, Any]) -> list[str]:
    """Intent.EXTRA_EMAIL of an insert intent: comma-separated addresses."""
    raw = extras.get("android.intent.extra.EMAIL", "")
    return sorted(a.strip() for a in str(raw).split(",") if EMAIL.match(a.strip()))
