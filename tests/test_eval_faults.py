"""Shortcut fault injection (`--faults`): the SPEC parser, each kind injected by the executor wrapper on a
virtual phone, the same faults for the same seed, and a run whose faults are recorded and scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from masbench.cli import app
from masbench.device import Device
from masbench.eval.faults import INJECTED, SLOW_S, FaultSpecError, FaultyExecutor, faulty, parse_faults
from masbench.shortcuts import ShortcutExecutor, load_kb

KB = load_kb()
DATA = Path(__file__).parent / "data" / "tasks"
AMAZON = "com.amazon.mShop.android.shopping"
SEARCH = ("amazon.search_product", {"query": "shoes"})


def test_spec_parses_kinds_and_rates_in_order():
    assert parse_faults("api:0.2, removed:0.1") == {"api": 0.2, "removed": 0.1}
    assert list(parse_faults("slow:0.5,moved:0.5")) == ["slow", "moved"]


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("crash:0.1", "kind one of removed, api, moved, slow"),
        ("api", "kind one of"),
        ("api:lots", "a number from 0 to 1"),
        ("api:1.5", "a number from 0 to 1"),
        ("api:0.1,api:0.2", "api is given twice"),
        ("api:0.6,removed:0.6", "add up to more than 1"),
    ],
)
def test_a_bad_spec_says_what_to_write(spec, says):
    with pytest.raises(FaultSpecError, match=says):
        parse_faults(spec)


class Untouchable:
    """An executor whose device must not be touched; its calls are counted."""

    def __init__(self) -> None:
        self.kb, self.device, self.ground, self.calls = KB, None, None, 0

    def call(self, name, arguments=None):
        self.calls += 1
        return "ran"


def test_the_same_seed_injects_the_same_faults_at_the_same_calls():
    def draws(seed: str) -> list[int]:
        wrapped = FaultyExecutor(Untouchable(), {"api": 0.5}, seed)  # type: ignore[arg-type]
        for _ in range(40):
            wrapped.call(*SEARCH)
        return [n for n, _, _ in wrapped.injected]

    first = draws("amazon-02/0/api:0.5")
    assert first == draws("amazon-02/0/api:0.5")
    assert 5 < len(first) < 35 and first != draws("amazon-02/1/api:0.5")  # another repeat, other calls


def test_no_spec_leaves_the_executor_as_it_is():
    inner = Untouchable()
    assert faulty(inner, None, "t", 0) is inner  # type: ignore[arg-type]
    assert faulty(None, "api:1", "t", 0) is None


@pytest.fixture
def wrap(device: Device):
    def make(spec: str) -> FaultyExecutor:
        device.home()
        wrapped = faulty(ShortcutExecutor(KB, device, step_timeout=1.0), spec, "t", 0)
        assert isinstance(wrapped, FaultyExecutor)
        return wrapped

    return make


def test_api_fails_before_touching_the_device(wrap, device):
    before = device.foreground()[0]
    record = wrap("api:1.0").call(*SEARCH)
    assert not record.success and record.reason.startswith(f"{INJECTED} (api)") and record.commands == []
    assert device.foreground()[0] == before != AMAZON


def test_removed_opens_the_app_and_fails_its_postcondition(wrap, device):
    wrapped = wrap("removed:1.0")
    record = wrapped.call(*SEARCH)
    assert not record.success and "postcondition failed" in record.reason
    assert device.foreground()[0] == AMAZON and wrapped.injected == [(0, "amazon.search_product", "removed")]


def test_moved_runs_the_script_up_to_its_first_tap_and_fails_there(wrap, device):
    wrapped = wrap("moved:1.0")
    record = wrapped.call("amazon.add_to_cart", {"query": "shoes"})
    assert (
        not record.success
        and record.reason.startswith("step 2 tap")
        and f"{INJECTED} (moved)" in record.reason
    )
    assert [s.success for s in record.steps] == [True, False]  # the nested search ran, the tap missed
    assert device.foreground()[0] == AMAZON
    deeplink = wrapped.call(*SEARCH)  # nothing to tap: runs untouched, no fault
    assert deeplink.success and len(wrapped.injected) == 1


def test_slow_delays_on_the_device_clock_then_runs(wrap, device):
    wrapped = wrap("slow:1.0")
    before = device.device_time()["device_ms"]
    record = wrapped.call(*SEARCH)
    assert record.success and device.device_time()["device_ms"] - before >= SLOW_S * 1000
    assert wrapped.injected == [(0, "amazon.search_product", "slow")]


def test_a_bad_call_is_the_agents_error_not_a_fault(wrap):
    wrapped = wrap("api:1.0")
    record = wrapped.call("amazon.search_product", {})  # query missing
    assert not record.success and INJECTED not in (record.reason or "") and wrapped.injected == []


def test_an_oracle_run_records_its_faults_and_scores_recovery(tmp_path):
    cli = CliRunner(env={"COLUMNS": "80"})
    out = tmp_path / "run"
    common = ["--tasks-dir", str(DATA), "--kb", str(DATA / "kb"), "--vphone-mode", "thread", "--no-screens"]
    base = ["run", "--agent", "oracle", "--tasks", "settings-01,settings-03", *common]
    args = [*base, "--out", str(out)]
    result = cli.invoke(app, [*args, "--faults", "api:1.0"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    faults = {r["task_id"]: r["injected_faults"] for r in rows}
    assert faults == {
        "settings-01": [{"step": 0, "shortcut": "settings.open_display_settings", "kind": "api"}],
        "settings-03": [{"step": 0, "shortcut": "settings.open_bluetooth_settings", "kind": "api"}],
    }
    assert all(r["end_reason"] != "error" for r in rows)  # scored, not an infrastructure error
    overall = json.loads((out / "summary.json").read_text())["overall"]
    assert overall["faulted_episodes"] == 2 and overall["recovery_rate"] == overall["SR"]
    assert overall["SSR"] is None  # every call failed by the harness: none is the agent's
    assert "recovery rate (2 faulted)" in result.output
    assert json.loads((out / "run.json").read_text())["faults"] == "api:1"
    assert cli.invoke(app, ["report", str(out), "--tasks-dir", str(DATA)]).exit_code == 0
    assert "<td>recovery rate (2 faulted)</td>" in (out / "report.html").read_text()

    changed = cli.invoke(app, [*args, "--resume", "--faults", "api:0.5"])
    assert changed.exit_code == 2 and "--faults api:1 (this command: api:0.5)" in changed.output
    bad = cli.invoke(app, [*base, "--out", str(tmp_path / "other"), "--faults", "api:2"])
    assert bad.exit_code == 2 and "a number from 0 to 1" in bad.output
