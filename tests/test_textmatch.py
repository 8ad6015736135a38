"""The apps' shared search matcher forgives case, accents, plurals, word order and place phrasings."""

from __future__ import annotations

import pytest

from masbench.vphone.apps.textmatch import contains_words, fold, same, singular, split_place, words

CITIES = ["San Francisco", "Chicago", "New York", "Zürich"]


def test_fold_drops_case_accents_and_apostrophes():
    assert fold("Montjuïc") == "montjuic"
    assert fold("ZÜRICH") == "zurich"
    assert fold("Joe's Café") == "joes cafe"
    assert fold("Straße") == "strasse"


@pytest.mark.parametrize(
    ("plural", "one"),
    [("museums", "museum"), ("churches", "church"), ("bakeries", "bakery"), ("boxes", "box"),
     ("glasses", "glass"), ("bus", "bus"), ("paris", "paris"), ("tacos", "taco")],
)  # fmt: skip
def test_singular(plural, one):
    assert singular(plural) == one


def test_words_are_folded_singular_and_in_order():
    assert words("Chicago's Museums & Parks") == ["chicago", "museum", "and", "park"]


def test_contains_words_ignores_order_plural_and_accents():
    assert contains_words("Art Museum of Montjuïc", "museums montjuic")
    assert contains_words("Hanok Tofu House", "tofu hous")  # a word being typed still matches
    assert contains_words("Anything", "")
    assert not contains_words("Art Museum", "museum zoo")
    assert not contains_words("Seafood Shack", "food")  # words match from their start, not inside


def test_same():
    assert same("Zurich", "Zürich") and same("Museums", "museum")
    assert not same("museum art", "art museum")


@pytest.mark.parametrize(
    "query",
    ["Chicago museums", "museum chicago", "museums in Chicago", "museums near Chicago", "museums, Chicago"],
)
def test_split_place_finds_the_city_in_any_phrasing(query):
    what, city = split_place(query, CITIES)
    assert city == "Chicago"
    assert words(what) == ["museum"]


def test_split_place_prefers_the_longest_place_and_forgives_accents():
    assert split_place("pizza new york", [*CITIES, "York"]) == ("pizza", "New York")
    assert split_place("hotels in Zurich", CITIES) == ("hotels", "Zürich")


def test_split_place_without_a_place_keeps_the_query():
    assert split_place("  sushi bars ", CITIES) == ("sushi bars", None)
    assert split_place("Chicagoland pizza", CITIES) == ("Chicagoland pizza", None)
