"""The Today dashboard and the detail page of each tracked statistic (steps, distance, calories, Active
Zone Minutes, floors, sleep, heart rate) with Day / Week / Month tabs and a date navigator."""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import column, label_value, row, scroll_page, section_header, tabs, text
from . import content
from .common import (
    bar_chart,
    big_number,
    card,
    date_navigator,
    day_label,
    distance_text,
    duration_text,
    glyph,
    nav,
    number,
    page_bar,
    progress_bar,
    today,
    water_text,
    week_start,
    weight_text,
)

PERIODS = ("Day", "Week", "Month")
TILE_ICONS = {"exercise": "fitness", "water": "water", "food": "food", "weight": "scale"}  # tiles of logs
TILE_NAMES = {"exercise": "Exercise days", "water": "Water", "food": "Food", "weight": "Weight"}


@dataclass(frozen=True)
class Metric:
    """A statistic the tracker records each day: how to read it from a day's stats and show it."""

    title: str
    icon: str
    unit: str  # printed after the figure; distance and sleep bring their own
    goal: str | None  # key in the goals, if it has one
    read: Callable[[dict[str, Any]], float]

    def show(self, ctx: AppContext, value: float) -> tuple[str, str]:
        """(figure, unit) as the detail page prints them."""
        if self.goal == "distance_km":
            figure, unit = distance_text(ctx, value).rsplit(" ", 1)
            return figure, unit
        if self.goal == "sleep_min":
            return duration_text(int(value)), ""
        return number(value, 0), self.unit


METRICS = {
    "steps": Metric("Steps", "run", "steps", "steps", lambda s: s["steps"]),
    "distance": Metric("Distance", "location", "", "distance_km", lambda s: s["distance_km"]),
    "calories": Metric("Calories burned", "speed", "cal", "calories", lambda s: s["calories"]),
    "azm": Metric("Active Zone Minutes", "heart_rate", "min", "azm", lambda s: s["azm"]),
    "floors": Metric("Floors", "trophy", "floors", None, lambda s: s["floors"]),
    "sleep": Metric("Sleep", "sleep", "", "sleep_min", lambda s: s["sleep"]["minutes"]),
    "heartrate": Metric("Heart rate", "favorite", "bpm", None, lambda s: s["resting_hr"]),
}


def stats_for(ctx: AppContext, day: date) -> dict[str, Any]:
    """The tracker's numbers for `day` as of its last sync (the reset's clock), so a screen and public
    state agree however long an episode has run."""
    return content.day_stats(ctx.state["stats_seed"], day, datetime.fromisoformat(ctx.state["as_of"]))


# -- Today ---------------------------------------------------------------------------------------------


