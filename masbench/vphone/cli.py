"""`masbench vphone ...`: serve virtual phones over ADB, and a guided demo of one."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from masbench.device import Device, UIElement

vphone_app = typer.Typer(help="Embedded virtual phones that speak the ADB protocol.", no_args_is_help=True)


@vphone_app.command("serve")
def serve(
    count: int = typer.Option(
        1, "--count", "-n", min=1, max=64, help="How many phones (vphone-1..vphone-N)."
    ),
    port: int = typer.Option(
        0, "--port", "-p", min=0, max=65535, help="TCP port on 127.0.0.1; 0 picks a free one."
    ),
    seed: int = typer.Option(0, "--seed", help="Content seed of every phone."),
    first: int = typer.Option(
        1, "--first", min=1, help="Number of the first phone: serves vphone-FIRST..vphone-(FIRST+COUNT-1)."
    ),
    emulators: bool = typer.Option(
        False,
        "--emulators",
        help="Present the phones as emulators: named emulator-PORT, each answering the emulator console "
        "protocol (auth, avd snapshot save|load|list, geo fix, sms send, gsm call, kill) on PORT (5554, 5556, ...).",
    ),
    exit_with_stdin: bool = typer.Option(
        False,
        "--exit-with-stdin",
        help="Also stop when standard input closes: how a parent that started the server ends it, even if "
        "the parent is killed.",
    ),
) -> None:
    """Serve N virtual phones on 127.0.0.1:PORT until interrupted (SIGINT/SIGTERM exit cleanly).

    Point adbutils (`AdbClient(port=PORT)`) or the adb CLI (`adb -P PORT devices`) at it."""
    from masbench.vphone.adb_server import AdbServer
    from masbench.vphone.build import build_phone
    from masbench.vphone.console import emulator_phones

    if emulators:
        phones = [phone for phone, _console in emulator_phones(count, seed)]
    else:
        phones = [build_phone(f"vphone-{i}", seed=seed) for i in range(first, first + count)]
    server = AdbServer(phones, port=port)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None  # asyncio.run runs this coroutine as a task
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, task.cancel)
        if exit_with_stdin:

            def parent_gone() -> None:
                if not os.read(sys.stdin.fileno(), 4096):  # end of file: the parent closed it or died
                    task.cancel()

            loop.add_reader(sys.stdin.fileno(), parent_gone)

        def ready(bound: int) -> None:
            names = f"{phones[0].serial}..{phones[-1].serial}" if len(phones) > 1 else phones[0].serial
            typer.echo(f"serving {names} on 127.0.0.1:{bound}", err=False)

        with contextlib.suppress(asyncio.CancelledError):
            await server.serve(ready=ready)

    try:
        asyncio.run(main())
    except OSError as exc:  # the port is taken, or not ours to bind
        typer.echo(f"error: cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo("stopped", err=True)


@vphone_app.command("view")
def view(
    device: str = typer.Option(
        "vphone", "--device", "-d", help="'vphone' (a fresh virtual phone), SERIAL or HOST:PORT/SERIAL."
    ),
    port: int = typer.Option(8765, "--port", "-p", min=0, max=65535, help="Port of the page on 127.0.0.1."),
) -> None:
    """Show a device's screen in the browser and drive it: click to tap, drag to swipe, keys, typed text.
    Serves until interrupted."""
    from masbench.device import open_device
    from masbench.device.viewer import Viewer

    try:
        with open_device(device) as dev:
            viewer = Viewer.of(dev, port=port)
            typer.echo(f"{dev.serial}: open {viewer.url} (Ctrl-C stops)")
            with contextlib.suppress(KeyboardInterrupt):
                signal.pause()
            viewer.stop()
    except OSError as exc:
        typer.echo(f"error: cannot serve the viewer on 127.0.0.1:{port}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None


@vphone_app.command("demo")
def demo(
    out: Path = typer.Option(Path("vphone-demo"), "--out", help="Directory for the screenshots."),
) -> None:
    """Boot a virtual phone, drive it over ADB like an emulator and save a screenshot per step."""
    from masbench.device import start_virtual_phones

    out.mkdir(parents=True, exist_ok=True)
    with start_virtual_phones(1) as phones:
        device = phones.devices[0]

        def search_typed() -> None:
            device.tap_element(_element(device, "Search Settings"))
            device.type_text("Bluetooth")

        steps: list[tuple[str, Callable[[], object]]] = [
            ("home", lambda: None),
            ("settings", lambda: device.open_app("Settings")),
            ("display", lambda: device.start_intent(action="android.settings.DISPLAY_SETTINGS")),
            ("dark-theme", lambda: device.tap_element(_element(device, "Dark theme"))),
            ("back", device.back),
            ("search-typed", search_typed),
            ("browser", lambda: device.open_uri("https://www.example.com/masbench?q=virtual phone")),
        ]
        for i, (name, act) in enumerate(steps):
            act()
            obs = device.observe()
            path = out / f"{i:02d}-{name}.png"
            path.write_bytes(obs.screenshot_png)
            typer.echo(
                f"{path}  {obs.package}/{obs.activity}  {len(obs.elements)} elements  {obs.wall_ms:.0f} ms"
            )
        typer.echo(
            f"dark theme: settings secure ui_night_mode = {device.shell('settings get secure ui_night_mode').output.strip()}"
        )


def _element(device: Device, text: str) -> UIElement:
    obs = device.observe()
    return next(el for el in obs.elements if text in (el.text, el.content_desc))
