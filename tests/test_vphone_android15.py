"""The virtual phone answers what device-control code (adbutils, the adb CLI, AndroidWorld's adb_utils) reads,
as an Android 15 emulator (Pixel 7, API 35) prints it: driven the way those tools drive it, over ADB."""

from __future__ import annotations

import io
import os
import re
import socket
import struct
import subprocess
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"  # a refused port must never spawn a real adb daemon

import adbutils
import pytest
from phone_helpers import find, phone_with
from PIL import Image

from masbench.vphone.adb_server import AdbServer, serve_phones
from masbench.vphone.intents import Intent
from masbench.vphone.phone import VirtualPhone, default_settings

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
    mixed = adb("exec-out", "echo out; ls /nope; echo end")
    assert mixed.stdout == b"out\nls: /nope: No such file or directory\nend\n"  # in the order written


def test_shell_v1_interleaves_stdout_and_stderr_as_written(device):
    assert device.shell("echo a; echo err >&2; echo b") == "a\nerr\nb"
    assert device.shell2("echo a; nosuch; echo b").output == (
        "a\n/system/bin/sh: nosuch: inaccessible or not found\nb\n"
    )


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


# -- 4. screenrecord and pkill ----------------------------------------------------------------------------
def _boxes(data: bytes, start: int = 0, end: int | None = None) -> dict[str, tuple[int, int]]:
    """ISO BMFF boxes between start and end: type -> (payload start, payload end)."""
    found, i, end = {}, start, len(data) if end is None else end
    while i < end:
        size, kind = struct.unpack(">I4s", data[i : i + 8])
        assert size >= 8 and i + size <= end, f"box {kind!r} overruns its parent"
        found[kind.decode()] = (i + 8, i + size)
        i += size
    return found


def _samples(mp4: bytes) -> list[bytes]:
    """The video samples, located through moov/trak/mdia/minf/stbl's stsz and stco as a player does."""
    top = _boxes(mp4)
    assert list(top) == ["ftyp", "mdat", "moov"]
    node = top["moov"]
    for kind in ("trak", "mdia", "minf", "stbl"):
        node = _boxes(mp4, *node)[kind]
    stbl = _boxes(mp4, *node)
    assert {"stsd", "stts", "stsc", "stsz", "stco"} <= stbl.keys()
    assert b"mp4v" in mp4[slice(*stbl["stsd"])] and b"\x6c\x11" in mp4[slice(*stbl["stsd"])]  # JPEG
    start = stbl["stsz"][0]
    count = struct.unpack(">I", mp4[start + 8 : start + 12])[0]
    sizes = struct.unpack(f">{count}I", mp4[start + 12 : start + 12 + 4 * count])
    offset = struct.unpack(">I", mp4[stbl["stco"][0] + 8 : stbl["stco"][0] + 12])[0]
    samples = []
    for size in sizes:
        samples.append(mp4[offset : offset + size])
        offset += size
    assert offset == top["mdat"][1]
    return samples


def _duration_ms(mp4: bytes) -> int:
    mvhd = _boxes(mp4, *_boxes(mp4)["moov"])["mvhd"]
    timescale, duration = struct.unpack(">II", mp4[mvhd[0] + 12 : mvhd[0] + 20])
    return duration * 1000 // timescale


def test_screenrecord_writes_a_playable_mp4_for_its_time_limit(device):
    assert device.shell2("screenrecord --time-limit 3 /sdcard/demo.mp4").returncode == 0
    mp4 = device.sync.read_bytes("/sdcard/demo.mp4")
    frames = _samples(mp4)
    assert len(frames) == 1 and frames[0][:2] == b"\xff\xd8" and frames[0][-2:] == b"\xff\xd9"
    assert _duration_ms(mp4) == 3000
    assert Image.open(io.BytesIO(frames[0])).size == (1080, 2400)


