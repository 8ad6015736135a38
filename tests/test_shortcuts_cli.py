"""`masbench shortcuts list|show|call` through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from masbench.shortcuts.cli import shortcuts_app

KB_DIR = str(Path(__file__).parent / "data" / "kb")


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("COLUMNS", "200")  # keep rich tables on one line per row
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(shortcuts_app, [*args, "--kb-dir", KB_DIR])

    return invoke


def test_list_table_and_json(run):
    result = run("list")
    assert result.exit_code == 0, result.output
    assert "15 shortcuts (5 api, 2 deeplink, 6 rpa, 1 replay, 1 dynamic)" in result.output
    assert "settings.enable_dark_theme" in result.output
    result = run("list", "--app", "chrome", "--type", "deeplink", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [d["name"] for d in data] == ["search", "open_site"]
    assert data[1]["verified"] is False


def test_list_rejects_an_unknown_type(run):
    result = run("list", "--type", "macro")
    assert result.exit_code == 2
    assert "unknown type 'macro'" in result.output


def test_show(run):
    result = run("show", "chrome.search")
    assert result.exit_code == 0, result.output
    assert (
        'chrome.search(query: string, after?: date, count?: integer, safe?: "active"|"off")' in result.output
    )
    assert 'example: chrome.search(query="mechanical watch", count=20)' in result.output
    assert "uri: https://www.google.com/search?q={query}" in result.output
    data = json.loads(run("show", "chrome.search", "--format", "json").output)
    assert data["deeplink"]["package"] == "com.android.chrome"
    missing = run("show", "chrome.serch")
    assert missing.exit_code == 1 and "did you mean chrome.search?" in missing.output


def test_call_on_a_virtual_phone(run, vphones):
    device = f"127.0.0.1:{vphones.port}/vphone-1"
    result = run("call", "settings.enable_dark_theme", "--device", device)
    assert result.exit_code == 0, result.output
    assert "success" in result.output and "Dark theme" in result.output
    result = run("call", "chrome.search", "query=red shoes", "count=5", "--device", device, "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["success"] and record["arguments"] == {"query": "red shoes", "count": 5}


def test_call_failure_exits_1_with_the_reason(run, vphones):
    device = f"127.0.0.1:{vphones.port}/vphone-1"
    result = run("call", "settings.enable_dark_theme_broken", "--device", device, "--step-timeout", "0.2")
    assert result.exit_code == 1
    assert "step 3 tap {text='Darkest theme'}: no element matches" in result.output


def test_bad_arguments_fail_before_any_device_is_opened(run):
    # The device address is a closed port: only a call that skipped validation would notice.
    result = run("call", "chrome.search", "count=many", "--device", "127.0.0.1:1/vphone-1")
    assert result.exit_code == 1
    assert "chrome.search: missing required argument 'query'" in result.output
    assert "argument 'count' must be an integer" in result.output
    result = run("call", "chrome.search", "query", "--device", "127.0.0.1:1/vphone-1")
    assert result.exit_code == 1 and "'query' is not NAME=VALUE" in result.output


def test_call_with_a_bad_device_address_is_a_usage_error(run):
    result = run("call", "settings.open_display", "--device", "127.0.0.1:99999/x")
    assert result.exit_code == 2
    assert "out of range" in result.output


def test_broken_kb_exits_2_naming_the_file(tmp_path: Path):
    (tmp_path / "bad.yaml").write_text("app: settings\nshortcuts:\n  - {name: x, type: api}\n")
    result = CliRunner().invoke(shortcuts_app, ["list", "--kb-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert 'bad.yaml: shortcut x: field "description": Field required' in result.output
