"""The `sync:` file-transfer sub-protocol (adbutils sync.py, `adb push/pull/ls`), v1 ops only.

After `sync:` is answered OKAY, each request is a 4-byte id + a little-endian u32 length + a path:
STAT, LIST (DENT... DONE), RECV (DATA... DONE), SEND (then DATA... DONE+mtime from the client) and QUIT.
Failures are `FAIL` + a u32 length + a message, not the host protocol's hex length.
"""

from __future__ import annotations

import asyncio
import stat as st
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .framing import MAX_PUSH_BYTES, MAX_SYNC_DATA, MAX_SYNC_PATH, Conn, reply

if TYPE_CHECKING:
    from ..phone import VirtualPhone


def _sync_fail(message: str) -> bytes:
    data = message.encode()
    return b"FAIL" + struct.pack("<I", len(data)) + data


def _parse_header(head: bytes) -> tuple[bytes, int]:
    return head[:4], struct.unpack("<I", head[4:])[0]


def _u32(value: int) -> int:
    return max(0, int(value)) & 0xFFFFFFFF


@dataclass
class SyncSession:
    """One `sync:` connection to one phone, served until QUIT, EOF or a protocol error. `call` runs a
    function under the phone's lock off the event loop (the server's worker pool)."""

    conn: Conn
    phone: VirtualPhone
    call: Callable[[Callable[[], Any]], Awaitable[Any]]
    idle_timeout: float

    async def run(self) -> None:
        handlers: dict[bytes, Callable[[str], Awaitable[bool]]] = {
            b"STAT": self._stat,
            b"LIST": self._list,
            b"RECV": self._recv,
            b"SEND": self._send_file,
        }
        while True:
            head = await self._next_request()
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

    async def _next_request(self) -> tuple[bytes, int] | None:
        """The next request's (id, length); None when the client closed the stream between requests."""
        async with asyncio.timeout(self.idle_timeout):
            head = await self.conn.reader.read(8)
            if not head:
                return None
            if len(head) < 8:
                head += await self.conn.reader.readexactly(8 - len(head))
        return _parse_header(head)

    async def _header(self) -> tuple[bytes, int]:
        """The (id, length) of a message the protocol expects now: the stream ending here is an error."""
        async with asyncio.timeout(self.idle_timeout):
            head = await self.conn.reader.readexactly(8)
        return _parse_header(head)

    async def _write(self, data: bytes) -> None:
        """Each reply goes out in one write: adbutils reads STAT/DENT with a bare recv (G5)."""
        self.conn.writer.write(data)
        await self.conn.writer.drain()

    async def _fail(self, message: str) -> None:
        await reply(self.conn, _sync_fail(message))

    async def _stat(self, path: str) -> bool:
        found = await self.call(lambda: self.phone.fs.stat(path))
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
        for name, (mode, size, mtime) in await self.call(entries):
            raw = name.encode()
            out += b"DENT" + struct.pack("<IIII", _u32(mode), _u32(size), _u32(mtime), len(raw)) + raw
        out += b"DONE" + bytes(16)  # adbd pads DONE to the size of a DENT
        await self._write(bytes(out))
        return True

    async def _recv(self, path: str) -> bool:
        try:
            data = await self.call(lambda: self.phone.fs.read(path))
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
        error = await self.call(lambda: self._store(path, bytes(data), mode, mtime))
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
