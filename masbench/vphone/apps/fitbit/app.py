"""Fitbit stand-in (`com.fitbit.FitbitMobile`): the manifest, theme, screens and dialogs, and the seeded
state (goals, settings, challenges, badges, logs; daily statistics come from `stats_seed`)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...theme import Theme
from . import account, challenges, content, exercise, food, logs, stats
from .common import CHALLENGE, DEEPLINK, EXERCISE, HOME, LOGGING, SETTINGS, STATS
from .links import open_link

BROWSABLE = (CATEGORY_DEFAULT, CATEGORY_BROWSABLE)
LINK_FILTERS = (
    IntentFilter(actions=(ACTION_VIEW,), categories=BROWSABLE, schemes=("fitbit",)),
    IntentFilter(actions=(ACTION_VIEW,), categories=BROWSABLE, schemes=("https", "http"),
                 hosts=("www.fitbit.com", "fitbit.com"), path_patterns=("/in-app/*",)),
)  # fmt: skip
STATS_DAYS = 28  # days of read-only statistics public state reports, today included


class FitbitApp(App):
    package = identity("fitbit").package
    label = identity("fitbit").label
    version_name = "4.30.fitbit-mobile-106-66001212"
    version_code = 66001212
    icon_glyph = "fitness"
    activities = (
        Activity(HOME, "today", (LAUNCHER_FILTER,)),
        Activity(DEEPLINK, "today", LINK_FILTERS),
        Activity(STATS, "stats", exported=False),
        Activity(EXERCISE, "exercise", exported=False),
        Activity(LOGGING, "log_water", exported=False),
        Activity(CHALLENGE, "challenge", exported=False),
        Activity(SETTINGS, "settings", exported=False),
    )
    theme = Theme(
        primary="#00b0b9",  # Fitbit teal
        accent="#7fd4d8",
        background="#f3f5f7",
        ink="#1b1f24",
        muted="#5c6670",
        pale="#e3f6f7",
        star="#f4b400",
        app_bar="surface",
    )
    icon_bg = color = theme.primary
    icon_fg = theme.on_primary
    screens = {
        "today": stats.build_today,
        "stats": stats.build_stats,
        "exercise": exercise.build_exercise,
        "exercise_detail": exercise.build_exercise_detail,
        "log_exercise": exercise.build_log_exercise,
        "water": logs.build_water,
        "log_water": logs.build_log_water,
        "weight": logs.build_weight,
        "log_weight": logs.build_log_weight,
        "food": food.build_food,
        "food_search": food.build_food_search,
        "food_entry": food.build_food_entry,
        "quick_calories": food.build_quick_calories,
        "you": account.build_you,
        "goals": account.build_goals,
        "badges": account.build_badges,
        "settings": account.build_settings,
        "discover": challenges.build_discover,
        "challenge": challenges.build_challenge,
    }
    dialogs = {
        "delete_exercise": exercise.delete_dialog,
        "edit_goal": account.edit_goal_dialog,
        "sleep_goal": account.sleep_goal_dialog,
        "unit_choice": account.unit_dialog,
        "week_start": account.week_start_dialog,
        "leave_challenge": challenges.leave_dialog,
    }
    screen_activities = {
        **dict.fromkeys(("today", "you", "discover", "goals", "badges"), HOME),
        **dict.fromkeys(("stats", "water", "food", "weight"), STATS),
        **dict.fromkeys(("exercise", "exercise_detail"), EXERCISE),
        **dict.fromkeys(
            ("log_exercise", "log_water", "log_weight", "food_search", "food_entry", "quick_calories"),
            LOGGING,
        ),
        "challenge": CHALLENGE,
        "settings": SETTINGS,
    }

    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        today = now.date()
        return {
            "profile": {"first_name": "Alex", "last_name": "Morgan"},
            "stats_seed": rng.randrange(1_000_000_000),
            "as_of": now.isoformat(timespec="minutes"),  # the tracker's last sync: statistics stop here
            "goals": dict(content.DEFAULT_GOALS),
            "settings": {
                **content.DEFAULT_SETTINGS,
                "notifications": dict(content.DEFAULT_SETTINGS["notifications"]),
            },
            "challenges": content.seeded_challenges(rng),
            "badges": content.seeded_badges(rng, today),
            "logs": {"exercise": content.seeded_exercises(rng, today), **content.seeded_logs(rng, today)},
            "next_id": 100,
        }

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """Logs, goals, settings, challenges (and the joined ids), badges, and the tracker's statistics of
        the last four weeks, read-only, so checks can compare a logged value with what the app showed."""
        now = datetime.fromisoformat(state["as_of"])
        days = [now.date() - timedelta(days=back) for back in range(STATS_DAYS)]
        return {
            "profile": state["profile"],
            "goals": state["goals"],
            "settings": state["settings"],
            "challenges": state["challenges"],
            "challenges_joined": sorted(c["id"] for c in state["challenges"] if c["joined"]),
            "badges": state["badges"],
            "logs": state["logs"],
            "stats": {d.isoformat(): content.day_stats(state["stats_seed"], d, now) for d in days},
        }

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        if activity.cls != DEEPLINK or not intent.data:
            return ctx.screen("today", activity=HOME)
        return open_link(ctx, intent.data)
