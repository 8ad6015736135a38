"""Google Contacts stand-in (`com.google.android.contacts`): the manifest, theme, screens and dialogs,
the state, intents and its content provider.

Intents follow the real app (deeplinks.json "contacts"): LIST_DEFAULT and LIST_STARRED open the list and
the favourites, VIEW `content://com.android.contacts/contacts/<id>` (or the legacy
`content://contacts/people/<id>`) a contact's card, and INSERT of `vnd.android.cursor.dir/contact` (or
`raw_contact`, `person`) the create form filled from ContactsContract.Intents.Insert extras, unsaved."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_DEFAULT, Intent, IntentFilter
from ...selection import select
from ...theme import Theme
from . import browse, detail, editor, model
from .common import EDITOR, PEOPLE, QUICK_CONTACT
from .content import LABELS, address_book, full_name

ACTION_INSERT = "android.intent.action.INSERT"
LIST_STARRED = "com.android.contacts.action.LIST_STARRED"
LIST_DEFAULT = "com.android.contacts.action.LIST_DEFAULT"
INSERT_TYPES = (
    "vnd.android.cursor.dir/contact",
    "vnd.android.cursor.dir/raw_contact",
    "vnd.android.cursor.dir/person",
)
AUTHORITIES = ("com.android.contacts", "contacts")
# ContactsContract.CommonDataKinds type codes, as the provider stores them in data2.
PHONE_CODES = {"Home": 1, "Mobile": 2, "Work": 3}
EMAIL_CODES = {"Home": 1, "Work": 2}
MIME = "vnd.android.cursor.item/"


def _split_name(name: str) -> tuple[str, str]:
    parts = name.split()
    return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else (name.strip(), "")


def _phone_type(value: Any) -> str:
    """Insert.PHONE_TYPE: a type code (1 home, 2 mobile, 3 work) or a label."""
    by_code = {str(code): name for name, code in PHONE_CODES.items()}
    text = str(value).strip()
    return by_code.get(text) or next((n for n in PHONE_CODES if n.casefold() == text.casefold()), "Mobile")


def prefill(extras: dict[str, Any]) -> dict[str, Any]:
    """The create form's starting values from ContactsContract.Intents.Insert extras."""
    first, last = _split_name(str(extras.get("name", "")))
    phones = [
        {"number": str(extras[key]), "type": _phone_type(extras.get(f"{key}_type", "2"))}
        for key in ("phone", "secondary_phone", "tertiary_phone")
        if extras.get(key)
    ]
    emails = [
        {"address": str(extras[key]), "type": "Home"}
        for key in ("email", "secondary_email")
        if extras.get(key)
    ]
    return {
        "first": first,
        "last": last,
        "company": str(extras.get("company", "")),
        "title": str(extras.get("job_title", "")),
        "phones": phones,
        "emails": emails,
        "address": str(extras.get("postal", "")),
    }


def _contact_id(uri: str) -> int | None:
    """The id at the end of a contacts URI, or None for the directory itself."""
    tail = urlsplit(uri).path.rstrip("/").rsplit("/", 1)[-1]
    return int(tail) if tail.isdigit() else None


