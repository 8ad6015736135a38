"""The mailbox as pure functions over the app's state: which threads a folder or a search shows, how dates
read in a list, snooze times, and what sending, replying and forwarding write into state."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from ..textmatch import contains_words, fold
from .content import ME, iso, senders, sent_record

Thread = dict[str, Any]
EMAIL = re.compile(r"^[^@\s,;]+@[^@\s,;]+\.[a-z]{2,}$", re.IGNORECASE)

# Folders of the drawer: key -> (label, icon). Labels the user made are folders "label:<name>".
FOLDERS: dict[str, tuple[str, str]] = {
    "inbox": ("Primary", "inbox"),
    "promotions": ("Promotions", "label"),
    "social": ("Social", "contacts"),
    "updates": ("Updates", "info"),
    "starred": ("Starred", "star"),
    "snoozed": ("Snoozed", "schedule"),
    "important": ("Important", "flag"),
    "sent": ("Sent", "send"),
    "drafts": ("Drafts", "edit"),
    "all": ("All mail", "mail"),
    "spam": ("Spam", "info"),
    "trash": ("Trash", "delete"),
}
DATE_FILTERS = {
    "": "Any time",
    "week": "Older than a week",
    "month": "Older than a month",
    "half_year": "Older than 6 months",
    "year": "Older than a year",
}
DATE_DAYS = {"week": 7, "month": 30, "half_year": 182, "year": 365}


# -- reading threads -------------------------------------------------------------------------------------


def latest(thread: Thread) -> dict[str, Any]:
    message: dict[str, Any] = thread["messages"][-1]
    return message


def from_me(message: dict[str, Any]) -> bool:
    sender: str = message["from"]["email"]
    return sender == ME[1]


def received(thread: Thread) -> bool:
    """Someone other than the user wrote in it (a thread only the user wrote lives in Sent, not the inbox)."""
    return not all(from_me(m) for m in thread["messages"])


def snoozed(thread: Thread, now: datetime) -> bool:
    until: str | None = thread.get("snoozed_until")
    return bool(until and datetime.fromisoformat(until) > now)


def in_inbox(thread: Thread, now: datetime) -> bool:
    return (received(thread) and not thread["archived"] and not thread["trashed"] and not thread["spam"]
            and not snoozed(thread, now))  # fmt: skip


def in_folder(thread: Thread, folder: str, now: datetime) -> bool:
    """Whether the drawer entry `folder` lists the thread."""
    if folder in ("spam", "trash"):
        return bool(thread["spam" if folder == "spam" else "trashed"])
    if thread["spam"] or thread["trashed"]:
        return False
    if folder == "inbox":
        return in_inbox(thread, now) and thread["category"] == "primary"
    if folder in ("promotions", "social", "updates"):
        return in_inbox(thread, now) and thread["category"] == folder
    if folder == "snoozed":
        return snoozed(thread, now)
    if folder == "sent":
        return any(from_me(m) for m in thread["messages"])
    if folder in ("starred", "important"):
        return bool(thread[folder])
    if folder.startswith("label:"):
        return folder.removeprefix("label:") in thread["labels"]
    return folder == "all"


def folder_threads(state: dict[str, Any], folder: str, now: datetime) -> list[Thread]:
    """Newest first, as every Gmail list."""
    return sorted((t for t in state["threads"] if in_folder(t, folder, now)), key=lambda t: latest(t)["date"],
                  reverse=True)  # fmt: skip


def folder_label(folder: str) -> str:
    return folder.removeprefix("label:") if folder.startswith("label:") else FOLDERS[folder][0]


def unread_count(state: dict[str, Any], folder: str, now: datetime) -> int:
    return sum(1 for t in state["threads"] if t["unread"] and in_folder(t, folder, now))


def find_thread(state: dict[str, Any], thread_id: str) -> Thread | None:
    return next((t for t in state["threads"] if t["id"] == thread_id), None)


def find_message(state: dict[str, Any], message_id: str) -> tuple[Thread, dict[str, Any]] | None:
    for thread in state["threads"]:
        for message in thread["messages"]:
            if message["id"] == message_id:
                return thread, message
    return None


def senders_line(thread: Thread) -> str:
    """'Chris Taylor, Emma Wilson 2' or 'me, Daniel Kim 2': first names of who wrote, then the count."""
    names: list[str] = []
    for message in thread["messages"]:
        name = "me" if from_me(message) else message["from"]["name"]
        if name not in names:
            names.append(name)
    if len(names) == 1 and names[0] == "me":
        names = [f"To: {display_name(latest(thread)['to'][0])}"]
    count = len(thread["messages"])
    return ", ".join(names) + (f" {count}" if count > 1 else "")


def face(thread: Thread) -> str:
    """Whose avatar a row shows: the latest other writer, or whom the user wrote to."""
    others = [m["from"]["name"] for m in thread["messages"] if not from_me(m)]
    return others[-1] if others else display_name(latest(thread)["to"][0])


def display_name(email: str) -> str:
    """The name Gmail shows for an address it knows, else the address."""
    for name, address in senders().values():
        if address == email:
            return name
    return email


def snippet(thread: Thread) -> str:
    body: str = latest(thread)["body"]
    return body.replace("\n", " ")


def has_attachment(thread: Thread) -> bool:
    return any(m["attachments"] for m in thread["messages"])


def list_date(stamp: str, now: datetime) -> str:
    """'9:41 AM' today, 'Jun 3' this year, '6/3/24' before."""
    moment = datetime.fromisoformat(stamp)
    if moment.date() == now.date():
        return moment.strftime("%I:%M %p").lstrip("0")
    if moment.year == now.year:
        return f"{moment.strftime('%b')} {moment.day}"
    return f"{moment.month}/{moment.day}/{moment.strftime('%y')}"


def long_date(stamp: str) -> str:
    """'Jun 3, 2025, 9:41 AM' in a message header."""
    moment = datetime.fromisoformat(stamp)
    return f"{moment.strftime('%b')} {moment.day}, {moment.year}, " + moment.strftime("%I:%M %p").lstrip("0")


def day_label(day: date) -> str:
    """'Tue, Jun 10'"""
    return f"{day.strftime('%a, %b')} {day.day}"


# -- search ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    """A search: free words plus Gmail operators (from:, to:, label:, has:attachment, is:unread,
    is:starred, in:) and the filter chips (the same fields, from the chips' dialogs)."""

    words: str = ""
    sender: str = ""
    recipient: str = ""
    label: str = ""
    older: str = ""
    attachment: bool = False
    unread: bool = False
    starred: bool = False
    place: str = ""


OPERATOR = re.compile(r'(\w+):("[^"]*"|\S+)')


def parse_query(text: str, **chips: Any) -> Query:
    """The typed text with its operators taken out, merged with the chips (a chip wins over an operator)."""
    found: dict[str, Any] = {}
    for key, value in OPERATOR.findall(text):
        value = value.strip('"')
        key = key.lower()
        if key == "from":
            found["sender"] = value
        elif key == "to":
            found["recipient"] = value
        elif key == "label":
            found["label"] = value
        elif key == "in":
            found["place"] = value.lower()
        elif key == "has" and value.lower() == "attachment":
            found["attachment"] = True
        elif key == "is" and value.lower() in ("unread", "starred"):
            found[value.lower()] = True
    words = OPERATOR.sub(" ", text).strip()
    found.update({k: v for k, v in chips.items() if v})
    return Query(words=" ".join(words.split()), **found)


def _people_text(addresses: list[str]) -> str:
    return " ".join(f"{display_name(a)} {a}" for a in addresses)


def _matches_person(pattern: str, text: str) -> bool:
    return contains_words(text, pattern) or fold(pattern) in fold(text)


def matches(thread: Thread, query: Query, now: datetime) -> bool:
    messages = thread["messages"]
    if query.place in ("spam", "trash"):
        if not in_folder(thread, query.place, now):
            return False
    elif (
        thread["spam"]
        or thread["trashed"]
        or (query.place and query.place in FOLDERS and not in_folder(thread, query.place, now))
    ):
        return False
    if query.sender and not any(
        _matches_person(query.sender, f"{m['from']['name']} {m['from']['email']}") for m in messages
    ):
        return False
    if query.recipient and not any(_matches_person(query.recipient, _people_text(m["to"] + m["cc"]))
                                   for m in messages):  # fmt: skip
        return False
    if query.label and not any(fold(query.label) == fold(label) for label in _labels_of(thread, now)):
        return False
    if query.older and latest(thread)["date"] > iso(now - timedelta(days=DATE_DAYS[query.older])):
        return False
    if (query.attachment and not has_attachment(thread)) or (query.unread and not thread["unread"]):
        return False
    if query.starred and not thread["starred"]:
        return False
    return not query.words or contains_words(_searchable(thread), query.words)


def _labels_of(thread: Thread, now: datetime) -> list[str]:
    """User labels plus the system ones a Label chip offers."""
    system = [
        FOLDERS[f][0]
        for f in ("inbox", "starred", "important", "sent", "snoozed")
        if in_folder(thread, f, now)
    ]
    labels: list[str] = thread["labels"]
    return labels + system + (["Inbox"] if in_inbox(thread, now) else [])


def _searchable(thread: Thread) -> str:
    parts = [thread["subject"], " ".join(thread["labels"])]
    for m in thread["messages"]:
        parts += [m["from"]["name"], m["from"]["email"], _people_text(m["to"] + m["cc"]), m["body"]]
        parts += [a["name"].replace("_", " ").replace(".", " ") for a in m["attachments"]]
    return " ".join(parts)


def search(state: dict[str, Any], query: Query, now: datetime) -> list[Thread]:
    if query == Query():
        return []
    hits = [t for t in state["threads"] if matches(t, query, now)]
    return sorted(hits, key=lambda t: latest(t)["date"], reverse=True)


# -- snooze -----------------------------------------------------------------------------------------------


def snooze_times(now: datetime) -> dict[str, datetime]:
    """The sheet's presets as Gmail computes them: later today 6 PM (while it is before 5 PM), tomorrow and
    next Monday at 8 AM, this weekend on Saturday at 8 AM (next week's Saturday on a weekend)."""
    morning = now.replace(hour=8, minute=0, second=0, microsecond=0)
    times: dict[str, datetime] = {}
    if now.hour < 17:
        times["later_today"] = now.replace(hour=18, minute=0, second=0, microsecond=0)
    times["tomorrow"] = morning + timedelta(days=1)
    days_to_saturday = (5 - now.weekday()) % 7 or 7
    times["weekend"] = morning + timedelta(days=days_to_saturday)
    times["next_week"] = morning + timedelta(days=7 - now.weekday())
    return times


def snooze(thread: Thread, until: datetime) -> None:
    thread["snoozed_until"] = iso(until)


# -- composing --------------------------------------------------------------------------------------------


def address_of(text: str, contacts: list[dict[str, str]]) -> str | None:
    """An address typed in a recipient field: an email as typed, or the one contact the name names."""
    text = text.strip().strip(",;")
    if EMAIL.match(text):
        return text.lower()
    named = [c for c in contacts if text and contains_words(f"{c['name']} {c['email']}", text)]
    return named[0]["email"] if len(named) == 1 else None


def suggestions(text: str, contacts: list[dict[str, str]]) -> list[dict[str, str]]:
    if not text.strip():
        return []
    return [c for c in contacts if contains_words(f"{c['name']} {c['email']}", text)
            or c["email"].startswith(text.strip().lower())][:5]  # fmt: skip


def reply_headers(state: dict[str, Any], message: dict[str, Any], mode: str) -> dict[str, Any]:
    """To, Cc and subject of a reply, a reply-all or a forward of `message`, as Gmail fills them."""
    thread = find_message(state, message["id"])
    subject = thread[0]["subject"] if thread else ""
    if mode == "forward":
        return {"to": [], "cc": [], "subject": _prefixed("Fwd: ", subject),
                "attachments": [a["name"] for a in message["attachments"]]}  # fmt: skip
    sender = message["from"]["email"]
    to = list(message["to"]) if sender == ME[1] else [sender]
    cc: list[str] = []
    if mode == "reply_all":
        everyone = [a for a in message["to"] + message["cc"] if a != ME[1] and a not in to]
        cc = list(dict.fromkeys(everyone))
    return {"to": to, "cc": cc, "subject": _prefixed("Re: ", subject), "attachments": []}


def _prefixed(prefix: str, subject: str) -> str:
    return subject if subject.lower().startswith(prefix.lower()) else prefix + subject


def send(
    state: dict[str, Any], draft: dict[str, Any], now: datetime, new_id: Callable[[], str]
) -> dict[str, Any]:
    """File a sent message: into the replied-to thread (or a new one) and onto the Sent list."""
    files = file_sizes(state)
    message = {
        "id": new_id(),
        "from": {"name": ME[0], "email": ME[1]},
        "to": draft["to"],
        "cc": draft["cc"],
        "bcc": draft["bcc"],
        "date": iso(now),
        "body": draft["body"],
        "attachments": [{"name": n, "size": files.get(n, 0)} for n in draft["attachments"]],
    }
    thread = find_thread(state, draft.get("thread_id") or "") if draft.get("in_reply_to") else None
    if thread is None:
        thread = {"id": message["id"], "subject": draft["subject"], "category": "primary", "labels": [],
                  "starred": False, "important": False, "unread": False, "snoozed_until": None,
                  "archived": True, "trashed": False, "spam": False, "messages": []}  # fmt: skip
        state["threads"].insert(0, thread)
    thread["messages"].append(message)
    record = sent_record(message, thread["id"], draft["subject"], in_reply_to=draft.get("in_reply_to"),
                         forward_of=draft.get("forward_of"), signature=state["settings"]["signature"])  # fmt: skip
    state["sent"].insert(0, record)
    state["drafts"] = [d for d in state["drafts"] if d["id"] != draft.get("id")]
    return record


def file_sizes(state: dict[str, Any]) -> dict[str, int]:
    """Sizes of every file compose can send: the phone's files and the attachments of received mail."""
    sizes = {f["name"]: f["size"] for f in state["files"]}
    for thread in state["threads"]:
        for message in thread["messages"]:
            sizes.update({a["name"]: a["size"] for a in message["attachments"]})
    return sizes


def address_label(address: str) -> str:
    """'me' for the user, else the name Gmail knows for the address."""
    return "me" if address == ME[1] else display_name(address)


def size_label(size: int) -> str:
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    return f"{max(1, round(size / 1000))} KB"
