"""`masbench emulator create|start|stop|status|snapshot`: the `emulator/` scripts from the command line, so a
user boots and snapshots Pixel 7 / Android 15 AVDs without leaving masbench."""

from __future__ import annotations

import os
import subprocess

import typer
from rich.console import Console
from rich.table import Table

from masbench.data import data_dir

emulator_app = typer.Typer(
    help="Install, create, boot, snapshot and stop Pixel 7 / Android 15 emulators (the emulator/ scripts).",
    no_args_is_help=True,
    add_completion=False,
)


def _script(name: str, *args: str, env: dict[str, str] | None = None) -> None:
    """Run one script of emulator/ with its output shown; its failure is the command's."""
    path = data_dir("emulator", "MASBENCH_EMULATOR_DIR") / name
    if not path.exists():
        raise typer.BadParameter(
            f"{path} is missing: install masbench from its checkout or set MASBENCH_EMULATOR_DIR"
        )
    done = subprocess.run(["bash", str(path), *args], env={**os.environ, **(env or {})})
    if done.returncode != 0:
        raise typer.Exit(done.returncode)


@emulator_app.command("install")
def install() -> None:
    """Install the SDK command-line tools, platform-tools, the emulator and the Android 15 Play image."""
    _script("install.sh")


@emulator_app.command("create")
def create() -> None:
    """Create the Pixel 7 / Android 15 AVD (4 GB RAM, hardware keyboard, software GPU)."""
    _script("create_avd.sh")


@emulator_app.command("start")
def start(
    count: int = typer.Option(
        1, "-n", "--count", min=1, help="How many instances (emulator-5554, -5556, ...)."
    ),
    snapshot: str | None = typer.Option(None, "--snapshot", help="Boot every instance from this snapshot."),
    apks: list[str] = typer.Option([], "--apk", help="An APK to install on each instance (repeatable)."),
) -> None:
    """Boot headless instances and wait until each has booted."""
    env = {"SNAPSHOT": snapshot or "", "APKS": " ".join(apks)}
    _script("start.sh", str(count), env=env)


@emulator_app.command("stop")
def stop() -> None:
    """Stop every running emulator."""
    _script("stop.sh")


@emulator_app.command("snapshot")
def snapshot(
    action: str = typer.Argument(..., help="save, load or list."),
    name: str = typer.Argument("clean", help="Snapshot name."),
) -> None:
    """Save, load or list snapshots on every running emulator (through the emulator console)."""
    if action not in ("save", "load", "list"):
        raise typer.BadParameter(f"{action!r}; use save, load or list", param_hint="ACTION")
    _script("snapshot.sh", action, name)


@emulator_app.command("status")
def status() -> None:
    """The emulators on the default adb server: state and whether they have booted."""
    from masbench.device import Device, list_devices

    table = Table("serial", "state", "booted", header_style="bold")
    for info in list_devices(detect_kind=False):
        if not info.address.serial.startswith("emulator-"):
            continue
        booted = "-"
        if info.state == "device":
            with Device(info.address) as device:
                booted = (
                    "yes" if device.shell(["getprop", "sys.boot_completed"]).output.strip() == "1" else "no"
                )
        table.add_row(info.address.serial, info.state, booted)
    Console().print(table if table.row_count else "no emulator on the adb server")
