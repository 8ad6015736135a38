"""The Booking.com stand-in: seeded content, deep links, the search box, results with sort and filters,
saving to wish lists, booking and cancelling, and scrolling."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import phone_helpers
import pytest
from phone_helpers import elements, find, front, phone_with, present, tap

from masbench.vphone.apps.booking import BookingApp
from masbench.vphone.apps.booking import catalog as cat
from masbench.vphone.phone import VirtualPhone

PKG = "com.booking"
CLOCK = datetime(2025, 6, 4, 10, 0, tzinfo=UTC)


def make_phone(seed: int = 0) -> VirtualPhone:
    return phone_with(BookingApp(), seed=seed, clock=CLOCK)


@pytest.fixture
def phone() -> VirtualPhone:
    return make_phone()


state = partial(phone_helpers.state, package=PKG)
view = partial(phone_helpers.view, package=PKG, via_shell=False)


def search_for(phone: VirtualPhone, city: str) -> None:
    """Type a destination in the search box and pick the city from the suggestions."""
    tap(phone, resource_id="facet_search_box_accommodation_destination")
    phone.input_text(city)
    tap(phone, resource_id="view_disambiguation_destination_title", text=city)


def hotel_named(name: str) -> dict:
    return next(h for h in cat.catalog().values() if h["name"] == name)


# -- content and determinism ---------------------------------------------------------------------------


def test_catalogue_has_at_least_15_properties_in_each_of_a_dozen_cities():
    assert len(cat.CITIES) >= 12
    for city in cat.CITIES:
        hotels = cat.hotels_in(city.name)
        assert len(hotels) >= 15
        assert len({h["name"] for h in hotels}) == len(hotels)
        for h in hotels:
            assert h["rooms"] and len(h["reviews"]) == 3 and 6.0 <= h["score"] <= 9.8
            assert h["slug"].isascii()  # web page names are folded; shown names keep their spelling
    assert "Montjuïc" in next(c for c in cat.CITIES if c.name == "Barcelona").districts


def test_property_page_shows_a_street_address_that_maps_finds_in_new_york(phone):
    from masbench.vphone.apps.maps.content import geocode

    hotel = hotel_named("Chelsea Central Hotel")
    view(phone, f"booking://hotel/{hotel['id']}")
    shown = find(phone, resource_id="hotel_address").text
    assert shown.startswith(f"{hotel['street']}, Chelsea, New York, United States")
    assert hotel["street"] == cat.street_address("New York", hotel["id"])  # fixed by the id
    spot = geocode(shown.split(" · ")[0], "San Francisco")
    assert spot is not None and spot["city"] == "New York" and spot["name"] == hotel["street"]
    assert hotel_named("Monti Grand Hotel")["street"].startswith("Via ")  # Rome writes the street first


def test_same_seed_gives_identical_screens_and_another_seed_moves_prices():
    dumps = []
    for _ in range(2):
        p = make_phone(seed=7)
        p.launch(PKG)
        home = p.ui_dump_xml()
        view(p, "https://www.booking.com/searchresults.html?ss=Rome&checkin=2025-06-20&checkout=2025-06-22")
        dumps.append((home, p.ui_dump_xml()))
    assert dumps[0] == dumps[1]
    other = make_phone(seed=8)
    view(other, "https://www.booking.com/searchresults.html?ss=Rome&checkin=2025-06-20&checkout=2025-06-22")
    assert other.ui_dump_xml() != dumps[0][1]


def test_public_state_leaves_out_the_market_and_the_form_starts_tonight(phone):
    public = state(phone)
    assert "market" not in public and "market" in phone.app_states[PKG]
    assert public["form"] == {
        "city": "", "checkin": "2025-06-04", "checkout": "2025-06-05", "adults": 2, "rooms": 1, "children": 0,
    }  # fmt: skip
    assert public["wishlists"] == ["My next trip"]
    assert all(b["checkout"] < "2025-06-04" for b in public["bookings"])  # seeded trips are past ones


def test_prices_depend_on_dates_guests_and_rooms():
    hotel = hotel_named("Avenida Guest House")
    market = {str(hotel["id"]): [1.0, 0.5]}
    base = {"checkin": "2025-06-10", "checkout": "2025-06-11", "adults": 2, "rooms": 1, "children": 0}
    one_night = cat.offer(hotel, base, market)
    assert cat.offer(hotel, {**base, "checkout": "2025-06-13"}, market) > 2 * one_night
    assert cat.offer(hotel, {**base, "checkin": "2025-06-13", "checkout": "2025-06-14"}, market) > one_night
    assert cat.offer(hotel, {**base, "adults": 3}, market) > one_night  # a triple room
    assert cat.offer(hotel, {**base, "adults": 4}, market) is None  # no room sleeps four
    assert cat.offer(hotel, {**base, "adults": 4, "rooms": 2}, market) == 2 * one_night


# -- intents and deep links ----------------------------------------------------------------------------


def test_launcher_opens_the_search_tab(phone):
    assert phone.launch(PKG) is None
    assert front(phone)["activity"] == "com.booking.startup.HomeActivity"
    assert front(phone)["screen"] == "search"
    assert find(phone, resource_id="facet_search_box_cta").text == "Search"


def test_search_results_link_opens_results_with_dates_guests_order_and_filters(phone):
    view(
        phone,
        "https://www.booking.com/searchresults.html?ss=tokyo&checkin=2025-06-20&checkout=2025-06-23"
        "&group_adults=3&no_rooms=1&group_children=1&order=price&nflt=class%3D4%3Bfc%3D2%3Breview_score%3D80",
    )
    fg = front(phone)
    assert fg["activity"] == "com.booking.searchresult.SearchResultsActivity"
    assert fg["args"] == {
        "city": "Tokyo", "checkin": "2025-06-20", "checkout": "2025-06-23", "adults": 3, "rooms": 1,
        "children": 1, "order": "price", "price": "", "fc": True, "review": 80, "stars": [4],
        "breakfast": False, "types": [], "facilities": [], "distance": 0,
    }  # fmt: skip
    assert state(phone)["form"]["city"] == "Tokyo"
    assert state(phone)["recent_searches"][0]["city"] == "Tokyo"


def test_https_links_without_the_package_open_in_chrome(phone):
    view(phone, "https://www.booking.com/searchresults.html?ss=Paris", package=None)
    assert front(phone)["package"] == "com.android.chrome"


def test_shell_am_start_reaches_the_app(phone):
    out = phone.shell("am start -a android.intent.action.VIEW -d 'booking://search?ss=Lisbon' -p com.booking")
    assert out.exit_code == 0, out.stdout + out.stderr
    assert front(phone)["args"]["city"] == "Lisbon"


@pytest.mark.parametrize(
    ("uri", "screen", "args"),
    [
        ("booking://hotel/836191?checkin=2025-06-12&checkout=2025-06-14", "hotel",
         {"hotel_id": 836191, "hotel": "Avenida Guest House", "checkin": "2025-06-12", "checkout": "2025-06-14"}),
        ("https://www.booking.com/hotel/pt/avenida-guest-house.html", "hotel",
         {"hotel_id": 836191, "city": "Lisbon", "checkin": "2025-06-04"}),
        ("booking://search?ss=Rome", "results", {"city": "Rome", "order": "popularity"}),
        ("https://www.booking.com/mywishlist.html", "saved", {}),
        ("https://secure.booking.com/mytrips.html", "bookings", {}),
        ("booking://profile", "profile", {}),
    ],
)  # fmt: skip
def test_deep_links_open_the_right_screen(phone, uri, screen, args):
    view(phone, uri)
    fg = front(phone)
    assert fg["package"] == PKG and fg["screen"] == screen
    assert {k: fg["args"].get(k) for k in args} == args


def test_booking_details_link_opens_that_trip_and_unknown_targets_fall_back(phone):
    number = state(phone)["bookings"][0]["number"]
    view(phone, f"booking://mybooking/{number}")
    assert front(phone)["screen"] == "trip" and front(phone)["args"] == {"number": number}
    view(phone, "booking://mybooking/123")
    assert front(phone)["screen"] == "bookings"
    view(phone, "booking://hotel/1")
    assert front(phone)["screen"] == "search"
    assert phone.toasts[-1] == "This property is no longer available"


# -- the search box --------------------------------------------------------------------------------------


def test_search_box_destination_dates_and_guests_lead_to_results(phone):
    phone.launch(PKG)
    tap(phone, resource_id="facet_search_box_accommodation_destination")
    assert phone.top.ui.get("focus") == "dest"  # the keyboard opens on the destination field
    phone.input_text("Barc")
    assert find(phone, resource_id="view_disambiguation_destination_title").text == "Barcelona"
    tap(phone, resource_id="view_disambiguation_destination_title", text="Barcelona")
    tap(phone, resource_id="facet_search_box_accommodation_dates")
    tap(phone, content_desc="Next month")
    assert find(phone, resource_id="calendar_month_title").text == "July 2025"
    tap(phone, content_desc="03 July 2025")
    tap(phone, content_desc="06 July 2025")
    assert (
        find(phone, resource_id="facet_date_picker_selection_summary").text
        == "Thu, Jul 3 - Sun, Jul 6 (3 nights)"
    )
    tap(phone, resource_id="facet_date_picker_confirm")
    tap(phone, resource_id="facet_search_box_accommodation_occupancy")
    tap(phone, content_desc="Increase number of rooms")
    for _ in range(2):
        tap(phone, content_desc="Increase number of adults")
    tap(phone, resource_id="group_config_apply_button")
    assert find(phone, resource_id="facet_search_box_accommodation_occupancy").content_desc == (
        "2 rooms, 4 adults, 0 children"
    )
    tap(phone, resource_id="facet_search_box_cta")
    args = front(phone)["args"]
    assert (args["city"], args["checkin"], args["checkout"], args["adults"], args["rooms"]) == (
        "Barcelona", "2025-07-03", "2025-07-06", 4, 2,
    )  # fmt: skip


def test_past_days_are_disabled_and_searching_without_a_destination_asks_for_one(phone):
    phone.launch(PKG)
    tap(phone, resource_id="facet_search_box_cta")
    assert find(phone, resource_id="alertTitle").text == "Please enter your destination"
    tap(phone, resource_id="button_positive")
    tap(phone, resource_id="facet_search_box_accommodation_dates")
    assert find(phone, content_desc="03 June 2025").enabled is False
    assert find(phone, content_desc="Previous month").clickable is False
    tap(phone, content_desc="03 June 2025")
    assert phone.top.ui["sel_in"] == "2025-06-04"  # nothing changed


# -- results: sort, filters, scrolling -------------------------------------------------------------------


def test_sort_and_filters_change_the_screen_arguments_and_the_list(phone):
    view(phone, "https://www.booking.com/searchresults.html?ss=Lisbon&checkin=2025-06-12&checkout=2025-06-14")
    tap(phone, resource_id="toolbar_item_label", text="Sort")
    tap(phone, text="Price (low to high)")
    prices = [int(e.text.removeprefix("US$").replace(",", "")) for e in elements(phone)
              if e.resource_id.endswith("price_view_price")]  # fmt: skip
    assert prices == sorted(prices) and len(prices) >= 3
    tap(phone, resource_id="toolbar_item_label", text="Filter")
    tap(phone, text="Free cancellation")
    tap(phone, text="4 stars")
    assert front(phone)["args"]["fc"] is False  # nothing applies before "Show results"
    tap(phone, resource_id="apply_button")
    args = front(phone)["args"]
    assert (args["order"], args["fc"], args["stars"]) == ("price", True, [4])
    names = [e.text for e in elements(phone) if e.resource_id.endswith("property_card_header_property_name")]
    assert names and all(hotel_named(n)["stars"] == 4 and hotel_named(n)["free_cancellation"] for n in names)
    assert find(phone, resource_id="filter_count").text == "2"


def test_long_lists_scroll(phone):
    view(phone, "booking://search?ss=Paris")
    first = [e.text for e in elements(phone) if e.resource_id.endswith("property_card_header_property_name")]
    results = find(phone, resource_id="results_list_facet")
    cx, (y1, y2) = results.center[0], (results.bounds[1], results.bounds[3])
    phone.swipe(cx, y2 - 100, cx, y1 + 100, 400)
    after = [e.text for e in elements(phone) if e.resource_id.endswith("property_card_header_property_name")]
    assert after != first and set(after) - set(first)
    tap(phone, resource_id="toolbar_item_label", text="Filter")
    assert not [e for e in elements(phone) if e.text == "Spa"]
    layout = find(phone, resource_id="filter_layout")
    for _ in range(4):
        phone.swipe(layout.center[0], layout.bounds[3] - 100, layout.center[0], layout.bounds[1] + 100, 400)
    assert find(phone, text="Spa").checkable


@pytest.mark.parametrize(
    ("opener", "title"),
    [
        ({"resource_id": "toolbar_item_label", "text": "Sort"}, "Sort by"),
        ({"content_desc": "Save Trevi Apartments"}, "Save to a list"),
        ({"resource_id": "toolbar_item_label", "text": "Filter"}, "Filter by"),
    ],
)
def test_sheets_and_dialogs_are_modal_in_the_dump_and_to_taps(opener, title):
    phone = make_phone(seed=19)
    view(phone, "booking://search?ss=Rome")
    card = find(phone, resource_id="sr_property_card_header_property_name", text="Trevi Apartments")
    tap(phone, **opener)
    shown = [e.text for e in elements(phone)]
    assert title in shown and "Trevi Apartments" not in shown  # the list beneath is not dumped
    phone.tap(*card.center)  # where the card lies beneath the layer: at most closes it
    assert front(phone)["screen"] == "results" and not state(phone)["saved"][2:]
    if title != "Filter by":  # the full-screen filters page covers the card; a sheet closes
        assert "dialog" not in phone.top.ui and present(phone, text="Trevi Apartments")


# -- saving, booking, cancelling -------------------------------------------------------------------------


def test_heart_saves_to_a_new_list_and_the_wishlist_can_remove_it(phone):
    view(phone, "booking://search?ss=Rome")
    name = find(phone, resource_id="sr_property_card_header_property_name").text
    tap(phone, content_desc=f"Save {name}")
    tap(phone, resource_id="create_list")
    tap(phone, resource_id="wishlist_create_edit_text")
    phone.input_text("Summer 2025")
    tap(phone, resource_id="btn_wishlist_create_list")
    assert state(phone)["wishlists"] == ["My next trip", "Summer 2025"]
    assert {"name": name, "city": "Rome", "list": "Summer 2025"}.items() <= state(phone)["saved"][-1].items()
    assert find(phone, content_desc=f"Remove {name} from saved").selected
    view(phone, "https://www.booking.com/mywishlist.html")
    tap(phone, resource_id="tv_wishlist_name", text="Summer 2025")
    assert front(phone)["args"] == {"list": "Summer 2025"}
    tap(phone, content_desc=f"Remove {name} from Summer 2025")
    assert not [s for s in state(phone)["saved"] if s["list"] == "Summer 2025"]


def test_booking_flow_records_the_booking_with_the_guest_details(phone):
    view(phone, "booking://hotel/836191?checkin=2025-06-12&checkout=2025-06-14")
    tap(phone, resource_id="select_room_cta")
    tap(phone, resource_id="room_reserve_button", nth=1)
    tap(phone, resource_id="bstage1_contact_email_value")
    phone.clear_focused()
    tap(phone, resource_id="action_button")
    assert find(phone, resource_id="bui_input_container_error").text == "This field is required"
    assert front(phone)["screen"] == "reserve"
    tap(phone, resource_id="bstage1_contact_email_value")
    phone.input_text("maria@example.com")
    tap(phone, resource_id="action_button")
    booking = state(phone)["bookings"][-1]
    assert front(phone) == {"package": PKG, "activity": "com.booking.confirmation.ConfirmationActivity",
                            "screen": "confirmation", "args": {"number": booking["number"]}}  # fmt: skip
    assert (booking["hotel"], booking["room"], booking["checkin"], booking["nights"], booking["email"]) == (
        "Avenida Guest House", "Double Room with Garden View", "2025-06-12", 2, "maria@example.com",
    )  # fmt: skip
    assert booking["status"] == "confirmed" and booking["first_name"] == "Alex"


def test_cancelling_an_upcoming_booking_moves_it_to_cancelled(phone):
    view(phone, "booking://hotel/836191?checkin=2025-06-12&checkout=2025-06-14")
    tap(phone, resource_id="select_room_cta")
    tap(phone, resource_id="room_reserve_button")
    tap(phone, resource_id="action_button")
    tap(phone, resource_id="view_booking_button")
    tap(phone, resource_id="cancel_booking_button")
    tap(phone, text="Keep booking")
    assert state(phone)["bookings"][-1]["status"] == "confirmed"
    tap(phone, resource_id="cancel_booking_button")
    tap(phone, resource_id="confirm_cancel_button")
    assert state(phone)["bookings"][-1]["status"] == "cancelled"
    view(phone, "https://secure.booking.com/mytrips.html")
    assert not [e for e in elements(phone) if e.resource_id.endswith("trip_hotel_name")]  # nothing active
    tap(phone, text="Cancelled")
    assert find(phone, resource_id="trip_hotel_name").text == "Avenida Guest House"


def test_currency_choice_changes_displayed_prices(phone):
    view(phone, "booking://profile")
    tap(phone, resource_id="currency")
    tap(phone, text="Euro (EUR)")
    assert state(phone)["currency"] == "EUR"
    view(phone, "booking://search?ss=Paris")
    assert find(phone, resource_id="price_view_price").text.startswith("EUR ")


def test_bottom_navigation_switches_tabs_in_place(phone):
    phone.launch(PKG)
    for tab in ("saved", "bookings", "profile", "search"):
        tap(phone, resource_id=f"nav_{tab}")
        assert front(phone)["screen"] == tab
    assert [s.name for s in phone.stack] == ["home", "search"]
