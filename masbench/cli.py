"""The `masbench` command: each area of the project contributes a sub-command group from its own cli.py."""

from __future__ import annotations

import sys
from typing import Any

import typer

from masbench.agents.cli import agents_app
from masbench.device.cli import device_app, devices_command
from masbench.emulator.cli import emulator_app
from masbench.eval.cli import compare_command, metrics_command, report_command, run_command
from masbench.eval.diagnose_cli import diagnose_app
from masbench.eval.records import RunDirError
from masbench.generation.cli import generate_command, kb_app, record_command
from masbench.shortcuts.cli import shortcuts_app
from masbench.tasks.cli import tasks_app
from masbench.vphone.cli import vphone_app


class _App(typer.Typer):
    """The command group; a run directory that cannot be used (locked, unwritable, full) ends any command
    with one line saying which file and why, not a traceback."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except RunDirError as exc:
            print(f"error: {exc}", file=sys.stderr)
            raise SystemExit(2) from None


app = _App(
    name="masbench",
    help="MAS-Bench testbed for GUI-shortcut hybrid mobile agents, on emulators or embedded virtual phones.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # click's plain help: readable at 80 columns, boolean options shown as flags
)
app.add_typer(vphone_app, name="vphone")
app.add_typer(device_app, name="device")
app.add_typer(emulator_app, name="emulator")
app.command("devices")(devices_command)
app.add_typer(agents_app, name="agents")
app.add_typer(shortcuts_app, name="shortcuts")
shortcuts_app.command("generate")(generate_command)
shortcuts_app.command("record")(record_command)
app.add_typer(kb_app, name="kb")
app.add_typer(tasks_app, name="tasks")
app.command("run")(run_command)
app.command("report")(report_command)
app.command("compare")(compare_command)
app.command("metrics")(metrics_command)
app.add_typer(diagnose_app, name="diagnose")


if __name__ == "__main__":
    app()
