"""Each app's search finds the same things however a person phrases the query, as the real apps do:
word order, plurals, case, accents and "X in City" / "City X" forms (the shared textmatch module)."""

from __future__ import annotations

import pytest

from masbench.vphone.apps.amazon.catalog import catalog
from masbench.vphone.apps.booking import catalog as booking
from masbench.vphone.apps.maps import model as maps
from masbench.vphone.apps.yelp import model as yelp
from masbench.vphone.build import build_phone

YELP, MAPS = "com.yelp.android", "com.google.android.apps.maps"


@pytest.fixture(scope="module")
def phone():
    return build_phone("vphone-1")


@pytest.mark.parametrize(
    "query", ["Chicago museums", "museum chicago", "museums in Chicago", "MUSEUMS near chicago"]
)
def test_maps_finds_chicago_museums_in_any_phrasing(phone, query):
    state = phone.app_states[MAPS]
    args = maps.search_args(state, query)
    found = maps.search(state, args, phone.now())
    assert args["city"] == "Chicago" and args["category"] == "Museum"
    assert (
        found and {p["city"] for p in found} == {"Chicago"} and {p["category"] for p in found} == {"Museum"}
    )


def test_maps_keeps_a_city_that_is_part_of_a_name(phone):
    state = phone.app_states[MAPS]
    found = maps.search(state, maps.search_args(state, "Art Institute of Chicago"), phone.now())
    assert [p["name"] for p in found] == ["Art Institute of Chicago"]
    assert [p["name"] for p in maps.name_matches(state, "pier navy")] == ["Navy Pier"]


@pytest.mark.parametrize("query", ["Chicago pizza", "pizza chicago", "pizzas in Chicago", "Pizza, Chicago"])
def test_yelp_finds_chicago_pizza_in_any_phrasing(phone, query):
    state = phone.app_states[YELP]
    args = yelp.search_args(query)
    found = yelp.search(state, args, phone.now())
    assert args["location"] == "Chicago, IL" and args["query"].lower().startswith("pizza")
    assert found and all(b["city"] == "Chicago" and b["category"] == "pizza" for b in found)


def test_yelp_plural_and_word_order(phone):
    state = phone.app_states[YELP]

    def names(query: str) -> list[str]:
        return [b["name"] for b in yelp.search(state, yelp.search_args(query, "Seattle"), phone.now())]

    assert names("bakeries") == names("bakery") != []
    assert names("coffee roasters") == names("roaster coffee") != []


def test_yelp_results_are_deterministic(phone):
    state = phone.app_states[YELP]
    args = yelp.search_args("pizza in Chicago")
    assert yelp.search(state, args, phone.now()) == yelp.search(state, args, phone.now())


def test_amazon_forgives_order_plurals_and_case():
    products = catalog(1)
    watches = products.matches("mechanical watches")
    assert watches and products.matches("Watch Mechanical") == watches


@pytest.mark.parametrize("typed", ["Montjuic", "montjuïc", "MONTJUIC"])
def test_booking_forgives_accents_in_property_names(typed):
    found = booking.suggestions(typed)
    assert found and all("Montjuïc" in title for title, _, hotel in found if hotel is not None)


@pytest.mark.parametrize("typed", ["hotels in Paris", "Paris hotels", "paris"])
def test_booking_suggests_the_city_named_first(typed):
    title, _, hotel = booking.suggestions(typed)[0]
    assert (title, hotel) == ("Paris", None)
    assert booking.city_of(typed).name == "Paris"


def test_booking_finds_a_property_by_its_words_and_city():
    hotel = next(h for h in booking.catalog().values() if h["name"] == "Schöneberg Apartments")
    for typed in ("Schoneberg Apartments", "apartments schoneberg", "Schoneberg Apartments Berlin"):
        assert hotel["id"] in [hid for _, _, hid in booking.suggestions(typed)]
