"""The Gmail stand-in: the seeded mailbox, folders and the drawer, search with operators and chips, thread
actions (star, archive, label, move, snooze), compose with chips, attachments and drafts, replies and
forwards, the compose intents and links, and settings."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import phone_helpers
import pytest
from phone_helpers import find, front, phone_with, present, tap

from masbench.vphone.apps.gmail import GmailApp, model
from masbench.vphone.phone import VirtualPhone

PKG = "com.google.android.gm"
CLOCK = datetime(2025, 6, 5, 9, 0, tzinfo=UTC)  # a Thursday
ROW = "viewified_conversation_item_view"


def make_phone(seed: int = 0) -> VirtualPhone:
    return phone_with(GmailApp(), seed=seed, clock=CLOCK)


@pytest.fixture
def phone() -> VirtualPhone:
    p = make_phone()
    p.launch(PKG)
    return p


state = partial(phone_helpers.state, package=PKG)


def raw(phone: VirtualPhone) -> dict:
    return phone.app_states[PKG]


def thread_by_subject(phone: VirtualPhone, subject: str) -> dict:
    return next(t for t in raw(phone)["threads"] if t["subject"] == subject)


def search_for(phone: VirtualPhone, query: str) -> None:
    phone_helpers.type_into(phone, query, resource_id="open_search")


def back_to_inbox(phone: VirtualPhone) -> None:
    while not (front(phone)["screen"] == "mailbox" and front(phone)["args"] == {"folder": "inbox"}):
        phone.keyevent("BACK")


def open_thread(phone: VirtualPhone, subject: str) -> None:
    back_to_inbox(phone)
    search_for(phone, subject)
    tap(phone, resource_id="subject", text=subject)


def open_settings(phone: VirtualPhone) -> None:
    """Settings sits at the end of the drawer, below the labels."""
    tap(phone, resource_id="drawer_button")
    phone.swipe(430, 2000, 430, 500)
    tap(phone, text="Settings")


def type_in(phone: VirtualPhone, text: str, **selector: object) -> None:
    tap(phone, **selector)
    phone.input_text(text)


def shell_ok(phone: VirtualPhone, command: str) -> None:
    result = phone.shell(command)
    assert result.exit_code == 0, result


# -- content ---------------------------------------------------------------------------------------------


def test_mailbox_is_seeded_deterministically_and_the_seed_moves_only_times_and_ids():
    a, b, c = make_phone(3), make_phone(3), make_phone(4)
    assert state(a) == state(b)
    subjects = [t["subject"] for t in raw(a)["threads"]]
    assert len(subjects) >= 55 and subjects == [t["subject"] for t in raw(c)["threads"]]
    assert [t["id"] for t in raw(a)["threads"]] != [t["id"] for t in raw(c)["threads"]]
    categories = {t["category"] for t in raw(a)["threads"]}
    assert categories == {"primary", "promotions", "social", "updates"}


def test_public_state_reports_threads_without_bodies_and_the_sent_drafts_labels_settings(phone):
    public = state(phone)
    assert set(public) == {"threads", "sent", "drafts", "labels", "settings"}
    first = public["threads"][0]
    assert "messages" not in first and first["message_ids"]
    assert public["labels"] == ["Expenses", "Family", "Travel", "Work"]
    assert len(public["sent"]) == 2 and len(public["drafts"]) == 1
    assert public["settings"]["vacation"]["enabled"] is False


# -- lists and the drawer --------------------------------------------------------------------------------


def test_inbox_lists_primary_mail_newest_first_with_category_rows(phone):
    assert front(phone)["activity"] == "com.google.android.gm.ConversationListActivityGmail"
    assert find(phone, resource_id="subject", nth=0).text == "Design review notes"
    assert present(phone, resource_id="category_row", content_desc="Promotions")
    inbox = model.folder_threads(raw(phone), "inbox", CLOCK)
    assert all(t["category"] == "primary" and not t["archived"] for t in inbox)
    assert "Rent split for June" not in [t["subject"] for t in inbox]  # snoozed
    tap(phone, resource_id="category_row", content_desc="Promotions")
    assert front(phone)["args"] == {"folder": "promotions"}
    assert find(phone, resource_id="subject", nth=0).text == "Summer essentials are here"


def test_drawer_opens_folders_and_back_returns_to_the_inbox(phone):
    tap(phone, resource_id="drawer_button")
    assert present(phone, text="Snoozed") and present(phone, text="Expenses")
    tap(phone, text="Sent")
    assert front(phone)["args"] == {"folder": "sent"}
    assert present(phone, resource_id="subject", text="Budget numbers for H2")
    phone.keyevent("BACK")
    assert front(phone)["args"] == {"folder": "inbox"}
    tap(phone, resource_id="drawer_button")
    tap(phone, text="Spam")
    assert present(phone, resource_id="subject", text="This coin will 100x by Friday")


def test_starring_from_a_row_and_opening_a_thread_marks_it_read(phone):
    tap(phone, resource_id="star", nth=0)
    design = thread_by_subject(phone, "Design review notes")
    assert design["starred"] and design["unread"]
    tap(phone, resource_id="subject", text="Design review notes")
    assert not design["unread"] and front(phone)["screen"] == "thread"
    assert find(phone, resource_id="subject_star").selected


# -- search ----------------------------------------------------------------------------------------------


def test_search_forgives_plurals_and_symbols_and_understands_operators(phone):
    now = CLOCK
    subjects = lambda q: [t["subject"] for t in model.search(raw(phone), model.parse_query(q), now)]  # noqa: E731
    assert subjects("from:priya is:unread") == [
        "Design review notes",
        "Lunch next week?",
        "Book recommendation",
    ]
    assert subjects("receipts")[:3] == [
        "Your Uber receipt for Tuesday evening", "Your DoorDash receipt from Souvla", "Your receipt from Apple",
    ]  # fmt: skip
    assert subjects("pg&e") == ["Your PG&E energy statement is ready"]
    assert "Congratulations! You have won a $1000 gift card" not in subjects("gift card")  # spam is left out
    assert subjects("in:spam gift card") == ["Congratulations! You have won a $1000 gift card"]
    assert set(subjects("has:attachment label:Work")) == {"Onboarding metrics", "Team lunch receipts"}


def test_filter_chips_narrow_the_results_and_live_in_the_screen_args(phone):
    search_for(phone, "Tahoe")
    assert front(phone)["args"]["query"] == "Tahoe"
    before = len([e for e in phone_helpers.elements(phone) if e.resource_id.endswith(ROW)])
    tap(phone, resource_id="filter_chip", text="Has attachment")
    assert front(phone)["args"]["attachment"] is True
    assert [e.text for e in phone_helpers.elements(phone) if e.resource_id.endswith("/subject")] == [
        "Photos from Tahoe"
    ]
    assert before == 2
    tap(phone, resource_id="filter_chip", text="From")
    tap(phone, text="Jordan Lee")
    assert front(phone)["args"]["sender"] == "jordan.lee@gmail.com"
    assert present(phone, text="No results found")


# -- thread actions ----------------------------------------------------------------------------------------


def test_archive_leaves_the_inbox_and_delete_moves_to_trash(phone):
    tap(phone, resource_id="subject", text="Q2 report numbers")
    tap(phone, resource_id="archive")
    q2 = thread_by_subject(phone, "Q2 report numbers")
    assert q2["archived"] and front(phone)["screen"] == "mailbox"
    assert not present(phone, resource_id="subject", text="Q2 report numbers")
    tap(phone, resource_id="subject", text="Design review notes")
    tap(phone, resource_id="delete")
    assert thread_by_subject(phone, "Design review notes")["trashed"]


def test_label_as_ticks_several_labels_and_move_to_a_label_archives(phone):
    open_thread(phone, "Reservation confirmed - Lisbon, Jun 20 - 25")
    tap(phone, resource_id="more_options")
    tap(phone, text="Label as")
    tap(phone, resource_id="label_checkbox", text="Travel")
    tap(phone, resource_id="label_checkbox", text="Expenses")
    tap(phone, resource_id="button1")
    airbnb = thread_by_subject(phone, "Reservation confirmed - Lisbon, Jun 20 - 25")
    assert airbnb["labels"] == ["Expenses", "Travel"] and not airbnb["archived"]
    assert present(phone, resource_id="label_chip", text="Travel")
    tap(phone, resource_id="more_options")
    tap(phone, text="Move to")
    tap(phone, text="Work")
    assert airbnb["labels"] == ["Expenses", "Travel", "Work"] and airbnb["archived"]


def test_snooze_presets_and_a_picked_date_hide_the_thread_until_8_am(phone):
    times = model.snooze_times(CLOCK)
    assert times["later_today"].hour == 18 and times["tomorrow"].day == 6
    assert times["weekend"].isoformat().startswith("2025-06-07T08:00")
    assert times["next_week"].isoformat().startswith("2025-06-09T08:00")
    open_thread(phone, "Your PG&E energy statement is ready")
    tap(phone, resource_id="more_options")
    tap(phone, text="Snooze")
    tap(phone, text="Pick date")
    assert not find(phone, resource_id="day", text="5").enabled  # today is not a snooze date
    tap(phone, resource_id="day", text="12")
    tap(phone, resource_id="button1")
    pge = thread_by_subject(phone, "Your PG&E energy statement is ready")
    assert pge["snoozed_until"] == "2025-06-12T08:00:00+00:00"
    assert pge not in model.folder_threads(raw(phone), "updates", CLOCK)
    assert pge in model.folder_threads(raw(phone), "snoozed", CLOCK)


def test_long_press_selects_rows_and_actions_apply_to_every_selected_thread(phone):
    search_for(phone, "receipt")
    phone.long_press(*find(phone, resource_id="subject", text="Your Uber receipt for Tuesday evening").center)
    assert present(phone, resource_id="selection_count", text="1")
    tap(phone, resource_id="subject", text="Your DoorDash receipt from Souvla")  # a tap now selects too
    tap(phone, resource_id="subject", text="Your receipt from Apple")
    assert find(phone, resource_id="selection_count").text == "3"
    assert front(phone)["screen"] == "search"
    tap(phone, resource_id="more_options")
    tap(phone, text="Move to")
    tap(phone, text="Expenses")
    receipts = [thread_by_subject(phone, s) for s in ("Your Uber receipt for Tuesday evening",
                "Your DoorDash receipt from Souvla", "Your receipt from Apple")]  # fmt: skip
    assert all(t["labels"] == ["Expenses"] and t["archived"] for t in receipts)
    assert present(phone, resource_id="search_text")  # selection mode is over
    phone.long_press(*find(phone, resource_id="subject", text="Your Lyft ride receipt").center)
    phone.keyevent("BACK")
    assert present(phone, resource_id="search_text") and front(phone)["screen"] == "search"


# -- compose, replies and drafts -----------------------------------------------------------------------------


def test_compose_with_a_suggested_contact_cc_typed_bcc_and_an_attachment(phone):
    tap(phone, resource_id="compose_button")
    type_in(phone, "mar", resource_id="to")
    tap(phone, text="Maria Lopez")
    assert present(phone, resource_id="recipient_chip", text="Maria Lopez")
    tap(phone, resource_id="show_cc_bcc")
    type_in(phone, "Emma Wilson", resource_id="cc")
    type_in(phone, "boss@example.com", resource_id="bcc")
    type_in(phone, "Numbers", resource_id="subject")
    type_in(phone, "See attached.", resource_id="body")
    tap(phone, resource_id="add_attachment")
    tap(phone, text="Budget_2025.xlsx")
    tap(phone, resource_id="send")
    sent = state(phone)["sent"][0]
    assert {k: sent[k] for k in ("to", "cc", "bcc", "subject", "body", "attachments", "in_reply_to")} == {
        "to": ["maria.lopez@acmecorp.com"], "cc": ["emma.wilson@acmecorp.com"], "bcc": ["boss@example.com"],
        "subject": "Numbers", "body": "See attached.", "attachments": ["Budget_2025.xlsx"], "in_reply_to": None,
    }  # fmt: skip
    assert front(phone)["screen"] == "mailbox" and "Sent" in phone.toasts
    assert model.find_thread(raw(phone), sent["thread_id"]) in model.folder_threads(raw(phone), "sent", CLOCK)


def test_send_without_recipients_or_with_a_bad_address_asks_first(phone):
    tap(phone, resource_id="compose_button")
    tap(phone, resource_id="send")
    assert present(phone, text="Add at least one recipient")
    tap(phone, resource_id="button1")
    type_in(phone, "not an address", resource_id="to")
    tap(phone, resource_id="send")
    assert present(phone, text="Invalid address") and len(state(phone)["sent"]) == 2


def test_reply_all_and_forward_fill_their_headers_and_link_the_message(phone):
    open_thread(phone, "Thursday dinner plans")
    daniel = thread_by_subject(phone, "Thursday dinner plans")["messages"][-1]
    tap(phone, resource_id="reply_all_button")
    assert present(phone, resource_id="recipient_chip", text="Daniel Kim")
    assert present(phone, resource_id="recipient_chip", text="Olivia Chen")
    type_in(phone, "Works for me", resource_id="body")
    tap(phone, resource_id="send")
    reply = state(phone)["sent"][0]
    assert reply["subject"] == "Re: Thursday dinner plans" and reply["in_reply_to"] == daniel["id"]
    assert (reply["to"], reply["cc"]) == (["daniel.kim@outlook.com"], ["olivia.chen@yahoo.com"])
    assert len(thread_by_subject(phone, "Thursday dinner plans")["messages"]) == 3
    open_thread(phone, "Photos from Tahoe")
    tap(phone, resource_id="forward_button")
    type_in(phone, "sam.rivera@gmail.com", resource_id="to")
    tap(phone, resource_id="send")
    forward = state(phone)["sent"][0]
    assert forward["subject"] == "Fwd: Photos from Tahoe" and forward["in_reply_to"] is None
    assert forward["attachments"] == ["Tahoe_Emerald_Bay.jpg", "Tahoe_Cabin.jpg"] and forward["forward_of"]


def test_leaving_compose_keeps_a_draft_that_drafts_reopens_and_sending_removes(phone):
    tap(phone, resource_id="compose_button")
    type_in(phone, "jordan.lee@gmail.com", resource_id="to")
    phone.keyevent("ENTER")
    type_in(phone, "Trip budget", resource_id="subject")
    phone.keyevent("BACK")  # closes the keyboard
    phone.keyevent("BACK")  # leaves compose
    drafts = state(phone)["drafts"]
    assert (
        len(drafts) == 2
        and drafts[0]["subject"] == "Trip budget"
        and drafts[0]["to"] == ["jordan.lee@gmail.com"]
    )
    tap(phone, resource_id="drawer_button")
    tap(phone, text="Drafts")
    tap(phone, resource_id="subject", text="Trip budget")
    assert front(phone)["screen"] == "compose"
    tap(phone, resource_id="send")
    assert [d["subject"] for d in state(phone)["drafts"]] == ["Packing list"]
    assert state(phone)["sent"][0]["subject"] == "Trip budget"


def test_an_untouched_compose_leaves_no_draft(phone):
    tap(phone, resource_id="compose_button")
    tap(phone, resource_id="navigate_up")
    assert len(state(phone)["drafts"]) == 1


def test_a_recipient_alone_is_enough_for_a_draft(phone):
    tap(phone, resource_id="compose_button")
    type_in(phone, "sam", resource_id="to")
    tap(phone, text="Sam Rivera")
    tap(phone, resource_id="navigate_up")
    assert state(phone)["drafts"][0]["to"] == ["sam.rivera@gmail.com"]


# -- intents and links -------------------------------------------------------------------------------------


def test_sendto_mailto_with_extras_opens_a_filled_compose_that_does_not_send():
    phone = make_phone()
    shell_ok(phone, "am start -a android.intent.action.SENDTO -d 'mailto:maria.lopez%40acmecorp.com' "
                    "--es android.intent.extra.SUBJECT 'Q2 report' --es android.intent.extra.TEXT 'Hi Maria' "
                    "--es android.intent.extra.CC sam.rivera@gmail.com -p com.google.android.gm")  # fmt: skip
    assert front(phone)["activity"] == "com.google.android.gm.ComposeActivityGmailExternal"
    assert present(phone, resource_id="recipient_chip", text="Maria Lopez")
    assert present(phone, resource_id="recipient_chip", text="Sam Rivera")
    assert (
        find(phone, resource_id="subject").text == "Q2 report"
        and find(phone, resource_id="body").text == "Hi Maria"
    )
    assert len(state(phone)["sent"]) == 2


def test_mailto_query_and_action_send_extras_fill_compose():
    phone = make_phone()
    shell_ok(phone, "am start -a android.intent.action.VIEW -d 'mailto:jordan.lee@gmail.com?subject=Hi%20there"
                    "&body=See%20you&bcc=sam.rivera@gmail.com'")  # fmt: skip
    assert find(phone, resource_id="subject").text == "Hi there"
    assert present(phone, resource_id="recipient_chip", text="Sam Rivera")
    phone.go_home()
    shell_ok(phone, "am start -a android.intent.action.SEND -t message/rfc822 --esa android.intent.extra.EMAIL "
                    "'a@example.com,b@example.com' --es android.intent.extra.SUBJECT Notes "
                    "-n com.google.android.gm/.ComposeActivityGmailExternal")  # fmt: skip
    assert present(phone, resource_id="recipient_chip", text="b@example.com")
    assert find(phone, resource_id="subject").text == "Notes"


def test_web_search_link_opens_results_in_gmail_only_with_its_package():
    phone = make_phone()
    phone_helpers.view(phone, "https://mail.google.com/mail/u/0/#search/from%3Apriya%20is%3Aunread", PKG)
    assert front(phone)["screen"] == "search" and front(phone)["args"] == {"query": "from:priya is:unread"}
    assert len([e for e in phone_helpers.elements(phone) if e.resource_id.endswith(ROW)]) == 3
    phone_helpers.view(phone, "https://mail.google.com/mail/u/0/#label/Travel", PKG)
    assert front(phone)["args"] == {"folder": "label:Travel"}


def test_links_in_a_message_open_the_app_that_takes_them(phone):
    """A youtu.be link opens YouTube's watch page, any other web link a Chrome tab; Back returns to the mail."""
    open_thread(phone, "Camping trip in July")
    links = [e.text for e in phone_helpers.elements(phone) if e.resource_id.endswith("message_link")]
    assert links == ["https://www.gearloft.com/p/ember-camp-stove", "https://youtu.be/RjkovbnpWDj"]
    tap(phone, resource_id="message_link", text="https://youtu.be/RjkovbnpWDj")
    assert front(phone)["package"] == "com.google.android.youtube"
    assert front(phone)["args"] == {"video_id": "RjkovbnpWDj"}
    phone.keyevent("BACK")
    assert front(phone)["package"] == PKG and front(phone)["screen"] == "thread"
    tap(phone, resource_id="message_link", text="https://www.gearloft.com/p/ember-camp-stove")
    assert front(phone)["package"] == "com.android.chrome"
    tabs = phone.app_state("com.android.chrome")["tabs"]
    assert [t["url"] for t in tabs if t["current"]] == ["https://www.gearloft.com/p/ember-camp-stove"]


