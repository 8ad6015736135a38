"""The seeded mailbox of Alex Morgan (alex.morgan@gmail.com), from mailbox.yaml: people and companies who
write, about sixty conversations over the last months (Primary, Promotions, Social and Updates), a few
already archived, snoozed, in Spam or Trash, two sent mails, a draft, the user's labels and the phone's
files to attach.

The conversations are fixed, so a task can name them; the seed moves the minute each one arrived, and
with it every id, as Gmail's ids grow with time. Ages count back from the phone's clock.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).with_name("mailbox.yaml")
ME = ("Alex Morgan", "alex.morgan@gmail.com")


@cache
def data() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return loaded


@cache
def contacts() -> dict[str, tuple[str, str]]:
    """People the user knows (compose suggests them), by key: (name, address)."""
    return {key: (name, email) for key, (name, email) in data()["contacts"].items()}


@cache
def senders() -> dict[str, tuple[str, str]]:
    """Everyone who appears in the mailbox, the user as `me`, by key: (name, address)."""
    companies = {key: (name, email) for key, (name, email) in data()["companies"].items()}
    return {**contacts(), **companies, "me": ME}


def user_labels() -> list[str]:
    return list(data()["labels"])


def contact_list() -> list[dict[str, str]]:
    return [{"name": name, "email": email} for name, email in contacts().values()]


def person(key: str) -> dict[str, str]:
    name, email = senders()[key]
    return {"name": name, "email": email}


def address(key: str) -> str:
    return senders()[key][1]


def hours(entry: dict[str, Any]) -> float:
    """An entry's age before the clock, given in `hours` or `days`."""
    age: float = entry["hours"] if "hours" in entry else entry["days"] * 24
    return age


class Ids:
    """Gmail-like hex ids that grow with time: the arrival time in milliseconds, then a counter."""

    def __init__(self) -> None:
        self.count = 0

    def at(self, when: datetime) -> str:
        self.count += 1
        return f"{int(when.timestamp() * 1000):011x}{self.count:05x}"


def iso(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


def make_mailbox(rng: random.Random, now: datetime) -> dict[str, Any]:
    """Threads, sent mail and the draft for this seed and clock."""
    ids = Ids()
    threads = [_thread(conv, rng, now, ids) for conv in data()["conversations"]]
    sent = []
    for mail in data()["sent"]:
        when = now - timedelta(hours=hours(mail), minutes=rng.randint(0, 40))
        message = _message(ids, when, {**mail, "from": "me"})
        thread = _blank_thread(message["id"], mail["subject"], "primary", [message])
        thread["archived"] = True  # a conversation only the user wrote is not in the inbox
        threads.append(thread)
        sent.append(sent_record(message, thread["id"], mail["subject"]))
    threads.sort(key=lambda t: t["messages"][-1]["date"], reverse=True)
    draft_time = now - timedelta(hours=30, minutes=rng.randint(0, 40))
    draft = data()["draft"]
    saved = {"id": ids.at(draft_time), "to": [address(k) for k in draft["to"]], "cc": [], "bcc": [],
             "subject": draft["subject"], "body": draft["body"], "attachments": [], "in_reply_to": None,
             "thread_id": None, "forward_of": None, "updated": iso(draft_time)}  # fmt: skip
    return {"threads": threads, "sent": sent, "drafts": [saved]}


def _thread(conv: dict[str, Any], rng: random.Random, now: datetime, ids: Ids) -> dict[str, Any]:
    jitter = timedelta(minutes=rng.randint(0, 40))
    messages = [_message(ids, now - timedelta(hours=hours(mail)) - jitter, mail) for mail in conv["mails"]]
    thread = _blank_thread(messages[0]["id"], conv["subject"], conv.get("category", "primary"), messages)
    thread.update(labels=list(conv.get("labels", [])), starred=conv.get("starred", False),
                  important=conv.get("important", False), unread=conv.get("unread", False))  # fmt: skip
    place = conv.get("place", "inbox")
    if place in ("archived", "spam", "trash"):
        thread[place] = True
    if place == "snoozed":
        until = (now + timedelta(days=conv["snooze_days"])).replace(hour=8, minute=0, second=0)
        thread["snoozed_until"] = iso(until)
    return thread


def _blank_thread(
    thread_id: str, subject: str, category: str, messages: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "id": thread_id, "subject": subject, "category": category, "labels": [], "starred": False,
        "important": False, "unread": False, "snoozed_until": None, "archived": False, "trashed": False,
        "spam": False, "messages": messages,
    }  # fmt: skip


def _message(ids: Ids, when: datetime, mail: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": ids.at(when),
        "from": person(mail["from"]),
        "to": [address(k) for k in mail.get("to", ["me"])],
        "cc": [address(k) for k in mail.get("cc", [])],
        "bcc": [],
        "date": iso(when),
        "body": mail["body"],
        "attachments": [{"name": n, "size": size} for n, size in mail.get("attachments", [])],
    }


def sent_record(message: dict[str, Any], thread_id: str, subject: str, **links: Any) -> dict[str, Any]:
    """What the Sent list keeps of a message the user sent: exact headers, the body as written, the
    signature Gmail added below it, and attachment names."""
    return {
        "id": message["id"],
        "thread_id": thread_id,
        "to": message["to"],
        "cc": message["cc"],
        "bcc": message["bcc"],
        "subject": subject,
        "body": message["body"],
        "signature": links.get("signature", ""),
        "attachments": [a["name"] for a in message["attachments"]],
        "in_reply_to": links.get("in_reply_to"),
        "forward_of": links.get("forward_of"),
        "date": message["date"],
    }


def phone_files() -> list[dict[str, Any]]:
    """The phone's Downloads and Documents, which compose can attach."""
    return [{"name": name, "size": size} for name, size in data()["files"]]
