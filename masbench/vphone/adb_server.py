"""An ADB *host* ("smart-socket") server in front of virtual phones.

Stock adbutils, uiautomator2's adb paths and the real `adb` command line talk to this server exactly as
they talk to the adb daemon on port 5037, so the same controller code drives emulators and virtual phones
(DESIGN.md §1, reference/adb_protocol.md option A).

Wire summary (all lengths are lowercase hex unless noted):

* request: 4 hex digits + service name; reply `OKAY` or `FAIL` + 4-hex length + message.
* host services (`host:`, `host-serial:S:`, `host-transport-id:N:`) answer and close, except the
  transport switches (`host:transport:S`, `host:tport:serial:S` + 8-byte LE transport id, ...), after which
  the same socket carries one device service: `shell:`, `shell,v2,...:`, `exec:` or `sync:`.

Limits against hostile clients, each of which closes only the offending connection:

* a request is at most 0xFFFF bytes (all that 4 hex digits can say) and at least 1;
* sync paths are at most 1024 bytes and DATA chunks at most 64 KiB (adbd's own limits); one pushed
  file is at most 128 MiB;
* shell v2 packets from the client are at most 1 MiB; an interactive line is at most 64 KiB;
* a connection idle for `idle_timeout` seconds (default 600) while we wait for a request is closed;
* at most `max_connections` (512) clients at once; more are closed on accept.

Forwards (`adb forward`) are recorded and listed but bind no local port (gotcha G13): nothing on a
virtual phone listens on a TCP port, so a relay would only ever answer "closed".
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import socket
import stat as st
import struct
import threading
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .phone import VirtualPhone

log = logging.getLogger(__name__)

SERVER_VERSION = 41  # what adb 1.0.41 (platform-tools 29..36) speaks; a mismatch makes the CLI restart us
FEATURES = "shell_v2,cmd,fixed_push_mkdir"  # only what we implement (G7): no stat_v2/ls_v2/sendrecv_v2
MAX_SYNC_PATH = 1024
MAX_SYNC_DATA = 64 * 1024
MAX_PUSH_BYTES = 128 * 1024 * 1024
MAX_V2_PACKET = 1024 * 1024
MAX_LINE = 64 * 1024
LINGER_S = 2.0  # how long we wait for the client to close after our last byte (avoids RST on unread input)

_HEX4 = re.compile(rb"[0-9a-fA-F]{4}")
_SERIAL_PREFIX = re.compile(r"((?:tcp:|udp:)?(?:\[[^\]]*\]|[^:]*)(?::\d+)?):(.*)", re.S)
_WAIT_FOR = re.compile(r"wait-for-(usb|local|any)-(device|recovery|rescue|sideload|bootloader|disconnect)")
_UNSUPPORTED = (
    "root:",
    "unroot:",
    "tcpip:",
    "usb:",
    "remount:",
    "reboot:",
    "framebuffer:",
    "enable-verity:",
    "disable-verity:",
)


class ProtocolError(Exception):
    """The peer broke the framing; the connection is closed and nothing else happens."""


@dataclass
class _Output:
    stdout: bytes = b""
    stderr: bytes = b""
    exit_code: int = 0


@dataclass(eq=False)
class _Conn:
    """One client socket and the transport (phone) it selected, if any."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    phone: Any = None


@dataclass
class _Forward:
    serial: str
    local: str
    remote: str


def _block(text: str | bytes) -> bytes:
    data = text.encode() if isinstance(text, str) else text
    data = data[:0xFFFF]
    return b"%04x" % len(data) + data


def _okay(text: str | bytes | None = None) -> bytes:
    return b"OKAY" if text is None else b"OKAY" + _block(text)


def _fail(message: str) -> bytes:
    return b"FAIL" + _block(message)


def _sync_fail(message: str) -> bytes:
    data = message.encode()
    return b"FAIL" + struct.pack("<I", len(data)) + data


def _u32(value: int) -> int:
    return max(0, int(value)) & 0xFFFFFFFF


