"""The address book a reset starts from: the shared people (apps/people, the same person in Gmail and
Calendar), a few more acquaintances only Contacts knows, and three duplicate entries for Merge & fix.

Fixed data, not seeded: tasks name these people. Ids are Android's contact ids (small integers), and every
record is plain JSON so `cmd masbench state` reports it and a task's setup can patch it."""

from __future__ import annotations

from typing import Any

from ..people import people

PHONE_TYPES = ("Mobile", "Work", "Home")
LABELS = ("Family", "Friends", "Gym", "Work", "Book club")

# first, last, phone, phone type, email, company, title, address, birthday, labels, starred
EXTRA: tuple[tuple[Any, ...], ...] = (
    (
        "Sam",
        "Lee",
        "+1 415-555-0161",
        "Mobile",
        "sam.lee@gmail.com",
        "",
        "",
        "",
        "1990-06-15",
        ["Friends"],
        False,
    ),
    (
        "Aisha",
        "Bello",
        "+1 415-555-0102",
        "Mobile",
        "aisha.bello@gmail.com",
        "",
        "",
        "",
        "1995-02-03",
        [],
        False,
    ),
    (
        "Carlos",
        "Mendoza",
        "+1 415-555-0123",
        "Work",
        "carlos@mendozaplumbing.com",
        "Mendoza Plumbing",
        "Plumber",
        "77 Florida St, San Francisco, CA 94110",
        "",
        [],
        False,
    ),
    (
        "Fatima",
        "Zahra",
        "+1 628-555-0139",
        "Mobile",
        "fatima.zahra@gmail.com",
        "",
        "",
        "",
        "1992-12-01",
        ["Book club"],
        False,
    ),
    (
        "George",
        "Papadopoulos",
        "+1 415-555-0150",
        "Home",
        "george.p@gmail.com",
        "",
        "",
        "",
        "1958-04-09",
        ["Family"],
        False,
    ),
    (
        "Hiro",
        "Sato",
        "+1 415-555-0166",
        "Work",
        "hiro.sato@lumenlabs.io",
        "Lumen Labs",
        "Engineer",
        "",
        "",
        ["Work"],
        False,
    ),
    (
        "Ines",
        "Ferreira",
        "+1 628-555-0171",
        "Mobile",
        "ines.ferreira@gmail.com",
        "",
        "",
        "",
        "1994-09-17",
        ["Book club"],
        False,
    ),
    ("Jack", "Thompson", "+1 415-555-0175", "Mobile", "jack.thompson@gmail.com", "", "", "", "", [], False),
    (
        "Kavya",
        "Iyer",
        "+1 415-555-0183",
        "Mobile",
        "kavya.iyer@gmail.com",
        "",
        "",
        "",
        "1997-01-25",
        ["Friends"],
        False,
    ),
    (
        "Leo",
        "Fischer",
        "+1 415-555-0187",
        "Work",
        "leo@fischerauto.com",
        "Fischer Auto Repair",
        "Mechanic",
        "1600 Folsom St, San Francisco, CA 94103",
        "",
        [],
        False,
    ),
    (
        "Mia",
        "Rodriguez",
        "+1 415-555-0193",
        "Mobile",
        "mia.rodriguez@gmail.com",
        "",
        "",
        "",
        "1999-07-04",
        [],
        False,
    ),
    (
        "Nina",
        "Kowalski",
        "+1 415-555-0196",
        "Home",
        "nina.kowalski@gmail.com",
        "",
        "",
        "",
        "1988-03-08",
        ["Gym"],
        False,
    ),
    (
        "Omar",
        "Haddad",
        "+1 628-555-0108",
        "Mobile",
        "omar.haddad@gmail.com",
        "",
        "",
        "",
        "1991-10-30",
        [],
        False,
    ),
    (
        "Paula",
        "Jensen",
        "+1 415-555-0111",
        "Work",
        "paula.jensen@lumenlabs.io",
        "Lumen Labs",
        "Office Manager",
        "",
        "",
        ["Work"],
        False,
    ),
    (
        "Quinn",
        "Taylor",
        "+1 415-555-0114",
        "Mobile",
        "quinn.taylor@gmail.com",
        "",
        "",
        "",
        "1996-05-11",
        [],
        False,
    ),
    (
        "Rosa",
        "Alvarez",
        "+1 415-555-0119",
        "Mobile",
        "rosa.alvarez@gmail.com",
        "",
        "",
        "",
        "1993-08-23",
        ["Book club"],
        False,
    ),
)
# Second entries of people already in the book, as imports from a SIM or an old phone leave them.
DUPLICATES: tuple[tuple[Any, ...], ...] = (
    (
        "Sam",
        "Lee",
        "+1 415-555-0162",
        "Work",
        "sam.lee@lumenlabs.io",
        "Lumen Labs",
        "Analyst",
        "",
        "",
        [],
        False,
    ),
    ("Daniel", "Kim", "+1 415-555-0179", "Work", "daniel.kim@outlook.com", "", "", "", "", [], False),
    ("Olivia", "Brown", "+1 415-555-0155", "Mobile", "olivia@baybooks.com", "", "", "", "", [], False),
)


def _record(cid: int, fields: tuple[Any, ...]) -> dict[str, Any]:
    first, last, phone, phone_type, email, company, title, address, birthday, labels, starred = fields
    return {
        "id": cid,
        "first": first,
        "last": last,
        "phones": [{"number": phone, "type": phone_type}] if phone else [],
        "emails": [{"address": email, "type": "Home"}] if email else [],
        "company": company,
        "title": title,
        "address": address,
        "birthday": birthday,
        "labels": list(labels),
        "starred": starred,
    }


def address_book() -> dict[str, dict[str, Any]]:
    """Every contact, keyed by its id as text (so a setup patch can change or add one by id)."""
    shared = [
        (
            p["first"],
            p["last"],
            p["phone"],
            p["phone_type"].title(),
            p["email"],
            p["company"],
            p["title"],
            p["address"],
            p["birthday"],
            p["labels"],
            p["starred"],
        )
        for p in people()
    ]
    records = [_record(i, fields) for i, fields in enumerate([*shared, *EXTRA, *DUPLICATES], start=1)]
    return {str(r["id"]): r for r in records}


def full_name(contact: dict[str, Any]) -> str:
    return (
        " ".join(part for part in (contact.get("first", ""), contact.get("last", "")) if part) or "(No name)"
    )