def test_settings_component_starts_settings():
    phone = make_phone()
    shell_ok(phone, "am start -n com.google.android.gm/com.android.mail.ui.settings.PublicPreferenceActivity")
    assert front(phone)["screen"] == "settings"


# -- settings ----------------------------------------------------------------------------------------------


def test_signature_and_default_reply_action(phone):
    open_settings(phone)
    tap(phone, resource_id="signature")
    type_in(phone, "Alex | Growth", resource_id="signature_text")
    tap(phone, resource_id="button1")
    tap(phone, resource_id="default_reply")
    tap(phone, text="Reply all")
    settings = state(phone)["settings"]
    assert settings["signature"] == "Alex | Growth" and settings["default_reply"] == "reply_all"
    assert present(phone, text="Alex | Growth")
    phone.keyevent("BACK")
    tap(phone, resource_id="compose_button")
    assert find(phone, resource_id="signature").text == "--\nAlex | Growth"
    type_in(phone, "jordan.lee@gmail.com", resource_id="to")
    type_in(phone, "Hi", resource_id="body")
    tap(phone, resource_id="send")
    sent = state(phone)["sent"][0]
    assert (sent["body"], sent["signature"]) == ("Hi", "Alex | Growth")
    open_thread(phone, "Thursday dinner plans")
    assert find(phone, resource_id="reply_message", nth=-1).content_desc == "Reply all"


