"""What a shortcut-only agent is allowed to try on a task (masbench.tasks.proofs), without a phone."""

from __future__ import annotations

from masbench.shortcuts import load_kb
from masbench.tasks import Task
from masbench.tasks.proofs import candidate_calls, check_ids, shortcut_steps

KB = load_kb()
TASK = Task.model_validate(
    {
        "id": "amazon-x",
        "instruction": "Add the cheapest Nike shoe in size 10 to the cart.",
        "apps": ["amazon"],
        "level": 2,
        "optimal_steps": 6,
        "solutions": {
            "gui": [
                {"action": "open_app", "name": "Amazon Shopping"},
                {"action": "type", "target": {"resource_id": "rs_search_src_text"}, "text": "nike shoes"},
                {"action": "enter"},
                {"action": "tap", "target": {"resource_id": "item_title"}},
                {"action": "tap", "target": {"resource_id": "variant_size", "text": "10"}},
                {"action": "tap", "target": {"resource_id": "add-to-cart-button"}},
            ],
            "hybrid": [
                {"action": "shortcut", "call": 'amazon.search_product(query="shoes", brand="Nike")'},
                {"action": "tap", "target": {"resource_id": "item_title"}},
                {"action": "tap", "target": {"resource_id": "add-to-cart-button"}},
            ],
        },
        "check": {"items": {"app": "amazon", "path": "cart", "where": {"asin": "B0DQCMHW2W", "size": "10"}}},
        "rubric": ["The cheapest Nike shoe is in the cart in size 10."],
    }
)


def calls_of(name: str) -> list[dict]:
    return [c.arguments for c in candidate_calls(TASK, KB) if c.name == name]


def test_shortcut_steps_drop_the_gui_steps():
    assert [s.action for s in shortcut_steps(TASK)] == ["shortcut"]


def test_values_come_from_the_hybrid_the_gui_fields_and_the_checks_ids():
    assert check_ids(TASK) == ["B0DQCMHW2W"]
    # query: the hybrid's value, then the id the check names; size: the text tapped on variant_size;
    # colour and quantity: nothing in the task, so left out
    assert calls_of("amazon.add_to_cart") == [
        {"query": "shoes", "size": "10"},
        {"query": "B0DQCMHW2W", "size": "10"},
    ]


def test_enums_are_tried_in_full_and_other_apps_are_left_out():
    categories = [args["category"] for args in calls_of("amazon.open_category")]
    assert categories == KB["amazon.open_category"].parameter("category").enum
    assert calls_of("amazon.open_cart") == [{}]
    assert {c.name.split(".")[0] for c in candidate_calls(TASK, KB)} == {"amazon"}
