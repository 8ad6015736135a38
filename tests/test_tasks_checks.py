"""Check predicates and ops (docs/formats.md) as pure functions over snapshot-shaped state."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from masbench.tasks import Check, SnapshotState, evaluate, ops
from masbench.tasks.checks import packages_read

AMAZON = "com.amazon.mShop.android.shopping"
STATE = SnapshotState(
    {
        "foreground": {
            "package": "com.google.android.apps.maps",
            "activity": "com.google.android.maps.MapsActivity",
            "screen": "directions",
            "args": {"destination": "Golden Gate Park", "mode": "transit", "stops": ["a", "b"]},
        },
        "settings": {"secure": {"ui_night_mode": "2"}, "system": {"screen_brightness": "127"}, "global": {}},
        "apps": {
            AMAZON: {
                "cart": [
                    {
                        "title": "Nike Air Zoom",
                        "brand": "Nike",
                        "price": 129.99,
                        "qty": 1,
                        "seller": {"name": "Nike"},
                    },
                    {
                        "title": "Adidas Ultraboost",
                        "brand": "Adidas",
                        "price": 180.0,
                        "qty": 2,
                        "seller": None,
                    },
                ],
                "query": "running shoes",
                "tags": ["Sale", "Prime"],
                "wishlist": [],
                "address": None,
            },
            "com.android.chrome": {"history": [{"url": "https://en.wikipedia.org/wiki/Mars", "time": "t"}]},
        },
    }
)


def check(data: dict) -> Check:
    return Check.model_validate(data)


def passes(data: dict) -> bool:
    return evaluate(check(data), STATE).passed


# -- ops -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("actual", "cond", "expected"),
    [
        ("Nike", {"eq": "Nike"}, True),
        ("Nike", {"eq": "nike"}, False),
        ("2", {"eq": 2}, True),  # numeric strings compare as numbers against numbers
        ("2", {"eq": "2"}, True),
        ("abc", {"eq": 2}, False),
        ("Nike", {"ne": "Adidas"}, True),
        ("Nike", {"ne": "Nike"}, False),
        (5, {"gt": 4}, True),
        (4, {"gt": 4}, False),
        (4, {"gte": 4}, True),
        (3, {"lt": 4}, True),
        (4, {"lt": 4}, False),
        (4, {"lte": 4}, True),
        ("127", {"gte": 120, "lte": 130}, True),
        ("2025-06-03T10:00:00+00:00", {"gte": "2025-06-03", "lt": "2025-06-04"}, True),
        ("abc", {"gt": 3}, False),  # incomparable: not satisfied, no exception
        ("transit", {"in": ["driving", "transit"]}, True),
        ("walking", {"in": ["driving", "transit"]}, False),
        (["Sale", "Prime"], {"contains": "Prime"}, True),
        (["Sale", "Prime"], {"contains": "prime"}, False),
        ("running shoes", {"contains": "shoes"}, True),
        ({"a": 1}, {"contains": "a"}, True),
        (42, {"contains": "4"}, False),
        ("Running Shoes", {"icontains": "running SHOES"}, True),
        (["Sale", "Prime"], {"icontains": "prime"}, True),
        (["Sale"], {"icontains": "prime"}, False),
        ("amazon-03", {"regex": r"^amazon-\d+$"}, True),
        ("booking", {"regex": r"^amazon"}, False),
        ("x", {"exists": True}, True),
        (None, {"exists": True}, False),
        (None, {"exists": False}, True),
        (ops.MISSING, {"exists": False}, True),
        (ops.MISSING, {"exists": True}, False),
        (ops.MISSING, {"ne": "x"}, False),  # a missing value satisfies nothing but exists: false
        (ops.MISSING, {"eq": None}, False),
    ],
)
def test_ops(actual, cond, expected):
    assert ops.holds(actual, ops.validate_ops(cond)) is expected


def test_bare_value_means_eq_and_op_dicts_are_validated():
    assert ops.normalize("Nike") == {"eq": "Nike"}
    assert ops.normalize({"gte": 1, "lte": 3}) == {"gte": 1, "lte": 3}
    assert ops.normalize({"name": "x"}) == {"eq": {"name": "x"}}  # a dict of fields is a value
    for bad, message in [
        ({"gte": 1, "color": "red"}, "mixes ops"),
        ({"in": "abc"}, "in needs a list"),
        ({"gt": True}, "gt needs a number or a string"),
        ({"regex": "("}, "bad regex"),
        ({"exists": "yes"}, "exists needs true or false"),
        ({"icontains": 3}, "icontains needs a string"),
    ]:
        with pytest.raises(ValueError, match=message):
            ops.normalize(bad)


def test_resolve_dotted_paths_and_list_indices():
    data = {"cart": [{"seller": {"name": "A"}}, {"seller": {"name": "B"}}]}
    assert ops.resolve(data, "cart.1.seller.name") == ("B", None)
    assert ops.resolve(data, "cart.-1.seller.name") == ("B", None)
    assert ops.resolve(data, "cart.2.seller") == (ops.MISSING, "cart.2")
    assert ops.resolve(data, "cart.x") == (ops.MISSING, "cart.x")
    assert ops.resolve(data, "basket.0") == (ops.MISSING, "basket")


# -- leaves --------------------------------------------------------------------------------------------
def test_items_where_and_count():
    assert passes(
        {
            "items": {
                "app": "amazon",
                "path": "cart",
                "where": {"brand": "Nike", "price": {"gte": 100, "lte": 200}},
            }
        }
    )
    assert not passes({"items": {"app": "amazon", "path": "cart", "where": {"brand": "Puma"}}})
    assert passes({"items": {"app": "amazon", "path": "cart", "count": 2}})  # an int means exactly
    assert not passes({"items": {"app": "amazon", "path": "cart", "count": 3}})
    assert passes(
        {"items": {"app": "amazon", "path": "cart", "where": {"qty": {"gte": 1}}, "count": {"gte": 2}}}
    )
    assert passes({"items": {"app": "amazon", "path": "wishlist", "count": 0}})
    assert passes({"items": {"app": "amazon", "path": "cart", "where": {"seller.name": "Nike"}, "count": 1}})
    assert passes(
        {"items": {"app": "amazon", "path": "cart", "where": {"seller.name": {"exists": False}}, "count": 1}}
    )


def test_items_default_count_is_at_least_one():
    assert not passes({"items": {"app": "amazon", "path": "wishlist"}})


def test_items_on_a_missing_path_or_non_list_is_not_satisfied_with_a_detail():
    result = evaluate(check({"items": {"app": "amazon", "path": "basket", "count": 0}}), STATE)
    assert not result.passed
    assert "path 'basket' does not exist" in result.details[0]
    result = evaluate(check({"items": {"app": "amazon", "path": "query"}}), STATE)
    assert not result.passed and "is not a list" in result.details[0]


def test_value_leaf():
    assert passes({"value": {"app": "amazon", "path": "query", "icontains": "SHOES"}})
    assert passes({"value": {"app": "amazon", "path": "cart.0.price", "gt": 100, "lt": 130}})
    assert not passes({"value": {"app": "amazon", "path": "cart.0.price", "gt": 130}})
    assert passes({"value": {"app": "chrome", "path": "history.-1.url", "contains": "wiki/Mars"}})
    assert passes({"value": {"app": "amazon", "path": "address", "exists": False}})


def test_missing_app_state_or_path_is_a_detail_not_an_exception():
    result = evaluate(check({"value": {"app": "gmail", "path": "sent", "exists": True}}), STATE)
    assert not result.passed and "gmail has no state" in result.details[0]
    result = evaluate(check({"value": {"app": "amazon", "path": "cart.5.title", "eq": "x"}}), STATE)
    assert not result.passed and "'cart.5' does not exist" in result.details[0]


def test_a_check_reads_the_apps_of_its_items_and_value_leaves():
    mixed = check(
        {
            "all": [
                {"items": {"app": "gmail", "path": "sent"}},
                {"not": {"value": {"app": "amazon", "path": "query", "eq": "x"}}},
                {"foreground": {"app": "maps"}},  # the foreground comes with every snapshot
            ]
        }
    )
    assert packages_read(mixed) == [AMAZON, "com.google.android.gm"]


def test_foreground_leaf():
    assert passes({"foreground": {"app": "maps"}})
    assert passes({"foreground": {"app": "maps", "screen": "directions"}})
    assert passes(
        {
            "foreground": {
                "app": "maps",
                "screen": "directions",
                "args": {"destination": {"icontains": "golden gate"}, "mode": "transit"},
            }
        }
    )
    assert passes({"foreground": {"app": "maps", "args": {"stops.1": "b"}}})
    assert not passes({"foreground": {"app": "maps", "args": {"mode": "driving"}}})
    assert not passes({"foreground": {"app": "maps", "screen": "search"}})
    assert not passes({"foreground": {"app": "chrome"}})
    assert not passes({"foreground": {"app": "maps", "args": {"origin": "home"}}})


RESULTS = {"city": "Paris", "review": 90, "fc": False, "stars": [], "price": "", "order": "popularity"}
LIST_THEN_HOTEL = {
    "foreground": {"package": "com.booking", "screen": "hotel", "args": {"hotel_id": 7}},
    "stack": [
        {"package": "com.booking", "screen": "search", "args": {}},
        {"package": "com.booking", "screen": "results", "args": RESULTS},
        {"package": "com.booking", "screen": "hotel", "args": {"hotel_id": 7}},
    ],
}


def booking_results(**spec) -> Check:
    return check({"foreground": {"app": "booking", "screen": "results", "args": {"city": "Paris"}, **spec}})


def test_foreground_unset_args_are_filters_that_must_be_off():
    front = SnapshotState({"foreground": LIST_THEN_HOTEL["stack"][1]})
    assert evaluate(booking_results(unset=["fc", "stars", "price"]), front).passed
    result = evaluate(booking_results(unset=["fc", "review"]), front)
    assert not result.passed and "wrong args review" in result.details[0]


def test_or_beneath_accepts_a_result_opened_from_the_asked_for_screen():
    opened = SnapshotState(LIST_THEN_HOTEL)
    assert not evaluate(booking_results(), opened).passed
    result = evaluate(booking_results(or_beneath=["hotel"]), opened)
    assert result.passed and "directly beneath 'hotel'" in result.details[0]
    # only directly beneath, with the asked-for args, and in the same app
    deeper = {
        **LIST_THEN_HOTEL,
        "stack": [*LIST_THEN_HOTEL["stack"], {"package": "com.booking", "screen": "rooms"}],
    }
    deeper["foreground"] = deeper["stack"][-1]
    assert not evaluate(booking_results(or_beneath=["hotel"]), SnapshotState(deeper)).passed
    assert not evaluate(booking_results(or_beneath=["hotel"], unset=["review"]), opened).passed
    # only under a screen the asked-for one opens: the rooms of a hotel deep-linked on top of it fail
    rooms_on_top = {
        **LIST_THEN_HOTEL,
        "stack": [*LIST_THEN_HOTEL["stack"][:2], {"package": "com.booking", "screen": "rooms"}],
    }
    rooms_on_top["foreground"] = rooms_on_top["stack"][-1]
    assert not evaluate(booking_results(or_beneath=["hotel"]), SnapshotState(rooms_on_top)).passed
    assert evaluate(booking_results(or_beneath=["hotel", "rooms"]), SnapshotState(rooms_on_top)).passed
    other_app = {**LIST_THEN_HOTEL, "foreground": {"package": "com.android.chrome", "screen": "tab"}}
    assert not evaluate(booking_results(or_beneath=["hotel"]), SnapshotState(other_app)).passed


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"args": {"fc": True}, "unset": ["fc"]}, "fc cannot be both in `args` and `unset`"),
        ({"or_beneath": ["hotel"]}, "`or_beneath` needs a `screen`"),
        ({"screen": "results", "or_beneath": ["results"]}, "not `screen` itself"),
    ],
)
def test_foreground_options_are_validated(spec, message):
    with pytest.raises(ValidationError, match=message):
        check({"foreground": {"app": "booking", **spec}})


def test_setting_leaf():
    assert passes({"setting": {"namespace": "secure", "key": "ui_night_mode", "eq": "2"}})
    assert passes({"setting": {"namespace": "secure", "key": "ui_night_mode", "eq": 2}})
    assert passes({"setting": {"namespace": "system", "key": "screen_brightness", "gt": 102}})
    assert not passes({"setting": {"namespace": "secure", "key": "ui_night_mode", "eq": "1"}})
    result = evaluate(check({"setting": {"namespace": "global", "key": "wifi_on", "eq": "1"}}), STATE)
    assert not result.passed and "not set" in result.details[0]


# -- combinators ---------------------------------------------------------------------------------------
def test_all_any_not():
    yes = {"foreground": {"app": "maps"}}
    no = {"foreground": {"app": "chrome"}}
    assert passes({"all": [yes, yes]})
    assert not passes({"all": [yes, no]})
    assert passes({"any": [no, yes]})
    assert not passes({"any": [no, no]})
    assert passes({"not": no})
    assert not passes({"not": yes})
    assert passes({"all": [{"not": {"any": [no, no]}}, {"any": [yes]}]})


def test_details_have_one_line_per_leaf_with_verdicts():
    result = evaluate(
        check({"all": [{"foreground": {"app": "maps"}}, {"not": {"foreground": {"app": "maps"}}}]}), STATE
    )
    assert not result.passed
    assert result.details[0] == "all:"
    assert result.details[1].strip().startswith("PASS foreground maps")
    assert result.details[2].strip() == "not (must fail):"
    assert result.details[3].strip().startswith("PASS foreground maps")


# -- the check model -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "exactly one of"),
        (
            {"foreground": {"app": "maps"}, "setting": {"namespace": "secure", "key": "k", "eq": 1}},
            "exactly one of",
        ),
        ({"all": []}, "at least 1 item"),
        ({"value": {"app": "amazon", "path": "cart"}}, "needs at least one op"),
        ({"value": {"app": "amazn", "path": "cart", "eq": 1}}, "unknown app 'amazn'"),
        ({"value": {"app": "amazon", "path": "cart", "eq": 1, "colour": 1}}, "Extra inputs"),
        ({"setting": {"namespace": "sys", "key": "k", "eq": 1}}, "'system', 'secure' or 'global'"),
        ({"items": {"app": "amazon", "path": "cart", "where": {"price": {"gte": 1, "max": 2}}}}, "mixes ops"),
        ({"items": {"app": "amazon", "path": "cart", "count": {"most": 2}}}, "unknown op 'most'"),
        ({"items": {"app": "amazon", "path": "cart", "count": "two"}}, "must be a number or ops"),
    ],
)
def test_bad_checks_are_rejected(data, message):
    with pytest.raises(ValidationError, match=message):
        check(data)


def test_inline_ops_round_trip_through_dump():
    c = check(
        {
            "all": [
                {"value": {"app": "amazon", "path": "query", "icontains": "shoe"}},
                {"not": {"setting": {"namespace": "secure", "key": "k", "eq": "2"}}},
            ]
        }
    )
    dumped = c.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert dumped["all"][0] == {"value": {"app": "amazon", "path": "query", "icontains": "shoe"}}
    assert dumped["all"][1] == {"not": {"setting": {"namespace": "secure", "key": "k", "eq": "2"}}}
    assert check(dumped) == c
