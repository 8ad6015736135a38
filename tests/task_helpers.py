"""Tasks the tests share: the shipped ones, loaded once per test module that proves something about all of
them, and a small Yelp search the route search tests play."""

from __future__ import annotations

from masbench.tasks import Task, TaskError, default_tasks_dir, load_tasks


def shipped_tasks() -> list[Task]:
    """Every task in tasks/, or none when a file does not load (test_task_suite reports that with the
    loader's message instead of breaking collection)."""
    try:
        return list(load_tasks(default_tasks_dir()))
    except TaskError:
        return []


def sushi_task(detour: bool = False) -> Task:
    """Search Yelp for sushi; with `detour`, the reference types "ramen" first and then replaces it."""
    typed = (
        [{"action": "type", "target": {"resource_id": "search_bar_text"}, "text": "ramen"}] if detour else []
    )
    steps = [
        {"action": "open_app", "name": "Yelp"},
        *typed,
        {"action": "type", "target": {"resource_id": "search_bar_text"}, "text": "sushi", "clear": detour},
        {"action": "enter"},
    ]
    return Task.model_validate(
        {
            "id": "sushi-search",
            "instruction": "Search Yelp for sushi.",
            "apps": ["yelp"],
            "level": 1,
            "initial_state": {"seed": 1},
            "solutions": {
                "gui": steps,
                "hybrid": [{"action": "shortcut", "call": 'yelp.search_business(terms="sushi")'}],
            },
            "optimal_steps": len(steps),
            "check": {
                "foreground": {"app": "yelp", "screen": "results", "args": {"query": {"icontains": "sushi"}}}
            },
            "rubric": ["Yelp shows results for sushi."],
        }
    )
