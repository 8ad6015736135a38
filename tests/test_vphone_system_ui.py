"""The system parts cross-app work goes through: the share sheet, the clipboard's text toolbar and
Recents, each behaving as Android does, driven as an agent drives them (taps, long presses, keys)."""

from __future__ import annotations

import pytest

from masbench.vphone.intents import Intent, chooser_intent
from masbench.vphone.phone import VirtualPhone
from tests.phone_helpers import elements, find, front, phone_with, present, tap, view

YELP = "com.yelp.android"
GMAIL = "com.google.android.gm"
CONTACTS = "com.google.android.contacts"
SETTINGS = "com.android.settings"


@pytest.fixture
def phone() -> VirtualPhone:
    return phone_with()


def long_press(phone: VirtualPhone, **selector: object) -> None:
    phone.long_press(*find(phone, **selector).center)


def open_business(phone: VirtualPhone) -> dict:
    biz = next(iter(phone.app_states[YELP]["businesses"].values()))
    view(phone, f"yelp-app-indexing://biz/{biz['id']}", package=YELP)
    return biz


def test_share_button_opens_the_system_share_sheet_with_copy_and_the_apps_that_take_text(phone):
    biz = open_business(phone)
    tap(phone, resource_id="share_button")
    assert front(phone)["package"] == "android"
    assert phone.current_focus() == ("android", "com.android.internal.app.ChooserActivity")
    assert biz["alias"] in find(phone, resource_id="chooser_preview").text
    assert [e.content_desc for e in elements(phone) if e.resource_id.endswith("chooser_target")] == ["Gmail"]
    tap(phone, resource_id="chooser_copy")
    assert phone.clipboard.endswith(f"https://www.yelp.com/biz/{biz['alias']}")
    assert front(phone)["package"] == YELP  # Copy closes the sheet


def test_sharing_to_gmail_opens_compose_with_the_text_and_back_skips_the_sheet(phone):
    biz = open_business(phone)
    tap(phone, resource_id="share_button")
    tap(phone, resource_id="chooser_target", content_desc="Gmail")
    assert front(phone)["package"] == GMAIL
    assert biz["alias"] in phone.top.ui.get("body", "") or present(phone, text_contains=biz["alias"])
    assert all(s.package != "android" for s in phone.stack)  # the sheet finished as Gmail started
    phone.keyevent("KEYCODE_BACK")
    assert front(phone)["package"] == YELP


def test_back_or_the_dim_area_closes_the_sheet_and_an_empty_share_is_refused(phone):
    open_business(phone)
    tap(phone, resource_id="share_button")
    phone.keyevent("KEYCODE_BACK")
    assert front(phone)["package"] == YELP
    assert phone.start_activity(Intent("android.intent.action.CHOOSER")) is not None
    assert phone.start_activity(chooser_intent("hello")) is None
    phone.tap(540, 400)  # above the sheet
    assert front(phone)["package"] == YELP


def test_long_press_on_selectable_text_copies_it_and_paste_puts_it_in_a_field(phone):
    contact = next(c for c in phone.app_states[CONTACTS]["contacts"].values() if c["address"])
    view(phone, f"content://com.android.contacts/contacts/{contact['id']}", package=CONTACTS)
    assert find(phone, text=contact["address"]).long_clickable
    long_press(phone, text=contact["address"])
    tap(phone, text="Copy")
    assert phone.clipboard == contact["address"]
    assert not present(phone, text="Copy")  # the toolbar went away

    view(phone, "mailto:sam@example.com", package=GMAIL)
    long_press(phone, resource_id="body")
    assert 'long-clickable="true"' in phone.ui_dump_xml()
    tap(phone, text="Paste")
    assert contact["address"] in str(phone.top.ui.get("body"))
    assert phone.top.ui.get("focus") == "body"  # the keyboard stays up on the pasted field


def test_a_tap_elsewhere_dismisses_the_toolbar_and_an_empty_clipboard_offers_no_paste(phone):
    view(phone, "mailto:sam@example.com", package=GMAIL)
    long_press(phone, resource_id="body")
    assert not present(phone, text="Paste")  # nothing to paste yet: the field is just focused
    phone.clipboard = "note"
    long_press(phone, resource_id="body")
    assert present(phone, text="Paste")
    phone.keyevent("KEYCODE_BACK")
    assert not present(phone, text="Paste")
    long_press(phone, resource_id="body")
    tap(phone, resource_id="subject")
    assert not present(phone, text="Paste") and "note" not in str(phone.top.ui.get("body", ""))


def test_home_keeps_tasks_and_recents_resumes_the_app_where_it_was(phone):
    phone.launch(SETTINGS)
    tap(phone, text="Display")
    open_business(phone)
    phone.keyevent("KEYCODE_HOME")
    phone.keyevent("KEYCODE_APP_SWITCH")
    cards = [e.content_desc for e in elements(phone) if e.resource_id.endswith("recents_card")]
    assert cards == ["Yelp", "Settings"]  # most recent first
    tap(phone, resource_id="recents_card", content_desc="Settings")
    assert (front(phone)["package"], phone.top.name) == (SETTINGS, "display")
    phone.keyevent("KEYCODE_BACK")
    assert phone.top.name == "main"


def test_recents_from_an_app_goes_back_to_it_and_clear_all_ends_every_task(phone):
    open_business(phone)
    phone.tap(900, phone.height - 40)  # the nav bar's overview button
    assert phone.top.name == "recents"
    phone.keyevent("KEYCODE_BACK")
    assert front(phone)["package"] == YELP
    phone.keyevent("KEYCODE_APP_SWITCH")
    tap(phone, resource_id="recents_clear_all")
    assert phone.top.name == "home" and phone.recent_apps() == []
    phone.keyevent("KEYCODE_APP_SWITCH")
    assert present(phone, text="No recent items")
