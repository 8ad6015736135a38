"""`AdbServer`: the attached phones, the thread/event-loop lifecycle and the dispatch of each connection.

A connection reads requests until one is terminal:

* host services (`host:`, `host-serial:S:`, `host-transport-id:N:`) answer and close, except the
  transport switches (`host:transport:S`, `host:tport:serial:S` + 8-byte LE transport id, ...), after which
  the same socket carries one device service: `shell:`, `shell,v2,...:`, `exec:` or `sync:`.

The host services live in host.py, the shell services in shell.py and `sync:` in sync.py; the framing and
the limits against hostile clients in framing.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any

from .framing import Conn, ProtocolError, fail, log, okay, read_request, reply, send
from .host import Forward, HostServices
from .shell import ShellServices
from .sync import SyncSession
from .tcp import TcpService

if TYPE_CHECKING:
    from ..phone import VirtualPhone

_UNSUPPORTED = (
    "tcpip:",
    "usb:",
    "remount:",
    "framebuffer:",
    "enable-verity:",
    "disable-verity:",
)
# What a Google Play image's adbd (a production build: ro.adb.secure, no root) answers.
_PRODUCTION_ADBD = {
    "root": "adbd cannot run as root in production builds\n",
    "unroot": "adbd not running as root\n",
}


def _check_loopback(host: str) -> str:
    if host == "localhost":
        return "127.0.0.1"
    try:
        if ipaddress.ip_address(host).is_loopback:
            return host
    except ValueError:
        pass
    raise ValueError(f"the virtual-phone ADB server binds loopback only; got host {host!r} (use 127.0.0.1)")


class AdbServer(HostServices, ShellServices, TcpService):
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
        self._forwards: list[Forward] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._changed: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._bound: dict[str, set[Conn]] = {}
        self._thread: threading.Thread | None = None
        self._main: asyncio.Task[None] | None = None
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
        self._drop_forwards(lambda f: f.serial == serial)
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
            self._drop_forwards(lambda f: True)  # unbind forwarded ports with the server
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
        conn = Conn(reader, writer)
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

    async def _session(self, conn: Conn) -> None:
        """Read requests until one is a terminal service (everything except the transport switches)."""
        while True:
            request = await read_request(conn, self.idle_timeout)
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
                await reply(conn, fail(phone))
                return
            await self._device_request(conn, phone, request)
            return

    async def _call(self, phone: VirtualPhone, fn: Callable[[], Any]) -> Any:
        """Run a phone method on the worker pool under the phone's lock, off the event loop."""

        def locked() -> Any:
            with phone.lock:
                return fn()

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, locked)

    # -- device services -----------------------------------------------------------------------------
    async def _device_request(self, conn: Conn, phone: VirtualPhone, service: str) -> None:
        if not self._attached(phone):
            await reply(conn, fail(f"device '{phone.serial}' not found"))
            return
        self._bind(conn, phone)
        name, _, arg = service.partition(":")
        if name == "shell" or name.startswith("shell,"):
            await self._shell(conn, phone, set(name.split(",")[1:]), arg)
        elif name == "exec":
            await self._exec(conn, phone, arg)
        elif name == "sync":
            await send(conn, okay())
            await SyncSession(conn, phone, partial(self._call, phone), self.idle_timeout).run()
        elif name == "tcp":
            await self._tcp(conn, phone, arg)
        elif service.startswith("reverse:"):
            await self._reverse(conn, service[len("reverse:") :])
        elif name in _PRODUCTION_ADBD:
            await reply(conn, okay() + _PRODUCTION_ADBD[name].encode())
        elif name == "reboot":
            # adbd acknowledges, then the device goes down; `reboot:bootloader` etc. boot Android again here
            await self._run_shell(phone, "reboot", caller=conn)
            await reply(conn, okay())
        elif service.startswith(_UNSUPPORTED):
            await reply(conn, fail(f"{name}: not supported on a virtual phone"))
        else:
            # localabstract:, jdwp:, ...: nothing listens there, which a real device reports as "closed".
            await reply(conn, fail("closed"))

    async def _reverse(self, conn: Conn, what: str) -> None:
        if what == "list-forward":
            await reply(conn, okay(""))
        elif what == "killforward-all":
            await reply(conn, okay() + okay())
        else:
            await reply(
                conn, fail("cannot bind listener: reverse forwarding is not supported on a virtual phone")
            )


def serve_phones(count: int, port: int = 0, host: str = "127.0.0.1", seed: int = 0) -> AdbServer:
    """Build `vphone-1`..`vphone-N` (all from `seed`) and start serving them; the caller stops the server."""
    from ..build import build_phone

    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    server = AdbServer(
        [build_phone(f"vphone-{i}", seed=seed) for i in range(1, count + 1)], host=host, port=port
    )
    server.start()
    return server
