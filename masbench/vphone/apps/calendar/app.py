"""Google Calendar stand-in (`com.google.android.calendar`): the manifest, theme, screens and dialogs,
the seeded state, intents and the calendar content provider.

Intents follow CalendarContract as the real app handles them (deeplinks.json "calendar"): INSERT of
`vnd.android.cursor.item/event` (or `dir/event`, or data `content://com.android.calendar/events`) opens
the event form filled from `title`, `beginTime`/`endTime` (epoch ms), `eventLocation`, `description`,
`allDay`, `rrule` and `android.intent.extra.EMAIL`, unsaved; VIEW `content://com.android.calendar/time/<ms>`
opens that date, VIEW `content://com.android.calendar/events/<id>` the event."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from urllib.parse import urlsplit

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...selection import select
from ...theme import Theme
from . import editor, event, extras, guests, model, pickers, views
from .common import ALL_IN_ONE, EVENT_EDIT, EVENT_INFO
from .content import OWNER, seed_events, seed_tasks, zone_of

ACTION_INSERT = "android.intent.action.INSERT"
ACTION_EDIT = "android.intent.action.EDIT"
AUTHORITY = "com.android.calendar"
EVENT_TYPES = ("vnd.android.cursor.item/event", "vnd.android.cursor.dir/event")
CATEGORIES = (CATEGORY_DEFAULT, CATEGORY_BROWSABLE)


def _content(paths: tuple[str, ...], actions: tuple[str, ...] = (ACTION_VIEW,)) -> IntentFilter:
    return IntentFilter(
        actions=actions, categories=CATEGORIES, schemes=("content",), hosts=(AUTHORITY,), path_patterns=paths
    )


def prefill(extras: dict[str, Any]) -> dict[str, Any]:
    """The event form's starting values from CalendarContract insert extras."""
    fill: dict[str, Any] = {}
    for extra, key in (
        ("title", "summary"),
        ("eventLocation", "location"),
        ("description", "description"),
        ("rrule", "rrule"),
    ):
        if extras.get(extra) is not None:
            fill[key] = str(extras[extra])
    for extra, key in (("beginTime", "begin"), ("endTime", "end")):
        if extras.get(extra) is not None:
            fill[key] = int(extras[extra])
    fill["all_day"] = str(extras.get("allDay", "false")).lower() in ("true", "1")
    invited = guests.prefill_guests(extras)
    if invited:
        fill["guests"] = invited
    return fill


def _ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


