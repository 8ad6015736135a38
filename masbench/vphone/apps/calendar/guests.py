"""The form's guests: an "Add people" box whose suggestions come from the Contacts app's people when it
is installed (else from the shared people list), typed addresses, and a remove button per guest."""

from __future__ import annotations

import re
from typing import Any

from ...app import AppContext
from ...identity import identity
from ...ui import EDIT, Node
from ...widgets import column, icon_button, list_item, row
from ..people import people

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
MAX_SUGGESTIONS = 4


def directory(ctx: AppContext) -> list[tuple[str, str]]:
    """(name, email) of everyone the form can suggest: Contacts' people if that app is on the phone."""
    book = ctx.phone.app_states.get(identity("contacts").package)
    if book is None:
        return [(p["name"], p["email"]) for p in people()]
    found = []
    for c in sorted(book["contacts"].values(), key=lambda c: c["id"]):
        name = " ".join(part for part in (c["first"], c["last"]) if part)
        found += [(name, e["address"]) for e in c["emails"]]
    return found


def suggestions(ctx: AppContext, query: str, chosen: list[str]) -> list[tuple[str, str]]:
    q = query.strip().casefold()
    if not q:
        return []
    hits = [(n, e) for n, e in directory(ctx) if (q in n.casefold() or q in e.casefold()) and e not in chosen]
    return hits[:MAX_SUGGESTIONS]


def guest_section(ctx: AppContext, chosen: list[str], start: list[str]) -> Node:
    def add(email: str) -> None:
        ctx.ui["guests"] = [*chosen, email] if email not in chosen else chosen
        ctx.ui["guest_query"] = ""

    def typed(text: str) -> None:
        address = text.strip()
        if EMAIL.match(address):
            add(address)
        else:
            ctx.toast("Enter a valid email address")

    def remove(email: str) -> None:
        ctx.ui["guests"] = [g for g in chosen if g != email]

    query = str(ctx.ui.get("guest_query", ""))
    box = Node(
        EDIT,
        field="guest_query",
        hint="Add people",
        text=query,
        rid="guest_input",
        size=42,
        h=130,
        on_submit=typed,
        weight=1,
        icon="person_add",
    )
    hints = [
        list_item(name, email, on_tap=lambda e=email: add(e), icon="person", rid="guest_suggestion")
        for name, email in suggestions(ctx, query, chosen)
    ]
    rows = [
        list_item(
            email,
            icon="person",
            rid="guest_row",
            trailing=icon_button(
                "close", f"Remove {email}", lambda e=email: remove(e), rid="remove_guest", size=48
            ),
        )
        for email in chosen
    ]
    return column(row(box, pad=(48, 0, 48, 0)), *hints, *rows, rid="guests_section")


def prefill_guests(extras: dict[str, Any]) -> list[str]:
    """Intent.EXTRA_EMAIL of an insert intent: comma-separated addresses."""
    raw = extras.get("android.intent.extra.EMAIL", "")
    return [a.strip() for a in str(raw).split(",") if EMAIL.match(a.strip())]