@needs_adb
def test_pkill_2_ends_a_background_recording_with_the_screen_as_it_is_then(adb, device, phone):
    assert adb("shell", "screenrecord", "--size", "540x1200", "/sdcard/rec.mp4").returncode == 0
    assert device.shell("pgrep -l screenrecord").endswith(" screenrecord")
    device.app_start("com.android.settings")
    stopped = adb("shell", "pkill", "-2", "screenrecord")
    assert (stopped.returncode, stopped.stdout, stopped.stderr) == (0, b"", b"")
    assert adb("shell", "pkill", "-2", "screenrecord").returncode == 1  # nothing left to signal
    mp4 = device.sync.read_bytes("/sdcard/rec.mp4")
    frames = _samples(mp4)
    assert len(frames) == 2 and frames[0] != frames[1]  # the home screen, then Settings
    assert Image.open(io.BytesIO(frames[1])).size == (540, 1200)
    assert 0 < _duration_ms(mp4) < 180_000


def test_pkill_answers_as_toybox(device):
    refused = device.shell2("pkill -f com.google.android.apps.nexuslauncher")
    assert refused.returncode == 1
    assert refused.output.startswith("pkill: TERM->") and refused.output.endswith(
        ": Operation not permitted\n"
    )
    assert device.shell2("pkill -2 no_such_process").output == ""
    assert device.shell2("pkill -2 no_such_process").returncode == 1
    device.shell("screenrecord /sdcard/k.mp4")
    assert device.shell2("pkill -9 -f 'screenrecord /sdcard/k.mp4'").returncode == 0
    assert list(_boxes(device.sync.read_bytes("/sdcard/k.mp4"))) == ["ftyp", "mdat"]  # killed: no index


def test_screenrecord_errors(device):
    assert device.shell2("screenrecord").output == "Must specify output file (see --help).\n"
    assert (
        device.shell2("screenrecord /system/x.mp4").output
        == "Unable to open '/system/x.mp4': Permission denied\n"
    )
    assert device.shell2("screenrecord --frob /sdcard/x.mp4").returncode == 2


# -- 5. ip, cut, /proc/stat -------------------------------------------------------------------------------
def test_ip_reports_the_emulator_network_and_follows_wifi(device):
    assert device.wlan_ip() == "10.0.2.16"  # adbutils parses `ifconfig wlan0`, then `ip addr show dev wlan0`
    assert "          inet addr:10.0.2.16  Bcast:10.0.2.255  Mask:255.255.255.0 " in device.shell(
        "ifconfig wlan0"
    )
    assert device.shell("ip addr show dev wlan0 | grep -o 'inet [0-9.]*'") == "inet 10.0.2.16"
    shown = device.shell("ip addr show wlan0").splitlines()
    assert shown[0].startswith("3: wlan0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500")
    assert "    inet 10.0.2.16/24 brd 10.0.2.255 scope global wlan0" in shown
    assert device.shell("ip route | cut -d' ' -f9") == "10.0.2.16"  # the usual one-liner for the address
    device.shell("svc wifi disable")
    assert "inet " not in device.shell("ip addr show wlan0") and device.shell("ip route") == ""
    assert "inet addr" not in device.shell("ifconfig wlan0") and "wlan0" not in device.shell("ifconfig")
    missing = device.shell2("ip addr show wlan9")
    assert (missing.returncode, missing.output) == (1, 'Device "wlan9" does not exist.\n')


def test_cut_selects_fields_and_characters_as_toybox(device):
    assert device.shell("echo a:b:c:d | cut -d: -f2,4-") == "b:d"
    assert device.shell("echo a:b:c | cut -d: -f-2") == "a:b"
    assert device.shell("echo nodelim | cut -d: -f2") == "nodelim"  # printed whole unless -s
    assert device.shell("echo nodelim | cut -s -d: -f2") == ""
    assert device.shell("printf 'x\\ty\\n' | cut -f2") == "y"  # TAB by default
    assert device.shell("echo hello | cut -c2-4") == "ell"
    assert device.shell2("echo x | cut").output == "cut: no selections\n"
    assert device.shell2("echo x | cut -d: -c1").output == "cut: -d needs -Ff\n"


def test_proc_stat_cpu_lines_add_up_and_advance_with_the_clock(device, phone):
    def cpu_lines() -> list[list[int]]:
        lines = [
            line.split() for line in device.shell("cat /proc/stat").splitlines() if line.startswith("cpu")
        ]
        assert [line[0] for line in lines] == ["cpu", "cpu0", "cpu1", "cpu2", "cpu3"]
        assert all(
            len(line) == 11 for line in lines
        )  # user nice system idle iowait irq softirq steal guest guest_nice
        return [[int(v) for v in line[1:]] for line in lines]

    before = cpu_lines()
    assert before[0] == [sum(column) for column in zip(*before[1:], strict=True)]
    phone.advance("launch", 10_000)
    after = cpu_lines()
    assert after[0][3] > before[0][3] and after[0][0] > before[0][0]
    assert device.shell("grep -c '^btime ' /proc/stat") == "1"


