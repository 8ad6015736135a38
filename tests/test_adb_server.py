"""The virtual phones' ADB host server, driven by the real adbutils client, raw sockets and the adb CLI."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import stat
import struct
import subprocess
import threading
import time
from pathlib import Path

os.environ["ADBUTILS_ADB_PATH"] = "/bin/false"  # G3: a refused port must never spawn a real adb daemon

import adbutils
import pytest
from adbutils import AdbError, Network
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from masbench.vphone.adb_server import FEATURES, AdbServer, serve_phones
from masbench.vphone.build import build_phone
from masbench.vphone.phone import VirtualPhone

SERIAL = "vphone-1"


# -- fixtures and raw-socket helpers ---------------------------------------------------------------
@pytest.fixture(scope="module")
def server():
    srv = serve_phones(2)
    yield srv
    srv.stop()


@pytest.fixture
def client(server) -> adbutils.AdbClient:
    return adbutils.AdbClient(host="127.0.0.1", port=server.port)


@pytest.fixture
def device(client) -> adbutils.AdbDevice:
    return client.device(SERIAL)


@pytest.fixture
def phone(server) -> VirtualPhone:
    phone = server.phones[SERIAL]
    phone.reset()
    return phone


@pytest.fixture
def own_server():
    """A private server for tests that remove phones or feed it garbage."""
    srv = serve_phones(2)
    yield srv
    srv.stop()


def frame(request: str | bytes) -> bytes:
    data = request.encode() if isinstance(request, str) else request
    return b"%04x" % len(data) + data


def exchange(port: int, data: bytes, timeout: float = 3.0) -> bytes:
    """Send `data`, half-close, and return everything the server says until it closes."""
    chunks = []
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        with contextlib.suppress(OSError):
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
        with contextlib.suppress(OSError):
            while chunk := s.recv(65536):
                chunks.append(chunk)
    return b"".join(chunks)


def tport(serial: str = SERIAL) -> bytes:
    return frame(f"host:tport:serial:{serial}")


def sync_req(cmd: bytes, arg: str | bytes) -> bytes:
    data = arg.encode() if isinstance(arg, str) else arg
    return cmd + struct.pack("<I", len(data)) + data


def assert_healthy(port: int) -> None:
    assert exchange(port, frame("host:version")) == b"OKAY00040029"


def read_exact(s: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        assert chunk, f"closed after {len(data)} of {n} bytes"
        data += chunk
    return data


# -- host services through adbutils ----------------------------------------------------------------
def test_device_list_shows_every_phone(client):
    assert [d.serial for d in client.device_list()] == ["vphone-1", "vphone-2"]
    infos = client.list(extended=True)
    assert [i.state for i in infos] == ["device", "device"]
    assert infos[0].tags["model"] == "sdk_gphone64_x86_64"
    assert infos[0].tags["device"] == "emu64xa"
    assert infos[0].tags["transport_id"] != infos[1].tags["transport_id"]


def test_server_version_is_41_so_clients_use_tport(client):
    assert client.server_version() == 41


def test_get_state_serialno_devpath_features(device):
    assert device.get_state() == "device"
    assert device.get_serialno() == SERIAL
    assert device.get_devpath() == "unknown"
    assert device.get_features() == FEATURES
    assert "stat_v2" not in FEATURES and "shell_v2" in FEATURES  # G7


def test_device_by_transport_id(client, server):
    tid = server.transport_id("vphone-2")
    dev = client.device(transport_id=tid)
    assert dev.get_serialno() == "vphone-2"
    assert dev.shell("echo by-id") == "by-id"


def test_unknown_serial_fails_not_found(client):
    with pytest.raises(AdbError, match="device 'nope' not found"):
        client.device("nope").shell("echo hi")
    with pytest.raises(AdbError, match="device 'nope' not found"):
        client.device("nope").get_state()


def test_forward_is_recorded_listed_and_removed(device):
    device.forward("tcp:23456", "tcp:9008")
    assert ("tcp:23456", "tcp:9008") in [(f.local, f.remote) for f in device.forward_list()]
    assert all(f.serial == SERIAL for f in device.forward_list())
    port = device.forward_port(9008)
    assert port == 23456  # reuses the existing forward
    device.forward_remove("tcp:23456")
    assert device.forward_list() == []
    with pytest.raises(AdbError, match="not found"):
        device.forward_remove("tcp:23456")
    device.forward("tcp:23457", "localabstract:foo")
    device.forward_remove_all()
    assert device.forward_list() == []


def test_wait_for_an_attached_device_returns(client):
    client.wait_for(SERIAL, timeout=2)


def test_connect_and_disconnect_answer_like_adb(client):
    assert client.connect("10.9.8.7:5555") == "failed to connect to '10.9.8.7:5555': Connection refused"
    assert client.connect(SERIAL) == f"already connected to {SERIAL}"
    with pytest.raises(AdbError, match="no such device"):
        client.disconnect("10.9.8.7:5555", raise_error=True)


def test_tcp_service_fails_closed_like_a_real_device(device):
    with pytest.raises(AdbError, match="closed"):
        device.create_connection(Network.TCP, 9008)


# -- device services through adbutils --------------------------------------------------------------
def test_shell_echo(device):
    assert device.shell("echo hi") == "hi"


def test_shell2_exit_codes_v1_and_v2(device):
    for v2 in (False, True):
        assert device.shell2("true", v2=v2).returncode == 0
        assert device.shell2("false", v2=v2).returncode == 1
        missing = device.shell2("nosuchcommand", v2=v2)
        assert missing.returncode == 127
        assert "not found" in missing.output
    split = device.shell2("echo out; nosuchcommand", v2=True)
    assert split.stdout.strip() == "out"
    assert "nosuchcommand" in split.stderr


def test_screenshot_is_a_full_size_png(device):
    assert device.screenshot(error_ok=False).size == (1080, 2400)


def test_dump_hierarchy_and_window_size(device):
    xml = device.dump_hierarchy()
    assert xml.startswith("<?xml") and "<hierarchy" in xml
    assert tuple(device.window_size()) == (1080, 2400)


def test_app_current_and_open_browser(device, phone):
    assert device.app_current().package == phone.current_focus()[0]
    device.open_browser("https://example.com/page")
    assert device.app_current().package == "com.android.chrome"


def test_input_reaches_the_phone(device, phone):
    device.click(540, 1200)
    device.swipe(540, 1800, 540, 600, 0.3)
    device.keyevent("HOME")
    device.send_keys("hello")
    kinds = [e.kind for e in phone.events]
    for kind in ("tap", "swipe", "key", "text"):
        assert kind in kinds


def test_sync_push_pull_round_trip(device, tmp_path: Path):
    blob = os.urandom(200 * 1024)
    assert device.sync.push(blob, "/sdcard/Download/blob.bin", check=True) == len(blob)
    assert device.sync.read_bytes("/sdcard/Download/blob.bin") == blob
    device.sync.pull("/sdcard/Download/blob.bin", tmp_path / "blob.bin")
    assert (tmp_path / "blob.bin").read_bytes() == blob
    info = device.sync.stat("/sdcard/Download/blob.bin")
    assert stat.S_ISREG(info.mode) and info.size == len(blob) and info.mtime is not None


def test_push_creates_parent_directories(device):
    device.sync.push(b"x", "/data/local/tmp/a/b/c.txt")
    assert device.sync.read_text("/data/local/tmp/a/b/c.txt") == "x"
    names = [f.path for f in device.sync.list("/data/local/tmp/a")]
    assert names == [".", "..", "b"]


def test_sync_stat_of_missing_file_is_zeros(device):
    info = device.sync.stat("/sdcard/definitely-missing")
    assert (info.mode, info.size, info.mtime) == (0, 0, None)
    assert not device.sync.exists("/sdcard/definitely-missing")


def test_sync_pull_of_missing_file_fails(device):
    with pytest.raises(AdbError, match="No such file or directory"):
        device.sync.read_bytes("/sdcard/definitely-missing")


# -- raw protocol details ---------------------------------------------------------------------------
def test_tport_answers_okay_and_an_8_byte_transport_id(server):
    reply = exchange(server.port, tport())
    assert reply[:4] == b"OKAY"
    assert struct.unpack("<Q", reply[4:12])[0] == server.transport_id(SERIAL)


def test_exec_out_is_raw_with_stderr_in_the_same_stream(server):
    """adbd's raw subprocess shares one socket for stdout and stderr, and no pty rewrites line ends."""
    reply = exchange(server.port, tport() + frame("exec:screencap -p; nosuchcommand"))
    assert reply[12:16] == b"OKAY"
    assert reply[16:24] == b"\x89PNG\r\n\x1a\n"
    assert reply.endswith(b"/system/bin/sh: nosuchcommand: inaccessible or not found\n")


