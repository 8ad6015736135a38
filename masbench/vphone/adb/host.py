"""Host services: what the server answers itself rather than a phone.

`host:*` (version, features, the device list and its trackers, connect/disconnect, the transport switches),
`host-serial:S:*`, `host-transport-id:N:*`, `host-usb:*` and `host-local:*` (state, serial, features,
`wait-for-*` and the forward table of one device), and the resolution of which phone a request means.

Forwards (`adb forward tcp:L tcp:R`) bind L on loopback as the real server does: each connection there
opens a device stream to R through this server (`host:transport:S` + `tcp:R`) and the bytes are piped
both ways, so a client of the local port (uiautomator2's HTTP on 9008, say) reaches the phone's server.
A refused device stream (nothing listens on R) closes the local socket at once, as adb does. Forwards
from a non-TCP local socket (`localabstract:` on the host) are recorded and listed but bound to nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from .framing import Conn, block, fail, log, okay, reply, send

if TYPE_CHECKING:
    from ..phone import VirtualPhone

SERVER_VERSION = 41  # what adb 1.0.41 (platform-tools 29..36) speaks; a mismatch makes the CLI restart us
FEATURES = "shell_v2,cmd,fixed_push_mkdir"  # only what we implement (G7): no stat_v2/ls_v2/sendrecv_v2

_SERIAL_PREFIX = re.compile(r"((?:tcp:|udp:)?(?:\[[^\]]*\]|[^:]*)(?::\d+)?):(.*)", re.S)
_WAIT_FOR = re.compile(r"wait-for-(usb|local|any)-(device|recovery|rescue|sideload|bootloader|disconnect)")


@dataclass
class Forward:
    serial: str
    local: str
    remote: str
    listener: asyncio.Server | None = None  # the bound local port (tcp: locals)


class HostServices:
    """The host half of `AdbServer` (mixed into it); the server owns the state declared here."""

    phones: dict[str, VirtualPhone]
    host: str
    port: int
    _loop: asyncio.AbstractEventLoop | None
    _tasks: set[asyncio.Task[None]]
    _lock: threading.RLock  # guards phones, transport ids and forwards across threads
    _tids: dict[str, int]
    _forwards: list[Forward]
    _changed: asyncio.Event | None  # set and replaced on every attach/detach (runs on the loop)
    _bound: dict[str, set[Conn]]  # the sockets bound to each phone, cut when it vanishes

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

    def _resolve(self, conn: Conn, scope: str, value: str) -> VirtualPhone | str:
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

    def _bind(self, conn: Conn, phone: VirtualPhone) -> None:
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

    async def _host_request(self, conn: Conn, request: str) -> bool:
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
            await reply(conn, fail("unknown host service"))
            return False
        phone = self._resolve(conn, scope, value)
        if isinstance(phone, str):
            await reply(conn, fail(phone))
            return False
        await self._host_device(conn, phone, rest)
        return False

    async def _host_global(self, conn: Conn, rest: str) -> bool:
        """Services of the server itself; False when `rest` is not one of them."""
        if rest == "version":
            await reply(conn, okay(f"{SERVER_VERSION:04x}"))
        elif rest in ("devices", "devices-l"):
            await reply(conn, okay(self._device_lines(rest == "devices-l")))
        elif rest in ("track-devices", "track-devices-l"):
            await self._track_devices(conn, rest == "track-devices-l")
        elif rest == "kill":
            log.info("ignoring host:kill from a client; stop the server from its owner")
            await reply(conn, okay())
        elif rest == "host-features":
            await reply(conn, okay(FEATURES))
        elif rest.startswith("connect:"):
            await reply(conn, self._connect(rest[len("connect:") :]))
        elif rest.startswith("disconnect:"):
            addr = _with_default_port(rest[len("disconnect:") :])
            await reply(
                conn, okay("disconnected everything") if not addr else fail(f"no such device '{addr}'")
            )
        elif rest == "list-forward" and conn.phone is None:
            await reply(conn, okay(self._forward_lines(None)))
        elif rest == "killforward-all" and conn.phone is None:
            self._drop_forwards(lambda f: True)
            await reply(conn, okay() + okay())
        else:
            return False
        return True

    def _connect(self, addr: str) -> bytes:
        if not addr:
            return fail("empty address")
        if addr in self.phones:
            return okay(f"already connected to {addr}")
        return okay(f"failed to connect to '{_with_default_port(addr)}': Connection refused")

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

    async def _switch_transport(self, conn: Conn, rest: str) -> bool:
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
            await reply(conn, fail("unknown host service"))
            return False
        if isinstance(phone, str):
            await reply(conn, fail(phone))
            return False
        self._bind(conn, phone)
        tid = struct.pack("<Q", self._tids.get(phone.serial, 0)) if tport else b""
        await send(conn, okay() + tid)
        return True

    async def _host_device(self, conn: Conn, phone: VirtualPhone, rest: str) -> None:
        """Host services about one device: state, serial, features and the forward table."""
        simple = {
            "get-state": "device",
            "get-serialno": phone.serial,
            "get-devpath": "unknown",
            "features": FEATURES,
        }
        if rest in simple:
            await reply(conn, okay(simple[rest]))
        elif rest == "list-forward":
            await reply(conn, okay(self._forward_lines(phone.serial)))
        elif rest.startswith("forward:"):
            await reply(conn, await self._add_forward(phone.serial, rest[len("forward:") :]))
        elif rest == "killforward-all":
            self._drop_forwards(lambda f: f.serial == phone.serial)
            await reply(conn, okay() + okay())
        elif rest.startswith("killforward:"):
            await reply(conn, self._kill_forward(rest[len("killforward:") :]))

    # -- forwards ------------------------------------------------------------------------------------
    def _forward_lines(self, serial: str | None) -> str:
        with self._lock:
            return "".join(
                f"{f.serial} {f.local} {f.remote}\n" for f in self._forwards if serial in (None, f.serial)
            )

    async def _add_forward(self, serial: str, spec: str) -> bytes:
        """Bind the local port (`tcp:0`: a free one) and record the forward; answer like adb, OKAY OKAY +
        the local port."""
        norebind = spec.startswith("norebind:")
        spec = spec.removeprefix("norebind:")
        local, sep, remote = spec.partition(";")
        if not sep or not _valid_socket_spec(local) or not _valid_socket_spec(remote):
            return fail(f"malformed forward spec '{spec}'")
        with self._lock:
            existing = next((f for f in self._forwards if f.local == local), None)
        if existing is not None and norebind:
            return fail(f"cannot rebind existing socket '{local}'")
        if existing is not None:
            self._drop_forwards(lambda f: f is existing)
        listener = None
        if local.startswith("tcp:"):
            try:
                listener = await asyncio.start_server(
                    partial(self._relay_forward, serial, remote), self.host, int(local[len("tcp:") :])
                )
            except OSError as exc:
                return fail(f"cannot bind listener: {exc.strerror or exc}")
            local = f"tcp:{listener.sockets[0].getsockname()[1]}"
        with self._lock:
            self._forwards.append(Forward(serial, local, remote, listener))
        return okay() + okay(local[len("tcp:") :] if listener is not None else "")

    def _kill_forward(self, local: str) -> bytes:
        removed = self._drop_forwards(lambda f: f.local == local)
        return okay() + okay() if removed else fail(f"listener '{local}' not found")

    def _drop_forwards(self, doomed: Callable[[Forward], bool]) -> bool:
        """Remove the matching forwards and unbind their ports (from any thread); True if any matched."""
        with self._lock:
            dropped = [f for f in self._forwards if doomed(f)]
            self._forwards = [f for f in self._forwards if not doomed(f)]
        try:
            on_loop = asyncio.get_running_loop() is self._loop
        except RuntimeError:
            on_loop = False
        for listener in [f.listener for f in dropped if f.listener is not None]:
            if on_loop:
                listener.close()
            elif self._loop is not None and not self._loop.is_closed():
                with contextlib.suppress(RuntimeError):  # the loop is shutting down
                    self._loop.call_soon_threadsafe(listener.close)
        return bool(dropped)

    async def _relay_forward(
        self, serial: str, remote: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """One connection to a forwarded local port: a device stream to `remote` through this server."""
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            device_reader, device_writer = await asyncio.open_connection(self.host, self.port)
            try:
                device_writer.write(block(f"host:transport:{serial}") + block(remote))
                # OKAY for the transport, OKAY for the service; a FAIL (nothing listens) closes the socket
                if await device_reader.readexactly(8) == b"OKAYOKAY":
                    await asyncio.gather(_pipe(reader, device_writer), _pipe(device_reader, writer))
            finally:
                device_writer.close()
        except (OSError, asyncio.IncompleteReadError) as exc:
            log.debug("forward to %s %s ended: %s", serial, remote, exc)
        finally:
            writer.close()
            if task is not None:
                self._tasks.discard(task)

    # -- long-lived host services --------------------------------------------------------------------
    async def _until_change_or_close(self, conn: Conn, changed: asyncio.Event) -> bool:
        """Wait for `changed`; False when the client closed (or sent anything) first."""
        waiter = asyncio.ensure_future(changed.wait())
        reader = asyncio.ensure_future(conn.reader.read(1))
        try:
            done, _ = await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            reader.cancel()
        return reader not in done

    async def _track_devices(self, conn: Conn, long: bool) -> None:
        """OKAY, then the device list now and after every change, until the client goes away."""
        await send(conn, okay())
        last = None
        while True:
            changed = self._changed  # taken before reading the list, so no change slips between the two
            assert changed is not None
            current = self._device_lines(long)
            if current != last:
                await send(conn, block(current))
                last = current
            if not await self._until_change_or_close(conn, changed):
                return

    async def _wait_for(self, conn: Conn, scope: str, value: str, transport: str, state: str) -> None:
        """`wait-for-TRANSPORT-STATE`: OKAY now, OKAY again once the state holds (or never)."""
        await send(conn, okay())

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
        await reply(conn, okay())


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


def _sanitize(value: str) -> str:
    """adb replaces anything but [A-Za-z0-9._-] in devices-l tags, so a tag never contains a space."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", value)


def _with_default_port(addr: str) -> str:
    """adb's `connect`/`disconnect` default to port 5555."""
    return addr if not addr or ":" in addr else f"{addr}:5555"


def _valid_socket_spec(spec: str) -> bool:
    kind, sep, value = spec.partition(":")
    if not sep or not value or not kind:
        return False
    if kind == "tcp":
        return value.isdigit() and int(value) <= 65535
    return True


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    """Copy until EOF, then pass the half-close on (HTTP clients wait for the answer after theirs)."""
    while chunk := await source.read(65536):
        sink.write(chunk)
        await sink.drain()
    if sink.can_write_eof():
        sink.write_eof()