def build_today(ctx: AppContext) -> Node:
    day = today(ctx)
    stats = stats_for(ctx, day)
    goals = ctx.state["goals"]
    logs = ctx.state["logs"]
    start = week_start(ctx, day)
    exercise_days = len(
        {e["date"] for e in logs["exercise"] if start.isoformat() <= e["date"] <= day.isoformat()}
    )
    water = sum(w["amount_ml"] for w in logs["water"] if w["date"] == day.isoformat())
    eaten = sum(f["calories"] for f in logs["food"] if f["date"] == day.isoformat())
    weights = sorted(logs["weight"], key=lambda w: w["date"])
    tiles = [
        tile(ctx, "steps", f"{stats['steps']:,}", f"of {goals['steps']:,} steps", "stats", metric="steps"),
        tile(
            ctx, "distance", distance_text(ctx, stats["distance_km"]), "distance", "stats", metric="distance"
        ),
        tile(ctx, "calories", f"{stats['calories']:,}", "calories burned", "stats", metric="calories"),
        tile(ctx, "azm", f"{stats['azm']}", f"of {goals['azm']} Active Zone Min", "stats", metric="azm"),
        tile(ctx, "exercise", f"{exercise_days} of 5", "exercise days this week", "exercise"),
        tile(ctx, "floors", f"{stats['floors']}", "floors", "stats", metric="floors"),
        tile(
            ctx,
            "sleep",
            duration_text(stats["sleep"]["minutes"]),
            "sleep last night",
            "stats",
            metric="sleep",
        ),
        tile(
            ctx, "heartrate", f"{stats['resting_hr']} bpm", "resting heart rate", "stats", metric="heartrate"
        ),
        tile(ctx, "water", water_text(ctx, water), f"of {water_text(ctx, goals['water_ml'])}", "water"),
        tile(ctx, "food", f"{eaten:,} cal", "eaten today", "food"),
        tile(
            ctx,
            "weight",
            weight_text(ctx, weights[-1]["weight_kg"]) if weights else "Log",
            "weight",
            "weight",
        ),
    ]
    grid = [row(*tiles[i : i + 2], gap=24) for i in range(0, len(tiles), 2)]
    t = theme()
    header = row(
        column(
            text("Today", "headline", rid="today_title"),
            text(day.strftime("%A, %B ") + str(day.day), "caption", rid="today_date"),
            weight=1,
        ),
        glyph("person", t.on_primary, 110),
        pad=(48, 48, 48, 24),
        valign="center",
    )
    return column(
        header,
        scroll_page("today", column(*grid, pad=(32, 8, 32, 40), gap=24), rid="today_scroll", bg=t.background),
        nav(ctx, "Today"),
        bg=t.background,
    )


def tile(ctx: AppContext, key: str, value: str, caption: str, screen: str, **args: Any) -> Node:
    """A dashboard tile: icon, figure and caption; tapping it opens its detail or log."""
    icon = METRICS[key].icon if key in METRICS else TILE_ICONS[key]
    return card(
        glyph(icon, theme().primary, 84),
        text(value, "price", rid="tile_value", max_lines=1),
        text(caption, "caption", max_lines=2, rid="tile_caption"),
        on_tap=ctx.link(screen, **args),
        weight=1,
        h=280,
        rid=f"tile_{key}",
        desc=f"{TILE_NAMES.get(key) or METRICS[key].title}: {value}, {caption}",
        gap=8,
    )


# -- statistic detail ----------------------------------------------------------------------------------


def build_stats(ctx: AppContext) -> Node:
    metric = METRICS[ctx.args["metric"]]
    period = int(ctx.ui.get("period", 0))

    def pick(i: int) -> None:
        ctx.ui["period"] = i

    body = (period_day, period_week, period_month)[period](ctx, metric)
    return column(
        page_bar(ctx, metric.title),
        tabs(PERIODS, period, pick, colour=theme().primary, rid="period_tabs"),
        scroll_page("stats", *body, rid="stats_scroll", bg=theme().background),
        bg=theme().background,
    )


def period_day(ctx: AppContext, metric: Metric) -> list[Node | None]:
    day = today(ctx) - timedelta(days=int(ctx.ui.get("day_offset", 0)))
    stats = stats_for(ctx, day)
    figure, unit = metric.show(ctx, metric.read(stats))
    goal = ctx.state["goals"].get(metric.goal) if metric.goal else None
    summary = card(
        big_number(figure, unit),
        progress_bar(metric.read(stats), goal) if goal else None,
        text(
            f"Goal: {metric.show(ctx, goal)[0]} {metric.show(ctx, goal)[1]}".strip(),
            "caption",
            rid="stat_goal",
        )
        if goal
        else None,
        rid="stat_summary",
    )
    if metric is METRICS["sleep"]:
        extra = sleep_details(stats)
    elif metric is METRICS["heartrate"]:
        extra = heart_details(stats)
    else:
        extra = [column(by_hour(ctx, metric, day, stats), pad=(32, 0, 32, 32))]
    return [date_navigator(ctx, day_label(ctx, day)), column(summary, pad=32), *extra]