# -- 6. reboot and adb root ----------------------------------------------------------------------------
CALENDAR = "com.google.android.calendar"


@pytest.mark.parametrize("command", ["reboot", "svc power reboot"])  # adbutils' reboot() runs the first
def test_reboot_keeps_data_resets_the_stack_and_boots_once_polled(device, phone, command):
    device.app_start("com.android.settings")
    device.shell("settings put system screen_brightness 33")
    phone.app_states[CALENDAR]["events"].clear()  # the user's changes, on disk
    device.shell("echo kept > /sdcard/note.txt")
    device.shell(command)
    assert device.app_current().package == phone.home_package and len(phone.stack) == 1
    assert phone.running == set()
    polled = [device.shell("getprop sys.boot_completed") for _ in range(3)]
    assert polled == ["", "1", "1"]  # unset while booting, as pollers see it, then 1
    assert device.shell("settings get system screen_brightness") == "33"
    assert phone.app_states[CALENDAR]["events"] == {}
    assert device.shell("cat /sdcard/note.txt") == "kept"
    assert "boot_completed" in device.shell("logcat -d")  # the buffer restarted with the boot
    assert 21 <= float(device.shell("cat /proc/uptime").split()[0]) < 30  # the kernel restarted too


def test_a_reset_while_booting_comes_back_booted(device, phone):
    device.shell("reboot")
    phone.reset()
    assert device.shell("getprop sys.boot_completed") == "1"


def test_adb_root_answers_as_a_google_play_image(device):
    assert device.root() == "adbd cannot run as root in production builds\n"


@needs_adb
def test_adb_cli_root_and_reboot(adb, device):
    root = adb("root")
    assert (root.returncode, root.stdout) == (0, b"adbd cannot run as root in production builds\n")
    assert adb("reboot").returncode == 0  # the reboot: service
    assert adb("wait-for-device").returncode == 0
    assert adb("shell", "getprop", "sys.boot_completed").stdout == b"\n"
    assert adb("shell", "getprop", "sys.boot_completed").stdout == b"1\n"


# -- 7. the launcher's long-press popup --------------------------------------------------------------------
def _long_press_icon(device: adbutils.AdbDevice, phone: VirtualPhone, label: str) -> None:
    x, y = find(phone, content_desc=label, resource_id="icon").center
    device.swipe(x, y, x, y, 1.0)  # `input swipe X Y X Y 1000`: a long press


def test_long_press_on_an_icon_offers_app_info_which_opens_its_settings_page(device, phone):
    _long_press_icon(device, phone, "Chrome")
    popup = device.dump_hierarchy()
    assert 'resource-id="com.google.android.apps.nexuslauncher:id/popup_container"' in popup
    assert 'text="App info"' in popup and 'text="Chrome"' in popup
    device.click(*find(phone, text="App info").center)
    assert phone.current_focus() == (
        "com.android.settings",
        "com.android.settings.applications.InstalledAppDetails",
    )
    assert phone.top.args == {"package": "com.android.chrome"}
    device.keyevent("BACK")
    assert device.app_current().package == phone.home_package
    assert "popup_container" not in device.dump_hierarchy()


def test_app_info_toasts_where_no_settings_page_handles_it():
    phone = phone_with(without=("com.android.settings",))
    phone.long_press(*find(phone, content_desc="YouTube", resource_id="icon").center)
    phone.tap(*find(phone, text="App info").center)
    assert phone.toasts[-1] == "App isn't installed."  # Launcher3's startActivitySafely
    assert phone.top.package == phone.home_package


