"""The food log: a day's meals (Breakfast, Lunch, Dinner, Snacks) with removable entries, a search of the
food database that forgives case, plurals and word order, the serving form, and quick calories. Logging
appends to `logs.food`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import button, column, divider, icon_button, row, scroll_page, search_field, text
from . import content
from .common import (
    card,
    choice_chips,
    date_navigator,
    day_label,
    error_line,
    form_field,
    form_page,
    labelled,
    next_id,
    number,
    page_bar,
    parse_number,
    primary_button,
    return_to,
    selected_day,
)
from .logs import entry_row, offset_of, remover


def build_food(ctx: AppContext) -> Node:
    day = selected_day(ctx)
    entries = [f for f in ctx.state["logs"]["food"] if f["date"] == day.isoformat()]
    eaten = sum(f["calories"] for f in entries)
    offset = offset_of(ctx, day)
    summary = card(
        row(
            text(f"{eaten:,}", "display", rid="food_total"),
            text("cal eaten", "body", pad=(16, 20, 0, 0)),
            valign="end",
        ),
        row(
            primary_button("Log food", ctx.link("food_search", day_offset=offset), rid="log_food_button"),
            button(
                "Quick calories",
                ctx.link("quick_calories", day_offset=offset),
                rid="quick_calories_button",
                primary=False,
                colour=theme().primary,
            ),
            gap=24,
        ),
        gap=20,
    )
    sections: list[Node] = []
    for meal in content.MEALS:
        items = [f for f in entries if f["meal"] == meal]
        sections.append(meal_header(ctx, meal, sum(f["calories"] for f in items), offset))
        sections += [
            entry_row(f["name"], f"{number(f['servings'], 2)} serving · {f['calories']} cal",
                      remover(ctx, "food", f["id"]), "food_entry")
            for f in items
        ]  # fmt: skip
    return column(
        page_bar(ctx, "Food"),
        date_navigator(ctx, day_label(ctx, day)),
        scroll_page("food", column(summary, pad=32), *sections, rid="food_scroll", bg=theme().background),
        bg=theme().background,
    )


def meal_header(ctx: AppContext, meal: str, calories: int, offset: int) -> Node:
    return column(
        row(
            text(meal, "heading", rid="meal_title", weight=1),
            text(f"{calories} cal", "body_small", rid="meal_calories"),
            icon_button(
                "plus",
                f"Add food to {meal}",
                ctx.link("food_search", meal=meal, day_offset=offset),
                rid="add_to_meal",
            ),
            pad=(48, 24, 24, 8),
            gap=16,
            valign="center",
        ),
        divider(),
    )


def chosen_meal(ctx: AppContext) -> str:
    return ctx.ui.get("meal") or ctx.args.get("meal") or content.meal_at(ctx.now())


def meal_chips(ctx: AppContext) -> Node:
    return choice_chips(
        content.MEALS, chosen_meal(ctx), lambda m: ctx.ui.update(meal=m, error=""), rid="meal_option"
    )


# -- search ----------------------------------------------------------------------------------------------


def build_food_search(ctx: AppContext) -> Node:
    query = str(ctx.ui.get("submitted", ctx.args.get("query", "")))
    found = content.search_foods(query)

    def submit(value: str) -> None:
        ctx.ui["submitted"] = value

    results: list[Node | None] = [food_row(ctx, f) for f in found]
    if query and not found:
        results = [text(f'No foods match "{query}"', "caption", pad=(48, 24, 48, 24), rid="no_results")]
    return column(
        page_bar(ctx, "Log food"),
        column(
            row(
                search_field(
                    "query", "Search foods", submit, rid="food_search_field", on_change=submit, value=query
                )
            ),
            meal_chips(ctx),
            pad=(32, 16, 32, 8),
            gap=8,
            bg=theme().surface,
        ),
        scroll_page("results", *results, rid="food_results", bg=theme().surface),
        bg=theme().surface,
    )


def food_row(ctx: AppContext, food: content.Food) -> Node:
    opened: dict[str, Any] = {
        "food_id": food.id,
        "meal": chosen_meal(ctx),
        "day_offset": offset_of(ctx, selected_day(ctx)),
    }
    return column(
        row(
            column(
                text(food.name, "subtitle", rid="food_name"), text(food.serving, "caption"), weight=1, gap=4
            ),
            text(f"{food.calories} cal", "body_small", rid="food_calories"),
            pad=(48, 24, 48, 24),
            valign="center",
        ),
        divider(),
        on_tap=ctx.link("food_entry", **opened),
        rid="food_result",
        desc=food.name,
    )


def build_food_entry(ctx: AppContext) -> Node:
    food = content.FOOD_BY_ID[ctx.args["food_id"]]
    servings = parse_number(ctx.ui.get("servings") or "1")
    day = selected_day(ctx)
    form = card(
        text(food.name, "headline", rid="food_entry_name"),
        text(f"1 serving = {food.serving} · {food.calories} cal", "caption", rid="food_serving"),
        labelled("Servings", form_field(ctx, "servings", "food_servings", hint="1")),
        labelled("Meal", meal_chips(ctx)),
        text(
            f"{round(food.calories * servings) if servings else 0} cal · {day_label(ctx, day)}",
            "subtitle",
            rid="food_entry_calories",
        ),
        error_line(ctx),
    )

    def save() -> None:
        amount = parse_number(ctx.ui.get("servings") or "1")
        if amount is None or amount > 50:
            ctx.ui["error"] = "Enter the number of servings"
            return
        add_food(
            ctx,
            lambda entry_id: content.food_entry(entry_id, day.isoformat(), chosen_meal(ctx), food, amount),
        )

    return form_page(ctx, "Log food", form, save, "log_food_entry_button")


def build_quick_calories(ctx: AppContext) -> Node:
    day = selected_day(ctx)
    form = card(
        labelled("Date", date_navigator(ctx, day_label(ctx, day))),
        labelled("Calories", form_field(ctx, "calories", "quick_calories_value", hint="e.g. 350")),
        labelled("Meal", meal_chips(ctx)),
        error_line(ctx),
    )

    def save() -> None:
        calories = parse_number(ctx.ui.get("calories", ""))
        if calories is None or not calories.is_integer():
            ctx.ui["error"] = "Enter whole calories"
            return
        add_food(ctx, lambda entry_id: content.food_entry(entry_id, day.isoformat(), chosen_meal(ctx), None, 1.0,
                                                          int(calories)))  # fmt: skip

    return form_page(ctx, "Quick calories", form, save, "save_quick_calories_button")


def add_food(ctx: AppContext, make: Callable[[str], dict[str, Any]]) -> None:
    """Append a food entry and show the food log (popping the search the entry came from)."""
    entry = make(next_id(ctx, "f"))
    ctx.state["logs"]["food"].append(entry)
    ctx.log("food_logged", id=entry["id"], food=entry["food_id"], meal=entry["meal"])
    ctx.toast(f"{entry['name']} added to {entry['meal']}")
    stack = ctx.phone.stack
    if len(stack) > 2 and stack[-2].package == ctx.app.package and stack[-2].name == "food_search":
        ctx.phone.pop_screen()  # the serving form; return_to closes the search under it
    return_to(ctx, "food")