def test_vacation_responder_is_saved_with_done_and_dropped_with_back(phone):
    open_settings(phone)
    tap(phone, resource_id="vacation_responder")
    tap(phone, resource_id="vacation_switch")
    tap(phone, resource_id="first_day")
    tap(phone, resource_id="day", text="10")
    tap(phone, resource_id="button1")
    tap(phone, resource_id="last_day")
    tap(phone, resource_id="day", text="14")
    tap(phone, resource_id="button1")
    type_in(phone, "Away", resource_id="vacation_message")
    phone.keyevent("BACK")
    phone.keyevent("BACK")
    assert state(phone)["settings"]["vacation"]["enabled"] is False  # Back discards the form
    tap(phone, resource_id="vacation_responder")
    tap(phone, resource_id="vacation_switch")
    tap(phone, resource_id="last_day")
    tap(phone, resource_id="next_month")
    tap(phone, resource_id="day", text="2")
    tap(phone, resource_id="button1")
    type_in(phone, "Away", resource_id="vacation_message")
    tap(phone, resource_id="done")
    assert state(phone)["settings"]["vacation"] == {
        "enabled": True, "first_day": "2025-06-05", "last_day": "2025-07-02", "subject": "", "message": "Away",
        "contacts_only": False,
    }  # fmt: skip
    assert present(phone, text="On: Thu, Jun 5 - Wed, Jul 2")
