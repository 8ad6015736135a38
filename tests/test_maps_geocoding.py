"""Maps gives one address one id however it is typed (docs/tasks.md rule 4): St or Street, any case, with
or without the city, state, ZIP or commas, on a street the map's grid draws or not; another house number
or another city's street of the same name is another place."""

from __future__ import annotations

from functools import partial
from urllib.parse import quote

import phone_helpers
import pytest
from phone_helpers import front, phone_with

from masbench.vphone.apps.maps import MapsApp
from masbench.vphone.apps.maps.addresses import street_key
from masbench.vphone.apps.maps.content import CITIES, geocode, slug

PKG = "com.google.android.apps.maps"
view = partial(phone_helpers.view, package=PKG)

# every short form a street may be written with, and its long form
PAIRS = {
    "St": "Street", "Ave": "Avenue", "Blvd": "Boulevard", "Rd": "Road", "Dr": "Drive", "Ln": "Lane",
    "Pl": "Place", "Ct": "Court", "Pkwy": "Parkway", "Hwy": "Highway", "Ter": "Terrace", "Sq": "Square",
    "Cir": "Circle", "Aly": "Alley", "Plz": "Plaza", "Expy": "Expressway", "Trl": "Trail",
}  # fmt: skip
DIRECTIONS = {"N": "North", "S": "South", "E": "East", "W": "West", "NW": "Northwest", "SE": "Southeast"}
GRID = [(city, street) for city, info in CITIES.items() for street in (*info["avenues"], *info["streets"])]


def spelled_out(street: str) -> str:
    """The street with every short word written out: "N Michigan Ave" -> "North Michigan Avenue"."""
    longer = PAIRS | DIRECTIONS | {"Jr": "Junior", "1st": "First", "2nd": "Second", "5th": "Fifth"}
    return " ".join(longer.get(word, word) for word in street.split())


def ways_to_type(number: int, street: str, city: str) -> list[str]:
    """One address as people type it: case, dots, commas, city, state, ZIP and country optional."""
    state = CITIES[city]["state"]
    zipcode = f"{CITIES[city]['zip']}17"
    return [
        f"{number} {street}, {city}",
        f"{number} {street}, {city}, {state}",
        f"{number} {street}, {city}, {state} {zipcode}",
        f"{number} {street}, {city}, {state} {zipcode}, USA",
        f"{number} {street} {city} {state} {zipcode}",
        f"{number} {street} {city}",
        f"{number} {street}, {state}",
        f"{number} {street.upper()}, {city.lower()}",
        f"{number} {street.lower()} {city.lower()} {state.lower()}",
        f"{number} {street}., {city}",
        f"{number} {street}",  # no city: the map's city (set to `city` below)
    ]


def addr_id(text: str, map_city: str) -> str | None:
    point = geocode(text, map_city)
    return point and point["id"]


@pytest.mark.parametrize(("short", "long"), PAIRS.items())
def test_each_street_type_short_or_long_is_one_address_off_the_grid(short, long):
    want = addr_id(f"77 Elm {short}, Austin, TX", "Austin")
    assert want == f"addr:77-elm-{short.lower()}-austin"
    for typed in ways_to_type(77, f"Elm {long}", "Austin") + ways_to_type(77, f"Elm {short}", "Austin"):
        assert addr_id(typed, "Austin") == want, typed


@pytest.mark.parametrize(("short", "long"), DIRECTIONS.items())
def test_each_direction_short_or_long_is_one_address(short, long):
    want = addr_id(f"233 {short} Wacker Dr, Chicago", "Chicago")
    assert want == f"addr:233-{short.lower()}-wacker-dr-chicago"
    assert addr_id(f"233 {long} Wacker Drive, Chicago, Illinois 60606", "Seattle") == want
    assert addr_id(f"900 Fremont Ave {long}, Seattle", "Seattle") == addr_id(
        f"900 Fremont Ave {short}", "Seattle"
    )


@pytest.mark.parametrize(("city", "street"), GRID)
def test_every_grid_street_is_one_address_however_it_is_typed(city, street):
    want = addr_id(f"1234 {street}, {city}", "San Francisco")
    assert want is not None and want.startswith(f"addr:1234-{slug(street)}-{slug(city)}-")
    for spelling in (street, spelled_out(street)):
        for typed in ways_to_type(1234, spelling, city):
            assert addr_id(typed, city) == want, typed