def test_shell_without_transport_uses_the_only_device(server):
    srv = AdbServer([server.phones[SERIAL]])
    with srv:
        assert exchange(srv.port, frame("shell:echo solo")) == b"OKAYsolo\n"
    assert b"more than one device" in exchange(server.port, frame("shell:echo hi"))


def test_interactive_v1_shell_runs_lines_until_exit(server):
    reply = exchange(server.port, tport() + frame("shell:") + b"echo one\rtwo\x7f\x7f\x7fecho two\rexit\r")
    assert b"echo one\r\none\r\n" in reply and b"echo two\r\ntwo\r\n" in reply
    assert b"emu64xa:/ $ " in reply


def test_interactive_v2_shell_reports_exit_status(server):
    stdin = b"".join(struct.pack("<BI", 0, len(x)) + x for x in (b"echo hi\n", b"false\n"))
    reply = exchange(server.port, tport() + frame("shell,v2,raw:") + stdin + struct.pack("<BI", 4, 0))
    body = reply[16:]
    packets = []
    while body:
        kind, size = struct.unpack("<BI", body[:5])
        packets.append((kind, body[5 : 5 + size]))
        body = body[5 + size :]
    assert (1, b"hi\n") in packets
    assert packets[-1] == (3, b"\x01")


def test_track_devices_reports_a_vanished_phone(own_server):
    with socket.create_connection(("127.0.0.1", own_server.port), timeout=3) as s:
        s.sendall(frame("host:track-devices"))
        assert read_exact(s, 4) == b"OKAY"
        first = read_exact(s, int(read_exact(s, 4), 16)).decode()
        assert "vphone-2\tdevice" in first
        own_server.remove_phone("vphone-2")
        second = read_exact(s, int(read_exact(s, 4), 16)).decode()
        assert second == "vphone-1\tdevice\n"


