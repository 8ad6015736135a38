"""The Google Calendar stand-in: seeded events around the clock, repeat rules, the five views and date
navigation, the event page (colour, delete), the event form (pickers, repeat, guests from Contacts,
notifications), Tasks, Search, Settings, its intents and its content provider."""

from __future__ import annotations

from datetime import UTC, date, datetime
from functools import partial

import phone_helpers
import pytest
from phone_helpers import elements, find, front, phone_with, present, tap

from masbench.device.vphones import start_virtual_phones
from masbench.vphone.apps.calendar import CalendarApp, model
from masbench.vphone.phone import VirtualPhone

PKG = "com.google.android.calendar"
CLOCK = datetime(2025, 6, 9, 9, 0, tzinfo=UTC)  # a Monday
JUNE_12_MS = 1749686400000
YOGA = {
    "id": 103, "summary": "Yoga", "start": "2025-06-17T18:00:00+00:00", "end": "2025-06-17T19:00:00+00:00",
    "all_day": False, "location": "Mission Yoga", "description": "", "guests": [], "reminders": [30],
    "colour": "", "rrule": "",
}  # fmt: skip


def make_phone(seed: int = 0) -> VirtualPhone:
    return phone_with(CalendarApp(), seed=seed, clock=CLOCK)


@pytest.fixture
def phone() -> VirtualPhone:
    p = make_phone()
    p.app_states[PKG]["events"]["103"] = dict(YOGA)
    return p


state = partial(phone_helpers.state, package=PKG)


def event(phone: VirtualPhone, eid: int) -> dict | None:
    return next((e for e in state(phone)["events"] if e["id"] == eid), None)


def chips(phone: VirtualPhone) -> list[str]:
    return [e.content_desc for e in elements(phone) if e.resource_id.endswith("event_chip")]


def new_event_form(phone: VirtualPhone) -> None:
    phone.launch(PKG)
    tap(phone, resource_id="floating_action_button")
    tap(phone, resource_id="create_event")


def set_time(phone: VirtualPhone, which: str, typed: str) -> None:
    tap(phone, resource_id=f"{which}_time")
    phone.input_text(typed)
    phone.keyevent("ENTER")


# -- content and rules -------------------------------------------------------------------------------


def test_seeded_month_is_deterministic_per_seed_with_fixed_titles():
    a, b, c = (make_phone(s).app_state(PKG)["events"] for s in (1, 1, 2))
    assert a == b and a != c
    assert [e["summary"] for e in a[:3]] == ["Stand-up", "Farmers market", "Weekend in Tahoe"]
    assert all(e["start"] < e["end"] or e["all_day"] for e in a)
    assert state(make_phone())["settings"] == {
        "time_zone": "UTC", "week_start": "Sunday", "default_duration": 60, "default_reminders": [30],
    }  # fmt: skip


