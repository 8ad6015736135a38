"""What Contacts does to its state, as pure functions over the state dict: listing and searching, saving
an edited contact, starring, deleting, labels, and finding and merging duplicates.

State: `contacts` maps the id (as text) to a record (first, last, phones [{number, type}], emails
[{address, type}], company, title, address, birthday ISO or "", labels, starred); `labels` is the list of
label names; `next_id` the id the next new contact gets; `interactions` what Call/Text/Email started."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from ..textmatch import fold
from .content import full_name

Contact = dict[str, Any]
BIRTHDAY_FORMATS = ("%Y-%m-%d", "%m/%d/%Y", "%B %d, %Y", "%b %d, %Y", "%B %d %Y", "%b %d %Y", "%d %B %Y")


def contacts(state: dict[str, Any]) -> list[Contact]:
    """Every contact, in the list's order: by first name, then last name, then id."""
    return sorted(state["contacts"].values(), key=lambda c: (full_name(c).casefold(), c["id"]))


def contact(state: dict[str, Any], cid: int) -> Contact | None:
    found: Contact | None = state["contacts"].get(str(cid))
    return found


def digits(number: str) -> str:
    return re.sub(r"\D", "", number)


def e164(number: str) -> str:
    """A number in international form, reading 10-digit numbers as US ones (the phone's region)."""
    d = digits(number)
    if len(d) == 10 and not number.strip().startswith("+"):
        d = "1" + d
    return "+" + d


def phone_numbers(c: Contact) -> dict[str, list[str]]:
    """The contact's numbers by type, in international form, however they were typed."""
    found: dict[str, list[str]] = {}
    for p in c["phones"]:
        found.setdefault(p["type"], []).append(e164(p["number"]))
    return {kind: sorted(numbers) for kind, numbers in found.items()}


def matches(c: Contact, query: str) -> bool:
    """The search box's test: a name, email or company containing the text, or a phone containing its digits."""
    q = fold(query.strip())
    if not q:
        return True
    texts = [full_name(c), c.get("company", ""), *(e["address"] for e in c["emails"])]
    if any(q in fold(t) for t in texts):
        return True
    wanted = digits(q)
    return bool(wanted) and any(wanted in digits(p["number"]) for p in c["phones"])


def search(state: dict[str, Any], query: str) -> list[Contact]:
    return [c for c in contacts(state) if matches(c, query)]


def section_letter(c: Contact) -> str:
    """The A-Z header a contact sorts under (`#` for names that do not start with a letter)."""
    first = full_name(c)[:1].upper()
    return first if first.isalpha() else "#"


def parse_birthday(text: str) -> str | None:
    """An ISO date from what a person types (2025-06-12, 06/12/1990, June 12, 1990); None if unreadable."""
    value = " ".join(text.replace(",", ", ").split()).replace(" ,", ",")
    for fmt in BIRTHDAY_FORMATS:
        try:
            return datetime.strptime(value, fmt).date().isoformat()
        except ValueError:
            continue
    return None


def birthday_label(iso: str) -> str:
    return date.fromisoformat(iso).strftime("%B %-d, %Y") if iso else ""


def save(state: dict[str, Any], cid: int | None, fields: dict[str, Any]) -> int:
    """Create (cid None) or update a contact from the form's fields; returns its id."""
    if cid is None:
        cid = state["next_id"]
        state["next_id"] = cid + 1
        state["contacts"][str(cid)] = {"id": cid, "starred": False}
    record = state["contacts"][str(cid)]
    record.update(fields)
    for label in record["labels"]:
        if label not in state["labels"]:
            state["labels"].append(label)
    return cid


def delete(state: dict[str, Any], cid: int) -> None:
    state["contacts"].pop(str(cid), None)


def toggle_star(state: dict[str, Any], cid: int) -> bool:
    record = state["contacts"][str(cid)]
    now_starred = not record["starred"]
    record["starred"] = now_starred
    return now_starred


def starred(state: dict[str, Any]) -> list[Contact]:
    return [c for c in contacts(state) if c["starred"]]


def in_label(state: dict[str, Any], label: str) -> list[Contact]:
    return [c for c in contacts(state) if label in c["labels"]]


def add_label(state: dict[str, Any], name: str) -> bool:
    """Create an empty label; False if the name is blank or taken."""
    name = " ".join(name.split())
    if not name or name.casefold() in (label.casefold() for label in state["labels"]):
        return False
    state["labels"].append(name)
    return True


def duplicates(state: dict[str, Any]) -> list[tuple[int, int]]:
    """Merge suggestions: pairs of contacts with the same name, the older entry first."""
    by_name: dict[str, list[int]] = {}
    for c in sorted(state["contacts"].values(), key=lambda c: c["id"]):
        by_name.setdefault(full_name(c).casefold(), []).append(c["id"])
    return [(ids[0], other) for ids in by_name.values() for other in ids[1:]]


def merge(state: dict[str, Any], keep: int, other: int) -> None:
    """Fold `other` into `keep`: every phone, email and label of both (no repeats), empty fields filled,
    starred if either was; `other` is gone afterwards, as Merge does on Android."""
    a, b = state["contacts"][str(keep)], state["contacts"].pop(str(other))
    known_numbers = {digits(p["number"]) for p in a["phones"]}
    a["phones"] += [p for p in b["phones"] if digits(p["number"]) not in known_numbers]
    known_emails = {e["address"].casefold() for e in a["emails"]}
    a["emails"] += [e for e in b["emails"] if e["address"].casefold() not in known_emails]
    a["labels"] += [label for label in b["labels"] if label not in a["labels"]]
    for key in ("company", "title", "address", "birthday"):
        a[key] = a[key] or b[key]
    a["starred"] = a["starred"] or b["starred"]