@pytest.mark.parametrize(("city", "street"), GRID)
def test_street_key_leaves_the_grid_spelling_and_so_its_ids_unchanged(city, street):
    assert slug(street_key(street)) == slug(street)


def test_a_street_in_one_city_only_is_found_from_any_map():
    assert addr_id("1450 Valencia Street", "Chicago") == addr_id("1450 Valencia St, San Francisco", "Austin")


def test_ids_that_tasks_check_are_kept():
    assert addr_id("1450 valencia street, san francisco, ca 94110", "Seattle") == (
        "addr:1450-valencia-st-san-francisco-ca-94114"
    )
    assert (
        addr_id("501 Stanyan Street San Francisco CA 94117", "Chicago") == "addr:501-stanyan-st-san-francisco"
    )
    assert addr_id("350 West 42nd Street, New York, NY", "San Francisco") == "addr:350-w-42nd-st-new-york"
    assert addr_id("1091 Seventh Avenue, New York", "San Francisco") == "addr:1091-7th-ave-new-york-ny-10013"


def test_other_words_people_shorten():
    assert addr_id("1200 MLK Junior Boulevard, Austin", "Austin") == addr_id("1200 MLK Jr Blvd", "Austin")
    assert addr_id("12 Saint Marks Place New York NY", "Austin") == addr_id(
        "12 St. Marks Pl, New York", "Austin"
    )
    assert addr_id("100 Fifth Avenue, Seattle, WA", "Seattle") == addr_id("100 5th Ave", "Seattle")
    assert addr_id("1 W North Avenue, Chicago", "Chicago") == addr_id("1 West North Ave, Chicago", "Chicago")


def test_another_house_number_is_another_place():
    assert addr_id("1450 Valencia St", "San Francisco") != addr_id("1452 Valencia St", "San Francisco")
    assert addr_id("77 Elm Street, Austin", "Austin") != addr_id("79 Elm St, Austin", "Austin")


def test_the_same_street_name_in_another_city_is_another_place():
    assert addr_id("100 5th Ave, New York", "Seattle") != addr_id("100 5th Ave, Seattle", "Seattle")
    assert addr_id("100 Fifth Avenue, Seattle", "Seattle") == addr_id(
        "100 5th Ave", "Seattle"
    )  # the map's city
    assert addr_id("100 5th Ave", "New York") == addr_id("100 5th Ave, New York", "Seattle")
    assert addr_id("77 Elm Street, Austin", "Chicago") != addr_id("77 Elm St, Chicago", "Chicago")
    assert addr_id("77 Elm St, TX", "Chicago") == addr_id("77 Elm Street, Austin", "Chicago")  # by state


def test_texts_that_are_no_address_of_the_map_stay_none():
    assert geocode("24 Hour Fitness", "San Francisco") is None  # no street type, no city: a name
    assert geocode("76", "San Francisco") is None
    assert geocode("Valencia St", "San Francisco") is None  # no house number
    assert geocode("450 Jane Stanford Way, Stanford, CA 94305", "San Francisco") is None  # another town
    assert geocode("1 Main St, Portland, OR", "San Francisco") is None


def test_links_and_directions_reach_one_id_for_one_address():
    phone = phone_with(MapsApp(), seed=0)
    for typed in ("501 Stanyan Street San Francisco", "501 stanyan st, San Francisco, CA 94117"):
        view(phone, f"geo:0,0?q={quote(typed)}")
        assert front(phone)["args"] == {"place_id": "addr:501-stanyan-st-san-francisco"}
    view(phone, "https://www.google.com/maps/dir/?api=1&destination=1091+Seventh+Avenue+New+York+NY")
    assert front(phone)["args"]["destination"] == "addr:1091-7th-ave-new-york-ny-10013"
    view(phone, "google.navigation:q=350+West+42nd+Street,+New+York")
    assert phone.app_states[PKG]["navigation"]["destination"]["id"] == "addr:350-w-42nd-st-new-york"


def test_new_york_is_the_city_when_no_city_follows_it():
    """ "New York" names a state and a city; before a country or after a neighbourhood it is the city."""
    for typed in ("1091 7th Ave, Chelsea, New York, United States", "1091 7th Ave, New York, New York"):
        spot = geocode(typed, "San Francisco")
        assert spot is not None and spot["city"] == "New York", typed
