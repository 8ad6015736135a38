"""`masbench agents list`: what each agent is, what it perceives and whether it needs a model."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

agents_app = typer.Typer(help="The agents masbench can run.", no_args_is_help=True)


@agents_app.command("list")
def list_agents() -> None:
    """Describe every agent: its input, whether it uses shortcuts and its default model."""
    from masbench.agents import AGENTS

    table = Table(header_style="bold")
    for column in ("agent", "shortcuts", "model", "description"):
        table.add_column(column)
    for spec in AGENTS.values():
        table.add_row(
            spec.name, "yes" if spec.uses_shortcuts else "no", spec.default_model or "-", spec.description
        )
    Console().print(table)
