"""The `masbench` command: each area of the project contributes a sub-command group from its own cli.py."""

from __future__ import annotations

import typer

from masbench.device.cli import devices_command, device_app
from masbench.vphone.cli import vphone_app

app = typer.Typer(
    name="masbench",
    help="MAS-Bench testbed for GUI-shortcut hybrid mobile agents, on emulators or embedded virtual phones.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(vphone_app, name="vphone")
app.add_typer(device_app, name="device")
app.command("devices")(devices_command)


if __name__ == "__main__":
    app()
