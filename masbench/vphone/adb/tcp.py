"""`tcp:PORT`, the device service that connects to a port on the phone: what `adb forward` and
`AdbDevice.create_connection` reach. The only server that listens on a virtual phone is uiautomator2's
(`vphone/uiautomator.py`), started by its `app_process` line; it speaks HTTP/1.1, one request after
another on the same stream, until the client closes it. Any other port is closed, as on a device.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .. import uiautomator
from ..commands.system import U2_SERVICE
from .framing import Conn, fail, okay, reply, send

if TYPE_CHECKING:
    from ..phone import VirtualPhone

MAX_BODY = 16 << 20
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found"}


class TcpService:
    """The `tcp:` half of `AdbServer` (mixed into it), which supplies `_call`."""

    _call: Callable[[VirtualPhone, Callable[[], Any]], Awaitable[Any]]

    async def _tcp(self, conn: Conn, phone: VirtualPhone, port: str) -> None:
        if not port.isdigit() or phone.tcp_services.get(int(port)) != U2_SERVICE:
            await reply(conn, fail("closed"))
            return
        await send(conn, okay())
        server = uiautomator.Server(phone)
        while (request := await _read_request(conn)) is not None:
            method, path, body = request
            status, data = await self._answer(phone, server, method, path, body)
            head = f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\n"
            await send(conn, (head + f"Content-Length: {len(data)}\r\n\r\n").encode() + data)

    async def _answer(
        self, phone: VirtualPhone, server: uiautomator.Server, method: str, path: str, body: bytes
    ) -> tuple[int, bytes]:
        if method == "GET" and path == "/ping":
            return 200, b"pong"
        if method != "POST" or not path.startswith("/jsonrpc/"):
            return 404, b"not found"
        try:
            call = json.loads(body)
            name, params, ident = call["method"], call.get("params") or [], call.get("id")
        except (ValueError, KeyError, TypeError):
            return 400, json.dumps(
                {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}}
            ).encode()
        try:
            result = await self._call(
                phone, lambda: server.call(name, params if isinstance(params, list) else [params])
            )
            answer: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "result": result}
        except uiautomator.RpcError as exc:
            error = {"code": exc.code, "message": exc.message, "data": exc.data or exc.message}
            answer = {"jsonrpc": "2.0", "id": ident, "error": error}
        except (TypeError, ValueError) as exc:  # wrong parameters for the method
            answer = {
                "jsonrpc": "2.0",
                "id": ident,
                "error": {"code": -32602, "message": f"Invalid params: {exc}"},
            }
        return 200, json.dumps(answer, ensure_ascii=False).encode()


async def _read_request(conn: Conn) -> tuple[str, str, bytes] | None:
    """One HTTP request (method, path, body), or None when the client closed the stream."""
    try:
        line = await conn.reader.readline()
        if not line.strip():
            return None
        method, path, _ = line.decode("latin-1").split(" ", 2)
        length = 0
        while (header := await conn.reader.readline()).strip():
            name, _, value = header.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = min(int(value.strip()), MAX_BODY)
        body = await conn.reader.readexactly(length) if length else b""
    except (ValueError, asyncio.IncompleteReadError, ConnectionError):
        return None
    return method, path.split("?", 1)[0], body
