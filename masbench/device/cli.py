"""`masbench devices` and `masbench device ...`: look at and poke any adb device from the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from .address import default_server, parse_server
from .connect import open_device
from .device import Device
from .errors import DeviceError
from .listing import scan_server

TARGET_HELP = "SERIAL (default adb server), HOST:PORT/SERIAL, or 'vphone' for a throwaway virtual phone."

device_app = typer.Typer(
    help="Observe and drive one adb device (emulator, device farm or virtual phone).",
    no_args_is_help=True,
    add_completion=False,
)


def devices_command(
    adb: list[str] = typer.Option(
        [], "--adb", help="HOST:PORT of an adb server; repeatable. Default: the standard adb server."
    ),
    no_kind: bool = typer.Option(False, "--no-kind", help="Skip the per-device shell probe for the kind."),
) -> None:
    """List the devices on one or more adb servers: kind (virtual/emulator/physical), state, and path (how the
    UI is read: uiautomator2 when its server answers, else adb)."""
    console = Console()
    try:
        servers = [parse_server(text) for text in adb] or [default_server()]
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--adb") from exc
    table = Table(title="adb devices")
    for column in ("serial", "address", "kind", "state", "path"):
        table.add_column(column)
    unreachable = 0
    for host, port in servers:
        try:
            infos = scan_server(host, port, detect_kind=not no_kind)
        except DeviceError as exc:
            unreachable += 1
            table.add_row("-", f"{host}:{port}", "-", "[red]unreachable[/red]", "-")
            Console(stderr=True).print(f"[yellow]warning:[/yellow] adb server {host}:{port}: {exc}")
            continue
        if not infos:
            table.add_row("-", f"{host}:{port}", "-", "[dim]no devices[/dim]", "-")
        for info in infos:
            table.add_row(info.address.serial, str(info.address), info.kind, info.state, info.path)
    console.print(table)
    if unreachable == len(servers):
        raise typer.Exit(1)


@contextmanager
def _device(target: str) -> Iterator[Device]:
    """open_device with CLI-friendly errors: a bad address is a usage error, a device error exits 1."""
    try:
        with open_device(target) as device:
            yield device
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="TARGET") from exc
    except DeviceError as exc:
        Console(stderr=True).print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc


@device_app.command("observe")
def observe_command(
    target: str = typer.Argument(..., help=TARGET_HELP),
    out: Path | None = typer.Option(
        None, "--out", "-o", help="Directory for screenshot.png, window_dump.xml and elements.json."
    ),
    table: bool = typer.Option(True, "--table/--no-table", help="Print the element list."),
) -> None:
    """Take one observation (screenshot + UI dump + foreground app), save it and print the elements."""
    console = Console()
    with _device(target) as device:
        obs = device.observe()
        kind = device.kind
    console.print(
        f"[bold]{target}[/bold] ({kind}) {obs.width}x{obs.height}  foreground {obs.package}/{obs.activity}"
        f"  {len(obs.elements)} elements  {obs.wall_ms:.0f} ms"
    )
    if out is not None:
        paths = obs.save(out)
        console.print("saved " + ", ".join(str(p) for p in paths.values()))
    if table:
        grid = Table(show_lines=False)
        for column in ("#", "class", "text / desc", "id", "flags", "bounds"):
            grid.add_column(column, overflow="fold")
        for el in obs.elements:
            label = el.text or (f"desc: {el.content_desc}" if el.content_desc else "")
            bounds = "[{},{}][{},{}]".format(*el.bounds)
            grid.add_row(str(el.index), el.short_class, label[:60], el.short_id, " ".join(el.flags()), bounds)
        console.print(grid)


@device_app.command("shell")
def shell_command(
    target: str = typer.Argument(..., help=TARGET_HELP),
    command: list[str] = typer.Argument(
        ..., help="Command and arguments (each quoted for the device shell)."
    ),
) -> None:
    """Run one shell command on the device and print its output; exits with the command's status."""
    console = Console()
    with _device(target) as device:
        result = device.shell(command)
    console.print(
        result.output, end="" if result.output.endswith("\n") else "\n", markup=False, highlight=False
    )
    raise typer.Exit(result.exit_code)


@device_app.command("open-app")
def open_app_command(
    target: str = typer.Argument(..., help=TARGET_HELP),
    name: str = typer.Argument(..., help="App name ('Amazon', 'google maps') or package."),
) -> None:
    """Launch an app by name or package, as its launcher icon would."""
    console = Console()
    with _device(target) as device:
        package = device.open_app(name)
        console.print(f"started {package}; foreground {'/'.join(device.foreground())}")


@device_app.command("open-uri")
def open_uri_command(
    target: str = typer.Argument(..., help=TARGET_HELP),
    uri: str = typer.Argument(
        ..., help="URI to VIEW, e.g. https://www.youtube.com/results?search_query=cats"
    ),
    package: str | None = typer.Option(None, "--package", "-p", help="Only let this package handle it."),
) -> None:
    """Open a deep link (`am start -W -a VIEW -d URI [-p PKG]`) and show what came to the front."""
    console = Console()
    with _device(target) as device:
        device.open_uri(uri, package)
        console.print("foreground " + "/".join(device.foreground()))


__all__ = ["device_app", "devices_command"]
