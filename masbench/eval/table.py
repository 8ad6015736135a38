"""Terminal tables shaped like the paper's Table 2, rendered with rich from a `Summary`.

Every table fits the width it is printed at: a wide terminal gets one table with all the paper's columns; a
narrow one (an 80-column terminal, a CI log) gets the metric columns split over stacked tables that repeat
the row labels, so no header or number is ever cut to `1.…`."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group
from rich.table import Table

from .diagnostics import FAILURE_CLASSES, FAILURE_DESCRIPTIONS
from .metrics import Metrics, Summary, task_matrix
from .records import EpisodeResult

# (header, Metrics attribute, digits), in the paper's order
COLUMNS = (
    ("SR", "SR", 3), ("MS", "MS", 2), ("MSR", "MSR", 3), ("MSRS", "MSRS", 3), ("MET (s)", "MET", 2),
    ("Phone (s)", "MET_device", 1), ("MToC (k)", "MToC", 2), ("MSC", "MSC", 3), ("SSR", "SSR", 3), ("GSAR", "GSAR", 3),
)  # fmt: skip
# Each column in a few words, for the legend under every table; the full definitions, with the choices made
# where the paper is loose, are metrics.py's docstring (`masbench metrics`) and docs/metrics.md.
LEGEND = {
    "SR": "success rate",
    "MS": "mean steps",
    "MSR": "steps/optimal",
    "MSRS": "MSR of successes",
    "MET": "wall s/episode",
    "Phone": "phone s/episode (modelled)",
    "MToC": "k tokens/episode",
    "MSC": "shortcut calls/episode",
    "SSR": "shortcut success rate",
    "GSAR": "shortcut/GUI actions",
}
METRICS_HELP = "definitions: masbench metrics"
# task kinds in the order of the paper's Table 2, each with its row label; the "All" row comes after them
KIND_ROWS = (("single-app", "Single-app"), ("cross-app", "Cross-app"))
LABEL_MAX = 22  # a longer run name folds onto a second line
Cell = Callable[[Metrics], str]


def _fmt(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ci(m: Metrics) -> str:
    return f"[{m.SR_ci95[0]:.2f},{m.SR_ci95[1]:.2f}]" if m.SR_ci95 else "-"


def _attribute_cell(attr: str, digits: int) -> Cell:
    """The cell showing `Metrics.<attr>` to `digits` places."""
    return lambda m: _fmt(getattr(m, attr), digits)


def _columns(with_ci: bool) -> list[tuple[str, Cell]]:
    """The metric columns in the paper's order, the SR confidence interval beside SR when there is one."""
    cells: list[tuple[str, Cell]] = []
    for header, attr, digits in COLUMNS:
        cells.append((header, _attribute_cell(attr, digits)))
        if attr == "SR" and with_ci:
            cells.append(("SR 95% CI", _ci))
    return cells


def _pack(widths: list[int], fixed: int, width: int) -> list[list[int]]:
    """Column indices grouped into as few tables as fit `width` beside the `fixed` label columns, the
    columns shared out evenly (4+3+3, not 5+4+1)."""

    def greedy(budget: int) -> list[list[int]]:
        parts: list[list[int]] = [[]]
        used = fixed
        for i, w in enumerate(widths):
            if parts[-1] and used + w > budget:
                parts.append([])
                used = fixed
            parts[-1].append(i)
            used += w
        return parts

    fewest = len(greedy(width))
    budget = fixed + sum(widths) // fewest
    while len(parts := greedy(budget)) > fewest:
        budget += 1
    return parts