def test_app_info_force_stops_and_clears_the_app_as_am_and_pm_do():
    phone = phone_with()
    phone.launch("com.android.chrome")
    phone.app_states["com.android.chrome"]["marker"] = 1
    assert (
        phone.start_activity(
            Intent("android.settings.APPLICATION_DETAILS_SETTINGS", data="package:com.android.chrome")
        )
        is None
    )
    phone.tap(*find(phone, text="Force stop").center)
    assert "com.android.chrome" not in phone.running
    assert not find(phone, text="Force stop").enabled
    phone.tap(*find(phone, text="Storage & cache").center)
    phone.tap(*find(phone, text="Delete").center)
    assert "marker" not in phone.app_states["com.android.chrome"]
    assert (
        phone.start_activity(Intent("android.settings.APPLICATION_DETAILS_SETTINGS", data="package:no.such"))
        is not None
    )
    phone.back()
    assert phone.at_home


# -- 8. adb forward binds its local port ---------------------------------------------------------------
U2_LAUNCH = "CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008"


@pytest.fixture
def u2_server(device: adbutils.AdbDevice, phone: VirtualPhone) -> Iterator[adbutils.AdbConnection]:
    """uiautomator2's server running on the phone's port 9008, alive while its shell stream stays open."""
    device.sync.push(b"jar", "/data/local/tmp/u2.jar")
    stream = device.shell(U2_LAUNCH, stream=True)
    deadline = time.monotonic() + 5
    while 9008 not in phone.tcp_services and time.monotonic() < deadline:
        time.sleep(0.01)
    yield stream
    stream.close()


