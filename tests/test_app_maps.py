"""The Google Maps stand-in: seeded places, the real Maps intents, routes, navigation, lists and settings."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import phone_helpers
import pytest
from phone_helpers import elements, find, front, phone_with, seeded_dumps, tap, type_into

from masbench.vphone.apps.maps import MapsApp, model
from masbench.vphone.apps.maps.content import CITIES, geocode
from masbench.vphone.apps.yelp import YelpApp
from masbench.vphone.build import build_phone
from masbench.vphone.phone import VirtualPhone

PKG = "com.google.android.apps.maps"
TUESDAY = datetime(2025, 6, 3, 9, 30, tzinfo=UTC)


def make_phone(seed: int = 0, clock: datetime | None = TUESDAY) -> VirtualPhone:
    return phone_with(MapsApp(), YelpApp(), seed=seed, clock=clock)


@pytest.fixture
def phone() -> VirtualPhone:
    return make_phone()


state = partial(phone_helpers.state, package=PKG)
view = partial(phone_helpers.view, package=PKG)


def places(phone: VirtualPhone) -> dict:
    return phone.app_states[PKG]["places"]


# -- content and determinism -------------------------------------------------------------------------


def test_same_seed_gives_the_same_screens_and_another_seed_other_content():
    dumps = seeded_dumps(make_phone, (3, 3, 4), lambda phone: view(phone, "geo:0,0?q=gas station"))
    assert dumps[0] == dumps[1]
    assert dumps[0] != dumps[2]


def test_catalogue_has_places_of_every_kind_in_five_cities(phone):
    catalogue = list(places(phone).values())
    assert len(catalogue) >= 150
    assert {p["city"] for p in catalogue} == set(CITIES)
    kinds = {p["category"] for p in catalogue}
    assert {
        "Restaurant",
        "Coffee shop",
        "Gas station",
        "Museum",
        "Park",
        "Hotel",
        "Airport",
        "Train station",
    } <= kinds
    assert len({p["id"] for p in catalogue}) == len(catalogue)


def test_public_state_leaves_the_catalogue_out(phone):
    assert set(state(phone)) == {
        "map",
        "home",
        "work",
        "lists",
        "recent_searches",
        "reviews",
        "navigation",
        "settings",
    }


def test_typed_addresses_keep_their_house_number_and_street():
    point = geocode("1450 Valencia St, San Francisco", "Chicago")
    assert point is not None
    assert (point["name"], point["city"]) == ("1450 Valencia St", "San Francisco")
    assert point["address"].startswith("1450 Valencia St, San Francisco, CA")
    assert geocode("1450 Valencia St", "Chicago")["city"] == "San Francisco"  # the one city with that street
    assert geocode("1450 Nowhere Blvd", "Chicago")["city"] == "Chicago"  # off the grid, no city: the map's
    assert geocode("1450 Nowhere", "Chicago") is None  # no street type, no city named: not an address
    elsewhere = geocode("3332 Columbus Ave, San Francisco, CA 94122", "Chicago")  # off the drawn grid
    assert elsewhere is not None and elsewhere["city"] == "San Francisco"


# -- intents -----------------------------------------------------------------------------------------


def test_launcher_opens_the_map_with_search_bar_chips_and_tabs(phone):
    assert phone.launch(PKG) is None
    assert front(phone)["screen"] == "map"
    assert find(phone, resource_id="search_omnibox_text_box").text == "Search here"
    for label in ("Restaurants", "Gas", "Coffee", "Hotels"):
        assert find(phone, resource_id="category_chip", text=label)
    for tab in ("Explore", "You", "Contribute"):
        assert find(phone, content_desc=tab)
    assert find(phone, content_desc="Your location")


def test_geo_query_opens_a_single_place_or_a_results_list(phone):
    view(phone, "geo:0,0?q=Navy%20Pier")
    assert front(phone)["screen"] == "place" and front(phone)["args"] == {"place_id": "navy-pier-chicago"}
    view(phone, "geo:0,0?q=1450%20Valencia%20St")
    assert front(phone)["args"]["place_id"].startswith("addr:1450-valencia-st")
    assert find(phone, resource_id="place_title").text == "1450 Valencia St"
    view(phone, "geo:41.88,-87.63?q=coffee")
    args = front(phone)["args"]
    assert (front(phone)["screen"], args["city"], args["category"]) == ("results", "Chicago", "Coffee shop")


def test_navigation_intent_starts_navigation_in_the_requested_mode(phone):
    view(phone, "google.navigation:q=Ferry%20Building&mode=w")
    assert front(phone)["screen"] == "navigation"
    nav = state(phone)["navigation"]
    assert nav["active"] and nav["mode"] == "walk" and nav["destination"]["name"] == "Ferry Building"
    assert nav["origin"]["id"] == "here"
    assert find(phone, resource_id="next_turn").text.startswith("Head ")


def test_navigation_intent_avoid_flags(phone):
    view(phone, "google.navigation:q=Golden%20Gate%20Park&avoid=th")
    nav = state(phone)["navigation"]
    assert nav["avoid_tolls"] and nav["avoid_highways"] and not nav["toll"] and not nav["highway"]


def test_directions_url_opens_the_preview_and_dir_action_navigates(phone):
    view(
        phone,
        "https://www.google.com/maps/dir/?api=1&origin=Union%20Square&destination=Ferry%20Building&travelmode=transit",
    )
    assert front(phone)["screen"] == "directions"
    args = front(phone)["args"]
    assert (args["origin"], args["destination"], args["mode"]) == (
        "union-square-san-francisco",
        "ferry-building-san-francisco",
        "transit",
    )
    assert len([e for e in elements(phone) if e.resource_id.endswith("route_option")]) == 3
    view(
        phone,
        "https://www.google.com/maps/dir/?api=1&destination=Dolores%20Park&travelmode=bicycling&dir_action=navigate",
    )
    assert front(phone)["screen"] == "navigation" and state(phone)["navigation"]["mode"] == "bicycle"


def test_maps_links_are_verified_so_they_skip_the_browser(phone):
    view(phone, "https://www.google.com/maps/search/?api=1&query=Space%20Needle", package=None)
    assert front(phone)["package"] == PKG and front(phone)["args"] == {"place_id": "space-needle-seattle"}


def test_map_url_moves_the_map_and_sets_a_layer(phone):
    view(phone, "https://www.google.com/maps/@?api=1&map_action=map&center=30.2672,-97.7431&layer=transit")
    assert front(phone)["screen"] == "map"
    assert state(phone)["map"] == {"city": "Austin", "layer": "transit"}
    assert find(phone, resource_id="sheet_title").text == "Explore Austin"
    assert find(phone, resource_id="layer_chip").text == "Transit layer"


def test_saved_scheme_opens_the_you_tab(phone):
    view(phone, "comgooglemaps://saved")
    assert front(phone)["screen"] == "you"


# -- routes ------------------------------------------------------------------------------------------


def test_routes_are_deterministic_and_ordered_by_mode(phone):
    st = phone.app_states[PKG]
    here, ferry = model.place(st, "here"), st["places"]["ferry-building-san-francisco"]
    drive = model.routes(here, ferry, "drive", {}, TUESDAY)
    assert drive == model.routes(here, ferry, "drive", {}, TUESDAY)
    assert [r["minutes"] for r in drive] == sorted(r["minutes"] for r in drive)
    walk = model.routes(here, ferry, "walk", {}, TUESDAY)
    assert walk[0]["minutes"] > drive[0]["minutes"]
    transit = model.routes(here, ferry, "transit", {}, TUESDAY)
    assert len({r["minutes"] for r in transit}) == 3 and all(r["depart"] for r in transit)
    no_tolls = model.routes(here, ferry, "drive", {"avoid_tolls": True, "avoid_highways": True}, TUESDAY)
    assert no_tolls and not any(r["toll"] or r["highway"] for r in no_tolls)


def test_between_cities_only_driving_has_routes(phone):
    st = phone.app_states[PKG]
    here, pier = model.place(st, "here"), st["places"]["navy-pier-chicago"]
    assert model.routes(here, pier, "drive", {}, TUESDAY)[0]["minutes"] > 24 * 60
    assert model.routes(here, pier, "walk", {}, TUESDAY) == []


# -- GUI flows ---------------------------------------------------------------------------------------


def test_search_save_to_list_and_open_the_list(phone):
    phone.launch(PKG)
    type_into(phone, "Navy Pier", resource_id="search_omnibox_text_box")
    assert front(phone)["args"] == {"place_id": "navy-pier-chicago"}
    tap(phone, resource_id="save_button")
    tap(phone, resource_id="list_option", text="Want to go")
    tap(phone, resource_id="done_button")
    assert [p["name"] for p in state(phone)["lists"][1]["places"]] == ["Navy Pier"]
    assert find(phone, resource_id="save_button").text == "Saved"
    phone.keyevent("BACK")
    tap(phone, content_desc="You")
    tap(phone, resource_id="title", text="Want to go")
    assert find(phone, resource_id="saved_place").content_desc == "Navy Pier"


def test_category_chip_lists_places_and_sort_by_distance(phone):
    phone.launch(PKG)
    tap(phone, resource_id="category_chip", text="Gas")
    assert front(phone)["args"]["category"] == "Gas station"
    tap(phone, resource_id="sort_chip")
    tap(phone, resource_id="sort_option", text="Distance")
    details = [e.text for e in elements(phone) if e.resource_id.endswith("result_details")]
    miles = [float(d.split(" · ")[1].split()[0]) for d in details]
    assert miles == sorted(miles) and len(miles) == 4


def test_directions_with_avoid_tolls_then_start_and_exit(phone):
    view(phone, "geo:0,0?q=Oracle%20Park")
    tap(phone, resource_id="directions_button")
    tap(phone, resource_id="route_options_button")
    tap(phone, text="Avoid tolls")
    tap(phone, resource_id="done_button")
    assert front(phone)["args"]["avoid_tolls"] is True
    tap(phone, content_desc="Bike")
    tap(phone, resource_id="start_button")
    nav = state(phone)["navigation"]
    assert nav["active"] and nav["mode"] == "bicycle" and nav["avoid_tolls"] is True
    tap(phone, content_desc="Mute voice guidance")
    assert state(phone)["navigation"]["muted"] is True
    tap(phone, resource_id="exit_button")
    assert state(phone)["navigation"]["active"] is False
    assert front(phone)["screen"] == "directions"


def test_choosing_the_start_point_from_suggestions(phone):
    view(phone, "geo:0,0?q=Ferry%20Building")
    tap(phone, resource_id="directions_button")
    tap(phone, resource_id="directions_startpoint_textbox")
    phone.clear_focused()
    phone.input_text("Union Sq")
    tap(phone, resource_id="title", text="Union Square")
    assert front(phone)["args"]["origin"] == "union-square-san-francisco"


def test_set_home_in_the_you_tab_then_route_from_home(phone):
    phone.launch(PKG)
    tap(phone, content_desc="You")
    tap(phone, resource_id="label_home")
    type_into(phone, "1450 Valencia St, San Francisco", resource_id="label_address_text")
    assert state(phone)["home"]["address"].startswith("1450 Valencia St")
    assert front(phone)["screen"] == "you"
    view(
        phone,
        "https://www.google.com/maps/dir/?api=1&origin=Home&destination=Dolores%20Park&travelmode=walking",
    )
    assert front(phone)["args"]["origin"] == "label:home"


def test_new_list_is_created_and_offered_when_saving(phone):
    view(phone, "comgooglemaps://saved")
    tap(phone, resource_id="new_list_button")
    tap(phone, resource_id="list_name_text")
    phone.input_text("Chicago trip")
    tap(phone, resource_id="save_list_button")
    assert (front(phone)["screen"], front(phone)["args"]) == ("saved_list", {"list": "Chicago trip"})
    view(phone, "geo:0,0?q=Millennium%20Park")
    tap(phone, resource_id="save_button")
    tap(phone, resource_id="list_option", text="Chicago trip")
    assert state(phone)["lists"][-1]["name"] == "Chicago trip"
    assert [p["name"] for p in state(phone)["lists"][-1]["places"]] == ["Millennium Park"]


def test_distance_units_setting_changes_how_distances_read(phone):
    phone.launch(PKG)
    tap(phone, resource_id="account_button")
    tap(phone, resource_id="settings_entry")
    tap(phone, resource_id="distance_units")
    tap(phone, text="Kilometers")
    assert state(phone)["settings"]["distance_units"] == "kilometers"
    view(phone, "geo:0,0?q=gas%20station")
    details = [e.text for e in elements(phone) if e.resource_id.endswith("result_details")]
    assert details and all(" km · " in d or " m · " in d for d in details)


def test_review_from_the_place_sheet(phone):
    view(phone, "geo:0,0?q=Pike%20Place%20Market")
    sheet = find(phone, resource_id="place_sheet")
    phone.swipe(540, sheet.bounds[3] - 100, 540, sheet.bounds[1] + 300, 400)
    tap(phone, content_desc="Rate 4 stars")
    assert front(phone)["screen"] == "review" and front(phone)["args"]["rating"] == 4
    tap(phone, resource_id="review_text_field")
    phone.input_text("Busy but fun")
    tap(phone, resource_id="post_button")
    (review,) = state(phone)["reviews"]
    assert (review["name"], review["rating"], review["text"]) == ("Pike Place Market", 4, "Busy but fun")


def test_map_pins_open_their_place(phone):
    phone.launch(PKG)
    tap(phone, resource_id="map_pin", content_desc="Dolores Park")
    assert front(phone)["args"] == {"place_id": "dolores-park-san-francisco"}


def test_results_list_scrolls(phone):
    view(phone, "geo:0,0?q=restaurants%20in%20Seattle")
    listing = find(phone, resource_id="results_list")
    first = find(phone, resource_id="result_title").text
    _, top, _, bottom = listing.bounds
    phone.swipe(540, bottom - 50, 540, top + 50, 400)
    assert phone.top.ui["scroll"]["results"] > 0
    assert find(phone, resource_id="result_title").text != first


def test_yelp_directions_open_the_business_address_in_maps(phone):
    biz = next(iter(phone.app_states["com.yelp.android"]["businesses"].values()))
    view(phone, f"yelp-app-indexing://biz/{biz['id']}", package="com.yelp.android")
    tap(phone, resource_id="directions_button")
    assert front(phone)["package"] == PKG and front(phone)["screen"] == "place"
    assert find(phone, resource_id="place_title").text == biz["address"]


# -- dialogs are modal --------------------------------------------------------------------------------

DIALOGS = {  # dialog: (where, what opens it, its card)
    "account": ("geo:0,0?q=gas%20station", "account_button", "account_menu"),
    "sort": ("geo:0,0?q=gas%20station", "sort_chip", "sort_dialog"),
    "save": ("geo:0,0?q=Navy%20Pier", "save_button", "save_sheet"),
    "route_options": (
        "https://www.google.com/maps/dir/?api=1&destination=Ferry%20Building&travelmode=driving",
        "route_options_button",
        "route_options",
    ),
}


@pytest.mark.parametrize("name", DIALOGS)
def test_an_open_dialog_is_all_the_dump_shows_and_a_tap_beside_it_only_closes_it(phone, name):
    uri, opener, card_rid = DIALOGS[name]
    view(phone, uri)
    beneath = [e for e in elements(phone) if e.clickable]
    tap(phone, resource_id=opener)
    assert phone.top.ui["dialog"] == name
    card = find(phone, resource_id=card_rid)
    shown = elements(phone)
    assert all(card.bounds[1] <= e.bounds[1] and e.bounds[3] <= card.bounds[3] for e in shown if e.clickable)
    assert not any(e.resource_id == b.resource_id and e.bounds == b.bounds for e in shown for b in beneath)
    x1, y1, x2, y2 = card.bounds
    row = next(b for b in beneath if not (x1 <= b.center[0] < x2 and y1 <= b.center[1] < y2))
    before = (front(phone), state(phone), len(phone.toasts))
    phone.tap(*row.center)
    assert "dialog" not in phone.top.ui
    assert (front(phone), state(phone), len(phone.toasts)) == before


def test_the_units_dialog_in_settings_is_modal(phone):
    view(phone, "comgooglemaps://saved")
    tap(phone, resource_id="account_button")
    tap(phone, resource_id="distance_units")
    assert {e.resource_id.split("/")[-1] for e in elements(phone)} >= {"units_dialog", "units_option"}
    assert not any(e.resource_id.endswith("navigation_settings") for e in elements(phone))
    phone.tap(540, 2150)
    assert "dialog" not in phone.top.ui and front(phone)["screen"] == "settings"


# -- the drawn map ------------------------------------------------------------------------------------


def _map_parts(phone: VirtualPhone, rid: str) -> list:
    """The nodes with resource id `rid` drawn inside the map views of the current frame."""
    maps = [n for n in phone.frame().window.walk() if n.rid == "map_view"]
    return [(m, n) for m in maps for n in m.walk() if n.rid == rid]


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(inner, outer) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


MAP_SCREENS = [
    *(f"https://www.google.com/maps/@?api=1&center={CITIES[c]['lat']},{CITIES[c]['lng']}" for c in CITIES),
    "geo:0,0?q=restaurants%20in%20Seattle",
    "geo:0,0?q=museums%20in%20Chicago",
    "geo:0,0?q=hotels%20in%20New%20York",
    "geo:0,0?q=Ferry%20Building",
    "https://www.google.com/maps/dir/?api=1&origin=Union%20Square&destination=Dolores%20Park"
    "&travelmode=walking",
]


@pytest.mark.parametrize("uri", MAP_SCREENS)
def test_map_labels_never_overlap_pins_or_each_other_nor_leave_the_map(phone, uri):
    view(phone, uri)
    labels = _map_parts(phone, "map_label")
    assert labels
    marks = [n.bounds for rid in ("map_pin", "map_dot", "my_location") for _, n in _map_parts(phone, rid)]
    bars = [
        n.bounds
        for n in phone.frame().window.walk()
        if n.rid in ("search_bar", "category_chip_group", "bottom_navigation")
    ]
    for i, (m, label) in enumerate(labels):
        assert _inside(label.bounds, m.bounds), label.text
        assert label.lines == (label.text,) or label.lines[0].endswith("…")
        assert not any(_overlap(label.bounds, b) for b in marks + bars), label.text
        assert not any(_overlap(label.bounds, other.bounds) for _, other in labels[i + 1 :]), label.text


@pytest.mark.parametrize("mode", ["driving", "transit", "walking", "bicycling"])
def test_every_travel_mode_draws_its_route_on_the_map(phone, mode):
    trip = "origin=Union%20Square&destination=Dolores%20Park"
    view(phone, f"https://www.google.com/maps/dir/?api=1&{trip}&travelmode={mode}")
    route = _map_parts(phone, "route")
    assert len(route) >= 2 and all(_inside(n.bounds, m.bounds) for m, n in route)
    stops = _map_parts(phone, "transit_stop")
    assert bool(stops) == (mode == "transit")
    tap(phone, resource_id="start_button")
    assert front(phone)["screen"] == "navigation" and _map_parts(phone, "route")


@pytest.mark.parametrize(
    "query", ["restaurants in Seattle", "gas station", "hotels in Austin", "coffee in New York"]
)
def test_the_results_map_fits_every_result_pin(phone, query):
    view(phone, f"geo:0,0?q={query}")
    names = [e.text for e in elements(phone) if e.resource_id.endswith("result_title")]
    found = model.search(phone.app_states[PKG], front(phone)["args"], phone.now())
    drawn = {n.desc: (m, n) for rid in ("map_pin", "map_dot") for m, n in _map_parts(phone, rid)}
    assert set(drawn) == {p["name"] for p in found} and set(names) <= set(drawn)
    assert all(_inside(n.bounds, m.bounds) for m, n in drawn.values())
    assert any(n.rid == "map_pin" for _, n in drawn.values())


def test_places_keep_their_real_spelling_and_are_found_without_accents(phone):
    cafe = next(p for p in places(phone).values() if p["name"].startswith("Café "))
    assert cafe["id"].isascii()
    view(phone, f"geo:0,0?q={cafe['name'].replace('é', 'e')} in {cafe['city']}")
    assert front(phone)["args"] == {"place_id": cafe["id"]}
    assert find(phone, resource_id="place_title").text == cafe["name"]


def test_a_place_has_one_picture_of_its_kind_in_the_list_and_on_its_page(phone):
    view(phone, "geo:0,0?q=museums%20in%20Chicago")
    listed = {n.desc: n.image for n in phone.frame().window.walk() if n.image and n.rid != "account_button"}
    tap(phone, resource_id="result_title", text="Field Museum")
    shown = {n.image for n in phone.frame().window.walk() if n.image and n.desc == "Field Museum"}
    assert listed["Field Museum"] == "museum:field-museum-chicago" and shown == {listed["Field Museum"]}


@pytest.mark.parametrize(
    "query",
    ["Ferry Building, San Francisco", "Pike Place Market Seattle", "Navy Pier Chicago", "navy pier, chicago"],
)
def test_a_place_named_with_its_city_after_it_is_found(query):
    """As the real app finds them: the city after the name, with or without a comma, is where to look,
    while a city inside a place's own name ("Art Institute of Chicago") stays part of the name."""
    state = build_phone("vphone-1").app_states[MapsApp.package]
    name = query.split(",")[0].removesuffix(" Seattle").removesuffix(" Chicago").lower()
    found = model.search(state, model.search_args(state, query), datetime(2025, 6, 2, 10, tzinfo=UTC))
    assert [p["name"].lower() for p in found][:1] == [name]
    assert model.resolve(state, query)["name"].lower() == name
    art = model.search(
        state, model.search_args(state, "Art Institute of Chicago"), datetime(2025, 6, 2, tzinfo=UTC)
    )
    assert [p["name"] for p in art] == ["Art Institute of Chicago"]
