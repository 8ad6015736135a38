"""The Yelp stand-in: seeded content, deep links, search with filters, bookmarks, reviews and events."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import phone_helpers
import pytest
from phone_helpers import elements, find, front, phone_with, seeded_dumps, tap, type_into

from masbench.vphone.apps.yelp import YelpApp
from masbench.vphone.apps.yelp.content import open_status
from masbench.vphone.phone import VirtualPhone

PKG = "com.yelp.android"
FRIDAY_EVENING = datetime(2025, 6, 6, 19, 30, tzinfo=UTC)


def make_phone(seed: int = 0, clock: datetime | None = FRIDAY_EVENING) -> VirtualPhone:
    """Launcher, Settings, Chrome and Yelp (no maps app, so geo: links have no handler)."""
    return phone_with(YelpApp(), seed=seed, clock=clock, without=("com.google.android.apps.maps",))


@pytest.fixture
def phone() -> VirtualPhone:
    return make_phone()


state = partial(phone_helpers.state, package=PKG)
view = partial(phone_helpers.view, package=PKG)


def catalogue(phone: VirtualPhone) -> dict:
    return phone.app_states[PKG]


# -- content and determinism -------------------------------------------------------------------------


def test_same_seed_gives_the_same_screens_and_another_seed_other_content():
    screens = seeded_dumps(
        make_phone,
        (7, 7, 8),
        lambda phone: phone.launch(PKG),
        lambda phone: view(phone, "yelp:///search?terms=pizza&location=Austin"),
    )
    assert screens[0] == screens[1]
    assert screens[0] != screens[2]


def test_catalogue_has_businesses_in_five_cities_and_events(phone):
    data = catalogue(phone)
    businesses = list(data["businesses"].values())
    assert len(businesses) >= 150
    assert {b["city"] for b in businesses} == {"San Francisco", "New York", "Chicago", "Seattle", "Austin"}
    assert len({b["name"] for b in businesses}) == len(businesses)
    assert len(data["events"]) >= 20
    assert all(e["venue_id"] in data["businesses"] for e in data["events"])


def test_public_state_leaves_the_catalogue_out(phone):
    assert set(state(phone)) == {
        "location", "user", "bookmarks", "reviews", "event_rsvps", "recent_searches", "recently_viewed", "calls",
    }  # fmt: skip


def test_open_now_follows_the_clock_including_bars_open_past_midnight():
    bar = {"hours": [[16 * 60, 26 * 60]] * 7}
    assert open_status(bar, datetime(2025, 6, 7, 1, 30))[0]  # Saturday 01:30, Friday's hours still run
    assert not open_status(bar, datetime(2025, 6, 7, 3, 0))[0]
    assert open_status(bar, datetime(2025, 6, 7, 3, 0))[1] == "Closed until 4:00 PM"
    closed_monday = {"hours": [None] + [[600, 1200]] * 6}
    assert open_status(closed_monday, datetime(2025, 6, 9, 12, 0)) == (
        False,
        "Closed until 10:00 AM tomorrow",
    )


# -- intents -----------------------------------------------------------------------------------------


def test_launcher_opens_home_with_search_bar_and_bottom_navigation(phone):
    assert phone.launch(PKG) is None
    assert front(phone)["screen"] == "home"
    assert find(phone, resource_id="search_bar_text").text == "Search for burgers, delivery, barbers…"
    for tab in ("Search", "Projects", "Collections", "Me"):
        assert find(phone, content_desc=tab)


def test_web_search_link_with_package_opens_filtered_results(phone):
    view(
        phone,
        "https://www.yelp.com/search?find_desc=sushi&find_loc=New%20York&open_now=true&attrs=RestaurantsPriceRange2.2&sortby=rating",
    )
    fg = front(phone)
    assert fg["screen"] == "results"
    assert fg["args"] | {} == {
        "query": "sushi", "location": "New York, NY", "category": "", "open_now": True, "price": [2],
        "min_rating": 0.0, "distance": 0.0, "features": [], "sort": "rating",
    }  # fmt: skip
    assert state(phone)["recent_searches"][0] == {"query": "sushi", "location": "New York, NY"}


def test_web_link_without_package_opens_the_browser_as_on_android_12(phone):
    view(phone, "https://www.yelp.com/search?find_desc=tacos", package=None)
    assert front(phone)["package"] == "com.android.chrome"


def test_yelp_scheme_search_and_category(phone):
    view(phone, "yelp:///search?terms=pizza&location=Chicago")
    assert front(phone)["args"]["query"] == "pizza"
    assert front(phone)["args"]["location"] == "Chicago, IL"
    view(phone, "yelp:///search?category=coffee&location=Seattle")
    args = front(phone)["args"]
    assert (args["category"], args["query"], args["location"]) == ("coffee", "Coffee & Tea", "Seattle, WA")
    assert all("Coffee & Tea" in b for b in _infos(phone))


def _infos(phone: VirtualPhone) -> list[str]:
    return [e.text for e in elements(phone) if e.resource_id.endswith("business_info")]


def test_business_links_by_id_and_by_alias_open_the_same_page(phone):
    biz = next(iter(catalogue(phone)["businesses"].values()))
    view(phone, f"yelp-app-indexing://biz/{biz['id']}")
    assert front(phone)["args"] == {"biz_id": biz["id"]}
    view(phone, f"https://www.yelp.com/biz/{biz['alias']}")
    assert front(phone)["screen"] == "business" and front(phone)["args"] == {"biz_id": biz["id"]}
    assert find(phone, resource_id="business_name").text == biz["name"]
    assert state(phone)["recently_viewed"][0] == biz["id"]


def test_unknown_business_shows_an_error_page(phone):
    view(phone, "yelp-app-indexing://biz/no-such-place")
    assert front(phone)["screen"] == "not_found"


def test_events_and_bookmarks_links(phone):
    view(phone, "https://www.yelp.com/events?find_loc=Austin")
    assert front(phone)["screen"] == "events" and front(phone)["args"]["location"] == "Austin, TX"
    austin = [e["name"] for e in catalogue(phone)["events"] if e["city"] == "Austin"]
    shown = [e.text for e in elements(phone) if e.resource_id.endswith("event_name")]
    assert shown and set(shown) <= set(austin)
    view(phone, "yelp:///bookmarks")
    assert front(phone)["screen"] == "collection" and front(phone)["args"] == {"collection": "My Bookmarks"}


# -- GUI flows ---------------------------------------------------------------------------------------


def test_search_filter_open_and_bookmark(phone):
    phone.launch(PKG)
    type_into(phone, "italian", resource_id="search_bar_text")
    type_into(phone, "Chicago", clear=True, resource_id="location_text")
    assert front(phone)["args"]["location"] == "Chicago, IL"
    tap(phone, resource_id="filter_button")
    assert front(phone)["screen"] == "filters"
    tap(phone, text="Open Now")
    tap(phone, text="4.0 stars & up")
    tap(phone, text="Highest Rated")
    tap(phone, text="Apply")
    args = front(phone)["args"]
    assert (args["open_now"], args["min_rating"], args["sort"]) == (True, 4.0, "rating")
    ratings = [
        float(e.content_desc.split()[1]) for e in elements(phone) if e.content_desc.startswith("Rated ")
    ]
    assert ratings == sorted(ratings, reverse=True) and min(ratings) >= 4.0
    name = find(phone, resource_id="business_name").text
    tap(phone, resource_id="business_name")
    assert front(phone)["screen"] == "business"
    tap(phone, resource_id="bookmark_button")
    saved = state(phone)["bookmarks"]
    assert [b["name"] for b in saved] == [name]
    assert (
        saved[0]["city"] == "Chicago" and saved[0]["open_now"] is True and "Italian" in saved[0]["categories"]
    )
    assert find(phone, resource_id="bookmark_button").text == "Saved"


def test_tapping_saved_asks_before_removing_the_bookmark(phone):
    biz = next(iter(catalogue(phone)["businesses"].values()))
    view(phone, f"yelp-app-indexing://biz/{biz['id']}")
    tap(phone, resource_id="bookmark_button")
    tap(phone, resource_id="bookmark_button")
    assert len(state(phone)["bookmarks"]) == 1  # only a dialog so far
    tap(phone, resource_id="remove_button")
    assert state(phone)["bookmarks"] == []


def test_filter_chips_toggle_open_now_and_price_levels(phone):
    view(phone, "yelp:///search?terms=restaurants&location=Austin")
    tap(phone, resource_id="open_now_chip")
    assert front(phone)["args"]["open_now"] is True
    assert all(e.text.startswith("Open") for e in elements(phone) if e.resource_id.endswith("business_hours"))
    x1, y1, x2, y2 = find(phone, resource_id="filter_bar").bounds
    phone.swipe(x2 - 100, (y1 + y2) // 2, x1 + 100, (y1 + y2) // 2, 400)  # price chips are further right
    tap(phone, resource_id="price_chip", text="$$")
    assert front(phone)["args"]["price"] == [2]
    assert all(info.startswith("$$ ·") for info in _infos(phone))
    tap(phone, resource_id="price_chip", text="$$")
    assert front(phone)["args"]["price"] == []


def test_write_a_review_records_it_and_shows_it_first(phone):
    biz = next(iter(catalogue(phone)["businesses"].values()))
    view(phone, f"yelp-app-indexing://biz/{biz['id']}")
    tap(phone, text="Write a review")
    assert not find(phone, resource_id="post_button").enabled
    tap(phone, content_desc="4 stars")
    assert find(phone, resource_id="rating_label").text == "Good"
    tap(phone, resource_id="review_text_field")
    phone.input_text("Great patio and friendly staff")
    tap(phone, resource_id="post_button")
    assert front(phone)["screen"] == "business"
    (review,) = state(phone)["reviews"]
    assert review | {} == {
        "biz_id": biz["id"], "name": biz["name"], "city": biz["city"], "rating": 4,
        "text": "Great patio and friendly staff", "date": "2025-06-06",
    }  # fmt: skip
    page = find(phone, resource_id="biz_page")
    for _ in range(6):
        phone.swipe(540, page.bounds[3] - 100, 540, page.bounds[1] + 100, 400)
    assert find(phone, resource_id="review_user").text == "You"


def test_star_on_the_business_page_presets_the_review_rating(phone):
    biz = next(iter(catalogue(phone)["businesses"].values()))
    view(phone, f"yelp-app-indexing://biz/{biz['id']}")
    tap(phone, content_desc="Rate 3 stars")
    assert front(phone)["screen"] == "write_review" and front(phone)["args"]["rating"] == 3


def test_event_rsvp_interested_then_going_then_withdrawn(phone):
    phone.launch(PKG)
    tap(phone, resource_id="see_all_events")
    tap(phone, resource_id="event_name")
    event_id = front(phone)["args"]["event_id"]
    tap(phone, resource_id="interested_button")
    assert [(r["event_id"], r["status"]) for r in state(phone)["event_rsvps"]] == [(event_id, "interested")]
    tap(phone, resource_id="im_in_button")
    assert [r["status"] for r in state(phone)["event_rsvps"]] == ["going"]
    tap(phone, resource_id="im_in_button")
    assert state(phone)["event_rsvps"] == []


def test_event_list_filters_by_city_and_category(phone):
    phone.launch(PKG)
    tap(phone, resource_id="see_all_events")
    tap(phone, resource_id="events_location")
    tap(phone, text="Seattle, WA")
    assert front(phone)["args"]["location"] == "Seattle, WA"
    tap(phone, resource_id="event_category", text="Music")
    music = {
        e["name"] for e in catalogue(phone)["events"] if e["city"] == "Seattle" and e["category"] == "Music"
    }
    shown = {e.text for e in elements(phone) if e.resource_id.endswith("event_name")}
    assert shown == music or (not music and find(phone, resource_id="no_events"))


def test_bottom_navigation_switches_tabs_without_growing_the_stack(phone):
    phone.launch(PKG)
    for tab in ("Collections", "Me", "Projects", "Search", "Me"):
        tap(phone, content_desc=tab)
    assert [s.name for s in phone.stack] == ["home", "me"]
    tap(phone, resource_id="my_reviews")
    assert front(phone)["screen"] == "my_reviews"


def test_results_list_scrolls_to_later_results(phone):
    view(phone, "yelp:///search?category=restaurants&location=New%20York")
    listing = find(phone, resource_id="search_results_list")
    assert listing.scrollable
    first = [e.text for e in elements(phone) if e.resource_id.endswith("business_name")]
    for _ in range(3):
        x1, y1, x2, y2 = listing.bounds
        phone.swipe((x1 + x2) // 2, y2 - 100, (x1 + x2) // 2, y1 + 100, 400)
    later = [e.text for e in elements(phone) if e.resource_id.endswith("business_name")]
    assert later and later[0] != first[0]
    assert phone.top.ui["scroll"]["results"] > 0


def test_directions_button_hands_the_address_to_a_maps_app(phone):
    biz = next(iter(catalogue(phone)["businesses"].values()))
    view(phone, f"yelp-app-indexing://biz/{biz['id']}")
    tap(phone, resource_id="directions_button")
    assert front(phone)["package"] == PKG  # no geo: handler on this phone
    assert phone.toasts[-1] == "No app can show directions"
