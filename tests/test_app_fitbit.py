"""The Fitbit stand-in: seeded statistics, the Today tiles and detail tabs, deep links, logging and deleting
exercise, water, food and weight (stored in one unit whatever the settings show), goals, settings and
challenges."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import phone_helpers
import pytest
from phone_helpers import elements, find, front, phone_with, present, tap
from test_app_contract import contract_violations

from masbench.vphone.apps.fitbit import FitbitApp, content
from masbench.vphone.phone import VirtualPhone

PKG = "com.fitbit.FitbitMobile"
CLOCK = datetime(2025, 6, 5, 19, 30, tzinfo=UTC)  # a Thursday evening
TODAY, YESTERDAY = "2025-06-05", "2025-06-04"


def make_phone(seed: int = 0) -> VirtualPhone:
    return phone_with(FitbitApp(), seed=seed, clock=CLOCK)


@pytest.fixture
def phone() -> VirtualPhone:
    p = make_phone()
    p.launch(PKG)
    return p


state = partial(phone_helpers.state, package=PKG)
view = partial(phone_helpers.view, package=PKG)


def type_in(phone: VirtualPhone, rid: str, value: str) -> None:
    tap(phone, resource_id=rid)
    phone.input_text(value)


def texts(phone: VirtualPhone, rid: str) -> list[str]:
    return [e.text for e in elements(phone) if e.resource_id.endswith("/" + rid)]


# -- content -----------------------------------------------------------------------------------------------


def test_statistics_come_from_the_seed_and_stop_at_the_clock():
    first, again, other = (state(make_phone(s))["stats"] for s in (3, 3, 4))
    assert first == again and first != other
    today, yesterday = first[TODAY], first[YESTERDAY]
    assert 0 < today["steps"] < yesterday["steps"] * 2
    assert today["distance_km"] == round(today["steps"] * content.STRIDE_KM, 2)
    assert len(first) == 28 and sum(yesterday["sleep"]["stages"].values()) > yesterday["sleep"]["minutes"]
    later = content.day_stats(1, datetime(2025, 6, 6).date(), CLOCK)
    assert later["steps"] == 0  # the future has no data


def test_public_state_reports_logs_goals_settings_and_joined_challenges(phone):
    s = state(phone)
    assert set(s["logs"]) == {"exercise", "water", "food", "weight"}
    assert s["goals"]["steps"] == 10000 and s["settings"]["distance_unit"] == "mi"
    assert "workweek-hustle" in s["challenges_joined"]
    assert all(e["date"] < TODAY for e in s["logs"]["exercise"])


# -- Today and details -------------------------------------------------------------------------------------


def test_today_tiles_show_the_stats_and_open_their_detail(phone):
    stats = state(phone)["stats"][TODAY]
    assert front(phone)["screen"] == "today"
    assert find(phone, resource_id="tile_steps").content_desc == f"Steps: {stats['steps']:,}, of 10,000 steps"
    tap(phone, resource_id="tile_sleep")
    assert front(phone)["args"] == {"metric": "sleep"}
    assert present(phone, resource_id="sleep_score")
    tap(phone, resource_id="date_previous")
    assert texts(phone, "date_label") == ["Yesterday"]
    assert not present(phone, resource_id="date_previous", clickable=False)
    tap(phone, text="Week")
    assert present(phone, resource_id="chart") and len(texts(phone, "day_value")) == 5  # Sun..Thu
    tap(phone, text="Month")
    assert texts(phone, "date_label") == ["June 2025"]
    tap(phone, resource_id="date_previous")
    assert texts(phone, "date_label") == ["May 2025"]


# -- deep links --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("uri", "screen", "args"),
    [
        ("https://www.fitbit.com/in-app/today", "today", {}),
        ("fitbit://core-stats/steps", "stats", {"metric": "steps"}),
        ("fitbit://core-stats/heartrate", "stats", {"metric": "heartrate"}),
        ("fitbit://core-stats/water", "water", {}),
        ("fitbit://core-stats/food", "food", {}),
        ("fitbit://workouts", "exercise", {}),
        ("fitbit://challenges", "discover", {}),
        ("fitbit://challenges?challenge_id=weekend-warrior", "challenge", {"id": "weekend-warrior"}),
        ("fitbit://challenges?challenge_id=nope", "discover", {}),
        ("fitbit://log/exercise?type=run", "log_exercise", {"type": "Run"}),
        ("fitbit://log/food?meal=lunch", "food_search", {"meal": "Lunch"}),
        ("fitbit://goals", "goals", {}),
        ("fitbit://settings", "settings", {}),
        ("fitbit://nudges", "today", {}),
    ],
)
def test_deep_links_open_their_screen(phone, uri, screen, args):
    view(phone, uri)
    assert front(phone)["package"] == PKG
    assert front(phone)["screen"] == screen and front(phone)["args"] == args


# -- logging ------------------------------------------------------------------------------------------------


def test_logging_a_run_yesterday_in_kilometres_stores_kilometres(phone):
    before = len(state(phone)["logs"]["exercise"])
    view(phone, "fitbit://log/exercise")
    tap(phone, resource_id="save_exercise_button")
    assert texts(phone, "error_text") == ["Choose an exercise type"]
    tap(phone, resource_id="exercise_type_option", text="Run")
    tap(phone, resource_id="date_previous")
    type_in(phone, "exercise_start_time", "7:00 AM")
    type_in(phone, "exercise_duration", "30")
    type_in(phone, "exercise_distance", "5")
    tap(phone, resource_id="distance_unit", text="km")
    tap(phone, resource_id="save_exercise_button")
    logged = state(phone)["logs"]["exercise"]
    assert len(logged) == before + 1
    assert {k: logged[-1][k] for k in ("type", "date", "start", "duration_min", "distance_km")} == {
        "type": "Run", "date": YESTERDAY, "start": "07:00", "duration_min": 30, "distance_km": 5.0,
    }  # fmt: skip
    assert front(phone)["screen"] == "exercise"
    tap(phone, resource_id="exercise_row", nth=0)
    assert texts(phone, "detail_distance") == ["3.11 mi"]
    tap(phone, resource_id="delete_exercise_button")
    tap(phone, resource_id="confirm_delete_button")
    assert len(state(phone)["logs"]["exercise"]) == before


def test_exercise_cannot_start_in_the_future(phone):
    view(phone, "fitbit://log/exercise?type=Walk")
    type_in(phone, "exercise_start_time", "21:00")
    type_in(phone, "exercise_duration", "20")
    tap(phone, resource_id="save_exercise_button")
    assert texts(phone, "error_text") == ["The exercise can't start in the future"]


def test_water_in_fluid_ounces_or_millilitres_and_quick_buttons(phone):
    tap(phone, resource_id="tile_water")
    before = len(state(phone)["logs"]["water"])
    tap(phone, resource_id="quick_add_250")
    tap(phone, resource_id="add_water_button")
    type_in(phone, "water_amount", "750")
    tap(phone, resource_id="water_unit", text="ml")
    tap(phone, resource_id="save_water_button")
    tap(phone, resource_id="add_water_button")
    type_in(phone, "water_amount", "8")
    tap(phone, resource_id="save_water_button")
    new = [(w["date"], w["amount_ml"]) for w in state(phone)["logs"]["water"][before:]]
    assert new == [(TODAY, 250.0), (TODAY, 750.0), (TODAY, 236.6)]
    assert front(phone)["screen"] == "water"
    tap(phone, resource_id="remove_water_entry", nth=-1)
    assert len(state(phone)["logs"]["water"]) == before + 2


def test_food_search_forgives_and_logs_servings_to_the_chosen_meal(phone):
    tap(phone, resource_id="tile_food")
    tap(phone, resource_id="add_to_meal", content_desc="Add food to Lunch")
    type_in(phone, "food_search_field", "salads chicken")
    assert texts(phone, "food_name") == ["Chicken Salad"]
    tap(phone, resource_id="food_result")
    type_in(phone, "food_servings", "2")
    tap(phone, resource_id="log_food_entry_button")
    entry = state(phone)["logs"]["food"][-1]
    assert (entry["food_id"], entry["meal"], entry["servings"], entry["calories"]) == (
        "chicken-salad",
        "Lunch",
        2.0,
        660,
    )
    assert front(phone)["screen"] == "food" and len(phone.stack) == 3  # home, Today, Food
    tap(phone, resource_id="quick_calories_button")
    type_in(phone, "quick_calories_value", "120")
    tap(phone, resource_id="save_quick_calories_button")
    quick = state(phone)["logs"]["food"][-1]
    assert (quick["food_id"], quick["meal"], quick["calories"]) == ("quick-calories", "Dinner", 120)


def test_weight_typed_in_pounds_is_stored_in_kilograms(phone):
    view(phone, "fitbit://core-stats/weight")
    tap(phone, resource_id="log_weight_button")
    type_in(phone, "weight_value", "160.2")
    tap(phone, resource_id="save_weight_button")
    assert state(phone)["logs"]["weight"][-1] | {"id": ""} == {"id": "", "date": TODAY, "weight_kg": 72.67}
    assert texts(phone, "weight_latest") == ["160.2 lb"]


# -- goals, settings, challenges --------------------------------------------------------------------------


def test_goals_are_edited_in_the_units_shown(phone):
    view(phone, "fitbit://goals")
    tap(phone, resource_id="goal_steps")
    type_in(phone, "goal_value", "12000")
    tap(phone, resource_id="save_goal_button")
    tap(phone, resource_id="goal_sleep")
    tap(phone, resource_id="sleep_goal_option", text="8 hr 0 min")
    tap(phone, resource_id="goal_distance")
    type_in(phone, "goal_value", "5")
    tap(phone, resource_id="save_goal_button")
    goals = state(phone)["goals"]
    assert (goals["steps"], goals["sleep_min"], goals["distance_km"]) == (12000, 480, 8.05)


def test_settings_change_units_week_start_and_notifications(phone):
    tap(phone, resource_id="nav_you")
    tap(phone, resource_id="you_settings")
    tap(phone, resource_id="setting_distance_unit")
    tap(phone, resource_id="unit_option", text="Kilometers")
    tap(phone, resource_id="setting_week_start")
    tap(phone, resource_id="week_start_option", text="Monday")
    tap(phone, resource_id="notify_sleep")
    settings = state(phone)["settings"]
    assert settings["distance_unit"] == "km" and settings["week_start"] == "Monday"
    assert settings["notifications"]["sleep"] is True
    phone.back()
    tap(phone, resource_id="nav_today")
    assert "km" in find(phone, resource_id="tile_distance").content_desc


def test_start_of_week_decides_what_this_week_holds(phone):
    phone.app_states[PKG]["logs"]["exercise"] = [
        content.exercise_entry("a", "Run", "2025-06-01", "07:00", 30, 5.0, 150),  # Sunday
        content.exercise_entry("b", "Yoga", "2025-06-03", "18:00", 45, 0.0, 90),  # Tuesday
    ]
    view(phone, "fitbit://workouts")
    assert texts(phone, "this_week_header") == ["This week · 2 of 5 days"]
    phone.app_states[PKG]["settings"]["week_start"] = "Monday"
    phone.invalidate()
    assert texts(phone, "this_week_header") == ["This week · 1 of 5 days"]
    assert texts(phone, "exercise_type") == ["Yoga", "Run"]  # newest first, the Run under Earlier


def test_join_and_leave_challenges(phone):
    tap(phone, resource_id="nav_discover")
    tap(phone, resource_id="challenge_name", text="Weekend Warrior")
    tap(phone, resource_id="join_challenge_button")
    phone.back()
    tap(phone, resource_id="challenge_name", text="Workweek Hustle")
    tap(phone, resource_id="leave_challenge_button")
    tap(phone, resource_id="confirm_leave_button")
    joined = state(phone)["challenges_joined"]
    assert "weekend-warrior" in joined and "workweek-hustle" not in joined
    assert not present(phone, resource_id="leaderboard_row")  # only a joined challenge ranks you


def test_a_joined_challenge_ranks_your_steps_of_its_days_among_friends(phone):
    stats = state(phone)["stats"]
    workdays = sum(stats[d]["steps"] for d in ("2025-06-02", "2025-06-03", "2025-06-04", TODAY))
    view(phone, "fitbit://challenges?challenge_id=workweek-hustle")
    names = texts(phone, "leaderboard_name")
    assert (
        "You" in names
        and len(names)
        == next(c for c in state(phone)["challenges"] if c["id"] == "workweek-hustle")["participants"] + 1
    )
    mine = texts(phone, "leaderboard_steps")[names.index("You")]
    assert mine == f"{workdays:,} steps"


# -- every screen and dialog keeps the app contract ----------------------------------------------------------

VISITS = [  # a deep link, then taps (resource id, or (resource id, text)) to reach a screen or dialog
    ("fitbit://today", []),
    *[
        (f"fitbit://core-stats/{m}", taps)
        for m in ("steps", "distance", "calories", "azm", "floors", "sleep", "heartrate")
        for taps in ([], [("tab", "Week")], [("tab", "Month")])
    ],
    ("fitbit://workouts", []),
    ("fitbit://workouts", [("exercise_row", None)]),
    ("fitbit://workouts", [("exercise_row", None), "delete_exercise_button"]),
    ("fitbit://log/exercise?type=Swim", ["save_exercise_button"]),
    ("fitbit://log/exercise?type=Yoga", []),
    ("fitbit://core-stats/water", []),
    ("fitbit://log/water", ["save_water_button"]),
    ("fitbit://core-stats/weight", []),
    ("fitbit://log/weight", []),
    ("fitbit://core-stats/food", []),
    ("fitbit://log/food?meal=Lunch", []),
    ("fitbit://core-stats/food", ["quick_calories_button"]),
    ("fitbit://you", []),
    ("fitbit://goals", []),
    ("fitbit://goals", ["goal_weight"]),
    ("fitbit://goals", ["goal_sleep"]),
    ("fitbit://badges", []),
    ("fitbit://settings", []),
    ("fitbit://settings", ["setting_water_unit"]),
    ("fitbit://settings", ["setting_week_start"]),
    ("fitbit://challenges", []),
    ("fitbit://challenges?challenge_id=weekend-warrior", []),
    ("fitbit://challenges?challenge_id=workweek-hustle", ["leave_challenge_button"]),
]


@pytest.mark.parametrize(("uri", "taps"), VISITS)
def test_screens_and_dialogs_keep_the_contract(phone, uri, taps):
    view(phone, uri)
    for step in taps:
        rid, label = step if isinstance(step, tuple) else (step, None)
        if rid == "tab":
            tap(phone, content_desc=label)
        else:
            tap(phone, resource_id=rid, **({"text": label} if label else {}))
    assert contract_violations(phone) == []


def test_food_search_results_and_serving_form_keep_the_contract(phone):
    view(phone, "fitbit://log/food?meal=Dinner")
    type_in(phone, "food_search_field", "salad")
    assert len(texts(phone, "food_name")) == 3
    assert contract_violations(phone) == []
    tap(phone, resource_id="food_result", nth=0)
    assert contract_violations(phone) == []
