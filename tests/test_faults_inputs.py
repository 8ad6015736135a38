"""Hostile or oversized inputs fail fast with a clear message, or are cut to size with a marker: a YAML alias
bomb in a task or KB file, a 20 MB model reply, a 270 KB typed command, `--devices vphone:100000`."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from masbench.device.connect import DeviceSpecError, parse_specs
from masbench.device.errors import DeviceCommandError
from masbench.shortcuts import KBError, load_kb
from masbench.tasks import load_tasks
from masbench.tasks.taskset import TaskError
from masbench.trajectory import MAX_TEXT, StepRecord

# 300 bytes that expand to 10^8 strings ("billion laughs"): minutes and gigabytes for a plain safe_load
BOMB = (
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
)


def test_an_alias_bomb_in_a_task_file_fails_fast_naming_the_file(tmp_path: Path):
    (tmp_path / "single_app").mkdir()
    (tmp_path / "single_app" / "bomb.yaml").write_text(BOMB)
    started = time.monotonic()
    with pytest.raises(TaskError, match=r"single_app/bomb.yaml: line 2: not valid YAML: aliases"):
        load_tasks(tmp_path)
    assert time.monotonic() - started < 2


def test_an_alias_bomb_in_a_kb_file_fails_fast_naming_the_file(tmp_path: Path):
    (tmp_path / "bomb.yaml").write_text(BOMB)
    with pytest.raises(KBError, match=r"bomb.yaml:2: invalid YAML: aliases"):
        load_kb(tmp_path)


def test_a_huge_reply_is_cut_in_the_step_record_with_a_marker():
    reply = "x" * 20_000_000
    step = StepRecord(index=0, action=None, kind="invalid", ok=False, model_output=reply, model_input=reply)
    assert len(step.model_output) <= MAX_TEXT and step.model_output.endswith(" characters cut]")
    assert StepRecord.model_validate_json(step.model_dump_json()) == step  # read back unchanged
    assert StepRecord(index=0, action=None, kind="gui", ok=True, model_output="short").model_output == "short"


def test_an_overlong_command_is_clipped_in_its_error():
    command = "am broadcast -a ADB_INPUT_B64 --es msg " + "A" * 270_000
    error = DeviceCommandError(command, "Error: too long", exit_code=1)
    assert len(str(error)) < 1400 and "270039 more characters" not in str(error)
    assert "more characters)" in str(error) and error.command == command  # the whole command stays at hand


def test_a_huge_phone_count_is_refused():
    assert parse_specs(["vphone:64"])[0] == 64
    with pytest.raises(DeviceSpecError, match="at most 64"):
        parse_specs(["vphone:100000"])
    with pytest.raises(DeviceSpecError, match="at most 64"):
        parse_specs(["vphone:40", "vphone:40"])


def test_the_emulator_console_creates_a_token_when_none_exists(tmp_path: Path, monkeypatch):
    from masbench.vphone import console

    token_file = tmp_path / ".emulator_console_auth_token"
    monkeypatch.setattr(console, "TOKEN_FILE", token_file)
    token = console.console_token()
    assert token and token_file.read_text() == token and token_file.stat().st_mode & 0o077 == 0
    assert console.console_token() == token  # kept, as the emulator keeps it
    token_file.write_text("")
    assert console.console_token() is None  # an empty file turns authentication off, as on an emulator


def test_a_wait_cut_by_the_call_limit_reports_the_real_limit():
    from masbench.actions import Selector
    from masbench.shortcuts import ShortcutExecutor
    from masbench.shortcuts.executor import StepFailed

    class Blank:  # a screen where the awaited element never shows
        def elements(self) -> list:
            return []

    executor = ShortcutExecutor(load_kb(), Blank(), poll_interval=0.05)  # type: ignore[arg-type]
    executor._ends_at = time.monotonic() + 0.3  # the call's own deadline, shorter than the wait's 120 s
    with pytest.raises(StepFailed, match=r"within 0\.3s$"):
        executor._poll(Selector(text="never"), 120)
