"""The result tables read at 80 columns (a small terminal, a CI log) and use one table when wide."""

from __future__ import annotations

import pytest
from rich.console import Console

from masbench.eval.metrics import Metrics, Summary
from masbench.eval.table import diagnostics_table, split_table, table2

M = Metrics(
    episodes=139, tasks=139, SR=0.6115, MS=12.34, MS_success=10.1, MSR=1.2345, MSRS=0.9876, MET=123.45,
    MET_device=45.6, MToC=98.76, MToC_judge=1.0, MSC=1.234, SSR=0.9876, GSAR=0.1234, invalid_rate=0.01,
    SR_ci95=(0.5512, 0.6734), shortcut_name_accuracy=0.9, shortcut_argument_accuracy=0.8,
    missed_shortcut_rate=0.1,
)  # fmt: skip
SUMMARY = Summary(
    overall=M,
    groups={"kind": {"single-app": M, "cross-app": M}, "level": {"level-1": M, "level-2": M, "level-3": M}},
)
RUNS = [("mas-t3a-20261124-015012 (mas-t3a)", SUMMARY), ("t3a-20261124-020133 (t3a)", SUMMARY)]


def rendered(renderable, width: int) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("width", [72, 80, 100])
def test_tables_fit_a_narrow_terminal_without_cutting_anything(width):
    for table in (
        table2(RUNS, width=width),
        split_table(SUMMARY, "level", width=width),
        diagnostics_table(SUMMARY),
    ):
        text = rendered(table, width)
        assert all(len(line) <= width for line in text.splitlines())
        assert "…" not in text
        for figure in ("0.612", "12.34", "1.234", "[0.55,0.67]", "45.6", "98.76", "0.123"):
            assert figure in rendered(table2(RUNS, width=width), width)


def test_a_wide_terminal_gets_one_table_with_every_column():
    text = rendered(table2(RUNS, width=160), 160)
    header = next(line for line in text.splitlines() if "GSAR" in line)
    assert "SR" in header and "Phone (s)" in header and "SR 95% CI" in header


def test_diagnostics_show_what_a_model_agents_step_costs_and_only_invalid_steps_for_an_offline_run():
    from masbench.eval.table import diagnostic_cells

    model_run = M.model_copy(update={"calls_per_step": 2.05, "prompt_tokens_per_step": 16628.4})
    cells = dict(diagnostic_cells(model_run))
    assert cells["model calls / step"] == "2.05" and cells["prompt tokens / step"] == "16628"
    offline = M.model_copy(update={"MSC": 0, "calls_per_step": None, "judge_accuracy": None})
    assert diagnostic_cells(offline) == [("invalid steps", "0.010")]
