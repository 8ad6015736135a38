"""The calendar a reset starts from: a month of events around the phone's clock (a weekday stand-up that
repeats, one-off meetings, lunches and appointments with people from apps/people, an all-day event), a
few Tasks, and Calendar's settings.

Which day and hour each one-off event falls on comes from the seeded rng; titles and people are fixed, so
a task can name them. Times are wall-clock times in the phone's zone (`settings.time_zone`)."""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from ..people import people

OWNER = "alex.morgan@gmail.com"
COLOURS = {  # Google Calendar's event colours
    "Tomato": "#d50000",
    "Flamingo": "#e67c73",
    "Tangerine": "#f4511e",
    "Banana": "#f6bf26",
    "Sage": "#33b679",
    "Basil": "#0b8043",
    "Peacock": "#039be5",
    "Blueberry": "#3f51b5",
    "Lavender": "#7986cb",
    "Grape": "#8e24aa",
    "Graphite": "#616161",
}
DEFAULT_COLOUR = "Peacock"
REMINDERS = {
    0: "At time of event",
    10: "10 minutes before",
    30: "30 minutes before",
    60: "1 hour before",
    120: "2 hours before",
    1440: "1 day before",
    10080: "1 week before",
}
# title, minutes long, location, how many guests from the people list
ONE_OFF = (
    ("Project review", 60, "Lumen Labs, Room 4B", 3),
    ("Dentist appointment", 45, "Lakeview Dental", 0),
    ("Haircut", 30, "Castro Cuts", 0),
    ("Book club", 90, "Bay Books, 501 Castro St", 2),
    ("1:1 with Liam", 30, "", 1),
    ("Coffee with Maya", 30, "Ritual Coffee Roasters", 1),
    ("Quarterly planning", 120, "Lumen Labs, Main hall", 4),
    ("Call with Chloé", 30, "", 1),
    ("Gym session", 60, "Windy City Fitness", 0),
    ("Parent-teacher meeting", 45, "Mission Elementary", 0),
    ("Car service", 60, "Fischer Auto Repair", 0),
    ("Design critique", 60, "Lumen Labs, Room 2A", 2),
    ("Lunch with Daniel", 60, "Tartine Manufactory", 1),
    ("Vet appointment", 30, "Mission Pet Hospital", 0),
)


def zone_of(settings: dict[str, Any]) -> ZoneInfo:
    return ZoneInfo(settings.get("time_zone", "UTC"))


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def event(
    eid: int,
    summary: str,
    start: datetime | date,
    end: datetime | date,
    *,
    location: str = "",
    guests: list[str] | None = None,
    rrule: str = "",
    reminders: list[int] | None = None,
) -> dict[str, Any]:
    """One event record: `summary` is its title (the Google Calendar API's name for it); timed events
    carry ISO date-times with the zone's offset, all-day ones dates (`end` is the last day, inclusive)."""
    return {
        "id": eid,
        "summary": summary,
        "start": iso(start) if isinstance(start, datetime) else start.isoformat(),
        "end": iso(end) if isinstance(end, datetime) else end.isoformat(),
        "all_day": not isinstance(start, datetime),
        "location": location,
        "description": "",
        "guests": guests or [],
        "reminders": [30] if reminders is None else reminders,
        "colour": "",
        "rrule": rrule,
    }


def seed_events(rng: random.Random, now: datetime, zone: ZoneInfo) -> dict[str, dict[str, Any]]:
    """A month of events around `now`, keyed by id as text (a task's setup can add or change one by id)."""
    today = now.astimezone(zone).date()
    monday = today - timedelta(days=today.weekday())
    emails = [p["email"] for p in people()]

    def at(day: date, hour: int, minute: int = 0) -> datetime:
        return datetime.combine(day, time(hour, minute), zone)

    events = [
        event(
            1,
            "Stand-up",
            at(monday - timedelta(days=21), 9, 30),
            at(monday - timedelta(days=21), 9, 45),
            location="Google Meet",
            rrule="FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            reminders=[10],
            guests=sorted(e for e in emails if e.endswith("@lumenlabs.io")),
        ),
        event(
            2,
            "Farmers market",
            monday + timedelta(days=5),
            monday + timedelta(days=5),
            location="Ferry Building",
            reminders=[],
        ),
        event(
            3,
            "Weekend in Tahoe",
            monday + timedelta(days=12),
            monday + timedelta(days=13),
            location="South Lake Tahoe, CA",
            reminders=[1440],
        ),
    ]
    for title, minutes, location, guest_count in ONE_OFF:
        day = monday + timedelta(days=rng.randrange(-14, 28))
        while day.weekday() > 4:
            day += timedelta(days=1)
        start = at(day, rng.choice((8, 10, 11, 13, 14, 15, 16, 17)), rng.choice((0, 30)))
        events.append(
            event(
                len(events) + 1,
                title,
                start,
                start + timedelta(minutes=minutes),
                location=location,
                guests=sorted(rng.sample(emails, guest_count)),
            )
        )
    return {str(e["id"]): e for e in events}


def seed_tasks(now: datetime, zone: ZoneInfo) -> dict[str, dict[str, Any]]:
    today = now.astimezone(zone).date()
    tasks = [
        ("Renew passport", today + timedelta(days=6)),
        ("Pay water bill", today + timedelta(days=2)),
        ("Buy a birthday gift", today + timedelta(days=10)),
    ]
    return {
        str(i): {"id": i, "title": title, "date": day.isoformat(), "done": False}
        for i, (title, day) in enumerate(tasks, start=1)
    }
