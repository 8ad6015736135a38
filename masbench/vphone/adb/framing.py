"""Framing of the ADB host protocol: length-prefixed requests, `OKAY`/`FAIL` replies and the limits.

Wire summary (all lengths are lowercase hex unless noted):

* request: 4 hex digits + service name; reply `OKAY` or `FAIL` + 4-hex length + message.

Limits against hostile clients, each of which closes only the offending connection:

* a request is at most 0xFFFF bytes (all that 4 hex digits can say) and at least 1;
* sync paths are at most 1024 bytes and DATA chunks at most 64 KiB (adbd's own limits); one pushed
  file is at most 128 MiB;
* shell v2 packets from the client are at most 1 MiB; an interactive line is at most 64 KiB;
* a connection idle for `idle_timeout` seconds (default 600) while we wait for a request is closed;
* at most `max_connections` (512) clients at once; more are closed on accept.

The last two are attributes of `AdbServer`; the rest are the constants below.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from dataclasses import dataclass
from typing import Any

# One logger for the whole server, under the name it had before it became a package (users and tests set it).
log = logging.getLogger("masbench.vphone.adb_server")

MAX_SYNC_PATH = 1024
MAX_SYNC_DATA = 64 * 1024
MAX_PUSH_BYTES = 128 * 1024 * 1024
MAX_V2_PACKET = 1024 * 1024
MAX_LINE = 64 * 1024
LINGER_S = 2.0  # how long we wait for the client to close after our last byte (avoids RST on unread input)

_HEX4 = re.compile(rb"[0-9a-fA-F]{4}")


class ProtocolError(Exception):
    """The peer broke the framing; the connection is closed and nothing else happens."""


@dataclass(eq=False)
class Conn:
    """One client socket and the transport (phone) it selected, if any."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    phone: Any = None


def block(text: str | bytes) -> bytes:
    data = text.encode() if isinstance(text, str) else text
    data = data[:0xFFFF]
    return b"%04x" % len(data) + data


def okay(text: str | bytes | None = None) -> bytes:
    return b"OKAY" if text is None else b"OKAY" + block(text)


def fail(message: str) -> bytes:
    return b"FAIL" + block(message)


async def read_request(conn: Conn, idle_timeout: float) -> str | None:
    """One `%04x`-framed request; None on a clean EOF before the first byte."""
    async with asyncio.timeout(idle_timeout):
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


async def send(conn: Conn, data: bytes) -> None:
    conn.writer.write(data)
    await conn.writer.drain()


async def reply(conn: Conn, data: bytes) -> None:
    """Send a final answer, half-close, and let the client close first so it never sees a reset."""
    await send(conn, data)
    await linger(conn)


async def linger(conn: Conn) -> None:
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