class ContactsApp(App):
    package = identity("contacts").package
    label = identity("contacts").label
    version_name = "4.39.23.681230429"
    version_code = 4392368
    providers = AUTHORITIES
    activities = (
        Activity(
            PEOPLE,
            "list",
            (
                LAUNCHER_FILTER,
                IntentFilter(actions=(LIST_DEFAULT, LIST_STARRED)),
                IntentFilter(
                    actions=(ACTION_VIEW,),
                    categories=(CATEGORY_DEFAULT,),
                    schemes=("content",),
                    hosts=AUTHORITIES,
                    path_patterns=("/contacts", "/contacts/*", "/people", "/people/*"),
                ),
            ),
        ),
        Activity(QUICK_CONTACT, "detail", exported=False),
        Activity(
            EDITOR,
            "editor",
            (
                IntentFilter(actions=(ACTION_INSERT,), mime_types=INSERT_TYPES),
                IntentFilter(
                    actions=(ACTION_INSERT,),
                    schemes=("content",),
                    hosts=AUTHORITIES,
                    path_patterns=("/contacts", "/raw_contacts", "/people"),
                ),
            ),
        ),
    )
    theme = Theme(primary="#0b57d0", accent="#0b57d0", pale="#d3e3fd", background="#ffffff")
    icon_bg = "#1a73e8"
    icon_glyph = "person"
    screens = {
        "list": browse.build_list,
        "favourites": browse.build_favourites,
        "manage": browse.build_manage,
        "merge": browse.build_merge,
        "labels": browse.build_labels,
        "label": browse.build_label,
        "detail": detail.build_detail,
        "editor": editor.build_editor,
    }
    dialogs = {
        "create_label": browse.create_label_dialog,
        "contact_menu": detail.contact_menu,
        "delete_contact": detail.delete_dialog,
        "phone_type": editor.phone_type_dialog,
    }
    screen_activities = {
        **dict.fromkeys(("list", "favourites", "manage", "merge", "labels", "label"), PEOPLE),
        "detail": QUICK_CONTACT,
        "editor": EDITOR,
    }

    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        book = address_book()
        return {
            "contacts": book,
            "labels": list(LABELS),
            "next_id": max(int(cid) for cid in book) + 1,
            "interactions": [],
        }

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """Contacts as a list ordered by id (each with its id, and its numbers by type in international
        form for checks), the labels and what Call/Text/Email started."""
        return {
            "contacts": [
                {**c, "phone_numbers": model.phone_numbers(c)}
                for c in sorted(state["contacts"].values(), key=lambda c: c["id"])
            ],
            "labels": state["labels"],
            "interactions": state["interactions"],
        }

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        if intent.action == ACTION_INSERT:
            return ctx.screen("editor", activity=EDITOR, prefill=prefill(intent.extras))
        if intent.action == LIST_STARRED:
            return ctx.screen("favourites", activity=PEOPLE)
        if intent.action == ACTION_VIEW and intent.data:
            cid = _contact_id(intent.data)
            if cid is None:
                return ctx.screen("list", activity=PEOPLE)
            if str(cid) not in ctx.state["contacts"]:
                return None  # the real app says the contact does not exist and closes
            return ctx.screen("detail", activity=QUICK_CONTACT, id=cid)
        return ctx.screen("list", activity=PEOPLE)

    # -- content provider ------------------------------------------------------------------------------
    def query(self, ctx: AppContext, uri: str, where: str | None, sort: str | None) -> list[dict[str, Any]]:
        path = urlsplit(uri).path.strip("/").split("/")
        book = sorted(ctx.state["contacts"].values(), key=lambda c: c["id"])
        if path[0] in ("contacts", "people"):
            rows = [contact_row(c) for c in book]
            if len(path) > 1:
                rows = [r for r in rows if str(r["_id"]) == path[1]]
        elif path[0] == "data":
            rows = [r for c in book for r in data_rows(c)]
            kinds = {"phones": "phone_v2", "emails": "email_v2", "postals": "postal-address_v2"}
            if len(path) > 1:
                if path[1] not in kinds:
                    raise ValueError(f"Unknown URI {uri}")
                rows = [r for r in rows if r["mimetype"] == MIME + kinds[path[1]]]
        else:
            raise ValueError(f"Unknown URI {uri}")
        return select(rows, where, sort)


def contact_row(c: dict[str, Any]) -> dict[str, Any]:
    """A row of ContactsContract.Contacts."""
    return {
        "_id": c["id"],
        "display_name": full_name(c),
        "starred": int(c["starred"]),
        "has_phone_number": int(bool(c["phones"])),
    }


def data_rows(c: dict[str, Any]) -> list[dict[str, Any]]:
    """The contact's rows of ContactsContract.Data: name, phones, emails, organisation, address, birthday."""
    items: list[tuple[str, Any, Any, Any]] = [("name", full_name(c), c["first"], c["last"])]
    items += [("phone_v2", p["number"], PHONE_CODES.get(p["type"], 7), None) for p in c["phones"]]
    items += [("email_v2", e["address"], EMAIL_CODES.get(e["type"], 3), None) for e in c["emails"]]
    if c["company"] or c["title"]:
        items.append(("organization", c["company"], 1, None))
    if c["address"]:
        items.append(("postal-address_v2", c["address"], 1, None))
    if c["birthday"]:
        items.append(("contact_event", c["birthday"], 3, None))
    return [
        {
            "_id": c["id"] * 100 + n,
            "contact_id": c["id"],
            "raw_contact_id": c["id"],
            "mimetype": MIME + kind,
            "display_name": full_name(c),
            "data1": data1,
            "data2": data2,
            "data3": data3,
        }
        for n, (kind, data1, data2, data3) in enumerate(items, start=1)
    ]