def test_wait_for_device_returns_when_the_phone_appears(own_server):
    late = build_phone("vphone-9")
    with socket.create_connection(("127.0.0.1", own_server.port), timeout=3) as s:
        s.sendall(frame("host-serial:vphone-9:wait-for-any-device"))
        assert read_exact(s, 4) == b"OKAY"
        s.settimeout(0.2)
        with pytest.raises(TimeoutError):
            s.recv(4)
        s.settimeout(3)
        own_server.add_phone(late)
        assert read_exact(s, 4) == b"OKAY"


def test_removed_phone_disappears_and_fails(own_server):
    client = adbutils.AdbClient(host="127.0.0.1", port=own_server.port)
    gone = client.device("vphone-2")
    assert gone.shell("echo hi") == "hi"
    with socket.create_connection(("127.0.0.1", own_server.port), timeout=3) as s:
        s.sendall(tport("vphone-2") + frame("shell:"))
        assert read_exact(s, 12 + 4)[-4:] == b"OKAY"
        own_server.remove_phone("vphone-2")
        with contextlib.suppress(ConnectionResetError):
            while s.recv(4096):  # the open shell is cut like a pulled cable; a hang would time out
                pass
    assert [d.serial for d in client.device_list()] == ["vphone-1"]
    for call in (lambda: gone.shell("echo hi"), gone.get_state, lambda: gone.sync.stat("/sdcard")):
        with pytest.raises(AdbError, match="device 'vphone-2' not found"):
            call()
    assert client.device("vphone-1").shell("echo still") == "still"


def test_a_busy_phone_does_not_stall_other_clients(server, client):
    busy = server.phones[SERIAL]
    result: list[str] = []
    with busy.lock:  # the phone is "rendering": its calls wait, the rest of the server must not
        worker = threading.Thread(target=lambda: result.append(client.device(SERIAL).shell("echo late")))
        worker.start()
        time.sleep(0.05)
        started = time.perf_counter()
        assert client.device("vphone-2").shell("echo other") == "other"
        assert client.server_version() == 41
        assert time.perf_counter() - started < 1.0
        assert result == []
    worker.join(timeout=5)
    assert result == ["late"]


def test_lifecycle_start_is_idempotent_and_stop_closes():
    srv = AdbServer([])
    port = srv.start()
    assert srv.start() == port
    assert exchange(port, frame("host:devices")) == b"OKAY0000"
    srv.stop()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.2", "example.com"])
def test_only_loopback_hosts_are_accepted(host):
    with pytest.raises(ValueError, match="loopback"):
        AdbServer([], host=host)
    assert AdbServer([], host="::1").host == "::1"


# -- hostile input: each case closes or FAILs only its own connection --------------------------------
HOSTILE = {
    "non-hex length": b"zzzzhost:version",
    "python-only hex": b"0x0chost:version",
    "signed hex": b"+00chost:version",
    "zero length": b"0000",
    "truncated frame": b"0100host:ver",
    "truncated length": b"00",
    "unknown host service": frame("host:frobnicate"),
    "bad transport id": frame("host:transport-id:xyz"),
    "unknown device service": tport() + frame("frobnicate:now"),
    "reverse": tport() + frame("reverse:forward:tcp:1;tcp:2"),
    "root": tport() + frame("root:"),
    "malformed forward": frame(f"host-serial:{SERIAL}:forward:tcp:abc"),
    "sync garbage": tport() + frame("sync:") + sync_req(b"JUNK", "abcd"),
    "sync path too long": tport() + frame("sync:") + sync_req(b"STAT", "/" * 5000),
    "sync truncated path": tport() + frame("sync:") + b"STAT" + struct.pack("<I", 50) + b"/sd",
    "sync oversized data": tport()
    + frame("sync:")
    + sync_req(b"SEND", "/sdcard/x,420")
    + b"DATA"
    + struct.pack("<I", 1 << 20),
    "sync bad send spec": tport() + frame("sync:") + sync_req(b"SEND", "/sdcard"),
    "sync send to a directory": tport()
    + frame("sync:")
    + sync_req(b"SEND", "/sdcard,33188")
    + b"DONE\0\0\0\0",
    "sync unknown v2 stat": tport() + frame("sync:") + sync_req(b"STA2", "/sdcard"),
    "v2 packet too large": tport() + frame("shell,v2,raw:") + struct.pack("<BI", 0, 1 << 30),
    "interactive line too long": tport() + frame("shell,raw:") + b"a" * (70 * 1024),
}


