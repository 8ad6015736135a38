"""`masbench diagnose`: diagnostics that ask an agent one decision at a time (docs/metrics.md)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

diagnose_app = typer.Typer(
    help="Diagnostics that ask an agent one decision at a time (docs/metrics.md).", no_args_is_help=True
)
AGENT_HELP = (
    "A model agent whose history can be written for it: t3a, m3a, mas-t3a (and -lenient), mobileagent-v2, "
    "mas-mobileagent (and -tree); not mobileagent-e (docs/metrics.md)."
)


@diagnose_app.command("next-action")
def next_action_command(
    agent: str = typer.Option(..., "--agent", "-a", help=AGENT_HELP),
    model: str | None = typer.Option(
        None, "--model", "-m", help="gemini-2.5-pro, openai:MODEL@URL, cassette:PATH, scripted:PATH."
    ),
    tasks: str = typer.Option("level-1", "--tasks", "-t", help="Subset name or comma-separated task ids."),
    device: str = typer.Option("vphone", "--device", "-d", help="vphone, or a device address."),
    kb: str = typer.Option(
        "predefined", "--kb", help="Shortcut knowledge base: predefined, none, or a PATH."
    ),
    missing_info: bool = typer.Option(
        True,
        "--missing-info/--no-missing-info",
        help="Also ask each step with a value it needs removed from the instruction (asks or stops?).",
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help="Directory for the diagnosis (default runs/next-action-<agent>-<timestamp>).",
    ),
    tasks_dir: Path | None = typer.Option(
        None, "--tasks-dir", help="Task data directory, if not the shipped one."
    ),
) -> None:
    """At every step of each task's hybrid reference: the phone in the reference's state, the agent given the
    gold history in its own format, one action asked and scored against the reference's, nothing executed;
    with --missing-info, asked again with each value the step needs removed from the instruction. Prints
    accuracy, GUI-or-shortcut agreement, shortcuts skipped, shortcut selection, argument accuracy by where
    each value comes from and how often the agent asked or stopped when a value was missing, by level and
    reference length. OUT gets decisions.jsonl, summary.json and report.html; a live model's calls go to
    OUT/llm_cassette.jsonl, which `--model cassette:PATH` replays."""
    from masbench.agents import AGENTS, make_agent
    from masbench.device import open_devices
    from masbench.eval import diagnose_report as saved
    from masbench.eval.diagnose import StepScore, next_actions
    from masbench.eval.runner import load_run_kb
    from masbench.llm.base import LLMConfigError
    from masbench.shortcuts import ShortcutExecutor
    from masbench.tasks import load_tasks

    console = Console()
    try:
        selected = load_tasks(tasks_dir).select(tasks)
        knowledge = load_run_kb(kb)
        make_agent(agent, model).assume_history([])  # refuses an agent whose history cannot be written
    except (LLMConfigError, ValueError, OSError, NotImplementedError) as exc:
        console.print(f"[red]error:[/] {exc}", highlight=False)
        raise typer.Exit(2) from None
    out = out or Path("runs") / f"next-action-{agent}-{datetime.now():%Y%m%d-%H%M%S}"
    live = AGENTS[agent].needs_model and not (model or "").startswith(("cassette:", "scripted:"))
    record_to = out / saved.CASSETTE if live else None
    settings = saved.NextActionSettings(
        agent=agent, model=model, kb=kb, tasks=tasks, missing_info=missing_info
    )
    log = saved.start(out, settings)

    def on_step(score: StepScore) -> None:
        log.write(score)
        what = (
            f"without {score.missing!r}: {score.outcome}"
            if score.missing
            else ("ok" if score.correct else "wrong")
        )
        console.print(f"{score.task_id} #{score.step}: {what}", highlight=False, markup=False)

    try:
        with open_devices([device]) as (phone, *_):
            executor = ShortcutExecutor(knowledge, phone) if knowledge is not None else None
            scores = next_actions(
                phone, list(selected), lambda: make_agent(agent, model, record_to=record_to), knowledge, executor,
                on_step=on_step, missing_info=missing_info,
            )  # fmt: skip
    finally:
        log.close()
    figures = saved.finish(out, settings, scores)
    print_figures(console, figures)
    console.print(f"diagnosis: {out}", soft_wrap=True, markup=False, highlight=False)


@diagnose_app.command("report")
def report_command(
    diagnosis: Path = typer.Argument(..., metavar="DIR", help="A directory `diagnose next-action` wrote."),
) -> None:
    """Print a diagnosis's figures again and rewrite its summary.json and report.html from its decisions."""
    from masbench.eval import diagnose_report as saved

    console = Console()
    try:
        settings, scores = saved.read(diagnosis)
    except (OSError, ValueError) as exc:
        console.print(f"[red]error:[/] {diagnosis}: not a next-action diagnosis ({exc})", highlight=False)
        raise typer.Exit(2) from None
    print_figures(console, saved.finish(diagnosis, settings, scores))
    console.print(f"report: {diagnosis / saved.REPORT}", soft_wrap=True, markup=False, highlight=False)


def print_figures(console: Console, figures: dict[str, dict[str, float | int | None]]) -> None:
    """The figures as two tables (all and by level, then by reference length), each within 80 columns."""
    from masbench.eval.diagnose_report import cell, table_groups

    for names in table_groups(figures):
        table = Table(title="Next action, teacher-forced", header_style="bold")
        table.add_column("Figure")
        for name in names:
            table.add_column(name.removeprefix("length "), justify="right")
        for figure in figures.get("all", {}):
            table.add_row(figure, *(cell(figures[n][figure]) for n in names))
        console.print(table)
