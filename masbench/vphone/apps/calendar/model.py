"""What Calendar does to its state, as pure functions: which events fall on a day (repeat rules
included), how times and repeats read, saving and deleting events and tasks, searching.

State: `events` and `tasks` map an id (as text) to a record (content.event / seed_tasks), `settings`
holds the time zone, week start, default duration and default notifications, `view` the chosen view."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Any

from ..textmatch import fold
from .content import REMINDERS, zone_of

Event = dict[str, Any]
EVENT_FIELDS = ("id", "summary", "start", "end", "all_day", "location", "description", "guests", "reminders",
                "colour", "rrule")  # fmt: skip
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
FREQ_WORDS = {"DAILY": "Daily", "WEEKLY": "Weekly", "MONTHLY": "Monthly", "YEARLY": "Annually"}


def start_of(ev: Event) -> datetime | date:
    return date.fromisoformat(ev["start"]) if ev["all_day"] else datetime.fromisoformat(ev["start"])


def end_of(ev: Event) -> datetime | date:
    return date.fromisoformat(ev["end"]) if ev["all_day"] else datetime.fromisoformat(ev["end"])


def first_day(ev: Event) -> date:
    start = start_of(ev)
    return start.date() if isinstance(start, datetime) else start


def last_day(ev: Event) -> date:
    end = end_of(ev)
    if isinstance(end, datetime):
        return (end - timedelta(microseconds=1)).date() if end.time() == time(0) else end.date()
    return end


def rule(rrule: str) -> dict[str, str]:
    """RRULE parts (`FREQ=WEEKLY;BYDAY=TU;COUNT=5` -> {FREQ: WEEKLY, BYDAY: TU, COUNT: 5})."""
    return dict(part.split("=", 1) for part in rrule.split(";") if "=" in part)


def _candidate(parts: dict[str, str], first: date, day: date) -> bool:
    """Whether the rule's pattern (frequency and weekdays) includes `day`, ignoring COUNT."""
    freq = parts.get("FREQ")
    if freq == "DAILY":
        return True
    if freq == "WEEKLY":
        days = parts.get("BYDAY", WEEKDAYS[first.weekday()]).split(",")
        return WEEKDAYS[day.weekday()] in days
    if freq == "MONTHLY":
        return day.day == first.day
    if freq == "YEARLY":
        return (day.month, day.day) == (first.month, first.day)
    return False


def occurs_on(ev: Event, day: date) -> bool:
    """Whether the event shows on `day`: within its span, or on a day its repeat rule gives."""
    first = first_day(ev)
    if not ev["rrule"]:
        return first <= day <= last_day(ev)
    if day < first:
        return False
    parts = rule(ev["rrule"])
    if not _candidate(parts, first, day):
        return False
    if "COUNT" in parts:
        count = sum(
            1 for n in range((day - first).days + 1) if _candidate(parts, first, first + timedelta(n))
        )
        return count <= int(parts["COUNT"])
    return True


def sort_key(ev: Event) -> tuple[int, str, int]:
    return (0 if ev["all_day"] else 1, ev["start"][11:] if not ev["all_day"] else "", ev["id"])


def on_day(state: dict[str, Any], day: date) -> list[Event]:
    """The events shown on `day`: all-day ones first, then by time of day."""
    return sorted((ev for ev in state["events"].values() if occurs_on(ev, day)), key=sort_key)


def today(state: dict[str, Any], now: datetime) -> date:
    return now.astimezone(zone_of(state["settings"])).date()


def clock(t: time) -> str:
    return f"{t.hour:02d}:{t.minute:02d}"


def time_range(ev: Event) -> str:
    """How a list shows the event's time: `All day`, or `10:00 to 10:45` (an en dash between)."""
    if ev["all_day"]:
        return "All day"
    start, end = datetime.fromisoformat(ev["start"]), datetime.fromisoformat(ev["end"])
    return f"{clock(start.time())} \u2013 {clock(end.time())}"


def long_date(day: date) -> str:
    return f"{DAY_NAMES[day.weekday()]}, {day.strftime('%B')} {day.day}, {day.year}"


def when(ev: Event, day: date | None = None) -> str:
    """The detail page's date line: the occurrence's day (or the first) and its time or span."""
    shown = day or first_day(ev)
    if ev["all_day"]:
        last = last_day(ev)
        span = f"{long_date(shown)} \u2013 {long_date(last)}" if last != first_day(ev) else long_date(shown)
        return span
    return f"{long_date(shown)} \u00b7 {time_range(ev)}"


def repeat_label(rrule: str, first: date) -> str:
    """The repeat rule as the form and the detail page say it."""
    if not rrule:
        return "Does not repeat"
    parts = rule(rrule)
    word = FREQ_WORDS.get(parts.get("FREQ", ""), "Custom")
    if parts.get("FREQ") == "WEEKLY":
        days = [
            DAY_NAMES[WEEKDAYS.index(d)] for d in parts.get("BYDAY", WEEKDAYS[first.weekday()]).split(",")
        ]
        label = (
            "Every weekday"
            if len(days) == 5 and "Saturday" not in days and "Sunday" not in days
            else (f"Weekly on {', '.join(days)}")
        )
    else:
        label = word
    if "COUNT" in parts:
        label += f", {parts['COUNT']} times"
    return label


def reminder_label(minutes: int) -> str:
    if minutes in REMINDERS:
        return REMINDERS[minutes]
    return f"{minutes} minutes before"


def parse_time(text: str) -> time | None:
    """A time from what a person types: 10:00, 9:30 am, 3 PM, 15:45, 1530."""
    m = re.fullmatch(r"\s*(\d{1,2})(?::?(\d{2}))?\s*([ap])?\.?\s*m?\.?\s*", text.lower())
    if m is None:
        return None
    hour, minute = int(m[1]), int(m[2] or 0)
    if m[3]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if m[3] == "p" else 0)
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)


def save_event(state: dict[str, Any], eid: int | None, fields: dict[str, Any]) -> int:
    """Create (eid None) or update an event; returns its id."""
    if eid is None:
        eid = state["next_event_id"]
        state["next_event_id"] = eid + 1
    merged = {"description": "", "colour": "", **state["events"].get(str(eid), {}), **fields, "id": eid}
    state["events"][str(eid)] = {key: merged[key] for key in EVENT_FIELDS}
    return eid


def delete_event(state: dict[str, Any], eid: int) -> None:
    state["events"].pop(str(eid), None)


def save_task(state: dict[str, Any], title: str, day: date) -> int:
    tid: int = state["next_task_id"]
    state["next_task_id"] = tid + 1
    state["tasks"][str(tid)] = {"id": tid, "title": title, "date": day.isoformat(), "done": False}
    return tid


def search(state: dict[str, Any], query: str) -> list[Event]:
    """Events whose title, location or description contains the text, soonest first."""
    q = fold(query.strip())
    if not q:
        return []
    hits = [
        ev
        for ev in state["events"].values()
        if any(q in fold(str(ev[k])) for k in ("summary", "location", "description"))
    ]
    return sorted(hits, key=lambda ev: (first_day(ev), sort_key(ev)))


def week_start(state: dict[str, Any], day: date) -> date:
    """The first day of `day`'s week under the Start of the week setting."""
    first = DAY_NAMES.index(state["settings"]["week_start"])
    return day - timedelta(days=(day.weekday() - first) % 7)


def shift_month(day: date, months: int) -> date:
    """The first of the month `months` away."""
    total = day.year * 12 + day.month - 1 + months
    return date(total // 12, total % 12 + 1, 1)