def _get(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
        return response.read()


def test_forward_binds_the_local_port_to_the_phones_server(device, u2_server):
    port = device.forward_port(9008)  # adbutils: forward:tcp:<free>;tcp:9008
    assert _get(port, "/ping") == b"pong"
    assert _get(port, "/ping") == b"pong"  # every connection opens its own device stream
    device.forward_remove(f"tcp:{port}")
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_a_forward_to_a_closed_device_port_closes_the_local_socket(device):
    port = device.forward_port(4567)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.1\r\n\r\n")
        assert s.recv(100) == b""  # nothing listens on the phone: adb closes the connection
    device.forward_remove_all()


@needs_adb
def test_adb_cli_forward_tcp_0_prints_a_bound_port(adb, u2_server):
    done = adb("forward", "tcp:0", "tcp:9008")
    assert done.returncode == 0, done.stderr
    port = int(done.stdout)
    assert _get(port, "/ping") == b"pong"
    assert f"{SERIAL} tcp:{port} tcp:9008".encode() in adb("forward", "--list").stdout
    assert adb("forward", "--remove-all").returncode == 0


def test_kill_by_pid_ends_a_recording_and_refuses_other_users(device):
    device.shell("screenrecord --time-limit 9 /sdcard/p.mp4")
    pid = device.shell("pidof screenrecord")
    assert device.shell2(f"kill -INT {pid}").returncode == 0
    assert device.shell2("pidof screenrecord").returncode == 1
    assert len(_samples(device.sync.read_bytes("/sdcard/p.mp4"))) == 1
    assert device.shell2("kill 601").output == "/system/bin/sh: kill: 601: Operation not permitted\n"


def test_a_reboot_ends_the_phones_other_streams(device, phone, u2_server):
    """adbd goes down with the phone: the shell that keeps uiautomator2's server alive ends, so the
    client sees its server quit, and port 9008 is closed after the boot."""
    device.shell("reboot")
    u2_server.conn.settimeout(5)
    assert b"Starting Server" in u2_server.read_until_close(encoding=None)  # ended, not timed out
    with pytest.raises(adbutils.AdbError, match="closed"):
        device.create_connection(adbutils.Network.TCP, 9008)


# -- part 2, 1. the full settings tables of a fresh AVD -----------------------------------------------------
@pytest.mark.parametrize(
    ("namespace", "expected"),
    [
        ("system", {"accelerometer_rotation=0", "dtmf_tone=1", "haptic_feedback_enabled=1", "font_scale=1.0",
                    "screen_brightness=102", "screen_off_timeout=60000", "sound_effects_enabled=1"}),
        ("secure", {"default_input_method=com.android.adbkeyboard/.AdbIME", "location_mode=3",
                    "accessibility_enabled=0", "ui_night_mode=1", "user_setup_complete=1"}),
        ("global", {"adb_enabled=1", "airplane_mode_on=0", "auto_time=1", "boot_count=1", "device_provisioned=1",
                    "wifi_on=1", "window_animation_scale=1.0", "transition_animation_scale=1.0",
                    "animator_duration_scale=1.0"}),
    ],
)  # fmt: skip
def test_settings_list_prints_a_fresh_avds_table(device, namespace, expected):
    listed = device.shell(f"settings list {namespace}").splitlines()
    assert 60 <= len(listed) <= 120
    assert expected <= set(listed)
    assert all(re.fullmatch(r"[a-z0-9_.]+=.*", line) for line in listed)


def test_android_id_is_stable_per_serial(device, phone):
    android_id = device.shell("settings get secure android_id")
    assert re.fullmatch(r"[0-9a-f]{16}", android_id)
    phone.reset(seed=7)
    assert device.shell("settings get secure android_id") == android_id
    assert default_settings("vphone-2")["secure"]["android_id"] != android_id


def test_what_relies_on_the_settings_still_works(device, phone):
    assert device.shell("ime list -s") == "com.android.adbkeyboard/.AdbIME"
    # the ADB keyboard takes its broadcasts (result -1) while it is the selected IME
    assert "result=-1" in device.shell("am broadcast -a ADB_INPUT_TEXT --es msg hi")
    assert device.shell("cmd wifi status") == "Wifi is enabled"
    device.shell("svc wifi disable")
    assert device.shell("settings get global wifi_on") == "0"
    assert device.shell("cmd wifi status") == "Wifi is disabled"
    for scale in ("window_animation_scale", "transition_animation_scale", "animator_duration_scale"):
        device.shell(f"settings put global {scale} 0.0")  # what AndroidWorld's setup does
        assert device.shell(f"settings get global {scale}") == "0.0"


# -- part 2, 2. a production (user, release-keys) Google Play build ----------------------------------------
def test_build_properties_are_a_production_google_play_images(device):
    prop = {name: device.getprop(name) for name in (
        "ro.build.type", "ro.build.tags", "ro.debuggable", "ro.secure", "ro.build.fingerprint", "ro.product.brand",
        "ro.product.name", "ro.product.device", "ro.build.version.release", "ro.build.id",
        "ro.build.version.incremental",
    )}  # fmt: skip
    assert (prop["ro.build.type"], prop["ro.build.tags"], prop["ro.debuggable"], prop["ro.secure"]) == (
        "user",
        "release-keys",
        "0",
        "1",
    )
    # BRAND/PRODUCT/DEVICE:RELEASE/ID/INCREMENTAL:TYPE/TAGS, as Build.FINGERPRINT is put together
    assert prop["ro.build.fingerprint"] == (
        f"{prop['ro.product.brand']}/{prop['ro.product.name']}/{prop['ro.product.device']}:"
        f"{prop['ro.build.version.release']}/{prop['ro.build.id']}/{prop['ro.build.version.incremental']}:"
        f"{prop['ro.build.type']}/{prop['ro.build.tags']}"
    )
    assert device.shell2("su 0 id").returncode == 127  # no su on a user build


# -- part 2, 3. installing an APK: pushed, streamed, refused ---------------------------------------------
def _axml_manifest(package: str) -> bytes:
    """A binary AndroidManifest.xml (ResXMLTree: string pool, then <manifest package=...>) as aapt writes it."""
    strings = ["package", "manifest", package]
    pool_data, offsets = b"", []
    for text in strings:
        offsets.append(len(pool_data))
        pool_data += struct.pack("<H", len(text)) + text.encode("utf-16-le") + b"\0\0"
    pool_data += b"\0" * (-len(pool_data) % 4)
    start = 28 + 4 * len(strings)
    pool = struct.pack("<HHIIIIII", 0x0001, 28, start + len(pool_data), len(strings), 0, 0, start, 0)
    pool += struct.pack(f"<{len(strings)}I", *offsets) + pool_data
    attribute = struct.pack("<IIIHBBI", 0xFFFFFFFF, 0, 2, 8, 0, 0x03, 2)  # package="<string 2>"
    element = struct.pack("<HHIII", 0x0102, 16, 36 + len(attribute), 1, 0xFFFFFFFF)
    element += struct.pack("<IIHHHHHH", 0xFFFFFFFF, 1, 20, 20, 1, 0, 0, 0) + attribute
    return struct.pack("<HHI", 0x0003, 8, 8 + len(pool) + len(element)) + pool + element


def _apk(package: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("AndroidManifest.xml", _axml_manifest(package))
        archive.writestr("classes.dex", b"dex\n035\0")
    return out.getvalue()


TINY = "com.example.tiny"


@needs_adb
def test_adb_install_streams_the_apk_and_uninstall_removes_it(adb, device, tmp_path):
    apk = tmp_path / "tiny.apk"
    apk.write_bytes(_apk(TINY))
    installed = adb("install", str(apk))  # exec:cmd package 'install' -S SIZE, the APK as its stdin
    assert (installed.returncode, installed.stdout) == (0, b"Performing Streamed Install\nSuccess\n")
    assert f"package:{TINY}" in device.shell("pm list packages -3").splitlines()
    path = device.shell(f"pm path {TINY}").removeprefix("package:")
    assert re.fullmatch(rf"/data/app/~~[\w-]+==/{TINY}-[\w-]+==/base\.apk", path)
    assert device.shell(f"monkey -p {TINY} 1").endswith("No activities found to run, monkey aborted.")
    assert adb("uninstall", TINY).stdout == b"Success\n"
    assert f"package:{TINY}" not in device.shell("pm list packages").splitlines()
    assert device.shell2(f"pm uninstall {TINY}").output == "Failure [DELETE_FAILED_INTERNAL_ERROR]\n"


@needs_adb
def test_adb_install_of_a_non_apk_fails_as_android_does(adb, tmp_path):
    text = tmp_path / "notes.apk"
    text.write_bytes(b"hello, not a zip\n")
    failed = adb("install", str(text))
    assert failed.returncode == 1
    assert re.fullmatch(
        rb"adb: failed to install .*notes\.apk: Failure \[INSTALL_PARSE_FAILED_NOT_APK: Failed to parse "
        rb"(/data/app/vmdl\d+\.tmp/base\.apk): Failed to load asset path \1\]\n\n",
        failed.stderr,
    )


def test_a_stream_cut_short_leaves_an_apk_that_fails_to_parse(device):
    apk = _apk(TINY)
    conn = device.open_transport()
    conn.send_command(f"exec:cmd package install -S {len(apk)}")
    conn.check_okay()
    conn.conn.sendall(apk[: len(apk) // 2])
    conn.conn.shutdown(socket.SHUT_WR)
    answer = conn.read_until_close()
    assert answer.startswith("Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse /data/app/vmdl")
    assert TINY not in device.shell("pm list packages")


def test_pm_install_of_a_pushed_file(device, phone):
    device.sync.push(_apk(TINY), "/data/local/tmp/tiny.apk")
    assert device.shell2("pm install -r -t /data/local/tmp/tiny.apk").output == "Success\n"
    assert f"package:{TINY}" in device.shell("pm list packages").splitlines()
    assert phone.events[-1].kind == "install"
    size = len(_apk(TINY))  # the streamed form reads stdin, here a pipe inside the phone's shell
    assert device.shell(f"cat /data/local/tmp/tiny.apk | pm install -S {size}") == "Success"
    no_manifest = io.BytesIO()
    with zipfile.ZipFile(no_manifest, "w") as archive:
        archive.writestr("classes.dex", b"dex\n035\0")
    device.sync.push(no_manifest.getvalue(), "/data/local/tmp/bare.apk")
    bare = device.shell2("pm install /data/local/tmp/bare.apk")
    assert bare.returncode == 1
    assert re.fullmatch(
        r"Failure \[INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION: Failed to parse /data/app/vmdl\d+\.tmp/base\.apk\]\n",
        bare.output,
    )
    # system_server cannot open /sdcard (FUSE) or a missing file
    device.sync.push(_apk(TINY), "/sdcard/Download/tiny.apk")
    sdcard = device.shell2("pm install /sdcard/Download/tiny.apk")
    assert sdcard.returncode == 255
    assert sdcard.output.splitlines()[:4] == [
        "Error: Unable to open file: /sdcard/Download/tiny.apk",
        "Consider using a file under /data/local/tmp/",
        "Error: Can't open file: /sdcard/Download/tiny.apk",
        "Exception occurred while executing 'install':",
    ]


def test_adbutils_install_pushes_and_installs(device):
    """adbutils' install: sync push to /data/local/tmp, `pm install -r -t PATH`, rm."""
    u2_apk = Path(adbutils.__file__).parent.parent / "uiautomator2" / "assets" / "app-uiautomator.apk"
    if not u2_apk.is_file():
        pytest.skip("uiautomator2's APK is not installed here")
    device.install(str(u2_apk), nolaunch=True, silent=True)  # a real aapt-built APK (UTF-8 string pool)
    assert "package:com.github.uiautomator" in device.shell("pm list packages -3").splitlines()
    assert device.shell("ls /data/local/tmp") == ""  # the pushed copy is removed


# -- part 2, 4. getevent --------------------------------------------------------------------------------
def test_getevent_p_lists_the_emulators_input_devices(device):
    listed = device.shell("getevent -lp")
    assert listed.startswith(
        'add device 1: /dev/input/event0\n  name:     "qwerty2"\n  events:\n    KEY (0001):'
    )
    touch = listed[listed.index("add device 2: /dev/input/event1") :].splitlines()
    assert touch[:4] == [
        "add device 2: /dev/input/event1",
        '  name:     "virtio_input_multi_touch_1"',
        "  events:",
        "    KEY (0001): BTN_TOUCH            ",
    ]
    assert (
        "                ABS_MT_POSITION_X     : value 0, min 0, max 32767, fuzz 0, flat 0, resolution 0"
        in touch
    )
    assert (
        "                ABS_MT_POSITION_Y     : value 0, min 0, max 32767, fuzz 0, flat 0, resolution 0"
        in touch
    )
    assert touch[-2:] == ["  input props:", "    INPUT_PROP_DIRECT"]
    numeric = device.shell("getevent -p /dev/input/event1").splitlines()
    assert numeric[0] == "add device 1: /dev/input/event1"
    assert "    ABS (0003): 002f  : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0" in numeric
    missing = device.shell2("getevent -p /dev/input/event9")
    assert (missing.returncode, missing.output) == (
        1,
        "could not open /dev/input/event9, No such file or directory\n",
    )


def _read_lines(stream: adbutils.AdbConnection, count: int) -> list[str]:
    """`count` lines from a streaming shell, waiting at most 5 s."""
    stream.conn.settimeout(5)
    data = b""
    while data.count(b"\n") < count:
        chunk = stream.conn.recv(65536)
        if not chunk:
            break
        data += chunk
    return data.decode().splitlines()


EVENT_LINE = re.compile(r"\[ *(\d+)\.(\d{6})\] (/dev/input/event\d): (EV_\w+) +(\w+) +(\w+) *")


def test_getevent_lt_streams_the_input_the_phone_receives(device, phone):
    stream = device.shell("getevent -lt", stream=True)  # as a recorder runs it: open until it is closed
    try:
        header = _read_lines(stream, 4)
        assert header[1::2] == ['  name:     "qwerty2"', '  name:     "virtio_input_multi_touch_1"']
        device.click(540, 1200)
        tap = [EVENT_LINE.fullmatch(line).groups()[2:] for line in _read_lines(stream, 8)]
        assert tap == [
            ("/dev/input/event1", "EV_ABS", "ABS_MT_TRACKING_ID", tap[0][3]),
            ("/dev/input/event1", "EV_ABS", "ABS_MT_POSITION_X", f"{round(540 * 32767 / 1079):08x}"),
            ("/dev/input/event1", "EV_ABS", "ABS_MT_POSITION_Y", f"{round(1200 * 32767 / 2399):08x}"),
            ("/dev/input/event1", "EV_KEY", "BTN_TOUCH", "DOWN"),
            ("/dev/input/event1", "EV_SYN", "SYN_REPORT", "00000000"),
            ("/dev/input/event1", "EV_ABS", "ABS_MT_TRACKING_ID", "ffffffff"),
            ("/dev/input/event1", "EV_KEY", "BTN_TOUCH", "UP"),
            ("/dev/input/event1", "EV_SYN", "SYN_REPORT", "00000000"),
        ]
        device.swipe(540, 1800, 540, 600, 0.3)
        swipe = [
            EVENT_LINE.fullmatch(line).groups() for line in _read_lines(stream, 28)
        ]  # 5 down, 10 moves of 2, 3 up
        ys = [int(g[5], 16) for g in swipe if g[4] == "ABS_MT_POSITION_Y"]
        assert ys == sorted(ys, reverse=True) and len(ys) == 11  # down, then moving up the screen
        times = [int(g[0]) * 1_000_000 + int(g[1]) for g in swipe]
        assert times == sorted(times) and 0.29e6 <= times[-1] - times[0] <= 0.31e6
        device.keyevent("BACK")
        key = [EVENT_LINE.fullmatch(line).groups()[2:] for line in _read_lines(stream, 4)]
        assert [k[2:] for k in key] == [("KEY_BACK", "DOWN"), ("SYN_REPORT", "00000000"), ("KEY_BACK", "UP"), ("SYN_REPORT", "00000000")]  # fmt: skip
        assert {k[0] for k in key} == {"/dev/input/event0"}
    finally:
        stream.close()


def test_getevent_c_ends_after_count_events_and_the_shell_prints_buffered_ones(device):
    stream = device.shell("getevent -q -c 5 /dev/input/event1", stream=True)
    try:
        time.sleep(0.1)
        device.shell("input tap 100 200")
        lines = stream.read_until_close().splitlines()  # the stream ends by itself after 5 events
    finally:
        stream.close()
    assert lines == [
        "0003 0039 " + lines[0][-8:],
        f"0003 0035 {round(100 * 32767 / 1079):08x}",
        f"0003 0036 {round(200 * 32767 / 2399):08x}",
        "0001 014a 00000001",
        "0000 0000 00000000",
    ]
    # in a pipeline getevent cannot wait: -c COUNT prints the last COUNT events already received
    assert device.shell("getevent -l -c 3 | grep BTN_TOUCH").split() == [
        "/dev/input/event1:",
        "EV_KEY",
        "BTN_TOUCH",
        "UP",
    ]


@needs_adb
def test_adb_cli_getevent_streams_over_shell_v2_and_exits_0(server, device, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANDROID_")} | {"HOME": str(tmp_path)}
    cmd = [str(_bundled_adb()), "-P", str(server.port), "-s", SERIAL, "shell", "getevent", "-q", "-c", "8"]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env) as proc:
        time.sleep(0.5)
        device.shell("input tap 10 20")
        out, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0
    assert out.decode().splitlines()[-3:] == [
        "/dev/input/event1: 0003 0039 ffffffff",
        "/dev/input/event1: 0001 014a 00000000",
        "/dev/input/event1: 0000 0000 00000000",
    ]


# -- part 2, 5. dumpsys window: the display's rotation --------------------------------------------------
def test_dumpsys_window_reports_the_rotation_as_androidworld_reads_it(device):
    # adb_utils.get_orientation: `dumpsys window | grep mCurrentRotation`, r'mCurrentRotation=ROTATION_(\d+)'
    grepped = device.shell("dumpsys window | grep mCurrentRotation")
    assert [int(m) // 90 for m in re.findall(r"mCurrentRotation=ROTATION_(\d+)", grepped)] == [0]
    whole = device.shell("dumpsys window")
    displays, windows = whole.split("\n" + "-" * 79 + "\n")
    assert displays.startswith(
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0"
    )
    assert windows.startswith("WINDOW MANAGER WINDOWS (dumpsys window windows)")
    assert "    mRotation=0 mDeferredRotationPauseCount=0" in displays.splitlines()
    assert device.shell("dumpsys window displays") == displays.strip()
    # AndroidWorld's change_orientation: the settings show in DisplayRotation (the phone stays portrait)
    device.shell("settings put system accelerometer_rotation 0")
    device.shell("settings put system user_rotation 1")
    assert "    mUserRotationMode=USER_ROTATION_LOCKED mUserRotation=ROTATION_90 " in device.shell(
        "dumpsys window displays"
    )
    # logical_screen_size / physical_frame_boundary read dumpsys input; its touchscreen is getevent's
    frames = device.shell("dumpsys input | grep -E 'logicalFrame|multi_touch'")
    assert re.findall(r"logicalFrame=\[0, 0, (\d+), (\d+)\]", frames) == [("1080", "2400")]
    assert "virtio_input_multi_touch_1" in frames
