"""Pieces every Contacts screen shares: the activities, the bottom navigation, avatars and contact rows."""

from __future__ import annotations

from collections.abc import Callable

from ...app import AppContext
from ...theme import theme
from ...ui import BUTTON, TEXT, Node
from ...widgets import bottom_nav, column, row, spacer, text
from .content import full_name
from .model import Contact

PEOPLE = "com.android.contacts.activities.PeopleActivity"
QUICK_CONTACT = "com.android.contacts.quickcontact.QuickContactActivity"
EDITOR = "com.android.contacts.activities.ContactEditorActivity"
TABS = (("Contacts", "contacts"), ("Favourites", "star"), ("Fix & manage", "settings"))
TAB_SCREENS = {"Contacts": "list", "Favourites": "favourites", "Fix & manage": "manage"}
AVATAR_COLOURS = ("#1a73e8", "#e8710a", "#188038", "#a142f4", "#d93025", "#007b83", "#c5221f", "#f29900")


def nav(ctx: AppContext, current: str) -> Node:
    """The bottom navigation of the three tab roots."""

    def select(label: str) -> None:
        if label != current:
            ctx.switch_tab(ctx.screen(TAB_SCREENS[label]))

    return bottom_nav(TABS, current, select)


def avatar(c: Contact, size: int = 110) -> Node:
    """The coloured initial a contact without a photo shows."""
    return Node(
        TEXT,
        text=full_name(c)[:1].upper(),
        w=size,
        h=size,
        radius=size // 2,
        size=size * 9 // 20,
        bold=True,
        fg="#ffffff",
        bg=AVATAR_COLOURS[c["id"] % len(AVATAR_COLOURS)],
        align="center",
        valign="center",
    )


def contact_row(c: Contact, on_tap: Callable[[], None], subtitle: str = "") -> Node:
    """One contact in a list: avatar and name (and a detail line when given)."""
    return row(
        avatar(c),
        text(full_name(c), "body", rid="contact_name", max_lines=1, weight=1)
        if not subtitle
        else column(
            text(full_name(c), "body", rid="contact_name", max_lines=1),
            text(subtitle, "caption", max_lines=1),
            weight=1,
            gap=4,
        ),
        on_tap=on_tap,
        rid="contact_row",
        desc=full_name(c),
        pad=(48, 22, 48, 22),
        gap=40,
        valign="center",
    )


def fab(label: str, on_tap: Callable[[], None], rid: str = "floating_action_button") -> Node:
    """An extended floating action button, at the bottom right of a tab."""
    t = theme()
    button = Node(
        BUTTON,
        text=label,
        icon="plus",
        on_tap=on_tap,
        rid=rid,
        bg=t.pale,
        fg=t.primary,
        bold=True,
        size=t.style("label").size,
        radius=40,
        h=150,
        pad=(44, 0, 48, 0),
        align="center",
    )
    return row(spacer(weight=1), button, pad=(0, 16, 40, 24))
