"""Where a next-action diagnosis is kept and how it is shown: a run-like directory (`diagnosis.json`, its
settings; `decisions.jsonl`, one scored decision a line, written as each is made; `summary.json`, the
figures by group; `llm_cassette.jsonl` when a live model was asked; `report.html`), the terminal tables
and the HTML page. Definitions: docs/metrics.md.
"""

from __future__ import annotations

import html
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Literal

from pydantic import BaseModel, Field

from .diagnose import StepScore, grouped
from .html import html_page, html_table
from .records import write_atomic

SETTINGS = "diagnosis.json"
DECISIONS = "decisions.jsonl"
SUMMARY = "summary.json"
CASSETTE = "llm_cassette.jsonl"
REPORT = "report.html"
Figures = dict[str, dict[str, float | int | None]]


class NextActionSettings(BaseModel):
    """What a diagnosis asked: its agent, model, KB and tasks, and whether missing-information cases were
    added."""

    diagnostic: Literal["next-action"] = "next-action"
    agent: str
    model: str | None
    kb: str
    tasks: str
    missing_info: bool
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))


class DecisionLog:
    """`decisions.jsonl`, a line flushed per decision, so a diagnosis cut short keeps what it paid for."""

    def __init__(self, out_dir: Path) -> None:
        self.fh: IO[str] = (out_dir / DECISIONS).open("w", encoding="utf-8")

    def write(self, score: StepScore) -> None:
        self.fh.write(score.model_dump_json() + "\n")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def start(out_dir: Path, settings: NextActionSettings) -> DecisionLog:
    out_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(out_dir / SETTINGS, settings.model_dump_json(indent=2))
    return DecisionLog(out_dir)


def read(out_dir: Path) -> tuple[NextActionSettings, list[StepScore]]:
    """A diagnosis directory's settings and decisions (OSError or ValueError when it is not one)."""
    settings = NextActionSettings.model_validate_json((out_dir / SETTINGS).read_text(encoding="utf-8"))
    lines = (out_dir / DECISIONS).read_text(encoding="utf-8").splitlines()
    return settings, [StepScore.model_validate_json(line) for line in lines if line.strip()]


def finish(out_dir: Path, settings: NextActionSettings, scores: list[StepScore]) -> Figures:
    """Write summary.json and report.html from the decisions; the figures by group."""
    figures = grouped(scores)
    summary = {**settings.model_dump(mode="json"), "figures": figures}
    write_atomic(out_dir / SUMMARY, json.dumps(summary, indent=2))
    write_atomic(out_dir / REPORT, report_html(settings, figures, scores))
    return figures


def table_groups(figures: Figures) -> list[list[str]]:
    """The groups side by side in each table: all and the levels, then the reference lengths (two tables,
    so each is readable at 80 columns)."""
    return [
        ["all", *(g for g in figures if g.startswith("level"))],
        [g for g in figures if g.startswith("length")],
    ]


def cell(value: float | int | None) -> str:
    return "-" if value is None else str(value) if isinstance(value, int) else f"{value:.3f}"


def report_html(settings: NextActionSettings, figures: Figures, scores: list[StepScore]) -> str:
    """The page: the figures by group, every decision against the reference's step, and every
    missing-information case with what the agent did."""
    model = f" · {settings.model}" if settings.model else ""
    parts = [
        f"<h1>masbench next action — {html.escape(settings.agent + model)}</h1>",
        f"<p>tasks <b>{html.escape(settings.tasks)}</b> · KB <b>{html.escape(settings.kb)}</b> · "
        f"{sum(s.missing is None for s in scores)} decisions · created {settings.created_at:%Y-%m-%d %H:%M}</p>",
        "<h2>Figures</h2><p class=defs>Definitions: docs/metrics.md, Teacher-forced next action.</p>",
    ]
    for caption, names in zip(
        ("By level", "By reference length (steps)"), table_groups(figures), strict=True
    ):
        rows = [[figure, *(cell(figures[n][figure]) for n in names)] for figure in figures.get("all", {})]
        head = ["Figure", *(n.removeprefix("length ") for n in names)]
        parts.append(f"<h3>{caption}</h3>" + html_table(head, rows))
    decisions = [
        [f"{s.task_id} #{s.step}", s.reference, s.answer or f"(unusable: {s.error or 'no action'})", s.kind,
         "ok" if s.correct else "wrong"]
        for s in scores if s.missing is None
    ]  # fmt: skip
    parts.append(
        "<h2>Decisions</h2>"
        + html_table(["Step", "Reference", "Answer", "Kind", "Same"], decisions, text=True)
    )
    cases = [
        [f"{s.task_id} #{s.step}", s.missing or "", s.instruction or "", s.answer or "(unusable)", s.outcome or ""]
        for s in scores if s.missing is not None
    ]  # fmt: skip
    if cases:
        parts.append(
            "<h2>Missing information</h2><p class=defs>The value removed from the instruction, the "
            "instruction given, the agent's action and what it amounts to.</p>"
            + html_table(["Step", "Removed", "Instruction", "Answer", "Outcome"], cases, text=True)
        )
    return html_page(f"masbench next action: {settings.agent}", "".join(parts))
