"""The emulator console on a virtual phone, and the snapshot reset that uses it (`--reset snapshot:NAME`),
tested through the real protocol: a phone named emulator-PORT answers on PORT as an emulator does."""

from __future__ import annotations

import socket

import pytest

from masbench.device import Device, DeviceAddress
from masbench.device.console import ConsoleError, EmulatorConsole, console_port, load_snapshot
from masbench.tasks import load_tasks
from masbench.tasks.checks import check_device
from masbench.tasks.player import play, prepare
from masbench.vphone.adb_server import AdbServer
from masbench.vphone.build import build_phone
from masbench.vphone.console import ConsoleServer

TOKEN = "s3cr3t-token"


@pytest.fixture
def emulator():
    """A virtual phone as an emulator: its console on a free port P, its serial emulator-P."""
    phone = build_phone("pending")
    console = ConsoleServer(phone, port=0, token=TOKEN)
    phone.serial = f"emulator-{console.port}"
    server = AdbServer([phone], port=0)
    server.start()
    device = Device(DeviceAddress("127.0.0.1", server.port, phone.serial))
    yield phone, console, device
    device.close()
    server.stop()
    console.stop()


def raw_session(port: int, *lines: str) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        for line in lines:
            sock.sendall(line.encode() + b"\r\n")
        sock.shutdown(socket.SHUT_WR)
        return b"".join(iter(lambda: sock.recv(4096), b"")).decode()


def test_the_console_speaks_the_emulator_protocol(emulator):
    phone, console, _ = emulator
    reply = raw_session(
        console.port,
        "avd snapshot list",
        "auth wrong",
        f"auth {TOKEN}",
        "sms send 5551234 hello there",
        "gsm call 5551234",
        "nonsense",
        "kill",
    )
    assert reply.startswith("Android Console: Authentication required\r\n")
    assert "KO: unknown command, try 'help'\r\n" in reply  # nothing before auth
    assert "KO: authentication token does not match" in reply
    assert "Android Console: type 'help' for a list of commands\r\nOK\r\n" in reply
    assert reply.endswith("OK: killing emulator, bye bye\r\n")
    kinds = [e.kind for e in phone.events]
    assert "sms_received" in kinds and "call_received" in kinds


def test_the_client_authenticates_and_reports_a_refusal(emulator):
    _, console, _ = emulator
    with EmulatorConsole("127.0.0.1", console.port, token=TOKEN) as client:
        client.snapshot_save("clean")
        assert "clean" in client.command("avd snapshot list")
        with pytest.raises(ConsoleError, match="snapshot 'missing' does not exist"):
            client.snapshot_load("missing")
    with pytest.raises(ConsoleError, match="token does not match"):
        EmulatorConsole("127.0.0.1", console.port, token="wrong")


def test_a_snapshot_reset_brings_back_the_saved_state_through_the_console(emulator, monkeypatch, tmp_path):
    _, console, device = emulator
    token_file = tmp_path / ".emulator_console_auth_token"  # where adb and the reset read the token
    token_file.write_text(TOKEN)
    monkeypatch.setattr("masbench.device.console.TOKEN_FILE", token_file)
    task = load_tasks().get("amazon-02")
    prepare(device, task)  # the seeded state, saved as the emulator's clean snapshot
    with EmulatorConsole("127.0.0.1", console.port, token=TOKEN) as client:
        client.snapshot_save("clean")
    assert play(device, task, "gui").passed  # the task done: the state has changed
    assert check_device(task.check, device).passed
    prepare(device, task, snapshot="clean")  # loads the snapshot through the console
    assert not check_device(task.check, device).passed  # back to before the task
    assert play(device, task, "gui").passed
    assert console_port(device.serial) == console.port and console_port("vphone-1") is None
    with pytest.raises(ConsoleError, match="not an emulator"):
        load_snapshot(Device(DeviceAddress("127.0.0.1", 1, "vphone-1")), "clean")


def test_the_emulator_cli_runs_the_scripts_with_their_arguments(tmp_path, monkeypatch, capfd):
    from typer.testing import CliRunner

    from masbench.cli import app

    for name in ("start.sh", "snapshot.sh"):  # stand-ins that report how they were called
        (tmp_path / name).write_text(f'echo "{name} $* SNAPSHOT=$SNAPSHOT APKS=$APKS"\n')
    (tmp_path / "stop.sh").write_text("exit 3\n")
    tools = tmp_path / "sdk" / "platform-tools"  # the SDK tools the commands look for, as stand-ins
    tools.mkdir(parents=True)
    for tool in ("adb", "emulator"):
        (tools / tool).write_text("#!/bin/sh\n")
        (tools / tool).chmod(0o755)
    (tmp_path / "avd" / "masbench_pixel7_api35.avd").mkdir(parents=True)
    monkeypatch.setenv("ANDROID_HOME", str(tmp_path / "sdk"))
    monkeypatch.setenv("ANDROID_AVD_HOME", str(tmp_path / "avd"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("MASBENCH_EMULATOR_DIR", str(tmp_path))
    cli = CliRunner()
    assert (
        cli.invoke(app, ["emulator", "start", "-n", "2", "--snapshot", "clean", "--apk", "a.apk"]).exit_code
        == 0
    )
    assert cli.invoke(app, ["emulator", "snapshot", "save", "clean"]).exit_code == 0
    shown = capfd.readouterr().out
    assert "start.sh 2 SNAPSHOT=clean APKS=a.apk" in shown and "snapshot.sh save clean" in shown
    assert cli.invoke(app, ["emulator", "stop"]).exit_code == 3  # a script's failure is the command's
    assert cli.invoke(app, ["emulator", "snapshot", "bogus"]).exit_code == 2
