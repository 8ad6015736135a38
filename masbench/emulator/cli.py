"""`masbench emulator create|start|stop|status|snapshot`: the `emulator/` scripts from the command line, so a
user boots and snapshots Pixel 7 / Android 15 AVDs without leaving masbench.

Before a script runs, the SDK tools it needs are looked up where the scripts look (`emulator/env.sh`:
$ANDROID_HOME, default ~/android-sdk, then PATH): a missing one ends the command with one line naming it
and `masbench emulator install`, exit 2, instead of a shell's "command not found" (and an exit 0 from a
script whose loop ran over nothing). Boot logs go to the cache directory, not the working directory."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from masbench.data import data_dir

emulator_app = typer.Typer(
    help="Install, create, boot, snapshot and stop Pixel 7 / Android 15 emulators (the emulator/ scripts).",
    no_args_is_help=True,
    add_completion=False,
)


def _sdk_home() -> Path:
    return Path(os.environ.get("ANDROID_HOME") or Path.home() / "android-sdk")


def _need(*tools: str) -> None:
    """Exit with one line when an SDK tool the next script calls is not where env.sh puts it nor on PATH."""
    home = _sdk_home()
    dirs = [home / "cmdline-tools" / "latest" / "bin", home / "platform-tools", home / "emulator"]
    path = os.pathsep.join([*map(str, dirs), os.environ.get("PATH", "")])
    missing = [tool for tool in tools if shutil.which(tool, path=path) is None]
    if missing:
        typer.echo(
            f"error: {' and '.join(missing)} not found in the Android SDK ({home}) or on PATH; "
            "install the SDK with: masbench emulator install",
            err=True,
        )
        raise typer.Exit(2)


def _log_dir() -> Path:
    """Where `start` writes each instance's boot log: the user's cache, never the working directory."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "masbench" / "emulator-logs"


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
    _need("avdmanager")
    _script("create_avd.sh")


@emulator_app.command("start")
def start(
    count: int = typer.Option(
        1, "-n", "--count", min=1, help="How many instances (emulator-5554, -5556, ...)."
    ),
    snapshot: str | None = typer.Option(None, "--snapshot", help="Boot every instance from this snapshot."),
    apks: list[str] = typer.Option([], "--apk", help="An APK to install on each instance (repeatable)."),
) -> None:
    """Boot headless instances and wait until each has booted (boot logs: ~/.cache/masbench/emulator-logs)."""
    _need("emulator", "adb")
    avd = os.environ.get("AVD_NAME", "masbench_pixel7_api35")
    avd_home = Path(os.environ.get("ANDROID_AVD_HOME") or Path.home() / ".android" / "avd")
    if not (avd_home / f"{avd}.avd").exists():
        typer.echo(f"error: no AVD {avd} in {avd_home}; create it with: masbench emulator create", err=True)
        raise typer.Exit(2)
    logs = _log_dir()
    env = {"SNAPSHOT": snapshot or "", "APKS": " ".join(apks), "LOG_DIR": str(logs)}
    try:
        _script("start.sh", str(count), env=env)
    except typer.Exit:
        typer.echo(f"the emulators' boot logs: {logs}", err=True)
        raise


@emulator_app.command("stop")
def stop() -> None:
    """Stop every running emulator."""
    _need("adb")
    _script("stop.sh")


@emulator_app.command("snapshot")
def snapshot(
    action: str = typer.Argument(..., help="save, load or list."),
    name: str = typer.Argument("clean", help="Snapshot name."),
) -> None:
    """Save, load or list snapshots on every running emulator (through the emulator console)."""
    if action not in ("save", "load", "list"):
        raise typer.BadParameter(f"{action!r}; use save, load or list", param_hint="ACTION")
    _need("adb")
    _script("snapshot.sh", action, name)


@emulator_app.command("status")
def status() -> None:
    """The emulators on the default adb server: state and whether they have booted. Starts no adb server:
    with none listening there is no emulator to show (exit 1)."""
    from masbench.device import Device, list_devices
    from masbench.device.address import default_server

    host, port = default_server()
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        typer.echo(
            f"no adb server on {host}:{port}, so no emulator running; boot one with: masbench emulator start"
        )
        raise typer.Exit(1) from None

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
