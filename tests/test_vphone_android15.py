"""The virtual phone answers what device-control code (adbutils, the adb CLI, AndroidWorld's adb_utils) reads,
as an Android 15 emulator (Pixel 7, API 35) prints it: driven the way those tools drive it, over ADB."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"  # a refused port must never spawn a real adb daemon

import adbutils
import pytest

from masbench.vphone.adb_server import AdbServer, serve_phones
from masbench.vphone.phone import VirtualPhone

SERIAL = "vphone-1"


@pytest.fixture(scope="module")
def server() -> Iterator[AdbServer]:
    srv = serve_phones(1)
    yield srv
    srv.stop()


@pytest.fixture
def phone(server: AdbServer) -> VirtualPhone:
    phone = server.phones[SERIAL]
    phone.reset()
    return phone


@pytest.fixture
def device(server: AdbServer, phone: VirtualPhone) -> adbutils.AdbDevice:
    return adbutils.AdbClient(host="127.0.0.1", port=server.port).device(SERIAL)


def _bundled_adb() -> str | None:
    path = Path(adbutils.__file__).parent / "binaries" / "adb"
    return str(path) if path.is_file() and os.access(path, os.X_OK) else None


needs_adb = pytest.mark.skipif(_bundled_adb() is None, reason="adbutils wheel has no executable adb here")


@pytest.fixture
def adb(server: AdbServer, phone: VirtualPhone, tmp_path: Path):
    """The real adb CLI (the one in the adbutils wheel) pointed at the virtual server; returns bytes."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANDROID_")} | {"HOME": str(tmp_path)}

    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        cmd = [str(_bundled_adb()), "-P", str(server.port), "-s", SERIAL, *args]
        return subprocess.run(cmd, capture_output=True, timeout=20, env=env, stdin=subprocess.DEVNULL)

    return run


# -- 1. settings list / get / put / delete -------------------------------------------------------------
def test_settings_list_prints_the_whole_table_as_sorted_lines(device, phone):
    for namespace in ("system", "secure", "global"):
        listed = device.shell(f"settings list {namespace}").splitlines()
        table = phone.settings[namespace]
        assert listed == sorted(f"{k}={v}" for k, v in table.items())
        assert len(listed) == len(table)


def test_settings_get_put_delete_stay_consistent_with_list(device):
    device.shell("settings put global zz_test 1")
    device.shell("settings put global zz_test.sub 2")
    listed = device.shell("settings list global").splitlines()
    # whole lines are sorted, as SettingsService does: '.' sorts before '='
    assert listed.index("zz_test.sub=2") < listed.index("zz_test=1")
    assert device.shell("settings get global zz_test") == "1"
    assert device.shell("settings delete global zz_test") == "Deleted 1 rows"
    assert device.shell("settings delete global zz_test") == "Deleted 0 rows"
    assert device.shell("settings get global zz_test") == "null"
    assert "zz_test=1" not in device.shell("settings list global").splitlines()


def test_settings_errors_are_android_s(device):
    bad_namespace = device.shell2("settings get bogus x")
    assert (bad_namespace.returncode, bad_namespace.output) == (255, "Invalid namespace 'bogus'\n")
    assert device.shell2("settings put system only_key").returncode == 255
    assert device.shell2("settings frob system x").output == "Invalid command: frob\n"


# -- 2. pm clear resets the content providers an app answers ------------------------------------------
CONTACTS_URI = "content://com.android.contacts/contacts"
EVENTS_URI = "content://com.android.calendar/events"


@pytest.mark.parametrize(
    ("package", "uri"),
    [
        ("com.google.android.contacts", CONTACTS_URI),
        ("com.android.providers.contacts", CONTACTS_URI),  # what AndroidWorld's clear_contacts clears
        ("com.google.android.calendar", EVENTS_URI),
        ("com.android.providers.calendar", EVENTS_URI),
    ],
)
def test_pm_clear_restores_the_seeded_provider_rows(device, phone, package, uri):
    seeded = device.shell(f"content query --uri {uri}")
    assert seeded.startswith("Row: 0 ")
    holder = next(p for p, app in phone.apps.items() if uri.split("/")[2] in app.providers)
    phone.app_states[holder]["contacts" if "contacts" in uri else "events"].clear()  # the user deleted all
    assert device.shell(f"content query --uri {uri}") == "No result found."
    assert device.shell2(f"pm clear {package}").output == "Success\n"
    assert device.shell(f"content query --uri {uri}") == seeded


def test_pm_clear_errors(device):
    assert device.shell2("pm clear").output == "Error: no package specified\n"
    assert (device.shell2("pm clear no.such.app").returncode, device.shell("pm clear no.such.app")) == (
        1,
        "Failed",
    )
    assert "package:com.android.providers.contacts" in device.shell("pm list packages -s").splitlines()


# -- 3. exec: (adb exec-out) and logcat ------------------------------------------------------------------
THREADTIME = re.compile(r"\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +\d+ +\d+ [VDIWEF] [^:]+: .*")


@needs_adb
def test_exec_out_is_raw_bytes_with_stderr_on_the_same_stream(adb, device):
    png = adb("exec-out", "screencap", "-p")
    assert png.returncode == 0 and png.stdout.startswith(b"\x89PNG\r\n\x1a\n")
    assert png.stdout == device.shell("screencap -p", encoding=None)  # no pty translation of \n
    mixed = adb("exec-out", "echo out; ls /nope")
    assert mixed.stdout == b"out\nls: /nope: No such file or directory\n"


@needs_adb
def test_adb_logcat_dump_prints_threadtime_lines_from_the_event_log(adb, device):
    device.app_start("com.android.settings")
    device.app_stop("com.android.settings")
    done = adb("logcat", "-d")  # the CLI sends `export ANDROID_LOG_TAGS=""; exec logcat -d` over shell
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "--------- beginning of main"
    assert all(THREADTIME.fullmatch(line) for line in lines[1:]), lines
    assert any(
        " I ActivityTaskManager: START u0 {" in line and "cmp=com.android.settings/" in line for line in lines
    )
    assert any("I ActivityManager: Force stopping com.android.settings appid=" in line for line in lines)


def test_exec_replaces_the_shell(device):
    assert device.shell("exec echo one; echo two") == "one"
    exited = device.shell2("sh -c 'exec false; echo never'")
    assert (exited.returncode, exited.output) == (1, "")
