"""The address book a reset starts from: the shared people (apps/people, the same person in Gmail and
Calendar), then the acquaintances only Contacts knows and three duplicate entries for Merge & fix
(address_book.yaml).

Fixed data, not seeded: tasks name these people. Ids are Android's contact ids (small integers, in that
order), and every record is plain JSON so `cmd masbench state` reports it and a task's setup can patch it."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

from ..people import people

DATA = Path(__file__).with_name("address_book.yaml")
PHONE_TYPES = ("Mobile", "Work", "Home")
LABELS = ("Family", "Friends", "Gym", "Work", "Book club")


@cache
def _local() -> dict[str, list[dict[str, Any]]]:
    book: dict[str, list[dict[str, Any]]] = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return book


def _record(cid: int, person: dict[str, Any]) -> dict[str, Any]:
    phone, email = person["phone"], person["email"]
    return {
        "id": cid,
        "first": person["first"],
        "last": person["last"],
        "phones": [{"number": phone, "type": person["phone_type"].title()}] if phone else [],
        "emails": [{"address": email, "type": "Home"}] if email else [],
        "company": person["company"],
        "title": person["title"],
        "address": person["address"],
        "birthday": person["birthday"],
        "labels": list(person["labels"]),
        "starred": person["starred"],
    }


def address_book() -> dict[str, dict[str, Any]]:
    """Every contact, keyed by its id as text (so a setup patch can change or add one by id)."""
    everyone = [*people(), *_local()["extra"], *_local()["duplicates"]]
    return {str(i): _record(i, person) for i, person in enumerate(everyone, start=1)}


def full_name(contact: dict[str, Any]) -> str:
    return (
        " ".join(part for part in (contact.get("first", ""), contact.get("last", "")) if part) or "(No name)"
    )
