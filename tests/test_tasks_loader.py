"""Task files: schema validation, error messages that name file, task and field, and the data dirs."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from masbench.tasks import Task, TaskError, load_tasks
from masbench.tasks.loader import ENV_VAR, default_tasks_dir

DATA = Path(__file__).parent / "data" / "tasks"

GOOD = {
    "id": "amazon-07",
    "instruction": "Add a Nike shoe to the cart.",
    "apps": ["amazon"],
    "level": 2,
    "initial_state": {"seed": 3, "clock": "2025-06-02T09:30:00+00:00", "setup": {"amazon": {"cart": []}}},
    "optimal_steps": 3,
    "solutions": {
        "gui": [
            {"action": "open_app", "name": "Amazon"},
            {"action": "type", "target": {"resource_id": "search_bar"}, "text": "nike shoes"},
            {"action": "enter"},
        ],
        "hybrid": [
            {"action": "shortcut", "call": 'amazon.search_product(query="nike shoes")'},
            {"action": "tap", "target": {"text": "Add to Cart"}},
        ],
    },
    "check": {"items": {"app": "amazon", "path": "cart", "where": {"brand": "Nike"}}},
    "rubric": ["A Nike item is in the cart."],
    "near_misses": [
        {"name": "wrong item", "from": "gui", "replace": {1: {"action": "type", "text": "adidas"}}}
    ],
}


def write(root: Path, *entries: dict, sub: str = "single_app", name: str = "amazon.yaml") -> Path:
    path = root / "tasks" / sub / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump({"tasks": list(entries)}, sort_keys=False))
    return root / "tasks"


def variant(**changes) -> dict:
    entry = copy.deepcopy(GOOD)
    for dotted, value in changes.items():
        *parents, last = dotted.split("__")
        target = entry
        for key in parents:
            target = target[key]
        if value is DELETE:
            del target[last]
        else:
            target[last] = value
    return entry


DELETE = object()


def errors_of(root: Path) -> list[str]:
    with pytest.raises(TaskError) as info:
        load_tasks(root)
    return info.value.errors


def test_a_good_task_loads_with_its_fields(tmp_path):
    tasks = load_tasks(write(tmp_path, GOOD))
    task = tasks.get("amazon-07")
    assert task.kind == "single-app"
    assert (
        task.initial_state.seed == 3 and task.initial_state.clock.isoformat() == "2025-06-02T09:30:00+00:00"
    )
    assert task.shortcut_names() == ["amazon.search_product"]
    assert task.solutions.hybrid[0].arguments == {"query": "nike shoes"}
    assert [s.action for s in task.near_misses[0].steps(task.solutions)] == ["open_app", "type", "enter"]
    assert task.near_misses[0].steps(task.solutions)[1].text == "adidas"


def test_a_near_miss_can_insert_steps_and_be_tagged_extra(tmp_path):
    miss = {
        "name": "x",
        "kind": "extra",
        "from": "gui",
        "insert": {1: [{"action": "back"}], 3: [{"action": "home"}]},
    }
    task = load_tasks(write(tmp_path, variant(near_misses=[miss]))).get("amazon-07")
    assert task.near_misses[0].kind == "extra"
    steps = task.near_misses[0].steps(task.solutions)
    assert [s.action for s in steps] == ["open_app", "back", "type", "enter", "home"]


def test_level_error_reads_like_the_style_guide(tmp_path):
    assert errors_of(write(tmp_path, variant(level=4))) == [
        'tasks/single_app/amazon.yaml: task amazon-07: field "level": must be 1, 2 or 3'
    ]


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"optimal_steps": 9}, 'field "optimal_steps": is 9 but the GUI-only solution has 3 steps'),
        ({"apps": ["amazn"]}, "field \"apps.0\": unknown app 'amazn'"),
        ({"apps": ["amazon", "amazon"]}, 'field "apps": lists an app twice'),
        ({"instruction": DELETE}, 'field "instruction": required'),
        ({"colour": "red"}, 'field "colour": unknown field'),
        ({"rubric": []}, 'field "rubric": List should have at least 1 item'),
        (
            {"initial_state__clock": "2025-06-02T09:30:00"},
            'field "initial_state.clock": Input should have timezone info',
        ),
        ({"initial_state__setup": {"amazn": {}}}, 'field "initial_state.setup.amazn.[key]": unknown app'),
        (
            {"check": {"value": {"app": "amazon", "path": "cart", "gtee": 1}}},
            'field "check.value.gtee": unknown field',
        ),
        (
            {"check": {"items": {"app": "amazon", "path": "cart"}, "value": {}}},
            'field "check": a check has exactly one of',
        ),
        (
            {"check": {"all": [{"setting": {"namespace": "secure", "key": "k"}}]}},
            'field "check.all.0.setting": needs at least one op',
        ),
        (
            {"solutions__gui": [{"action": "tap", "x": 5, "y": 9}, {"action": "back"}, {"action": "back"}]},
            'field "solutions.gui": step 0: reference steps ground GUI targets with `target:` selectors',
        ),
        (
            {
                "solutions__gui": [
                    {"action": "shortcut", "name": "amazon.x"},
                    {"action": "back"},
                    {"action": "back"},
                ]
            },
            "field \"solutions.gui\": step 0: the GUI-only solution cannot use a 'shortcut' action",
        ),
        ({"solutions__hybrid": [{"action": "finish"}]}, "`finish` is not part of a solution"),
        ({"solutions__hybrid": [{"action": "tapp"}]}, "field \"solutions.hybrid.0\": Input tag 'tapp'"),
        (
            {"solutions__hybrid": [{"action": "shortcut", "call": "amazon.search(3)"}]},
            "shortcut arguments must be named",
        ),
        (
            {"near_misses": [{"name": "x", "from": "gui", "replace": {7: {"action": "back"}}}]},
            'field "near_misses": 0 (x): replace step 7 is outside the gui solution (3 steps)',
        ),
        ({"near_misses": [{"name": "x", "from": "gui"}]}, "`from` needs `replace` or `insert`"),
        (
            {"near_misses": [{"name": "x", "from": "gui", "insert": {4: [{"action": "back"}]}}]},
            'field "near_misses": 0 (x): insert before step 4 is outside the gui solution (3 steps)',
        ),
        (
            {
                "near_misses": [
                    {"name": "x", "kind": "more", "from": "gui", "replace": {0: {"action": "back"}}}
                ]
            },
            "kind",
        ),
        ({"near_misses": [{"name": "x"}]}, "give either `actions` or `from: gui|hybrid`"),
    ],
)
def test_broken_variants_name_file_task_and_field(tmp_path, changes, expected):
    errors = errors_of(write(tmp_path, variant(**changes)))
    assert any(
        e.startswith("tasks/single_app/amazon.yaml: task amazon-07: ") and expected in e for e in errors
    ), errors


def test_bad_id(tmp_path):
    assert errors_of(write(tmp_path, variant(id="amazon,07"))) == [
        "tasks/single_app/amazon.yaml: task amazon,07: field \"id\": 'amazon,07' must be letters, digits, "
        "'-', '_' or '.' (it is used in subset lists and paths)"
    ]


def test_an_entry_without_an_id_is_named_by_position(tmp_path):
    errors = errors_of(write(tmp_path, GOOD, variant(id=DELETE)))
    assert errors == ['tasks/single_app/amazon.yaml: task #2: field "id": required']


def test_every_problem_in_every_file_is_reported_at_once(tmp_path):
    root = write(tmp_path, variant(level=0))
    write(tmp_path, variant(id="maps-01", apps=["maps"], optimal_steps=1), name="maps.yaml")
    errors = errors_of(root)
    assert len(errors) == 2
    assert errors[0].startswith("tasks/single_app/amazon.yaml: task amazon-07")
    assert errors[1].startswith('tasks/single_app/maps.yaml: task maps-01: field "optimal_steps"')


def test_duplicate_ids_across_files(tmp_path):
    root = write(tmp_path, GOOD)
    write(tmp_path, variant(apps=["amazon", "maps"]), sub="cross_app", name="shop.yaml")
    assert errors_of(root) == [
        'tasks/cross_app/shop.yaml: task amazon-07: field "id": duplicate id, first defined in tasks/single_app/amazon.yaml'
    ]


def test_task_kind_must_match_its_directory(tmp_path):
    root = write(tmp_path, variant(apps=["amazon", "maps"]))
    write(tmp_path, variant(id="cross-01"), sub="cross_app", name="x.yaml")
    errors = errors_of(root)
    assert (
        'task amazon-07: field "apps": a single-app task file holds tasks with exactly one app' in errors[0]
    )
    assert 'task cross-01: field "apps": a cross-app task file holds tasks with two or more apps' in errors[1]


def test_file_level_problems(tmp_path):
    root = tmp_path / "tasks"
    (root / "single_app").mkdir(parents=True)
    (root / "single_app" / "a.yaml").write_text("tasks: [\n")
    (root / "single_app" / "b.yaml").write_text("- id: x\n")
    (root / "single_app" / "c.yaml").write_text("tasks: []\nextra: 1\n")
    errors = errors_of(root)
    assert errors[0].startswith("tasks/single_app/a.yaml: line ") and "not valid YAML" in errors[0]
    assert errors[1] == "tasks/single_app/b.yaml: expected a mapping with a `tasks:` list"
    assert errors[2] == "tasks/single_app/c.yaml: unknown top-level key(s) extra; only `tasks:`"


def test_empty_directory_gives_an_empty_set_and_a_missing_one_an_error(tmp_path):
    (tmp_path / "tasks").mkdir()
    assert len(load_tasks(tmp_path / "tasks")) == 0
    with pytest.raises(TaskError, match="does not exist; pass --tasks-dir or set"):
        load_tasks(tmp_path / "nowhere")


def test_tasks_dir_from_environment_else_the_checkout(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert default_tasks_dir() == Path(__file__).resolve().parents[1] / "tasks"
    monkeypatch.setenv(ENV_VAR, str(write(tmp_path, GOOD)))
    assert [t.id for t in load_tasks()] == ["amazon-07"]


def test_test_data_tasks_load():
    tasks = load_tasks(DATA)
    assert [t.id for t in tasks] == ["settings-01", "settings-02", "settings-03", "cross-01"]
    assert isinstance(tasks.get("cross-01"), Task) and tasks.get("cross-01").kind == "cross-app"


def test_dumped_task_validates_back_to_the_same_task():
    for task in load_tasks(DATA):
        data = task.model_dump(mode="json", by_alias=True, exclude_none=True, exclude={"kind"})
        assert Task.model_validate(data) == task
