"""`masbench diagnose`: diagnostics that ask an agent one decision at a time (docs/metrics.md)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

diagnose_app = typer.Typer(
    help="Diagnostics that ask an agent one decision at a time (docs/metrics.md).", no_args_is_help=True
)


@diagnose_app.command("next-action")
def next_action_command(
    agent: str = typer.Option(..., "--agent", "-a", help="An AndroidWorld-family agent: t3a, m3a, mas-t3a."),
    model: str | None = typer.Option(
        None, "--model", "-m", help="gemini-2.5-pro, openai:MODEL@URL, cassette:PATH, scripted:PATH."
    ),
    tasks: str = typer.Option("level-1", "--tasks", "-t", help="Subset name or comma-separated task ids."),
    device: str = typer.Option("vphone", "--device", "-d", help="vphone, or a device address."),
    kb: str = typer.Option(
        "predefined", "--kb", help="Shortcut knowledge base: predefined, none, or a PATH."
    ),
    out: Path = typer.Option(
        Path("next-action.json"), "--out", "-o", help="Where to write every score (JSON)."
    ),
    tasks_dir: Path | None = typer.Option(
        None, "--tasks-dir", help="Task data directory, if not the shipped one."
    ),
) -> None:
    """At every step of each task's hybrid reference: the phone in the reference's state, the agent given the
    gold history, one action asked and scored against the reference's, nothing executed. Prints accuracy,
    GUI-or-shortcut agreement, shortcuts skipped, shortcut selection and argument accuracy by where each
    value comes from, by level and reference length; a live model's calls go to OUT's .cassette.jsonl, so
    `--model cassette:PATH` replays them."""
    from masbench.agents import AGENTS, make_agent
    from masbench.agents.androidworld import AndroidWorldAgent
    from masbench.device import open_devices
    from masbench.eval.diagnose import grouped, next_actions
    from masbench.eval.records import write_atomic
    from masbench.eval.runner import load_run_kb
    from masbench.llm.base import LLMConfigError
    from masbench.shortcuts import ShortcutExecutor
    from masbench.tasks import load_tasks

    try:
        selected = load_tasks(tasks_dir).select(tasks)
        knowledge = load_run_kb(kb)
        if not isinstance(make_agent(agent, model), AndroidWorldAgent):
            raise ValueError(
                f"{agent}: next-action writes the history of t3a, m3a and mas-t3a (and -lenient)"
            )
    except (LLMConfigError, ValueError, OSError) as exc:
        Console().print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    live = AGENTS[agent].needs_model and not (model or "").startswith(("cassette:", "scripted:"))
    record_to = out.with_suffix(".cassette.jsonl") if live else None
    console = Console()
    with open_devices([device]) as (phone, *_):
        executor = ShortcutExecutor(knowledge, phone) if knowledge is not None else None
        scores = next_actions(
            phone, list(selected), lambda: make_agent(agent, model, record_to=record_to), knowledge, executor,
            on_step=lambda s: console.print(f"{s.task_id} #{s.step}: {'ok' if s.correct else 'wrong'}", highlight=False),
        )  # fmt: skip
    groups = grouped(scores)
    write_atomic(out, json.dumps({"agent": agent, "model": model, "kb": kb, "tasks": tasks, "figures": groups,
                                  "steps": [s.model_dump() for s in scores]}, indent=2))  # fmt: skip
    for names in (
        ["all", *(g for g in groups if g.startswith("level"))],
        [g for g in groups if g.startswith("length")],
    ):
        table = Table(title="Next action, teacher-forced", header_style="bold")
        table.add_column("Figure")
        for name in names:
            table.add_column(name.removeprefix("length "), justify="right")
        for figure in groups["all"]:
            table.add_row(figure, *(_cell(groups[n][figure]) for n in names))
        console.print(table)
    console.print(f"scores: {out}", soft_wrap=True, markup=False, highlight=False)


def _cell(value: float | int | None) -> str:
    return "-" if value is None else str(value) if isinstance(value, int) else f"{value:.3f}"