def _metric_tables(
    title: str,
    labels: list[str],
    rows: list[tuple[list[str], Metrics]],
    width: int,
    sections: list[int] | None = None,
) -> Table | Group:
    """The rows' metrics in as few tables as fit `width`, stacked, each repeating the row labels;
    `sections` are the row indices that start a block."""
    columns = _columns(any(m.SR_ci95 for _, m in rows))
    values = [[cell(m) for _, cell in columns] for _, m in rows]
    widths = [max(len(header), *(len(v[i]) for v in values)) + 3 for i, (header, _) in enumerate(columns)]
    label_widths = [
        min(LABEL_MAX, max(len(label), *(len(c[i]) for c, _ in rows))) + 3 for i, label in enumerate(labels)
    ]
    fixed = 1 + sum(label_widths) + max(len(str(m.episodes)) for _, m in rows) + 4
    tables = []
    for n, part in enumerate(_pack(widths, fixed, width)):
        table = Table(title=title if n == 0 else None, header_style="bold")
        for label in labels:
            table.add_column(label, overflow="fold", max_width=LABEL_MAX)
        table.add_column("N", justify="right")
        for i in part:
            table.add_column(columns[i][0], justify="right")
        for r, (cells, m) in enumerate(rows):
            if sections and r in sections and r:
                table.add_section()
            table.add_row(*cells, str(m.episodes), *(values[r][i] for i in part))
        tables.append(table)
    return tables[0] if len(tables) == 1 else Group(*tables)


def table2(
    summaries: list[tuple[str, Summary]], title: str = "MAS-Bench results", width: int = 200
) -> Table | Group:
    """One block of rows per task kind (single-app, cross-app, all) and one row per run in each."""
    rows: list[tuple[list[str], Metrics]] = []
    sections: list[int] = []
    for group, label in (*KIND_ROWS, (None, "All")):
        first = True
        for name, summary in summaries:
            m = summary.overall if group is None else summary.groups.get("kind", {}).get(group)
            if m is None:
                continue
            if first:
                sections.append(len(rows))
            rows.append(([label if first else "", name], m))
            first = False
    return _metric_tables(title, ["Tasks", "Run"], rows, width, sections)


def split_table(summary: Summary, split: str, width: int = 200) -> Table | Group:
    rows: list[tuple[list[str], Metrics]] = [
        ([group], m) for group, m in summary.groups.get(split, {}).items()
    ]
    return _metric_tables(f"By {split}", [split.title()], rows, width)


def legend() -> str:
    """One line naming what each column means, ending with where the full definitions are."""
    return " · ".join(f"{k} {v}" for k, v in LEGEND.items()) + f" · {METRICS_HELP}"


def diagnostic_cells(m: Metrics, predefined_kb: bool = True) -> list[tuple[str, str]]:
    """(figure, value) rows: the share of invalid steps (always: a run of unusable replies shows as such),
    shortcut accuracy against the hybrid references when the run called shortcuts of the predefined KB
    (a generated KB's names are not the references', so there it would mean nothing), what a model
    agent's steps cost, the LLM judge's agreement with the programmatic check when both judged."""
    cells: list[tuple[str, str]] = [("invalid steps", _fmt(m.invalid_rate, 3))]
    if m.MSC != 0 and predefined_kb:
        cells += [
            ("name accuracy", _fmt(m.shortcut_name_accuracy, 3)),
            ("argument accuracy", _fmt(m.shortcut_argument_accuracy, 3)),
            ("missed-shortcut rate", _fmt(m.missed_shortcut_rate, 3)),
        ]
    cells += trajectory_cells(m)
    if m.calls_per_step:
        cells += [
            ("model calls / step", _fmt(m.calls_per_step, 2)),
            ("prompt tokens / step", _fmt(m.prompt_tokens_per_step, 0)),
            ("replies rescued by lenient parser", str(m.rescued_steps)),
            ("successes with a rescued reply", str(m.successes_with_rescue)),
        ]
    if m.judge_accuracy is not None:
        cells += [
            ("judge accuracy", _fmt(m.judge_accuracy, 3)),
            ("judge false-positive rate", _fmt(m.judge_false_positive_rate, 3)),
            ("judge MToC (k)", _fmt(m.MToC_judge, 2)),
        ]
    return cells


def uses_predefined_kb(summary: Summary) -> bool:
    """Whether the run called the predefined KB's shortcuts (the ones the hybrid references name)."""
    return bool(summary.run.get("kb", "predefined") == "predefined")


