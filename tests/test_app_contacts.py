"""The Google Contacts stand-in: the seeded address book, the list and its search, the contact card
(star, call, delete), the create/edit form (phones with types, birthday, labels), labels, Merge & fix,
its intents and its content provider read through `content query`."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import phone_helpers
import pytest
from phone_helpers import elements, find, front, phone_with, present, tap

from masbench.device.vphones import start_virtual_phones
from masbench.vphone.apps.contacts import ContactsApp, model
from masbench.vphone.phone import VirtualPhone

PKG = "com.google.android.contacts"
CLOCK = datetime(2025, 6, 9, 9, 0, tzinfo=UTC)
SAM, SAM_DUPLICATE, KAVYA = 25, 41, 33


@pytest.fixture
def phone() -> VirtualPhone:
    return phone_with(ContactsApp(), clock=CLOCK)


state = partial(phone_helpers.state, package=PKG)


def contact(phone: VirtualPhone, cid: int) -> dict:
    return next(c for c in state(phone)["contacts"] if c["id"] == cid)


def open_card(phone: VirtualPhone, name: str) -> None:
    """From the list: search for `name` and open the first match."""
    tap(phone, resource_id="open_search_bar")
    phone.input_text(name)
    tap(phone, resource_id="contact_name", text=name)


def texts(phone: VirtualPhone) -> list[str]:
    return [e.text for e in elements(phone) if e.text]


# -- content ---------------------------------------------------------------------------------------


def test_address_book_has_forty_people_three_duplicates_and_the_shared_people(phone):
    people = state(phone)["contacts"]
    assert len(people) == 43 and [c["id"] for c in people] == list(range(1, 44))
    assert state(phone)["labels"] == ["Family", "Friends", "Gym", "Work", "Book club"]
    maya = people[0]
    assert (maya["first"], maya["emails"][0]["address"], maya["starred"]) == (
        "Maya",
        "maya.patel@gmail.com",
        True,
    )
    assert maya["phone_numbers"] == {"Mobile": ["+14155550134"]}
    names = [(c["first"], c["last"]) for c in people]
    assert names.count(("Sam", "Lee")) == 2 and names.count(("Daniel", "Kim")) == 2


def test_search_ignores_case_and_accents_and_matches_phone_digits(phone):
    assert [c["id"] for c in model.search(phone.app_states[PKG], "sofia")] == [3]
    assert [c["id"] for c in model.search(phone.app_states[PKG], "555-0134")] == [1]
    phone.launch(PKG)
    tap(phone, resource_id="open_search_bar")
    phone.input_text("Kav")
    assert [e.text for e in elements(phone) if e.resource_id.endswith("contact_name")] == ["Kavya Iyer"]


@pytest.mark.parametrize(
    ("typed", "iso"),
    [
        ("1990-06-15", "1990-06-15"),
        ("06/15/1990", "1990-06-15"),
        ("June 15, 1990", "1990-06-15"),
        ("soon", None),
    ],
)
def test_birthdays_are_read_in_the_usual_spellings(typed, iso):
    assert model.parse_birthday(typed) == iso


# -- screens ---------------------------------------------------------------------------------------


def test_list_has_letter_headers_and_the_card_shows_every_detail(phone):
    phone.launch(PKG)
    assert front(phone)["activity"] == "com.android.contacts.activities.PeopleActivity"
    assert texts(phone)[:3] == ["Search contacts", "43 contacts", "A"]
    open_card(phone, "Maya Patel")
    assert front(phone)["screen"] == "detail" and front(phone)["args"] == {"id": 1}
    shown = texts(phone)
    assert {"Maya Patel", "+1 415-555-0134", "maya.patel@gmail.com", "March 14, 1991"} <= set(shown)


def test_star_call_and_delete_from_the_card(phone):
    phone.launch(PKG)
    open_card(phone, "Kavya Iyer")
    tap(phone, resource_id="menu_star")
    assert contact(phone, KAVYA)["starred"] is True
    tap(phone, resource_id="call_button")
    assert state(phone)["interactions"] == [
        {"kind": "call", "contact_id": KAVYA, "target": "+1 415-555-0183"}
    ]
    tap(phone, resource_id="menu_more")
    tap(phone, resource_id="menu_delete")
    tap(phone, resource_id="cancel_button")
    assert len(state(phone)["contacts"]) == 43
    tap(phone, resource_id="menu_more")
    tap(phone, resource_id="menu_delete")
    tap(phone, resource_id="delete_confirm_button")
    assert len(state(phone)["contacts"]) == 42 and front(phone)["screen"] == "list"


def test_card_address_opens_maps_and_email_opens_gmail_compose(phone):
    """The card's links leave the app as the real one's do: the address as `geo:0,0?q=` (Maps shows it),
    an email as `SENDTO mailto:` (Gmail's compose, addressed); the email is still recorded."""
    phone.launch(PKG)
    open_card(phone, "Samuel Okafor")
    tap(phone, resource_id="address_row")
    assert front(phone)["package"] == "com.google.android.apps.maps"
    assert front(phone)["args"] == {"place_id": "addr:501-stanyan-st-san-francisco"}
    phone.back()
    assert front(phone)["package"] == PKG and front(phone)["screen"] == "detail"
    tap(phone, resource_id="email_button")
    assert front(phone)["package"] == "com.google.android.gm" and front(phone)["screen"] == "compose"
    assert present(phone, resource_id="recipient_chip", content_desc="Remove samuel.okafor@gmail.com")
    assert state(phone)["interactions"] == [
        {"kind": "email", "contact_id": 24, "target": "samuel.okafor@gmail.com"}
    ]


def test_favourites_tab_lists_starred_contacts(phone):
    phone.launch(PKG)
    tap(phone, resource_id="nav_favourites")
    assert [e.text for e in elements(phone) if e.resource_id.endswith("contact_name")] == [
        "Daniel Kim",
        "Maya Patel",
        "Noah Williams",
    ]


def test_new_contact_with_two_typed_phones_is_saved_and_opened(phone):
    phone.launch(PKG)
    tap(phone, resource_id="floating_action_button")
    tap(phone, resource_id="first_name")
    phone.input_text("Jordan")
    tap(phone, resource_id="phone_field")
    phone.input_text("415 555 0131")
    phone.back()
    tap(phone, resource_id="add_phone")
    tap(phone, resource_id="phone_field", nth=1)
    phone.input_text("+1 415-555-0177")
    phone.back()
    tap(phone, resource_id="phone_type", nth=1)
    tap(phone, resource_id="type_option", text="Work")
    tap(phone, resource_id="editor_save_button")
    new = contact(phone, 44)
    assert (new["first"], new["last"]) == ("Jordan", "")
    assert new["phone_numbers"] == {"Mobile": ["+14155550131"], "Work": ["+14155550177"]}
    assert front(phone)["screen"] == "detail" and front(phone)["args"] == {"id": 44}


def test_removing_a_phone_moves_the_next_one_up(phone):
    phone.launch(PKG)
    open_card(phone, "Sam Lee")
    tap(phone, resource_id="menu_edit")
    tap(phone, resource_id="add_phone")
    tap(phone, resource_id="phone_field", nth=1)
    phone.input_text("+1 415-555-0111")
    phone.back()
    tap(phone, resource_id="phone_type", nth=1)
    tap(phone, resource_id="type_option", text="Home")
    tap(phone, resource_id="remove_phone", nth=0)
    assert [e.text for e in elements(phone) if e.resource_id.endswith("phone_type")] == ["Home"]
    tap(phone, resource_id="remove_email")
    tap(phone, resource_id="editor_save_button")
    sam = contact(phone, SAM)
    assert sam["phone_numbers"] == {"Home": ["+14155550111"]} and sam["emails"] == []


def test_an_empty_form_is_not_saved_and_a_bad_birthday_is_refused(phone):
    phone.launch(PKG)
    tap(phone, resource_id="floating_action_button")
    tap(phone, resource_id="editor_save_button")
    assert len(state(phone)["contacts"]) == 43 and front(phone)["screen"] == "editor"
    tap(phone, resource_id="first_name")
    phone.input_text("Pat")
    phone.back()
    tap(phone, resource_id="birthday_field")
    phone.input_text("someday")
    phone.back()
    tap(phone, resource_id="editor_save_button")
    assert present(phone, resource_id="birthday_error") and len(state(phone)["contacts"]) == 43


def test_edit_adds_a_label_and_a_birthday(phone):
    phone.launch(PKG)
    open_card(phone, "Kavya Iyer")
    tap(phone, resource_id="menu_edit")
    tap(phone, resource_id="label_chip", text="Gym")
    tap(phone, resource_id="birthday_field")
    phone.clear_focused()
    phone.input_text("1997-01-26")
    phone.back()
    tap(phone, resource_id="editor_save_button")
    kavya = contact(phone, KAVYA)
    assert kavya["labels"] == ["Friends", "Gym"] and kavya["birthday"] == "1997-01-26"
    assert front(phone)["screen"] == "detail"


def test_a_created_label_lists_its_members(phone):
    phone.launch(PKG)
    tap(phone, resource_id="labels_button")
    tap(phone, resource_id="create_label")
    tap(phone, resource_id="label_name_input")
    phone.input_text("Climbing")
    tap(phone, resource_id="save_button")
    assert state(phone)["labels"][-1] == "Climbing"
    tap(phone, resource_id="title", text="Book club")
    members = [e.text for e in elements(phone) if e.resource_id.endswith("contact_name")]
    assert members == ["Fatima Zahra", "Ines Ferreira", "Rosa Alvarez"]


def test_merge_folds_the_duplicate_into_the_older_entry(phone):
    phone.launch(PKG)
    tap(phone, resource_id="nav_fix_&_manage")
    assert present(phone, text="3 suggestions")
    tap(phone, resource_id="merge_and_fix")
    tap(phone, resource_id="merge_button", content_desc="Merge Sam Lee")
    ids = [c["id"] for c in state(phone)["contacts"]]
    assert SAM in ids and SAM_DUPLICATE not in ids and len(ids) == 42
    sam = contact(phone, SAM)
    assert sam["phone_numbers"] == {"Mobile": ["+14155550161"], "Work": ["+14155550162"]}
    assert [e["address"] for e in sam["emails"]] == ["sam.lee@gmail.com", "sam.lee@lumenlabs.io"]
    assert sam["company"] == "Lumen Labs"
    tap(phone, resource_id="duplicates_title_action")
    assert len(state(phone)["contacts"]) == 40 and present(phone, resource_id="empty_message")


# -- intents and the provider -------------------------------------------------------------------------


def test_insert_intent_fills_the_form_without_saving(phone):
    result = phone.shell(
        "am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/raw_contact --es name 'Jane Q Roe'"
        " --es phone '+1 415-555-0100' --ei phone_type 3 --es email jane@roe.com -p " + PKG
    )
    assert result.exit_code == 0, result.stdout
    assert front(phone)["activity"] == "com.android.contacts.activities.ContactEditorActivity"
    assert find(phone, resource_id="first_name").text == "Jane Q"
    assert find(phone, resource_id="last_name").text == "Roe"
    assert find(phone, resource_id="phone_type").text == "Work"
    assert len(state(phone)["contacts"]) == 43
    tap(phone, resource_id="editor_save_button")
    assert contact(phone, 44)["emails"] == [{"address": "jane@roe.com", "type": "Home"}]


@pytest.mark.parametrize(
    ("command", "screen", "args"),
    [
        ("am start -a com.android.contacts.action.LIST_STARRED", "favourites", {}),
        ("am start -a com.android.contacts.action.LIST_DEFAULT", "list", {}),
        (
            "am start -a android.intent.action.VIEW -d content://com.android.contacts/contacts/17",
            "detail",
            {"id": 17},
        ),
        ("am start -a android.intent.action.VIEW -d content://contacts/people/3", "detail", {"id": 3}),
        ("am start -a android.intent.action.VIEW -d content://com.android.contacts/contacts", "list", {}),
    ],
)
def test_intents_open_their_screens(phone, command, screen, args):
    assert phone.shell(f"{command} -p {PKG}").exit_code == 0
    assert (front(phone)["screen"], front(phone)["args"]) == (screen, args)


def test_viewing_a_missing_contact_is_refused(phone):
    result = phone.shell(
        f"am start -a android.intent.action.VIEW -d content://com.android.contacts/contacts/999 -p {PKG}"
    )
    assert "refused" in result.stdout.decode() + result.stderr.decode()


def test_content_query_answers_over_adb_like_the_contacts_provider():
    with start_virtual_phones(1) as phones:
        device = phones.devices[0]
        starred = device.shell(
            "content query --uri content://com.android.contacts/contacts --projection _id:display_name"
            " --where 'starred=1' --sort 'display_name DESC'"
        ).output
        assert starred.splitlines() == [
            "Row: 0 _id=6, display_name=Noah Williams",
            "Row: 1 _id=1, display_name=Maya Patel",
            "Row: 2 _id=2, display_name=Daniel Kim",
        ]
        phones_of_sam = device.shell(
            "content query --uri content://com.android.contacts/data/phones --projection contact_id:data1:data2"
            " --where \"display_name LIKE 'sam %' AND data2 IN (2, 3)\""
        ).output
        assert phones_of_sam.splitlines() == [
            "Row: 0 contact_id=25, data1=+1 415-555-0161, data2=2",
            "Row: 1 contact_id=41, data1=+1 415-555-0162, data2=3",
        ]
        none = device.shell('content query --uri content://com.android.contacts/contacts --where "_id=999"')
        assert none.output == "No result found.\n"
        bad = device.shell("content query --uri content://com.android.contacts/contacts --where 'starred=='")
        assert bad.exit_code != 0 and "syntax error" in bad.output
