"""Terminal tables shaped like the paper's Table 2, rendered with rich from a `Summary`."""

from __future__ import annotations

from rich.table import Table

from .metrics import Metrics, Summary

COLUMNS = (
    ("SR", "SR", 3), ("MS", "MS", 2), ("MSR", "MSR", 3), ("MSRS", "MSRS", 3), ("MET (s)", "MET", 2),
    ("MET dev (s)", "MET_device", 1), ("MToC (k)", "MToC", 2), ("MSC", "MSC", 3), ("SSR", "SSR", 3), ("GSAR", "GSAR", 3),
)  # fmt: skip


def _fmt(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _cells(m: Metrics) -> list[str]:
    cells = [_fmt(getattr(m, attr), digits) for _, attr, digits in COLUMNS]
    if m.SR_ci95:
        cells[0] += f" [{m.SR_ci95[0]:.2f},{m.SR_ci95[1]:.2f}]"
    return cells


def table2(summaries: list[tuple[str, Summary]], title: str = "MAS-Bench results") -> Table:
    """One block of rows per task kind (single-app, cross-app, all) and one row per run in each."""
    table = Table(title=title, header_style="bold", show_lines=False)
    table.add_column("Tasks")
    table.add_column("Run")
    table.add_column("N", justify="right")
    for header, _, _ in COLUMNS:
        table.add_column(header, justify="right")
    for group, label in (("single-app", "Single-app"), ("cross-app", "Cross-app"), (None, "All")):
        first = True
        for name, summary in summaries:
            m = summary.overall if group is None else summary.groups.get("kind", {}).get(group)
            if m is None:
                continue
            table.add_row(label if first else "", name, str(m.episodes), *_cells(m), end_section=False)
            first = False
        if not first:
            table.add_section()
    return table


def split_table(summary: Summary, split: str) -> Table:
    table = Table(title=f"By {split}", header_style="bold")
    table.add_column(split.title())
    table.add_column("N", justify="right")
    for header, _, _ in COLUMNS:
        table.add_column(header, justify="right")
    for group, m in summary.groups.get(split, {}).items():
        table.add_row(group, str(m.episodes), *_cells(m))
    return table


def diagnostics_table(summary: Summary) -> Table | None:
    """Shortcut diagnostics when the run made shortcut calls, the LLM judge's agreement with the
    programmatic check when both judged; None when there is neither."""
    m = summary.overall
    if m is None:
        return None
    cells: list[tuple[str, str]] = []
    if m.MSC != 0:
        cells += [
            ("name accuracy", _fmt(m.shortcut_name_accuracy, 3)),
            ("argument accuracy", _fmt(m.shortcut_argument_accuracy, 3)),
            ("missed-shortcut rate", _fmt(m.missed_shortcut_rate, 3)),
            ("invalid steps", _fmt(m.invalid_rate, 3)),
        ]
    if m.judge_accuracy is not None:
        cells += [
            ("judge accuracy", _fmt(m.judge_accuracy, 3)),
            ("judge false-positive rate", _fmt(m.judge_false_positive_rate, 3)),
            ("judge MToC (k)", _fmt(m.MToC_judge, 2)),
        ]
    if not cells:
        return None
    title = "Shortcut diagnostics" if m.judge_accuracy is None else "Diagnostics"
    table = Table(title=title, header_style="bold")
    for header, _ in cells:
        table.add_column(header, justify="right")
    table.add_row(*(value for _, value in cells))
    return table