class CalendarApp(App):
    package = identity("calendar").package
    label = identity("calendar").label
    version_name = "2024.22.0-637466085-release"
    version_code = 2016738052
    providers = (AUTHORITY,)
    activities = (
        Activity(ALL_IN_ONE, "main", (LAUNCHER_FILTER, _content(("/time", "/time/*")))),
        Activity(EVENT_INFO, "event", (_content(("/events/*",)),)),
        Activity(
            EVENT_EDIT,
            "editor",
            (
                IntentFilter(actions=(ACTION_INSERT, ACTION_EDIT), mime_types=EVENT_TYPES),
                IntentFilter(
                    actions=(ACTION_INSERT,),
                    schemes=("content",),
                    hosts=(AUTHORITY,),
                    path_patterns=("/events",),
                    mime_types=EVENT_TYPES,
                ),
                _content(("/events",), actions=(ACTION_INSERT,)),
            ),
        ),
    )
    theme = Theme(primary="#0b57d0", accent="#0b57d0", pale="#d3e3fd")
    icon_bg = "#1a73e8"
    icon_glyph = "event"
    screens = {
        "main": views.build_main,
        "event": event.build_event,
        "editor": editor.build_editor,
        "tasks": extras.build_tasks,
        "task_editor": extras.build_task_editor,
        "search": extras.build_search,
        "guests": guests.build_picker,
        "settings": extras.build_settings,
    }
    dialogs = {
        "drawer": views.drawer,
        "create_menu": views.create_menu,
        "delete_event": event.delete_dialog,
        "event_colour": event.colour_dialog,
        "date_picker": pickers.date_picker,
        "time_picker": pickers.time_picker,
        "repeat": pickers.repeat_dialog,
        "custom_repeat": pickers.custom_repeat_dialog,
        "reminder": pickers.reminder_dialog,
        "week_start": extras.week_start_dialog,
        "default_duration": extras.duration_dialog,
        "default_reminder": extras.default_reminder_dialog,
    }
    screen_activities = {
        **dict.fromkeys(("main", "tasks", "task_editor", "search", "settings"), ALL_IN_ONE),
        "event": EVENT_INFO,
        "editor": EVENT_EDIT,
        "guests": EVENT_EDIT,
    }

    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        settings = {
            "time_zone": "UTC",
            "week_start": "Sunday",
            "default_duration": 60,
            "default_reminders": [30],
        }
        zone = zone_of(settings)
        events = seed_events(rng, now, zone)
        tasks = seed_tasks(now, zone)
        return {
            "account": OWNER,
            "events": events,
            "tasks": tasks,
            "settings": settings,
            "view": "schedule",
            "next_event_id": max(int(i) for i in events) + 1,
            "next_task_id": max(int(i) for i in tasks) + 1,
        }

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """Events and tasks as lists ordered by id (times in the phone's zone), the settings and the view."""
        return {
            "account": state["account"],
            "events": sorted(state["events"].values(), key=lambda e: e["id"]),
            "tasks": sorted(state["tasks"].values(), key=lambda t: t["id"]),
            "settings": state["settings"],
            "view": state["view"],
        }

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        if intent.action in (ACTION_INSERT, ACTION_EDIT):
            return ctx.screen("editor", activity=EVENT_EDIT, prefill=prefill(intent.extras))
        path = urlsplit(intent.data or "").path.strip("/").split("/")
        zone = zone_of(ctx.state["settings"])
        if intent.data and path[0] == "time" and len(path) > 1 and path[1].isdigit():
            day = datetime.fromtimestamp(int(path[1]) / 1000, zone).date()
            return ctx.screen("main", activity=ALL_IN_ONE, date=day.isoformat())
        if intent.data and path[0] == "events" and len(path) > 1:
            ev = ctx.state["events"].get(path[1])
            if ev is None:
                return None  # the real app toasts that the event was not found and closes
            begin = intent.extras.get("beginTime")
            day = datetime.fromtimestamp(int(begin) / 1000, zone).date() if begin else model.first_day(ev)
            return ctx.screen("event", activity=EVENT_INFO, id=ev["id"], date=day.isoformat())
        return ctx.screen("main", activity=ALL_IN_ONE)

    # -- content provider ------------------------------------------------------------------------------
    def query(self, ctx: AppContext, uri: str, where: str | None, sort: str | None) -> list[dict[str, Any]]:
        path = urlsplit(uri).path.strip("/").split("/")
        state = ctx.state
        events = sorted(state["events"].values(), key=lambda e: e["id"])
        if path[0] == "events":
            rows = [event_row(e, zone_of(state["settings"]).key) for e in events]
            if len(path) > 1:
                rows = [r for r in rows if str(r["_id"]) == path[1]]
        elif path[0] == "reminders":
            rows = [
                {"_id": e["id"] * 100 + n, "event_id": e["id"], "minutes": m, "method": 1}
                for e in events
                for n, m in enumerate(e["reminders"], start=1)
            ]
        elif path[0] == "attendees":
            rows = [
                {"_id": e["id"] * 100 + n, "event_id": e["id"], "attendeeEmail": g, "attendeeType": 1}
                for e in events
                for n, g in enumerate(e["guests"], start=1)
            ]
        elif path[0] == "calendars":
            rows = [
                {
                    "_id": 1,
                    "account_name": OWNER,
                    "calendar_displayName": OWNER,
                    "ownerAccount": OWNER,
                    "calendar_timezone": zone_of(state["settings"]).key,
                }
            ]
        else:
            raise ValueError(f"Unknown URL {uri}")
        return select(rows, where, sort)


def event_row(ev: dict[str, Any], zone: str) -> dict[str, Any]:
    """A row of CalendarContract.Events: all-day events run from UTC midnight to the next day's, as stored."""
    if ev["all_day"]:
        first = date.fromisoformat(ev["start"])
        after = date.fromisoformat(ev["end"]) + timedelta(days=1)
        start, end = (_ms(datetime.combine(d, time(0), UTC)) for d in (first, after))
    else:
        start, end = _ms(datetime.fromisoformat(ev["start"])), _ms(datetime.fromisoformat(ev["end"]))
    return {
        "_id": ev["id"],
        "calendar_id": 1,
        "title": ev["summary"],
        "description": ev["description"],
        "eventLocation": ev["location"],
        "dtstart": start,
        "dtend": end,
        "allDay": int(ev["all_day"]),
        "eventTimezone": "UTC" if ev["all_day"] else zone,
        "rrule": ev["rrule"] or None,
        "hasAlarm": int(bool(ev["reminders"])),
        "deleted": 0,
    }
