"""Named subsets and id lists (`--tasks`), including the seeded generation-eval split."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from masbench.tasks import Task, TaskError, TaskSet, generation_eval_ids, load_tasks, task_stats


def make(task_id: str, apps: list[str], level: int, steps: int = 3) -> Task:
    return Task.model_validate(
        {
            "id": task_id,
            "instruction": f"do {task_id}",
            "apps": apps,
            "level": level,
            "optimal_steps": steps,
            "solutions": {
                "gui": [{"action": "back"}] * steps,
                "hybrid": [{"action": "shortcut", "name": f"{apps[0]}.x"}, {"action": "back"}],
            },
            "check": {"foreground": {"app": apps[0]}},
            "rubric": ["done"],
        }
    )


@pytest.fixture(scope="module")
def benchmark_sized() -> TaskSet:
    """92 single-app and 47 cross-app tasks, like the benchmark."""
    apps = [
        "youtube",
        "amazon",
        "booking",
        "calendar",
        "maps",
        "bbc",
        "fitbit",
        "gmail",
        "chrome",
        "yelp",
        "contacts",
    ]
    single = [make(f"{apps[i % 11]}-{i:02d}", [apps[i % 11]], 1 + i % 3) for i in range(92)]
    cross = [make(f"cross-{i:02d}", [apps[i % 11], apps[(i + 3) % 11]], 1 + i % 3) for i in range(47)]
    return TaskSet(single + cross, Path("tasks"))


@pytest.fixture(scope="module")
def small() -> TaskSet:
    return TaskSet(
        [
            make("amazon-01", ["amazon"], 1),
            make("amazon-02", ["amazon"], 2, steps=5),
            make("maps-01", ["maps"], 3, steps=7),
            make("cross-01", ["amazon", "maps"], 2, steps=9),
        ],
        Path("tasks"),
    )


def ids(tasks: list[Task]) -> list[str]:
    return [t.id for t in tasks]


def test_builtin_subsets(small):
    assert ids(small.select("all")) == ["amazon-01", "amazon-02", "maps-01", "cross-01"]
    assert ids(small.select("single-app")) == ["amazon-01", "amazon-02", "maps-01"]
    assert ids(small.select("cross-app")) == ["cross-01"]
    assert ids(small.select("level-1")) == ["amazon-01"]
    assert ids(small.select("level-2")) == ["amazon-02", "cross-01"]
    assert ids(small.select("level-3")) == ["maps-01"]


def test_an_app_names_its_single_app_tasks_and_uses_app_every_task_using_it(small):
    # an app's name is its own tasks, as the paper counts them; uses:APP adds the cross-app ones
    assert ids(small.select("amazon")) == ["amazon-01", "amazon-02"]
    assert ids(small.select("uses:amazon")) == ["amazon-01", "amazon-02", "cross-01"]
    assert ids(small.select("uses:maps")) == ["maps-01", "cross-01"]
    assert small.select("contacts") == []  # a known app without tasks is an empty subset, not an error


def test_comma_separated_ids_and_names_in_task_set_order(small):
    assert ids(small.select("cross-01,amazon-01")) == ["amazon-01", "cross-01"]
    assert ids(small.select(" maps-01 , level-1 ,maps-01")) == ["amazon-01", "maps-01"]


def test_unknown_names_give_a_clear_error_listing_subsets(small):
    with pytest.raises(TaskError) as info:
        small.select("amazon-01,amazon-9,levl-2")
    assert len(info.value.errors) == 2
    assert info.value.errors[0].startswith("unknown subset or task id 'amazon-9' (did you mean ")
    assert (
        "subsets: all, single-app, cross-app, level-1, level-2, level-3, generation-eval"
        in info.value.errors[0]
    )
    assert "did you mean level-2" in info.value.errors[1]
    with pytest.raises(TaskError, match="empty task selection"):
        small.select(" , ")
    with pytest.raises(TaskError, match="unknown task id 'nope'"):
        small.get("nope")


def test_generation_eval_is_a_fixed_half_of_each_kind(benchmark_sized):
    chosen = benchmark_sized.select("generation-eval")
    assert sum(t.kind == "single-app" for t in chosen) == 46
    assert sum(t.kind == "cross-app" for t in chosen) == 23
    rest = benchmark_sized.select("generation-train")
    assert len(rest) == 139 - 69 and not set(ids(chosen)) & set(ids(rest))


def test_generation_eval_is_deterministic_and_independent_of_order(benchmark_sized):
    tasks = list(benchmark_sized)
    assert generation_eval_ids(tasks) == generation_eval_ids(list(reversed(tasks)))
    assert generation_eval_ids(tasks) == generation_eval_ids([make(t.id, t.apps, t.level) for t in tasks])


def test_generation_eval_rounds_down(small):
    assert len(small.select("generation-eval")) == 1  # 3 single-app -> 1, 1 cross-app -> 0


def test_extra_subsets_from_subsets_yaml(tmp_path):
    root = tmp_path / "tasks"
    (root / "single_app").mkdir(parents=True)
    task = make("amazon-01", ["amazon"], 1).model_dump(
        mode="json", by_alias=True, exclude_none=True, exclude={"kind"}
    )
    (root / "single_app" / "amazon.yaml").write_text(yaml.safe_dump({"tasks": [task]}))
    (root / "subsets.yaml").write_text(yaml.safe_dump({"subsets": {"smoke": ["amazon-01"]}}))
    assert ids(load_tasks(root).select("smoke")) == ["amazon-01"]
    (root / "subsets.yaml").write_text(
        yaml.safe_dump({"subsets": {"smoke": ["amazon-02"], "all": []}}, sort_keys=False)
    )
    with pytest.raises(TaskError) as info:
        load_tasks(root)
    assert info.value.errors == [
        "tasks/subsets.yaml: subset 'smoke': unknown task id(s) amazon-02",
        "tasks/subsets.yaml: subset 'all': the name is already a built-in subset or a task id",
    ]


def test_stats_count_per_app_and_level_and_mean_steps(small):
    stats = task_stats(small.tasks)
    assert stats.total == 4
    assert stats.by_app["amazon"].single_app == 2 and stats.by_app["amazon"].cross_app == 1
    assert stats.by_app["maps"].by_level == {1: 0, 2: 1, 3: 1}
    assert "youtube" not in stats.by_app
    assert stats.by_level[2].tasks == 2 and stats.by_level[2].mean_optimal_steps == 7
    assert stats.by_level[2].share == 0.5
    assert stats.by_kind["single-app"].mean_optimal_steps == 5 and stats.by_kind["cross-app"].tasks == 1
    assert task_stats([]).by_level[1].mean_optimal_steps is None
