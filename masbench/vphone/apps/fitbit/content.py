"""Fitbit's content: the daily statistics a tracker would have recorded (steps, distance, calories, Active
Zone Minutes, floors, heart rate, sleep), drawn from the seed and the date so any day, week or month is the
same on every run without being stored, plus the food database, badges, challenges and the seeded logs.

Amounts are stored in one unit whatever the settings show (kilometres, millilitres, kilograms), so checks
compare numbers, not display strings; `common.py` converts for display and input."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from ..textmatch import contains_words

EXERCISE_TYPES = ("Run", "Walk", "Bike", "Swim", "Yoga", "Weights")
WITH_DISTANCE = ("Run", "Walk", "Bike", "Swim")
MEALS = ("Breakfast", "Lunch", "Dinner", "Snacks")
STRIDE_KM = 0.00074  # distance per step
SLEEP_STAGES = ("Awake", "REM", "Light", "Deep")


@dataclass(frozen=True)
class Food:
    id: str
    name: str
    serving: str
    calories: int


FOODS = (
    Food("oatmeal", "Oatmeal, cooked", "1 cup", 166),
    Food("oatmeal-berries", "Oatmeal with Berries", "1 bowl", 210),
    Food("scrambled-eggs", "Scrambled Eggs", "2 eggs", 182),
    Food("greek-yogurt", "Greek Yogurt, plain", "170 g", 100),
    Food("banana", "Banana", "1 medium", 105),
    Food("apple", "Apple", "1 medium", 95),
    Food("avocado-toast", "Avocado Toast", "1 slice", 195),
    Food("pancakes", "Pancakes", "3 pancakes", 350),
    Food("chicken-salad", "Chicken Salad", "1 bowl", 330),
    Food("caesar-salad", "Caesar Salad", "1 bowl", 190),
    Food("garden-salad", "Garden Salad", "1 bowl", 70),
    Food("turkey-sandwich", "Turkey Sandwich", "1 sandwich", 320),
    Food("tomato-soup", "Tomato Soup", "1 cup", 85),
    Food("grilled-salmon", "Grilled Salmon", "150 g", 280),
    Food("salmon-sushi", "Salmon Sushi Roll", "8 pieces", 300),
    Food("spaghetti-bolognese", "Spaghetti Bolognese", "1 plate", 520),
    Food("chicken-breast", "Chicken Breast, grilled", "150 g", 248),
    Food("brown-rice", "Brown Rice", "1 cup", 216),
    Food("steamed-broccoli", "Steamed Broccoli", "1 cup", 55),
    Food("almonds", "Almonds", "28 g", 164),
    Food("protein-bar", "Protein Bar", "1 bar", 200),
    Food("dark-chocolate", "Dark Chocolate", "2 squares", 110),
    Food("orange-juice", "Orange Juice", "1 glass", 112),
    Food("latte", "Caffe Latte", "12 fl oz", 150),
)
FOOD_BY_ID = {f.id: f for f in FOODS}

BADGES = (  # id, name, what earned it
    ("boat-shoe", "Boat Shoe", "5,000 steps in a day"),
    ("sneaker", "Sneaker", "10,000 steps in a day"),
    ("urban-boot", "Urban Boot", "15,000 steps in a day"),
    ("happy-hill", "Happy Hill", "10 floors in a day"),
    ("marathon", "Marathon", "42 km walked in total"),
    ("penguin-march", "Penguin March", "112 km walked in total"),
    ("well-rested", "Well Rested", "7 nights of 7+ hours"),
    ("hydrated", "Hydration Hero", "Water goal met 5 days in a row"),
)
CHALLENGES = (  # id, name, kind, description
    ("weekend-warrior", "Weekend Warrior", "Most steps Saturday and Sunday", "weekend"),
    ("workweek-hustle", "Workweek Hustle", "Most steps Monday to Friday", "workweek"),
    ("daily-showdown", "Daily Showdown", "Most steps in one day", "day"),
    ("goal-day", "Goal Day", "Everyone reaches the step goal today", "day"),
    ("marathon-adventure", "Marathon Adventure", "Walk the length of a marathon route", "adventure"),
    ("azm-sprint", "AZM Sprint", "Earn 150 Active Zone Minutes this week", "week"),
)
DEFAULT_GOALS = {
    "steps": 10000,
    "distance_km": 8.0,
    "calories": 2500,
    "azm": 22,
    "sleep_min": 450,
    "water_ml": 1900,
    "weight_kg": 75.0,
}
DEFAULT_SETTINGS: dict[str, Any] = {
    "distance_unit": "mi",
    "weight_unit": "lb",
    "water_unit": "fl oz",
    "week_start": "Sunday",
    "notifications": {"goal_reached": True, "reminders_to_move": True, "challenges": True, "sleep": False},
}


# -- daily statistics ----------------------------------------------------------------------------------


def day_stats(seed: int, day: date, now: datetime) -> dict[str, Any]:
    """What the tracker recorded on `day`: a full day in the past, the part of today until `now`, and
    nothing in the future. The same seed and day always give the same numbers."""
    today = now.date()
    if day > today:
        return empty_stats(day)
    rng = random.Random(f"{seed}:{day.isoformat()}")
    weekend = day.weekday() >= 5
    share = 1.0 if day < today else (now.hour * 60 + now.minute) / (24 * 60)
    steps = int(rng.randint(4200, 13800) * (1.15 if weekend else 1.0) * share)
    azm = int(rng.randint(0, 45) * share)
    fat_burn = int(azm * 0.6)
    sleep_min = rng.randint(330, 510)
    stages = split_sleep(rng, sleep_min)
    bedtime = datetime.combine(day - timedelta(days=1), datetime.min.time()) + timedelta(
        hours=22, minutes=rng.randrange(0, 150, 5)
    )
    return {
        "date": day.isoformat(),
        "steps": steps,
        "distance_km": round(steps * STRIDE_KM, 2),
        "calories": int((1650 + steps * 0.045 + azm * 6) * (share if day == today else 1.0)),
        "azm": azm,
        "floors": int(rng.randint(2, 18) * share),
        "resting_hr": rng.randint(56, 66),
        "hr_zones": {"fat_burn": fat_burn, "cardio": azm - fat_burn - azm // 8, "peak": azm // 8},
        "sleep": {
            "minutes": sleep_min,
            "score": min(99, 55 + sleep_min // 15 + rng.randint(-6, 6)),
            "stages": stages,
            "bedtime": bedtime.strftime("%H:%M"),
            "wake": (bedtime + timedelta(minutes=sleep_min + stages["Awake"])).strftime("%H:%M"),
        },
    }


HOURLY_PROFILE = (0, 0, 0, 0, 0, 1, 3, 6, 8, 6, 5, 6, 8, 6, 5, 5, 6, 8, 9, 6, 4, 3, 1, 0)  # a day's rhythm


def hourly(seed: int, day: date, total: float, hours: int = 24) -> list[float]:
    """`total` spread over the first `hours` hours of `day` in a seeded daily rhythm (the rest zero), the
    parts adding up to the total."""
    rng = random.Random(f"{seed}:{day.isoformat()}:hourly")
    weights = [w * rng.uniform(0.5, 1.5) if h < hours else 0.0 for h, w in enumerate(HOURLY_PROFILE)]
    scale = total / (sum(weights) or 1.0)
    parts = [round(w * scale, 2) for w in weights]
    if total and any(parts):
        peak = parts.index(max(parts))
        parts[peak] = round(parts[peak] + total - sum(parts), 2)
    return parts


FRIENDS = ("Priya", "Jordan", "Sam", "Mei", "Diego", "Ava", "Noah", "Lena", "Omar", "Zoe", "Kenji", "Ruth")


def leaderboard(seed: int, challenge_id: str, friends: int, your_steps: int) -> list[tuple[str, int]]:
    """A challenge's ranking: seeded friends' step counts around yours, and you, most steps first."""
    rng = random.Random(f"{seed}:{challenge_id}")
    base = max(your_steps, 5000)
    rows = [(name, int(base * rng.uniform(0.55, 1.45))) for name in FRIENDS[:friends]]
    return sorted([*rows, ("You", your_steps)], key=lambda r: -r[1])


def split_sleep(rng: random.Random, minutes: int) -> dict[str, int]:
    """Minutes in each sleep stage: REM about a fifth, deep about a sixth, light the rest; awake extra."""
    rem = int(minutes * rng.uniform(0.18, 0.24))
    deep = int(minutes * rng.uniform(0.13, 0.19))
    return {"Awake": rng.randint(20, 55), "REM": rem, "Light": minutes - rem - deep, "Deep": deep}


def empty_stats(day: date) -> dict[str, Any]:
    return {
        "date": day.isoformat(),
        "steps": 0,
        "distance_km": 0.0,
        "calories": 0,
        "azm": 0,
        "floors": 0,
        "resting_hr": 0,
        "hr_zones": {"fat_burn": 0, "cardio": 0, "peak": 0},
        "sleep": {
            "minutes": 0,
            "score": 0,
            "stages": dict.fromkeys(SLEEP_STAGES, 0),
            "bedtime": "",
            "wake": "",
        },
    }


# -- seeded state --------------------------------------------------------------------------------------


def seeded_exercises(rng: random.Random, today: date) -> list[dict[str, Any]]:
    """About a workout every other day over the last two weeks, oldest first."""
    out: list[dict[str, Any]] = []
    for back in range(14, 0, -1):
        if rng.random() < 0.5:
            continue
        kind = rng.choice(EXERCISE_TYPES)
        minutes = rng.choice((20, 25, 30, 35, 40, 45, 50, 60))
        out.append(
            exercise_entry(
                f"ex{len(out) + 1}",
                kind,
                (today - timedelta(days=back)).isoformat(),
                f"{rng.choice((6, 7, 12, 17, 18, 19)):02d}:{rng.choice((0, 15, 30, 45)):02d}",
                minutes,
                round(minutes * SPEED_KMH.get(kind, 0) / 60, 2),
                rng.randint(118, 152),
            )
        )
    return out


SPEED_KMH = {"Run": 10.0, "Walk": 5.2, "Bike": 18.0, "Swim": 2.0}
KCAL_PER_MIN = {"Run": 11.0, "Walk": 4.5, "Bike": 8.0, "Swim": 9.0, "Yoga": 3.5, "Weights": 5.0}


def exercise_entry(
    entry_id: str, kind: str, day: str, start: str, minutes: int, distance_km: float, avg_hr: int
) -> dict[str, Any]:
    """One exercise log entry as public state reports it."""
    return {
        "id": entry_id,
        "type": kind,
        "date": day,
        "start": start,
        "duration_min": minutes,
        "distance_km": distance_km if kind in WITH_DISTANCE else 0.0,
        "calories": int(minutes * KCAL_PER_MIN[kind]),
        "avg_hr": avg_hr,
    }


def seeded_logs(rng: random.Random, today: date) -> dict[str, list[dict[str, Any]]]:
    """A few days of water, food and weight entries, as a user who logs now and then has."""
    water: list[dict[str, Any]] = []
    food: list[dict[str, Any]] = []
    weight: list[dict[str, Any]] = []
    for back in range(3, -1, -1):
        day = (today - timedelta(days=back)).isoformat()
        for amount in rng.sample((250, 330, 500), 2 if back else 1):
            water.append({"id": f"w{len(water) + 1}", "date": day, "amount_ml": float(amount)})
        if back:
            for meal in MEALS[:3]:
                item = rng.choice(FOODS)
                food.append(food_entry(f"f{len(food) + 1}", day, meal, item, 1.0))
            weight.append(
                {"id": f"kg{len(weight) + 1}", "date": day, "weight_kg": round(rng.uniform(76.0, 77.5), 1)}
            )
    return {"water": water, "food": food, "weight": weight}


def food_entry(
    entry_id: str, day: str, meal: str, item: Food | None, servings: float, calories: int = 0
) -> dict[str, Any]:
    """A food log entry: a food of the database in servings, or quick calories (item None)."""
    return {
        "id": entry_id,
        "date": day,
        "meal": meal,
        "food_id": item.id if item else "quick-calories",
        "name": item.name if item else "Quick calories",
        "servings": servings,
        "calories": round(item.calories * servings) if item else calories,
    }


def seeded_challenges(rng: random.Random) -> list[dict[str, Any]]:
    joined = {"workweek-hustle", rng.choice(("daily-showdown", "azm-sprint"))}
    return [
        {"id": cid, "name": name, "joined": cid in joined, "participants": rng.randint(3, 12)}
        for cid, name, _, _ in CHALLENGES
    ]


def seeded_badges(rng: random.Random, today: date) -> list[dict[str, Any]]:
    earned = BADGES[: rng.randint(4, 6)]
    return [
        {"id": bid, "name": name, "earned": (today - timedelta(days=rng.randint(5, 400))).isoformat()}
        for bid, name, _ in earned
    ]


# -- food search ---------------------------------------------------------------------------------------


def search_foods(query: str) -> list[Food]:
    """Foods whose name has every word of the query (case, plurals and order forgiven)."""
    if not query.strip():
        return []
    return [f for f in FOODS if contains_words(f.name, query)]


def meal_at(now: datetime) -> str:
    """The meal the food log proposes at this hour."""
    hour = now.hour
    if 4 <= hour < 11:
        return "Breakfast"
    if 11 <= hour < 16:
        return "Lunch"
    if 16 <= hour < 22:
        return "Dinner"
    return "Snacks"
