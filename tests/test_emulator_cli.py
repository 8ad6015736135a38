"""`masbench emulator` without an SDK: one line naming what is missing and the command that installs it,
a non-zero exit every time, nothing written to the working directory, no adb server started."""

from __future__ import annotations

import socket
import stat

import pytest
from typer.testing import CliRunner

from masbench.cli import app


@pytest.fixture
def no_sdk(tmp_path, monkeypatch):
    """A home without an SDK, an empty PATH, the default adb server on a port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    monkeypatch.chdir(tmp_path)
    env = {"HOME": str(tmp_path), "ANDROID_HOME": str(tmp_path / "sdk"), "PATH": str(tmp_path / "bin"),
           "ANDROID_ADB_SERVER_PORT": str(free), "XDG_CACHE_HOME": str(tmp_path / "cache")}  # fmt: skip
    return CliRunner(env=env), tmp_path, free


@pytest.mark.parametrize(
    ("command", "missing"),
    [
        (["create"], "avdmanager"),
        (["start"], "emulator and adb"),
        (["stop"], "adb"),
        (["snapshot", "list"], "adb"),
    ],
)
def test_each_command_names_the_missing_tool_and_the_install_command(no_sdk, command, missing):
    cli, cwd, _ = no_sdk
    result = cli.invoke(app, ["emulator", *command])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"error: {missing} not found") and line.endswith("masbench emulator install")
    assert sorted(p.name for p in cwd.iterdir()) == []  # no log files left in the working directory


def test_start_without_the_avd_says_to_create_it(no_sdk):
    cli, cwd, _ = no_sdk
    for tool in ("emulator/emulator", "platform-tools/adb"):
        fake = cwd / "sdk" / tool
        fake.parent.mkdir(parents=True)
        fake.write_text("#!/bin/sh\nexit 0\n")
        fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    result = cli.invoke(app, ["emulator", "start"])
    assert result.exit_code == 2 and "create it with: masbench emulator create" in result.output


def test_status_starts_no_adb_server(no_sdk):
    cli, _, port = no_sdk
    result = cli.invoke(app, ["emulator", "status"])
    assert result.exit_code == 1 and "no adb server on 127.0.0.1:" in result.output
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