def diagnostics_table(summary: Summary, outcomes: dict[str, int] | None = None) -> Table | None:
    """The diagnostic figures (`diagnostic_cells`), then the episodes per outcome, as a table; None when
    nothing was scored. One row per figure, so it fits any width."""
    if summary.overall is None:
        return None
    table = Table(title="Diagnostics", header_style="bold")
    table.add_column("Figure")
    table.add_column("Value", justify="right")
    for header, value in diagnostic_cells(summary.overall, uses_predefined_kb(summary)):
        table.add_row(header, value)
    for n, (outcome, count) in enumerate((outcomes or {}).items()):
        if n == 0:
            table.add_section()
        table.add_row(f"episodes: {outcome}", str(count))
    return table


def matrix_table(runs: list[tuple[str, list[EpisodeResult]]]) -> Table:
    """One row per task, one column per run (headed by the run's name: `compare` numbers them, so any
    number of runs fits 80 columns): ok, wrong (finished in a wrong state), steps / time (a limit reached),
    error, or blank."""
    table = Table(title="Per task", header_style="bold")
    table.add_column("Task")
    for name, _ in runs:
        table.add_column(name, justify="center")
    style = {"ok": "green", "": ""}
    for task, cells in task_matrix(runs):
        table.add_row(task, *(f"[{style.get(c, 'red')}]{c}[/]" if style.get(c, "red") else c for c in cells))
    return table


def trajectory_cells(m: Metrics) -> list[tuple[str, str]]:
    """The figures read from trajectories (docs/metrics.md): AppBench's F1 of apps and of shortcuts (as its
    F1 of API) with their precision and recall, shortcuts only for a run that called some, as the
    accuracies; the online retrieval recall of a MAS agent; the calls refused as not offered, if any."""
    figures = (
        ("app", m.app_precision, m.app_recall, m.app_f1),
        ("shortcut", m.shortcut_precision, m.shortcut_recall, m.shortcut_f1),
    )
    cells = [
        (f"{what} F1 (precision / recall)", f"{_fmt(f1, 3)} ({_fmt(p, 2)} / {_fmt(r, 2)})")
        for what, p, r, f1 in figures
        if f1 is not None and (what == "app" or m.MSC != 0)
    ]
    if m.online_retrieval_recall is not None:
        cells.append(("online retrieval recall", _fmt(m.online_retrieval_recall, 3)))
    if m.refused_shortcut_calls:
        cells.append(("calls refused: not offered", str(m.refused_shortcut_calls)))
    return cells + recovery_cells(m)


def recovery_cells(m: Metrics) -> list[tuple[str, str]]:
    """The recovery rate from injected shortcut faults (`--faults`), over how many episodes had one."""
    if not m.faulted_episodes:
        return []
    return [(f"recovery rate ({m.faulted_episodes} faulted)", _fmt(m.recovery_rate, 3))]


def failures_table(runs: list[tuple[str, Summary]]) -> Table | None:
    """Failed episodes per failure class (docs/metrics.md), None when no run has a classified failure. One
    run: a column saying what each class means; several: one numbered column per run (named in the
    caption), so it fits 80 columns."""
    classes = [c for c in FAILURE_CLASSES if any(s.overall and s.overall.failures.get(c) for _, s in runs)]
    if not classes:
        return None
    table = Table(title="Failures by class", header_style="bold")
    table.add_column("Class")
    for n in range(1, len(runs) + 1):
        table.add_column("N" if len(runs) == 1 else str(n), justify="right")
    if len(runs) == 1:
        table.add_column("Meaning", overflow="fold")
    elif any(name != str(n) for n, (name, _) in enumerate(runs, 1)):  # else named above, as compare does
        table.caption = "  ".join(f"{n}: {name}" for n, (name, _) in enumerate(runs, 1))
    for c in classes:
        counts = [str(s.overall.failures.get(c, 0)) if s.overall else "" for _, s in runs]
        table.add_row(c, *counts, *([FAILURE_DESCRIPTIONS[c]] if len(runs) == 1 else []))
    return table
