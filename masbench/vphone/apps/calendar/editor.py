"""The event form (new, edited, or filled by an insert intent): title, all-day switch, start and end date
and time, repeat, guests with suggestions from Contacts, location, notifications, colour and description.
Nothing is stored until Save.

Values live in the screen's ui state over the starting values (`starting_values`); changing the start
moves the end with it, keeping the event's length, as the real form does."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import EDIT, Node
from ...widgets import (
    app_bar,
    button,
    column,
    divider,
    icon_button,
    list_item,
    row,
    scroll_page,
    switch,
    text,
)
from . import model
from .content import DEFAULT_COLOUR, iso, zone_of
from .guests import guest_rows, open_picker


def _from_moments(start: datetime, end: datetime, all_day: bool) -> dict[str, Any]:
    return {
        "all_day": all_day,
        "start_date": start.date().isoformat(),
        "start_time": model.clock(start.time()),
        "end_date": (end.date() - timedelta(days=1) if all_day and end > start else end.date()).isoformat(),
        "end_time": model.clock(end.time()),
    }


def starting_values(ctx: AppContext) -> dict[str, Any]:
    """The form before any edit: the event's fields, an insert intent's extras, or a new event on the
    focused day at the next whole hour with the default length and notifications."""
    settings = ctx.state["settings"]
    zone = zone_of(settings)
    base = {
        "summary": "",
        "rrule": "",
        "location": "",
        "description": "",
        "guests": [],
        "colour": "",
        "reminders": list(settings["default_reminders"]),
    }
    eid = ctx.args.get("id")
    ev = ctx.state["events"].get(str(eid)) if eid is not None else None
    if ev is not None:
        values = {
            key: ev[key]
            for key in ("summary", "rrule", "location", "description", "guests", "colour", "reminders")
        }
        start, end = model.start_of(ev), model.end_of(ev)
        if ev["all_day"]:
            return {
                **values,
                "all_day": True,
                "start_date": ev["start"],
                "end_date": ev["end"],
                "start_time": "09:00",
                "end_time": "10:00",
            }
        return {**values, **_from_moments(start, end, False)}  # type: ignore[arg-type]
    fill = ctx.args.get("prefill", {})
    now = ctx.now().astimezone(zone)
    day = date.fromisoformat(ctx.args.get("date") or now.date().isoformat())
    hour = min(now.hour + 1, 23) if day == now.date() else 9
    start = datetime.combine(day, time(hour), zone)
    end = start + timedelta(minutes=int(settings["default_duration"]))
    if "begin" in fill:
        start = datetime.fromtimestamp(fill["begin"] / 1000, zone)
        end = datetime.fromtimestamp(fill["end"] / 1000, zone) if "end" in fill else start + (end - start)
    values = {
        **base,
        **{k: fill[k] for k in ("summary", "location", "description", "rrule", "guests") if k in fill},
    }
    return {**values, **_from_moments(start, end, bool(fill.get("all_day")))}


def value(ctx: AppContext, key: str) -> Any:
    if key in ctx.ui:
        return ctx.ui[key]
    return starting_values(ctx)[key]


def moment(ctx: AppContext, which: str) -> datetime:
    zone = zone_of(ctx.state["settings"])
    day = date.fromisoformat(value(ctx, f"{which}_date"))
    return datetime.combine(day, model.parse_time(value(ctx, f"{which}_time")) or time(0), zone)


def set_start(ctx: AppContext, new_start: datetime) -> None:
    """Move the start; the end follows so the event keeps its length."""
    length = moment(ctx, "end") - moment(ctx, "start")
    end = new_start + length
    ctx.ui.update(
        start_date=new_start.date().isoformat(),
        start_time=model.clock(new_start.time()),
        end_date=end.date().isoformat(),
        end_time=model.clock(end.time()),
    )


def set_end(ctx: AppContext, new_end: datetime) -> None:
    ctx.ui.update(end_date=new_end.date().isoformat(), end_time=model.clock(new_end.time()))


def _field(key: str, hint: str, rid: str, start: str, size: int = 42, h: int = 130) -> Node:
    return Node(
        EDIT,
        field=key,
        hint=hint,
        desc=hint,
        text=start,
        rid=rid,
        size=size,
        h=h,
        pad=(0, 0, 24, 0),
        weight=1,
    )


def _tap_text(
    label: str, on_tap: Callable[[], None], rid: str, weight: float = 0, align: str = "start"
) -> Node:
    return text(label, "body", on_tap=on_tap, rid=rid, weight=weight, align=align, pad=(0, 24, 0, 24))


def open_time_picker(ctx: AppContext, which: str) -> None:
    """The time dialog opens with its field focused, as Android's time input does."""
    ctx.open("time_picker", which=which)
    ctx.ui["focus"] = "time_input"