def _sanitize(value: str) -> str:
    """adb replaces anything but [A-Za-z0-9._-] in devices-l tags, so a tag never contains a space."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", value)


def _check_loopback(host: str) -> str:
    if host == "localhost":
        return "127.0.0.1"
    try:
        if ipaddress.ip_address(host).is_loopback:
            return host
    except ValueError:
        pass
    raise ValueError(f"the virtual-phone ADB server binds loopback only; got host {host!r} (use 127.0.0.1)")


class AdbServer:
    """Serves `phones` on one loopback port as if it were an adb server with those devices attached."""

    def __init__(self, phones: Sequence[VirtualPhone], host: str = "127.0.0.1", port: int = 0):
        self.host = _check_loopback(host)
        self.port = port
        self.phones: dict[str, VirtualPhone] = {}
        self.idle_timeout = 600.0
        self.max_connections = 512
        self._lock = threading.RLock()  # guards phones, transport ids and forwards across threads
        self._tids: dict[str, int] = {}
        self._next_tid = 1
        self._forwards: list[_Forward] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._changed: asyncio.Event | None = None
        self._tasks: set[asyncio.Task] = set()
        self._bound: dict[str, set[_Conn]] = {}
        self._thread: threading.Thread | None = None
        self._main: asyncio.Task | None = None
        for phone in phones:
            self.add_phone(phone)

    def __repr__(self) -> str:
        return f"AdbServer({self.host}:{self.port}, phones={list(self.phones)})"

    # -- phones --------------------------------------------------------------------------------------
    def add_phone(self, phone: VirtualPhone) -> None:
        """Attach a phone; it shows up in `host:devices` with a fresh transport id."""
        with self._lock:
            if phone.serial in self.phones:
                raise ValueError(f"a phone with serial {phone.serial!r} is already attached")
            self.phones[phone.serial] = phone
            self._tids[phone.serial] = self._next_tid
            self._next_tid += 1
        self._notify()

    def remove_phone(self, serial: str) -> VirtualPhone | None:
        """Detach a phone as if it vanished: its sockets close and later requests FAIL 'not found'."""
        with self._lock:
            phone = self.phones.pop(serial, None)
            self._tids.pop(serial, None)
            self._forwards = [f for f in self._forwards if f.serial != serial]
        if phone is not None:
            self._notify(drop=serial)
        return phone

    def transport_id(self, serial: str) -> int | None:
        return self._tids.get(serial)

    def _notify(self, drop: str | None = None) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(self._on_change, drop)

    def _on_change(self, drop: str | None) -> None:
        """Wake trackers/waiters and cut the sockets of a vanished phone (runs on the loop)."""
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()
        for conn in self._bound.pop(drop, set()) if drop else ():
            conn.writer.transport.abort()

    # -- lifecycle -----------------------------------------------------------------------------------
    def start(self) -> int:
        """Serve on a daemon thread with its own event loop; returns the bound port. Idempotent."""
        if self._thread is not None and self._thread.is_alive():
            return self.port
        ready = threading.Event()
        errors: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            try:
                loop.run_until_complete(self._serve_in_thread(ready))
            except asyncio.CancelledError:
                pass
            except BaseException as exc:  # bind errors surface in start()
                errors.append(exc)
            finally:
                loop.close()
                ready.set()

        self._thread = threading.Thread(target=run, name=f"vphone-adb-{self.port or 'auto'}", daemon=True)
        self._thread.start()
        ready.wait()
        if errors:
            self._thread = None
            raise errors[0]
        return self.port

    async def _serve_in_thread(self, ready: threading.Event) -> None:
        self._main = asyncio.current_task()
        await self.serve(lambda _port: ready.set())

    def stop(self) -> None:
        """Close the listener and every connection, and join the server thread."""
        thread, loop, main = self._thread, self._loop, self._main
        if thread is None:
            return
        if loop is not None and main is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(main.cancel)
        thread.join(timeout=10)
        self._thread = None
        self._main = None

    def __enter__(self) -> AdbServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def serve(self, ready: Callable[[int], None] | None = None) -> None:
        """Serve in the running loop until cancelled (the CLI's `masbench vphone serve`)."""
        if self._loop is not None:
            raise RuntimeError(f"{self!r} is already serving")
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        self._executor = ThreadPoolExecutor(max_workers=8, thread_name_prefix="vphone-adb-call")
        try:
            server = await asyncio.start_server(self._on_connect, self.host, self.port, reuse_address=True)
        except BaseException:
            self._shutdown_executor()
            raise
        self.port = server.sockets[0].getsockname()[1]
        log.info("virtual-phone adb server on %s:%d serving %s", self.host, self.port, ", ".join(self.phones))
        if ready is not None:
            ready(self.port)
        try:
            await asyncio.Event().wait()
        finally:
            server.close()
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            with contextlib.suppress(Exception):
                await server.wait_closed()
            self._shutdown_executor()
            log.info("virtual-phone adb server on %s:%d stopped", self.host, self.port)

    def _shutdown_executor(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
        self._loop = None
        self._changed = None
        self._bound.clear()

    # -- connection handling -------------------------------------------------------------------------
    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Run one client; whatever happens, only this socket is affected."""
        task = asyncio.current_task()
        conn = _Conn(reader, writer)
        if len(self._tasks) >= self.max_connections:
            log.debug("too many connections; closing a new one")
            writer.close()
            return
        if task is not None:
            self._tasks.add(task)
        try:
            await self._session(conn)
        except asyncio.CancelledError:
            pass
        except (ProtocolError, ConnectionError, asyncio.IncompleteReadError, TimeoutError, EOFError) as exc:
            log.debug("adb connection closed: %s: %s", type(exc).__name__, exc)
        except Exception:
            log.warning("adb connection failed unexpectedly", exc_info=True)
        finally:
            if conn.phone is not None:
                self._bound.get(conn.phone.serial, set()).discard(conn)
            writer.close()
            if task is not None:
                self._tasks.discard(task)

    async def _session(self, conn: _Conn) -> None:
        """Read requests until one is a terminal service (everything except the transport switches)."""
        while True:
            request = await self._read_request(conn)
            if request is None:
                return
            if request.startswith(
                ("host:", "host-serial:", "host-transport-id:", "host-usb:", "host-local:")
            ):
                if not await self._host_request(conn, request):
                    return
                continue
            phone = conn.phone or self._resolve_any()
            if isinstance(phone, str):
                await self._reply(conn, _fail(phone))
                return
            await self._device_request(conn, phone, request)
            return

    async def _read_request(self, conn: _Conn) -> str | None:
        """One `%04x`-framed request; None on a clean EOF before the first byte."""
        async with asyncio.timeout(self.idle_timeout):
            head = await conn.reader.read(4)
            if not head:
                return None
            if len(head) < 4:
                head += await conn.reader.readexactly(4 - len(head))
            if not _HEX4.fullmatch(head):
                raise ProtocolError(f"bad request length {head!r}")
            size = int(head, 16)
            if size == 0:
                raise ProtocolError("empty request")
            body = await conn.reader.readexactly(size)
        return body.decode("utf-8", errors="replace")

    async def _send(self, conn: _Conn, data: bytes) -> None:
        conn.writer.write(data)
        await conn.writer.drain()

    async def _reply(self, conn: _Conn, data: bytes) -> None:
        """Send a final answer, half-close, and let the client close first so it never sees a reset."""
        await self._send(conn, data)
        await self._linger(conn)

    async def _linger(self, conn: _Conn) -> None:
        with contextlib.suppress(OSError, RuntimeError, TimeoutError):
            if conn.writer.can_write_eof():
                conn.writer.write_eof()
            async with asyncio.timeout(LINGER_S):
                budget = MAX_PUSH_BYTES
                while budget > 0:
                    chunk = await conn.reader.read(65536)
                    if not chunk:
                        return
                    budget -= len(chunk)

    async def _call(self, phone: VirtualPhone, fn: Callable[[], Any]) -> Any:
        """Run a phone method on the worker pool under the phone's lock, off the event loop."""

        def locked() -> Any:
            with phone.lock:
                return fn()

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, locked)

    # -- transport resolution ------------------------------------------------------------------------
    def _attached(self, phone: Any) -> bool:
        return phone is not None and self.phones.get(phone.serial) is phone

    def _resolve_any(self, kind: str = "any") -> VirtualPhone | str:
        """The one phone `-d/-e/any` means, or adb's error text."""
        if kind == "usb":
            return "no devices found"
        with self._lock:
            phones = list(self.phones.values())
        if len(phones) == 1:
            return phones[0]
        if kind == "local":
            return "no emulators found" if not phones else "more than one emulator"
        return "no devices/emulators found" if not phones else "more than one device/emulator"

    def _resolve(self, conn: _Conn, scope: str, value: str) -> VirtualPhone | str:
        if scope == "serial":
            return self.phones.get(value) or f"device '{value}' not found"
        if scope == "tid":
            return self._by_tid(value) or f"no device with transport id '{value}'"
        if scope == "host" and conn.phone is not None:
            return conn.phone if self._attached(conn.phone) else f"device '{conn.phone.serial}' not found"
        return self._resolve_any(scope)

    def _by_tid(self, value: str) -> VirtualPhone | None:
        with self._lock:
            serial = next((s for s, t in self._tids.items() if str(t) == value), "")
            return self.phones.get(serial)

    def _bind(self, conn: _Conn, phone: VirtualPhone) -> None:
        if conn.phone is not None:
            self._bound.get(conn.phone.serial, set()).discard(conn)
        conn.phone = phone
        self._bound.setdefault(phone.serial, set()).add(conn)

    # -- host services -------------------------------------------------------------------------------
    @staticmethod
    def _split_scope(request: str) -> tuple[str, str, str]:
        """`host-serial:S:cmd` -> ("serial", S, cmd); `host:cmd` -> ("host", "", cmd)."""
        if request.startswith("host-serial:"):
            rest = request[len("host-serial:") :]
            m = _SERIAL_PREFIX.fullmatch(rest)
            return ("serial", m.group(1), m.group(2)) if m else ("serial", rest, "")
        if request.startswith("host-transport-id:"):
            value, _, rest = request[len("host-transport-id:") :].partition(":")
            return "tid", value, rest
        scope, _, rest = request.partition(":")
        return {"host-usb": "usb", "host-local": "local"}.get(scope, "host"), "", rest

    async def _host_request(self, conn: _Conn, request: str) -> bool:
        """Answer a host service; True when it switched transport and the socket stays open."""
        scope, value, rest = self._split_scope(request)
        if scope == "host" and await self._host_global(conn, rest):
            return False
        if scope == "host" and (rest.startswith(("transport", "tport:"))):
            return await self._switch_transport(conn, rest)
        m = _WAIT_FOR.fullmatch(rest)
        if m:
            await self._wait_for(conn, scope, value, m.group(1), m.group(2))
            return False
        if not _is_device_host_service(rest):
            await self._reply(conn, _fail("unknown host service"))
            return False
        phone = self._resolve(conn, scope, value)
        if isinstance(phone, str):
            await self._reply(conn, _fail(phone))
            return False
        await self._host_device(conn, phone, rest)
        return False

    async def _host_global(self, conn: _Conn, rest: str) -> bool:
        """Services of the server itself; False when `rest` is not one of them."""
        if rest == "version":
            await self._reply(conn, _okay(f"{SERVER_VERSION:04x}"))
        elif rest in ("devices", "devices-l"):
            await self._reply(conn, _okay(self._device_lines(rest == "devices-l")))
        elif rest in ("track-devices", "track-devices-l"):
            await self._track_devices(conn, rest == "track-devices-l")
        elif rest == "kill":
            log.info("ignoring host:kill from a client; stop the server from its owner")
            await self._reply(conn, _okay())
        elif rest == "host-features":
            await self._reply(conn, _okay(FEATURES))
        elif rest.startswith("connect:"):
            await self._reply(conn, self._connect(rest[len("connect:") :]))
        elif rest.startswith("disconnect:"):
            addr = _with_default_port(rest[len("disconnect:") :])
            await self._reply(
                conn, _okay("disconnected everything") if not addr else _fail(f"no such device '{addr}'")
            )
        elif rest == "list-forward" and conn.phone is None:
            await self._reply(conn, _okay(self._forward_lines(None)))
        elif rest == "killforward-all" and conn.phone is None:
            with self._lock:
                self._forwards.clear()
            await self._reply(conn, _okay() + _okay())
        else:
            return False
        return True

    def _connect(self, addr: str) -> bytes:
        if not addr:
            return _fail("empty address")
        if addr in self.phones:
            return _okay(f"already connected to {addr}")
        return _okay(f"failed to connect to '{_with_default_port(addr)}': Connection refused")

    def _device_lines(self, long: bool) -> str:
        lines = []
        with self._lock:
            phones = list(self.phones.items())
            tids = dict(self._tids)
        for serial, phone in phones:
            if not long:
                lines.append(f"{serial}\tdevice\n")
                continue
            props = phone.props
            tags = [
                f"{tag}:{_sanitize(props[key])}"
                for tag, key in (
                    ("product", "ro.product.name"),
                    ("model", "ro.product.model"),
                    ("device", "ro.product.device"),
                )
                if props.get(key)
            ]
            lines.append(f"{serial:<22} device {' '.join([*tags, f'transport_id:{tids.get(serial, 0)}'])}\n")
        return "".join(lines)

    async def _switch_transport(self, conn: _Conn, rest: str) -> bool:
        """`transport:S`, `transport-id:N`, `transport-any|usb|local` and the `tport:` forms (+8-byte id)."""
        tport = rest.startswith("tport:")
        what = rest[len("tport:") :] if tport else rest[len("transport") :]
        if what.startswith(("serial:", ":")):
            phone = self._resolve(conn, "serial", what.partition(":")[2])
        elif what.startswith("-id:"):
            phone = self._resolve(conn, "tid", what[len("-id:") :])
        elif what.lstrip("-") in ("any", "usb", "local"):
            phone = self._resolve_any(what.lstrip("-"))
        else:
            await self._reply(conn, _fail("unknown host service"))
            return False
        if isinstance(phone, str):
            await self._reply(conn, _fail(phone))
            return False
        self._bind(conn, phone)
        tid = struct.pack("<Q", self._tids.get(phone.serial, 0)) if tport else b""
        await self._send(conn, _okay() + tid)
        return True

    async def _host_device(self, conn: _Conn, phone: VirtualPhone, rest: str) -> None:
        """Host services about one device: state, serial, features and the forward table."""
        simple = {
            "get-state": "device",
            "get-serialno": phone.serial,
            "get-devpath": "unknown",
            "features": FEATURES,
        }
        if rest in simple:
            await self._reply(conn, _okay(simple[rest]))
        elif rest == "list-forward":
            await self._reply(conn, _okay(self._forward_lines(phone.serial)))
        elif rest.startswith("forward:"):
            await self._reply(conn, self._add_forward(phone.serial, rest[len("forward:") :]))
        elif rest == "killforward-all":
            with self._lock:
                self._forwards = [f for f in self._forwards if f.serial != phone.serial]
            await self._reply(conn, _okay() + _okay())
        elif rest.startswith("killforward:"):
            await self._reply(conn, self._kill_forward(rest[len("killforward:") :]))

    # -- forwards ------------------------------------------------------------------------------------
    def _forward_lines(self, serial: str | None) -> str:
        with self._lock:
            return "".join(
                f"{f.serial} {f.local} {f.remote}\n" for f in self._forwards if serial in (None, f.serial)
            )

    def _add_forward(self, serial: str, spec: str) -> bytes:
        """Record a forward and answer like adb (OKAY OKAY + the local port); no socket is bound (G13)."""
        norebind = spec.startswith("norebind:")
        spec = spec.removeprefix("norebind:")
        local, sep, remote = spec.partition(";")
        if not sep or not _valid_socket_spec(local) or not _valid_socket_spec(remote):
            return _fail(f"malformed forward spec '{spec}'")
        if local == "tcp:0":
            local = f"tcp:{_free_port()}"
        with self._lock:
            existing = next((f for f in self._forwards if f.local == local), None)
            if existing is not None and norebind:
                return _fail(f"cannot rebind existing socket '{local}'")
            if existing is not None:
                self._forwards.remove(existing)
            self._forwards.append(_Forward(serial, local, remote))
        port = local[len("tcp:") :] if local.startswith("tcp:") else ""
        return _okay() + _okay(port)

    def _kill_forward(self, local: str) -> bytes:
        with self._lock:
            before = len(self._forwards)
            self._forwards = [f for f in self._forwards if f.local != local]
            removed = before != len(self._forwards)
        return _okay() + _okay() if removed else _fail(f"listener '{local}' not found")

    # -- long-lived host services --------------------------------------------------------------------
    async def _until_change_or_close(self, conn: _Conn, changed: asyncio.Event) -> bool:
        """Wait for `changed`; False when the client closed (or sent anything) first."""
        waiter = asyncio.ensure_future(changed.wait())
        reader = asyncio.ensure_future(conn.reader.read(1))
        try:
            done, _ = await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            reader.cancel()
        return reader not in done

    async def _track_devices(self, conn: _Conn, long: bool) -> None:
        """OKAY, then the device list now and after every change, until the client goes away."""
        await self._send(conn, _okay())
        last = None
        while True:
            changed = self._changed  # taken before reading the list, so no change slips between the two
            assert changed is not None
            current = self._device_lines(long)
            if current != last:
                await self._send(conn, _block(current))
                last = current
            if not await self._until_change_or_close(conn, changed):
                return

    async def _wait_for(self, conn: _Conn, scope: str, value: str, transport: str, state: str) -> None:
        """`wait-for-TRANSPORT-STATE`: OKAY now, OKAY again once the state holds (or never)."""
        await self._send(conn, _okay())

        def holds() -> bool:
            if scope == "serial":
                present = value in self.phones
            elif scope == "tid":
                present = self._by_tid(value) is not None
            else:
                present = transport != "usb" and scope != "usb" and bool(self.phones)
            return (not present) if state == "disconnect" else (present and state == "device")

        while True:
            changed = self._changed
            assert changed is not None
            if holds():
                break
            if not await self._until_change_or_close(conn, changed):
                return
        await self._reply(conn, _okay())

    # -- device services -----------------------------------------------------------------------------
    async def _device_request(self, conn: _Conn, phone: VirtualPhone, service: str) -> None:
        if not self._attached(phone):
            await self._reply(conn, _fail(f"device '{phone.serial}' not found"))
            return
        self._bind(conn, phone)
        name, _, arg = service.partition(":")
        if name == "shell" or name.startswith("shell,"):
            await self._shell(conn, phone, set(name.split(",")[1:]), arg)
        elif name == "exec":
            await self._exec(conn, phone, arg)
        elif name == "sync":
            await self._send(conn, _okay())
            await _SyncSession(self, conn, phone).run()
        elif service.startswith("reverse:"):
            await self._reverse(conn, service[len("reverse:") :])
        elif service.startswith(_UNSUPPORTED):
            await self._reply(conn, _fail(f"{name}: not supported on a virtual phone"))
        else:
            # tcp:, localabstract:, jdwp:, ...: nothing listens there, which a real device reports as "closed".
            await self._reply(conn, _fail("closed"))

    async def _reverse(self, conn: _Conn, what: str) -> None:
        if what == "list-forward":
            await self._reply(conn, _okay(""))
        elif what == "killforward-all":
            await self._reply(conn, _okay() + _okay())
        else:
            await self._reply(
                conn, _fail("cannot bind listener: reverse forwarding is not supported on a virtual phone")
            )

    async def _run_shell(self, phone: VirtualPhone, command: str) -> _Output:
        """One command line through the phone's shell; a crash there becomes exit 255, not a dead socket."""
        try:
            result = await self._call(phone, lambda: phone.shell(command))
            return _Output(_as_bytes(result.stdout), _as_bytes(result.stderr), int(result.exit_code))
        except Exception as exc:
            log.warning("phone %s: shell %r raised", phone.serial, command[:200], exc_info=True)
            return _Output(b"", f"/system/bin/sh: internal error: {exc}\n".encode(), 255)

    async def _shell(self, conn: _Conn, phone: VirtualPhone, opts: set[str], command: str) -> None:
        v2 = "v2" in opts
        pty = "pty" in opts or ("raw" not in opts and not command)
        if not command:
            await self._send(conn, _okay())
            io: _ShellIO = _V2ShellIO(conn) if v2 else _RawShellIO(conn, merge=True)
            await _InteractiveShell(self, phone, io, pty).run()
            await self._linger(conn)
            return
        out = await self._run_shell(phone, command)
        if not v2:
            # v1 has one stream; stderr goes first so shell2's `; echo X4EXIT:$?` stays the last line (G8).
            await self._reply(conn, _okay() + out.stderr + out.stdout)
            return
        if pty:
            data = _v2_packet(1, (out.stderr + out.stdout).replace(b"\n", b"\r\n"))
        else:
            data = _v2_packet(1, out.stdout) + _v2_packet(2, out.stderr)
        await self._reply(conn, _okay() + data + _v2_packet(3, bytes([out.exit_code & 0xFF])))

    async def _exec(self, conn: _Conn, phone: VirtualPhone, command: str) -> None:
        """`exec:` (adb exec-out): raw stdout only, so binary output such as a PNG stays intact."""
        if not command:
            await self._send(conn, _okay())
            await _InteractiveShell(self, phone, _RawShellIO(conn, merge=False), pty=False).run()
            await self._linger(conn)
            return
        out = await self._run_shell(phone, command)
        await self._reply(conn, _okay() + out.stdout)


def _with_default_port(addr: str) -> str:
    """adb's `connect`/`disconnect` default to port 5555."""
    return addr if not addr or ":" in addr else f"{addr}:5555"


def _is_device_host_service(rest: str) -> bool:
    """Host services answered for one device (`host-serial:S:<rest>`)."""
    return rest in (
        "get-state",
        "get-serialno",
        "get-devpath",
        "features",
        "list-forward",
        "killforward-all",
    ) or (rest.startswith(("forward:", "killforward:")))


def _as_bytes(data: bytes | str | None) -> bytes:
    return data.encode() if isinstance(data, str) else bytes(data or b"")


def _v2_packet(kind: int, data: bytes) -> bytes:
    return b"" if not data and kind != 3 else struct.pack("<BI", kind, len(data)) + data


def _valid_socket_spec(spec: str) -> bool:
    kind, sep, value = spec.partition(":")
    if not sep or not value or not kind:
        return False
    if kind == "tcp":
        return value.isdigit() and int(value) <= 65535
    return True


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- interactive shells ------------------------------------------------------------------------------
class _ShellIO:
    """Where an interactive shell reads keystrokes and writes output (v1 raw socket or v2 packets)."""

    async def read(self) -> bytes | None:
        raise NotImplementedError

    async def write(self, data: bytes, stream: int = 1) -> None:
        raise NotImplementedError

    async def exit(self, code: int) -> None:
        """Only shell v2 can say how the shell ended."""


@dataclass
class _RawShellIO(_ShellIO):
    conn: _Conn
    merge: bool  # shell: merges stderr into the stream; exec: drops it

    async def read(self) -> bytes | None:
        return await self.conn.reader.read(65536) or None

    async def write(self, data: bytes, stream: int = 1) -> None:
        if data and (stream == 1 or self.merge):
            self.conn.writer.write(data)
            await self.conn.writer.drain()


@dataclass
class _V2ShellIO(_ShellIO):
    conn: _Conn

    async def read(self) -> bytes | None:
        """Next stdin payload; None once stdin is closed (packet 4) or the socket ends."""
        while True:
            head = await self.conn.reader.read(5)
            if not head:
                return None
            if len(head) < 5:
                head += await self.conn.reader.readexactly(5 - len(head))
            kind, size = struct.unpack("<BI", head)
            if size > MAX_V2_PACKET:
                raise ProtocolError(f"shell v2 packet of {size} bytes")
            data = await self.conn.reader.readexactly(size)
            if kind == 0 and data:
                return data
            if kind == 4:
                return None
            # 5 = window size change and anything else: nothing to do on a virtual terminal

    async def write(self, data: bytes, stream: int = 1) -> None:
        if data:
            self.conn.writer.write(_v2_packet(stream, data))
            await self.conn.writer.drain()

    async def exit(self, code: int) -> None:
        self.conn.writer.write(_v2_packet(3, bytes([code & 0xFF])))
        await self.conn.writer.drain()


@dataclass
class _InteractiveShell:
    """`adb shell` with no command: a line-at-a-time shell with a prompt and echo when a pty is asked for."""

    server: AdbServer
    phone: Any
    io: _ShellIO
    pty: bool
    line: bytearray = field(default_factory=bytearray)
    status: int = 0
    escape: int = 0  # 1 after ESC, 2 inside a CSI sequence (arrow keys): skipped, not typed

    @property
    def prompt(self) -> bytes:
        return f"{self.phone.props.get('ro.product.device', 'vphone')}:/ $ ".encode()

    async def run(self) -> None:
        if self.pty:
            await self.io.write(self.prompt)
        while True:
            data = await self.io.read()
            if data is None:
                break
            for byte in data:
                if not await self._key(byte):
                    await self.io.exit(self.status)
                    return
        if self.line.strip() and not self.pty:
            await self._run_line()
        await self.io.exit(self.status)

    async def _key(self, byte: int) -> bool:
        """Feed one input byte; False when the shell should end (exit, Ctrl-D)."""
        if self.escape:
            # ESC [ ... final-byte (0x40-0x7E); ESC + one other byte is a two-byte sequence.
            self.escape = (
                2
                if (self.escape == 1 and byte == ord("[")) or (self.escape == 2 and not 0x40 <= byte <= 0x7E)
                else 0
            )
            return True
        if byte in (0x0A, 0x0D):
            if self.pty:
                await self.io.write(b"\r\n")
            if byte == 0x0D and not self.pty:
                return True
            return await self._run_line()
        if not self.pty:
            self.line.append(byte)
        elif byte == 0x1B:
            self.escape = 1
        elif byte in (0x7F, 0x08):
            if self.line:
                del self.line[-1]
                await self.io.write(b"\b \b")
        elif byte == 0x03:
            self.line.clear()
            await self.io.write(b"^C\r\n" + self.prompt)
        elif byte == 0x04:
            return bool(self.line)
        elif byte >= 0x20 or byte == 0x09:
            self.line.append(byte)
            await self.io.write(bytes([byte]))
        if len(self.line) > MAX_LINE:
            raise ProtocolError("interactive shell line too long")
        return True

    async def _run_line(self) -> bool:
        command = self.line.decode("utf-8", errors="replace").strip()
        self.line.clear()
        words = command.split()
        if words and words[0] == "exit":
            self.status = int(words[1]) if len(words) > 1 and words[1].isdigit() else self.status
            return False
        if command:
            out = await self.server._run_shell(self.phone, command)
            self.status = out.exit_code
            if self.pty:
                await self.io.write((out.stdout + out.stderr).replace(b"\n", b"\r\n"))
            else:
                await self.io.write(out.stdout, 1)
                await self.io.write(out.stderr, 2)
        if self.pty:
            await self.io.write(self.prompt)
        return True


# -- sync: -------------------------------------------------------------------------------------------
@dataclass
class _SyncSession:
    """The file-transfer sub-protocol (adbutils sync.py, `adb push/pull/ls`), v1 ops only."""

    server: AdbServer
    conn: _Conn
    phone: Any

    async def run(self) -> None:
        handlers: dict[bytes, Callable[[str], Awaitable[bool]]] = {
            b"STAT": self._stat,
            b"LIST": self._list,
            b"RECV": self._recv,
            b"SEND": self._send_file,
        }
        while True:
            head = await self._header(eof_ok=True)
            if head is None:
                return
            cmd, size = head
            if cmd == b"QUIT":
                return
            handler = handlers.get(cmd)
            if handler is None:
                await self._fail(f"unknown sync command {cmd!r}")
                return
            if size > MAX_SYNC_PATH:
                await self._fail(f"path too long ({size} bytes)")
                return
            path = (await self.conn.reader.readexactly(size)).decode("utf-8", errors="replace")
            if not await handler(path):
                return

    async def _header(self, eof_ok: bool = False) -> tuple[bytes, int] | None:
        async with asyncio.timeout(self.server.idle_timeout):
            head = await self.conn.reader.read(8)
            if not head and eof_ok:
                return None
            if len(head) < 8:
                head += await self.conn.reader.readexactly(8 - len(head))
        return head[:4], struct.unpack("<I", head[4:])[0]

    async def _write(self, data: bytes) -> None:
        """Each reply goes out in one write: adbutils reads STAT/DENT with a bare recv (G5)."""
        self.conn.writer.write(data)
        await self.conn.writer.drain()

    async def _fail(self, message: str) -> None:
        await self.server._reply(self.conn, _sync_fail(message))

    def _call(self, fn: Callable[[], Any]) -> Awaitable[Any]:
        return self.server._call(self.phone, fn)

    async def _stat(self, path: str) -> bool:
        found = await self._call(lambda: self.phone.fs.stat(path))
        mode, size, mtime = found or (0, 0, 0)  # a missing path is all zeros (G6)
        await self._write(b"STAT" + struct.pack("<III", _u32(mode), _u32(size), _u32(mtime)))
        return True

    async def _list(self, path: str) -> bool:
        def entries() -> list[tuple[str, tuple[int, int, int]]]:
            fs = self.phone.fs
            if not fs.is_dir(path):
                return []  # adbd's opendir fails: just DONE
            base = fs.norm(path)
            found = [(".", fs.stat(base)), ("..", fs.stat(base.rsplit("/", 1)[0] or "/"))]
            found += [(name, fs.stat(f"{base.rstrip('/')}/{name}")) for name in fs.listdir(base)]
            return [(name, s) for name, s in found if s is not None]

        out = bytearray()
        for name, (mode, size, mtime) in await self._call(entries):
            raw = name.encode()
            out += b"DENT" + struct.pack("<IIII", _u32(mode), _u32(size), _u32(mtime), len(raw)) + raw
        out += b"DONE" + bytes(16)  # adbd pads DONE to the size of a DENT
        await self._write(bytes(out))
        return True

    async def _recv(self, path: str) -> bool:
        try:
            data = await self._call(lambda: self.phone.fs.read(path))
        except FileNotFoundError:
            await self._write(_sync_fail("No such file or directory"))
            return True
        except IsADirectoryError:
            await self._write(_sync_fail("Is a directory"))
            return True
        out = bytearray()
        for start in range(0, len(data), MAX_SYNC_DATA):
            chunk = data[start : start + MAX_SYNC_DATA]
            out += b"DATA" + struct.pack("<I", len(chunk)) + chunk
        out += b"DONE" + struct.pack("<I", 0)
        await self._write(bytes(out))
        return True

    async def _send_file(self, spec: str) -> bool:
        """SEND "path,mode": DATA chunks then DONE+mtime; the parent directories are created (fixed_push_mkdir)."""
        path, sep, mode_text = spec.rpartition(",")
        if not sep or not path or not mode_text.isdigit():
            await self._fail(f"bad SEND spec '{spec}': expected PATH,MODE")
            return False
        mode = int(mode_text)
        data = bytearray()
        while True:
            cmd, arg = await self._header()
            if cmd == b"DONE":
                mtime = arg
                break
            if cmd != b"DATA" or arg > MAX_SYNC_DATA:
                await self._fail(f"bad sync data message {cmd!r} ({arg} bytes)")
                return False
            data += await self.conn.reader.readexactly(arg)
            if len(data) > MAX_PUSH_BYTES:
                await self._fail("No space left on device")
                return False
        error = await self._call(lambda: self._store(path, bytes(data), mode, mtime))
        await self._write(_sync_fail(error) if error else b"OKAY" + struct.pack("<I", 0))
        return True

    def _store(self, path: str, data: bytes, mode: int, mtime: int) -> str | None:
        if st.S_ISLNK(mode):
            return f"couldn't create symlink {path}: not supported on a virtual phone"
        fs = self.phone.fs
        try:
            parent = fs.norm(path).rsplit("/", 1)[0] or "/"
            if not fs.is_dir(parent):
                fs.mkdir(parent, parents=True)
            fs.write(path, data, mode & 0o7777, mtime or None)
        except IsADirectoryError:
            return f"couldn't create file {path}: Is a directory"
        except (FileExistsError, FileNotFoundError, NotADirectoryError):
            return f"secure_mkdirs() failed for {path}: Not a directory"
        return None


def serve_phones(count: int, port: int = 0, host: str = "127.0.0.1", seed: int = 0) -> AdbServer:
    """Build `vphone-1`..`vphone-N` (all from `seed`) and start serving them; the caller stops the server."""
    from .phone import VirtualPhone

    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    server = AdbServer(
        [VirtualPhone(f"vphone-{i}", seed=seed) for i in range(1, count + 1)], host=host, port=port
    )
    server.start()
    return server


__all__ = ["FEATURES", "SERVER_VERSION", "AdbServer", "ProtocolError", "serve_phones"]
