"""What a researcher sees at 80 columns: a legend under the run's tables, paths and commands that copy
whole, `--help` that reads, and diagnostics that never hide invalid steps."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from masbench.cli import app
from masbench.eval.metrics import Metrics, Summary
from masbench.eval.table import LEGEND, diagnostic_cells, diagnostics_table, legend

DATA = Path(__file__).parent / "data" / "tasks"
NARROW = {"COLUMNS": "60"}


def _metrics(**update) -> Metrics:
    base = Metrics(
        episodes=4, tasks=4, SR=0.0, MS=3.0, MS_success=None, MSR=1.0, MSRS=None, MET=1.0, MET_device=None,
        MToC=2.0, MToC_judge=0.0, MSC=0.0, SSR=None, GSAR=None, invalid_rate=1.0,
    )  # fmt: skip
    return base.model_copy(update=update)


def test_a_finished_run_ends_with_the_legend_and_paths_that_copy_whole(tmp_path):
    out = tmp_path / "a-run-directory-with-a-long-enough-name-to-wrap-at-sixty"
    args = ["run", "--agent", "oracle", "--tasks", "settings-01", "--devices", "vphone:1", "--tasks-dir",
            str(DATA), "--kb", str(DATA / "kb"), "--vphone-mode", "thread", "--no-screens", "--out", str(out)]  # fmt: skip
    result = CliRunner(env=NARROW).invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert f"report:  masbench report {out}" in lines  # on one line however narrow the terminal
    assert f"results: {out / 'results.jsonl'}" in lines
    text = " ".join(lines)
    assert "SR success rate" in text and "masbench metrics" in text
    assert "episodes: success" in text  # outcome counts in the diagnostics


def test_masbench_metrics_names_every_column_and_the_full_definitions():
    result = CliRunner(env=NARROW).invoke(app, ["metrics"])
    assert result.exit_code == 0
    for short, meaning in LEGEND.items():
        assert short in result.output and meaning in result.output
    assert "SR: successful episodes / episodes" in result.output  # metrics.py's definitions, unchanged
    assert all(k in legend() for k in LEGEND)


def test_help_at_80_columns_shows_flags_as_flags_and_whole_option_names():
    result = CliRunner(env={"COLUMNS": "80"}).invoke(app, ["run", "--help"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "--resume <bool>" not in result.output and any(ln.split()[:1] == ["--resume"] for ln in lines)
    assert "--learn-across-repeats" in result.output and "…" not in result.output


def test_diagnostics_show_invalid_steps_even_without_shortcut_calls():
    garbage = _metrics()  # every step invalid, no shortcut called
    assert ("invalid steps", "1.000") in diagnostic_cells(garbage)
    assert diagnostics_table(Summary(overall=garbage)) is not None


def test_shortcut_accuracy_only_for_the_predefined_kb():
    called = _metrics(MSC=2.0, shortcut_name_accuracy=1.0, shortcut_argument_accuracy=1.0)
    assert "name accuracy" in dict(diagnostic_cells(called))
    assert "name accuracy" not in dict(diagnostic_cells(called, predefined_kb=False))
    generated = Summary(overall=called, run={"kb": "runs/kb-generated"})
    table = diagnostics_table(generated, {"finished, wrong final state": 4})
    cells = [c for col in table.columns for c in col._cells]
    assert "name accuracy" not in cells and "episodes: finished, wrong final state" in cells


def test_compare_at_80_columns_names_each_run_once_and_its_html_keeps_the_warning(tmp_path):
    a, b = tmp_path / "a-run-with-a-name-longer-than-twenty-two", tmp_path / "b"
    common = ["--agent", "oracle", "--devices", "vphone:1", "--no-screens", "--tasks-dir", str(DATA), "--kb",
              str(DATA / "kb"), "--vphone-mode", "thread"]  # fmt: skip
    cli = CliRunner(env={"COLUMNS": "80"})
    assert (
        cli.invoke(app, ["run", "--out", str(a), "--tasks", "settings-01,settings-02", *common]).exit_code
        == 0
    )
    assert cli.invoke(app, ["run", "--out", str(b), "--tasks", "settings-01", *common]).exit_code == 0
    page = tmp_path / "cmp.html"
    result = cli.invoke(app, ["compare", str(a), str(b), "--tasks-dir", str(DATA), "--html", str(page)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert f"  1  {a.name} (oracle)  {a}" in lines and f"  2  {b.name} (oracle)  {b}" in lines
    assert all(len(line) <= 80 for line in lines if not line.startswith(("  1  ", "  2  ", "comparison:")))
    comparison = page.read_text()
    assert "warning: these runs cover different tasks" in comparison
    assert "paper:" not in comparison  # neither run has a whole kind of tasks: no paper rows beside them
    assert comparison.count('<td><a class=ok href="') == 3  # every cell links to its episode