def _when_row(ctx: AppContext, which: str, all_day: bool) -> Node:
    day = date.fromisoformat(value(ctx, f"{which}_date"))
    label = f"{model.DAY_NAMES[day.weekday()][:3]}, {day.strftime('%b')} {day.day}, {day.year}"
    lead = Node(icon="schedule", fg=theme().muted, w=100, h=80, size=56) if which == "start" else Node(w=100)
    return row(
        lead,
        _tap_text(label, ctx.opener("date_picker", which=which), f"{which}_date", weight=1),
        None
        if all_day
        else _tap_text(
            value(ctx, f"{which}_time"), lambda: open_time_picker(ctx, which), f"{which}_time", align="end"
        ),
        pad=(48, 0, 48, 0),
        valign="center",
    )


def build_editor(ctx: AppContext) -> Node:
    t = theme()
    start = starting_values(ctx)
    all_day = bool(value(ctx, "all_day"))
    first = date.fromisoformat(value(ctx, "start_date"))
    reminders = list(value(ctx, "reminders"))
    guests = list(value(ctx, "guests"))

    def remove_reminder(minutes: int) -> None:
        ctx.ui["reminders"] = [m for m in reminders if m != minutes]

    reminder_rows = [
        list_item(
            model.reminder_label(m),
            icon="notifications",
            rid="reminder_row",
            trailing=icon_button(
                "close",
                f"Remove {model.reminder_label(m)}",
                partial(remove_reminder, m),
                rid="remove_reminder",
                size=48,
            ),
        )
        for m in reminders
    ]
    form = [
        row(
            Node(w=100),
            _field("summary", "Add title", "title_input", start["summary"], size=56, h=160),
            pad=(48, 20, 48, 10),
        ),
        divider(),
        switch("All-day", all_day, lambda: ctx.ui.update(all_day=not all_day), rid="all_day_switch"),
        _when_row(ctx, "start", all_day),
        _when_row(ctx, "end", all_day),
        list_item(zone_of(ctx.state["settings"]).key, icon="explore", rid="time_zone"),
        list_item(
            model.repeat_label(value(ctx, "rrule"), first),
            icon="refresh",
            on_tap=ctx.opener("repeat"),
            rid="repeat",
        ),
        divider(),
        list_item("Add people", icon="person_add", on_tap=lambda: open_picker(ctx, guests), rid="add_people"),
        *guest_rows(ctx, guests),
        divider(),
        row(
            Node(icon="location", fg=t.muted, w=100, h=80, size=56),
            _field("location", "Add location", "location", start["location"]),
            pad=(48, 0, 48, 0),
            valign="center",
        ),
        divider(),
        *reminder_rows,
        list_item("Add notification", icon="plus", on_tap=ctx.opener("reminder"), rid="add_notification"),
        divider(),
        list_item(
            value(ctx, "colour") or DEFAULT_COLOUR,
            "Colour",
            ctx.opener("event_colour"),
            icon="label",
            rid="colour",
        ),
        row(
            Node(w=100),
            _field("description", "Add description", "description", start["description"]),
            pad=(48, 0, 48, 0),
        ),
        Node(h=240),
    ]
    return column(
        app_bar("", ctx.back, button("Save", lambda: save(ctx), rid="save", h=110, size=38)),
        scroll_page("editor", *form, rid="event_form"),
        bg=t.surface,
    )


def save(ctx: AppContext) -> None:
    """Store the form: an edit returns to the event's page, a new event to where the form was opened."""
    all_day = bool(value(ctx, "all_day"))
    fields: dict[str, Any] = {k: value(ctx, k) for k in ("rrule", "guests", "reminders", "colour")}
    for key in ("summary", "location", "description"):
        fields[key] = " ".join(str(value(ctx, key)).split())
    if all_day:
        first, last = value(ctx, "start_date"), value(ctx, "end_date")
        fields.update(all_day=True, start=first, end=max(first, last))
    else:
        start, end = moment(ctx, "start"), moment(ctx, "end")
        if end < start:
            ctx.toast("The event can't end before it starts")
            return
        fields.update(all_day=False, start=iso(start), end=iso(end))
    fields["reminders"] = sorted(set(fields["reminders"]))
    fields["guests"] = sorted(set(fields["guests"]))
    model.save_event(ctx.state, ctx.args.get("id"), fields)
    ctx.toast("Event saved")
    ctx.back()