def by_hour(ctx: AppContext, metric: Metric, day: date, stats: dict[str, Any]) -> Node:
    """The day's figure hour by hour (today up to the tracker's last sync)."""
    synced = datetime.fromisoformat(ctx.state["as_of"])
    hours = synced.hour + 1 if day == synced.date() else 24
    values = content.hourly(ctx.state["stats_seed"], day, metric.read(stats), hours)
    axis = row(
        *[text(label, "overline", weight=1) for label in ("12 AM", "6 AM", "12 PM", "6 PM")],
        pad=(24, 0, 0, 0),
    )
    return card(text("By hour", "subtitle"), bar_chart(values, [""] * 24), axis, rid="hourly_chart")


def sleep_details(stats: dict[str, Any]) -> list[Node | None]:
    sleep = stats["sleep"]
    return [
        section_header("Sleep score"),
        label_value("Score", str(sleep["score"]), rid="sleep_score", bold_value=True),
        label_value("Fell asleep", sleep["bedtime"], rid="sleep_bedtime"),
        label_value("Woke up", sleep["wake"], rid="sleep_wake"),
        section_header("Sleep stages"),
        *[label_value(stage, duration_text(m), rid="sleep_stage") for stage, m in sleep["stages"].items()],
    ]


def heart_details(stats: dict[str, Any]) -> list[Node | None]:
    zones = stats["hr_zones"]
    return [
        section_header("Heart rate zones"),
        label_value("Fat burn", f"{zones['fat_burn']} min", rid="zone_fat_burn"),
        label_value("Cardio", f"{zones['cardio']} min", rid="zone_cardio"),
        label_value("Peak", f"{zones['peak']} min", rid="zone_peak"),
    ]


def series(ctx: AppContext, metric: Metric, days: list[date]) -> list[float]:
    return [float(metric.read(stats_for(ctx, d))) for d in days]


def period_summary(
    ctx: AppContext, metric: Metric, days: list[date], labels: list[str], title: str
) -> list[Node | None]:
    """A week's or month's bars, its daily average and (for a week) the value of each day."""
    shown = [d for d in days if d <= today(ctx)]
    values = series(ctx, metric, days)
    average = sum(series(ctx, metric, shown)) / max(1, len(shown))
    goal = ctx.state["goals"].get(metric.goal) if metric.goal else None
    figure, unit = metric.show(ctx, average)
    rows = []
    if len(days) <= 7:
        rows = [label_value(day_label(ctx, d), " ".join(metric.show(ctx, v)), rid="day_value")
                for d, v in zip(days, values, strict=True) if d <= today(ctx)]  # fmt: skip
    return [
        date_navigator(ctx, title, key=f"{'week' if len(days) <= 7 else 'month'}_offset"),
        column(
            card(
                text("Daily average", "caption"),
                big_number(figure, unit, rid="stat_average"),
                bar_chart(values, labels, goal),
            ),
            pad=32,
        ),
        *rows,
    ]


def period_week(ctx: AppContext, metric: Metric) -> list[Node | None]:
    start = week_start(ctx, today(ctx)) - timedelta(weeks=int(ctx.ui.get("week_offset", 0)))
    days = [start + timedelta(days=i) for i in range(7)]
    title = f"{days[0].strftime('%b')} {days[0].day} - {days[-1].strftime('%b')} {days[-1].day}"
    return period_summary(ctx, metric, days, [d.strftime("%a")[:2] for d in days], title)


def period_month(ctx: AppContext, metric: Metric) -> list[Node | None]:
    first = today(ctx).replace(day=1)
    for _ in range(int(ctx.ui.get("month_offset", 0))):
        first = (first - timedelta(days=1)).replace(day=1)
    days = [first + timedelta(days=i) for i in range(monthrange(first.year, first.month)[1])]
    return period_summary(ctx, metric, days, [""] * len(days), first.strftime("%B %Y"))