@pytest.mark.parametrize("data", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_input_is_contained(own_server, data, caplog):
    caplog.set_level(logging.DEBUG, logger="masbench.vphone.adb_server")
    reply = exchange(own_server.port, data)
    assert reply == b"" or b"FAIL" in reply or reply.startswith(b"OKAY")
    assert_healthy(own_server.port)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_failures_use_adb_wording(server):
    assert exchange(server.port, frame("host:frobnicate")) == b"FAIL0014unknown host service"
    assert exchange(server.port, tport() + frame("tcp:9008"))[12:] == b"FAIL0006closed"
    reply = exchange(server.port, tport() + frame("sync:") + sync_req(b"RECV", "/sdcard/missing"))
    assert reply[16:] == b"FAIL\x19\x00\x00\x00No such file or directory"


def test_huge_shell_line_is_served(server):
    command = "echo " + "a" * (0xFFFF - 20)
    assert exchange(server.port, tport() + frame("shell:" + command))[16:] == b"a" * (0xFFFF - 20) + b"\n"


def test_abrupt_reset_mid_push_leaves_the_server_serving(own_server):
    s = socket.create_connection(("127.0.0.1", own_server.port), timeout=3)
    s.sendall(
        tport() + frame("sync:") + sync_req(b"SEND", "/sdcard/half,420") + sync_req(b"DATA", b"x" * 100)[:50]
    )
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with RST
    s.close()
    assert_healthy(own_server.port)


PREFIXES = [
    b"",
    tport(),
    tport() + frame("sync:"),
    tport() + frame("shell,v2,raw:"),
    tport() + frame("shell:"),
]
SERVICE_PREFIXES = ["host:", f"host-serial:{SERIAL}:", "host-transport-id:1:", "host:tport:", ""]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prefix=hs.sampled_from(PREFIXES), junk=hs.binary(max_size=300))
def test_fuzzed_bytes_never_break_the_server(own_server, caplog, prefix, junk):
    caplog.set_level(logging.DEBUG, logger="masbench.vphone.adb_server")
    exchange(own_server.port, prefix + junk, timeout=5)
    assert_healthy(own_server.port)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    prefix=hs.sampled_from(SERVICE_PREFIXES),
    service=hs.text(min_size=1, max_size=60),
    tail=hs.binary(max_size=40),
)
def test_fuzzed_service_names_never_break_the_server(own_server, caplog, prefix, service, tail):
    caplog.set_level(logging.DEBUG, logger="masbench.vphone.adb_server")
    reply = exchange(own_server.port, frame(prefix + service) + tail, timeout=5)
    assert reply == b"" or reply[:4] in (b"OKAY", b"FAIL")
    assert_healthy(own_server.port)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


# -- the stock adb command line -----------------------------------------------------------------------
def _bundled_adb() -> str | None:
    path = Path(adbutils.__file__).parent / "binaries" / "adb"
    return str(path) if path.is_file() and os.access(path, os.X_OK) else None


@pytest.mark.skipif(_bundled_adb() is None, reason="adbutils wheel has no executable adb binary here")
def test_real_adb_cli_drives_the_virtual_phone(server, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANDROID_")} | {"HOME": str(tmp_path)}

    def adb(*args: str) -> subprocess.CompletedProcess:
        cmd = [_bundled_adb(), "-P", str(server.port), *args]
        return subprocess.run(
            cmd, capture_output=True, text=True, timeout=10, env=env, stdin=subprocess.DEVNULL
        )

    assert_healthy(server.port)  # if nothing answered, the CLI would start a real adb daemon on this port
    done = adb("-s", SERIAL, "shell", "echo", "hi")
    assert (done.returncode, done.stdout) == (0, "hi\n"), done.stderr
    listing = adb("devices")
    assert listing.returncode == 0
    assert "vphone-1\tdevice" in listing.stdout and "vphone-2\tdevice" in listing.stdout
    assert adb("-s", SERIAL, "shell", "false").returncode == 1
