"""`masbench tasks list|show|stats|verify|play` over the test tasks."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from masbench.tasks.cli import tasks_app

DATA = Path(__file__).parent / "data" / "tasks"
runner = CliRunner()


def invoke(*args: str, env: dict | None = None):
    return runner.invoke(tasks_app, list(args), env={"COLUMNS": "200", **(env or {})})


def test_list_table_and_json():
    result = invoke("list", "--tasks-dir", str(DATA))
    assert result.exit_code == 0, result.output
    assert (
        "4 tasks" in result.output
        and "settings-02" in result.output
        and "Turn on the dark theme." in result.output
    )
    result = invoke("list", "--tasks", "cross-app", "--format", "json", "--tasks-dir", str(DATA))
    rows = json.loads(result.output)
    assert rows == [
        {
            "id": "cross-01",
            "kind": "cross-app",
            "apps": ["chrome", "settings"],
            "level": 2,
            "optimal_steps": 7,
            "hybrid_steps": 3,
            "instruction": 'In Chrome, search the web for "curiosity rover". Then switch the phone to the dark theme.',
        }
    ]


def test_tasks_dir_from_environment():
    result = invoke(
        "list", "--tasks", "settings-01,settings-03", "-f", "json", env={"MASBENCH_TASKS_DIR": str(DATA)}
    )
    assert [r["id"] for r in json.loads(result.output)] == ["settings-01", "settings-03"]


def test_unknown_subset_is_a_usage_error():
    result = invoke("list", "--tasks", "level-7", "--tasks-dir", str(DATA))
    assert result.exit_code == 2
    assert "unknown subset or task id 'level-7'" in result.output


def test_broken_task_files_exit_2_with_the_messages(tmp_path):
    (tmp_path / "tasks" / "single_app").mkdir(parents=True)
    (tmp_path / "tasks" / "single_app" / "x.yaml").write_text("tasks: [{id: x-1, level: 5}]")
    result = invoke("list", "--tasks-dir", str(tmp_path / "tasks"))
    assert result.exit_code == 2
    assert 'tasks/single_app/x.yaml: task x-1: field "level": must be 1, 2 or 3' in result.output


def test_show_text_yaml_and_json():
    result = invoke("show", "settings-02", "--tasks-dir", str(DATA))
    assert result.exit_code == 0, result.output
    for expected in ("settings-02", "GUI-only solution (9 steps)", "hybrid solution (5 steps)",
                     "shortcut settings.open_wifi_settings()", "tap text='Large'", "display_density_forced",
                     "near misses", "wrong size (wrong): gui with step(s) 8 replaced"):  # fmt: skip
        assert expected in result.output, expected
    data = yaml.safe_load(invoke("show", "settings-02", "-f", "yaml", "--tasks-dir", str(DATA)).output)
    assert data["check"]["all"][0] == {"setting": {"namespace": "global", "key": "wifi_on", "eq": 0}}
    assert (
        json.loads(invoke("show", "settings-02", "-f", "json", "--tasks-dir", str(DATA)).output)["level"] == 2
    )
    assert invoke("show", "nope", "--tasks-dir", str(DATA)).exit_code == 2


def test_stats_tables_and_json():
    result = invoke("stats", "--tasks-dir", str(DATA))
    assert result.exit_code == 0, result.output
    assert "4 tasks per app" in result.output and "beside MAS-Bench's own figures" in result.output
    stats = json.loads(invoke("stats", "-f", "json", "--tasks-dir", str(DATA)).output)
    assert stats["by_app"]["settings"] == {
        "single_app": 3,
        "cross_app": 1,
        "by_level": {"1": 2, "2": 2, "3": 0},
    }
    assert stats["by_level"]["1"]["mean_optimal_steps"] == 3.5
    assert stats["by_kind"]["cross-app"]["tasks"] == 1
    assert stats["by_kind"]["cross-app"]["paper"] == {"share": None, "tasks": 47, "steps": 17.66}
    assert stats["by_level"]["2"]["paper"]["share"] == 0.475  # Table 6


def test_verify_on_two_virtual_phones():
    result = invoke(
        "verify",
        "settings-01,cross-01",
        "--devices",
        "vphone:2",
        "--kb-dir",
        str(DATA / "kb"),
        "--tasks-dir",
        str(DATA),
        "--all",
    )
    assert result.exit_code == 0, result.output
    assert "2/2 tasks verified" in result.output and "cross-01" in result.output


def test_verify_exits_1_and_names_the_failure(tmp_path):
    task = yaml.safe_load((DATA / "single_app" / "settings.yaml").read_text())["tasks"][0]
    task["check"] = {"setting": {"namespace": "global", "key": "wifi_on", "eq": "1"}}  # already true
    (tmp_path / "tasks" / "single_app").mkdir(parents=True)
    (tmp_path / "tasks" / "single_app" / "s.yaml").write_text(yaml.safe_dump({"tasks": [task]}))
    result = invoke("verify", "--kb-dir", str(DATA / "kb"), "--tasks-dir", str(tmp_path / "tasks"), "-v")
    assert result.exit_code == 1
    assert "0/1 tasks verified" in result.output and "initial state fails" in result.output
    assert "  - no-op fails: passes after just opening the apps: PASS setting global wifi_on" in result.output


def test_verify_needs_virtual_phones():
    result = invoke("verify", "--devices", "emulator-5554", "--tasks-dir", str(DATA))
    assert result.exit_code == 2 and "vphone:N" in result.output


def play(tmp_path: Path, actions: list[dict], *extra: str, task: str = "settings-01"):
    file = tmp_path / "actions.yaml"
    file.write_text(yaml.safe_dump(actions))
    args = ("play", task, str(file), "--kb-dir", str(DATA / "kb"), "--tasks-dir", str(DATA), *extra)
    return invoke(*args), file


def test_play_prints_the_steps_and_exits_0_when_the_check_passes(tmp_path):
    hybrid = [
        {"action": "shortcut", "call": "settings.open_display_settings()"},
        {"action": "tap", "target": {"resource_id": "dark_ui_mode"}},
    ]
    result, _ = play(tmp_path, hybrid, "--devices", "vphone")
    assert result.exit_code == 0, result.output
    assert "0  shortcut settings.open_display_settings()  ok" in result.output
    assert "1  tap resource_id='dark_ui_mode'  ok" in result.output
    assert "PASS setting secure ui_night_mode" in result.output and "check passes" in result.output


def test_play_exits_1_when_the_check_fails_and_shows_a_failed_step(tmp_path):
    route = [{"action": "open_app", "name": "Settings"}, {"action": "tap", "target": {"text": "No such row"}}]
    result, _ = play(tmp_path, route)
    assert result.exit_code == 1, result.output
    assert "1  tap text='No such row'  FAILED" in result.output
    assert "FAIL setting secure ui_night_mode" in result.output and "check fails" in result.output


def test_play_bad_input_exits_2_naming_the_file_entry_and_field(tmp_path):
    actions = [{"action": "open_app", "name": "Settings"}, {"action": "tap", "target": {"txt": "Display"}}]
    result, file = play(tmp_path, actions)
    assert result.exit_code == 2
    assert f'{file}: entry 1: field "tap.target.txt": unknown field' in " ".join(result.output.split())
    result, _ = play(tmp_path, [{"action": "tap", "index": 3}])
    assert result.exit_code == 2 and "entry 0: reference steps ground GUI targets" in result.output
    result, _ = play(tmp_path, [{"action": "back"}], task="no-such-task")
    assert result.exit_code == 2 and "no-such-task" in result.output