def test_repeat_rules_decide_which_days_an_event_shows_on():
    weekdays = {"start": "2025-06-02T09:30:00+00:00", "end": "2025-06-02T09:45:00+00:00", "all_day": False,
                "rrule": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"}  # fmt: skip
    assert model.occurs_on(weekdays, date(2025, 6, 13)) and not model.occurs_on(weekdays, date(2025, 6, 14))
    assert not model.occurs_on(weekdays, date(2025, 5, 30))  # before it starts
    counted = dict(weekdays, rrule="FREQ=DAILY;COUNT=3")
    assert [model.occurs_on(counted, date(2025, 6, d)) for d in (2, 4, 5)] == [True, True, False]
    trip = {"start": "2025-06-21", "end": "2025-06-22", "all_day": True, "rrule": ""}
    assert model.occurs_on(trip, date(2025, 6, 22)) and not model.occurs_on(trip, date(2025, 6, 23))
    assert (
        model.repeat_label("FREQ=WEEKLY;BYDAY=TU;COUNT=5", date(2025, 6, 17)) == "Weekly on Tuesday, 5 times"
    )


@pytest.mark.parametrize(
    ("typed", "clock"),
    [("10:00", "10:00"), ("9:30 am", "09:30"), ("3 PM", "15:00"), ("1545", "15:45"), ("25:00", None)],
)
def test_times_are_read_as_people_type_them(typed, clock):
    parsed = model.parse_time(typed)
    assert (model.clock(parsed) if parsed else None) == clock


# -- views -------------------------------------------------------------------------------------------


def test_schedule_starts_today_and_the_drawer_switches_views(phone):
    phone.launch(PKG)
    assert front(phone)["activity"] == "com.android.calendar.AllInOneActivity"
    assert chips(phone)[0] == "Stand-up, Monday, June 9, 2025, 09:30 \u2013 09:45"
    tap(phone, resource_id="drawer_button")
    tap(phone, resource_id="drawer_view", content_desc="Week")
    assert state(phone)["view"] == "week"
    headers = [e.content_desc for e in elements(phone) if e.resource_id.endswith("day_header")]
    assert headers[0] == "Sunday, June 8, 2025" and len(headers) == 7
    tap(phone, resource_id="next_period")
    assert find(phone, resource_id="day_header", nth=0).content_desc == "Sunday, June 15, 2025"
    tap(phone, resource_id="action_today")
    assert find(phone, resource_id="day_header", nth=0).content_desc == "Sunday, June 8, 2025"


def test_month_view_opens_a_day_and_the_header_opens_a_month_picker(phone):
    phone.launch(PKG)
    tap(phone, resource_id="drawer_button")
    tap(phone, resource_id="drawer_view", content_desc="Month")
    tap(phone, resource_id="month_day", desc_contains="June 17, 2025")
    assert front(phone)["args"] == {"view": "day", "date": "2025-06-17"}
    assert any(c.startswith("Yoga") for c in chips(phone))
    phone.back()
    tap(phone, resource_id="date_picker_button")
    tap(phone, resource_id="next_month")
    tap(phone, resource_id="day_cell", content_desc="Friday, July 4, 2025")
    assert present(phone, text="July 2025") and not present(phone, resource_id="month_picker")


def test_week_start_setting_moves_the_first_column(phone):
    phone.launch(PKG)
    tap(phone, resource_id="drawer_button")
    tap(phone, resource_id="drawer_settings")
    tap(phone, resource_id="week_start")
    tap(phone, resource_id="setting_option", text="Monday")
    tap(phone, resource_id="default_duration")
    tap(phone, resource_id="setting_option", text="30 minutes")
    assert state(phone)["settings"]["week_start"] == "Monday"
    assert state(phone)["settings"]["default_duration"] == 30
    phone.back()
    tap(phone, resource_id="drawer_button")
    tap(phone, resource_id="drawer_view", content_desc="Week")
    assert find(phone, resource_id="day_header", nth=0).content_desc == "Monday, June 9, 2025"


# -- event page and form -------------------------------------------------------------------------------


def test_event_page_recolours_and_deletes(phone):
    phone.shell(
        f"am start -a android.intent.action.VIEW -d content://com.android.calendar/events/103 -p {PKG}"
    )
    assert front(phone)["screen"] == "event" and find(phone, resource_id="event_title").text == "Yoga"
    tap(phone, resource_id="event_colour")
    tap(phone, resource_id="colour_option", text="Grape")
    assert event(phone, 103)["colour"] == "Grape"
    tap(phone, resource_id="delete_event")
    tap(phone, resource_id="delete_confirm_button")
    assert event(phone, 103) is None


def test_new_event_with_picked_date_typed_times_repeat_guest_and_notification(phone):
    new_event_form(phone)
    tap(phone, resource_id="title_input")
    phone.input_text("Dentist")
    phone.back()
    tap(phone, resource_id="start_date")
    tap(phone, resource_id="day_cell", content_desc="Thursday, June 12, 2025")
    set_time(phone, "start", "10:00")
    set_time(phone, "end", "10:45")
    tap(phone, resource_id="repeat")
    tap(phone, resource_id="repeat_option", text="Every week on Thursday")
    tap(phone, resource_id="add_people")
    phone.input_text("priya")
    tap(phone, resource_id="guest_suggestion", content_desc="Priya Raman")
    tap(phone, resource_id="done_button")
    tap(phone, resource_id="remove_reminder")
    tap(phone, resource_id="add_notification")
    tap(phone, resource_id="reminder_option", text="1 hour before")
    tap(phone, resource_id="save")
    created = event(phone, 18)
    assert created == {
        "id": 18, "description": "", "colour": "", "summary": "Dentist", "location": "", "all_day": False,
        "start": "2025-06-12T10:00:00+00:00", "end": "2025-06-12T10:45:00+00:00", "rrule": "FREQ=WEEKLY;BYDAY=TH",
        "guests": ["priya.raman@lumenlabs.io"], "reminders": [60],
    }  # fmt: skip
    assert front(phone)["screen"] == "main"


def test_moving_the_start_keeps_the_length_and_a_bad_time_is_refused(phone):
    phone.shell(
        f"am start -a android.intent.action.VIEW -d content://com.android.calendar/events/103 -p {PKG}"
    )
    tap(phone, resource_id="edit_event")
    set_time(phone, "start", "7 pm")
    assert find(phone, resource_id="end_time").text == "20:00"
    set_time(phone, "end", "noon")
    assert present(phone, resource_id="time_error")
    phone.back()
    tap(phone, resource_id="save")
    assert (event(phone, 103)["start"], event(phone, 103)["end"]) == (
        "2025-06-17T19:00:00+00:00",
        "2025-06-17T20:00:00+00:00",
    )


def test_custom_repeat_ends_after_a_number_of_times(phone):
    new_event_form(phone)
    tap(phone, resource_id="repeat")
    tap(phone, resource_id="repeat_option", text="Custom\u2026")
    tap(phone, resource_id="frequency_chip", text="Day")
    tap(phone, resource_id="repeat_count")
    phone.input_text("5")
    phone.back()
    tap(phone, resource_id="done_button")
    assert present(phone, text="Daily, 5 times")


def test_all_day_event_and_a_task_with_a_date(phone):
    new_event_form(phone)
    tap(phone, resource_id="all_day_switch")
    assert not present(phone, resource_id="start_time")
    tap(phone, resource_id="save")
    assert event(phone, 18)["all_day"] is True and event(phone, 18)["start"] == "2025-06-09"
    tap(phone, resource_id="floating_action_button")
    tap(phone, resource_id="create_task")
    tap(phone, resource_id="task_title_input")
    phone.input_text("Call the plumber")
    phone.back()
    tap(phone, resource_id="task_date")
    tap(phone, resource_id="day_cell", content_desc="Friday, June 13, 2025")
    tap(phone, resource_id="save")
    assert state(phone)["tasks"][-1] == {
        "id": 4,
        "title": "Call the plumber",
        "date": "2025-06-13",
        "done": False,
    }


def test_search_finds_by_title_and_location(phone):
    phone.launch(PKG)
    tap(phone, resource_id="action_search")
    phone.input_text("mission yoga")
    tap(phone, resource_id="search_result", desc_contains="Yoga")
    assert front(phone)["screen"] == "event" and front(phone)["args"] == {"id": 103, "date": "2025-06-17"}


# -- intents and the provider -------------------------------------------------------------------------


def test_insert_intent_fills_the_form_without_saving(phone):
    result = phone.shell(
        "am start -a android.intent.action.INSERT -d content://com.android.calendar/events"
        " -t vnd.android.cursor.dir/event --es title Dentist --el beginTime 1749722400000"
        " --el endTime 1749725100000 --es eventLocation 'Lakeview Dental'"
        " --es android.intent.extra.EMAIL 'a@b.com,nope' -p " + PKG
    )
    assert result.exit_code == 0, result.stdout
    assert front(phone)["activity"] == "com.google.android.calendar.event.EditEventActivity"
    assert find(phone, resource_id="title_input").text == "Dentist"
    assert (find(phone, resource_id="start_time").text, find(phone, resource_id="end_time").text) == (
        "10:00",
        "10:45",
    )
    assert find(phone, resource_id="location").text == "Lakeview Dental"
    assert len(state(phone)["events"]) == 18
    tap(phone, resource_id="save")
    assert event(phone, 18)["guests"] == ["a@b.com"] and len(state(phone)["events"]) == 19


def test_view_intents_open_a_date_or_an_event(phone):
    phone.shell(
        f"am start -a android.intent.action.VIEW -d content://com.android.calendar/time/{JUNE_12_MS} -p {PKG}"
    )
    assert front(phone)["args"] == {"date": "2025-06-12"}
    missing = phone.shell(
        f"am start -a android.intent.action.VIEW -d content://com.android.calendar/events/999 -p {PKG}"
    )
    assert "refused" in missing.stdout.decode() + missing.stderr.decode()


def test_content_query_answers_over_adb_like_the_calendar_provider():
    with start_virtual_phones(1) as phones:
        device = phones.devices[0]
        rows = device.shell(
            "content query --uri content://com.android.calendar/events --projection _id:title:allDay:rrule"
            " --where \"_id <= 2\" --sort '_id DESC'"
        ).output
        assert rows.splitlines() == [
            "Row: 0 _id=2, title=Farmers market, allDay=1, rrule=NULL",
            "Row: 1 _id=1, title=Stand-up, allDay=0, rrule=FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        ]
        one = device.shell(
            "content query --uri content://com.android.calendar/events/1 --projection dtstart:dtend"
        )
        assert one.output == "Row: 0 dtstart=1747042200000, dtend=1747043100000\n"  # May 12 09:30-09:45 UTC
        reminders = device.shell(
            "content query --uri content://com.android.calendar/reminders --where 'event_id=1'"
        ).output
        assert reminders == "Row: 0 _id=101, event_id=1, minutes=10, method=1\n"
        assert (
            device.shell(
                "content query --uri content://com.android.calendar/events --where \"title='Nothing'\""
            ).output
            == "No result found.\n"
        )
