"""Shell services on a phone: `shell:`, `shell,v2,...:`, `exec:` and the interactive shell behind them.

With a command, the phone's shell runs it once and the socket carries its output: v1 (`shell:`) as one
stream, v2 as stdout/stderr/exit packets, `exec:` as raw stdout. A command that reads a known amount of
stdin first (a streamed install, `cmd package install -S SIZE`, the APK `adb install` sends) gets those
bytes collected from the socket before it runs. `getevent` streams: its output follows the phone's input
while the stream stays open (`_follow`). Without a command, `_InteractiveShell` reads lines (with a
prompt and echo when a pty is asked for) until `exit`, Ctrl-D or the client's EOF.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import struct
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..commands import getevent
from ..commands.pm import streamed_install_size
from ..shell import run_shell
from .framing import (
    MAX_LINE,
    MAX_PUSH_BYTES,
    MAX_V2_PACKET,
    Conn,
    ProtocolError,
    linger,
    log,
    okay,
    reply,
    send,
)

if TYPE_CHECKING:
    from ..phone import VirtualPhone

FOLLOW_POLL_S = 0.05


@dataclass
class _Output:
    stdout: bytes = b""
    stderr: bytes = b""
    exit_code: int = 0


class ShellServices:
    """The shell half of `AdbServer` (mixed into it), which supplies `_call` and `_bound`."""

    _call: Callable[[VirtualPhone, Callable[[], Any]], Awaitable[Any]]
    _bound: dict[str, set[Conn]]
    idle_timeout: float

    async def _run_shell(
        self,
        phone: VirtualPhone,
        command: str,
        one_stream: bool = False,
        caller: Conn | None = None,
        stdin: bytes = b"",
    ) -> _Output:
        """One command line through the phone's shell; a crash there becomes exit 255, not a dead socket.

        `one_stream`: adbd gives a raw (non shell-protocol) subprocess, and a pty, one socket for stdout
        and stderr, so they arrive interleaved in the order written; the line then runs as
        `sh -c LINE 2>&1` and everything comes back as stdout. If the line rebooted the phone, adbd went
        down with it: every other stream of the phone (a uiautomator2 server's shell...) ends; the
        caller's gets its answer first."""
        line = f"sh -c {shlex.quote(command)} 2>&1" if one_stream else command

        def run() -> tuple[Any, bool]:
            before = len(phone.events)
            phone.advance("shell")  # what phone.shell() does, with the client's stdin besides
            result = run_shell(phone, line, stdin)
            return result, any(event.kind == "reboot" for event in phone.events[before:])

        try:
            result, rebooted = await self._call(phone, run)
            if rebooted:
                for conn in self._bound.get(phone.serial, set()) - {caller}:
                    conn.writer.close()
            return _Output(_as_bytes(result.stdout), _as_bytes(result.stderr), int(result.exit_code))
        except Exception as exc:
            log.warning("phone %s: shell %r raised", phone.serial, command[:200], exc_info=True)
            return _Output(b"", f"/system/bin/sh: internal error: {exc}\n".encode(), 255)

    async def _shell(self, conn: Conn, phone: VirtualPhone, opts: set[str], command: str) -> None:
        v2 = "v2" in opts
        pty = "pty" in opts or ("raw" not in opts and not command)
        if not command:
            await send(conn, okay())
            io: _ShellIO = _V2ShellIO(conn) if v2 else _RawShellIO(conn, merge=True)
            await _InteractiveShell(
                lambda line: self._run_shell(phone, line, caller=conn), phone, io, pty
            ).run()
            await linger(conn)
            return
        follower = getevent.stream(phone, _first_command(command, whole=True))
        if follower is not None:
            await self._follow(conn, phone, follower, v2, pty)
            return
        listening = set(phone.tcp_services)
        ack, stdin = await self._stdin(conn, command, _V2ShellIO(conn) if v2 else None)
        out = await self._run_shell(phone, command, one_stream=not v2 or pty, caller=conn, stdin=stdin)
        started = set(phone.tcp_services) - listening
        if started:  # a server (uiautomator2's) lives as long as the shell that started it stays open
            await send(conn, ack + out.stdout + out.stderr)
            with contextlib.suppress(ConnectionError):
                while await conn.reader.read(4096):
                    pass
            for port in started:
                phone.tcp_services.pop(port, None)
            return
        if not v2:
            await reply(conn, ack + out.stdout + out.stderr)  # stderr: only a crash's own message
            return
        if pty:
            data = _v2_packet(1, (out.stdout + out.stderr).replace(b"\n", b"\r\n"))
        else:
            data = _v2_packet(1, out.stdout) + _v2_packet(2, out.stderr)
        await reply(conn, ack + data + _v2_packet(3, bytes([out.exit_code & 0xFF])))

    async def _exec(self, conn: Conn, phone: VirtualPhone, command: str) -> None:
        """`exec:` (adb exec-out): raw bytes, no pty, so binary output such as a PNG stays intact; stdout
        and stderr share the one stream, as adbd's raw subprocess has it."""
        if not command:
            await send(conn, okay())
            await _InteractiveShell(
                lambda line: self._run_shell(phone, line, caller=conn),
                phone,
                _RawShellIO(conn, merge=False),
                pty=False,
            ).run()
            await linger(conn)
            return
        follower = getevent.stream(phone, _first_command(command, whole=True))
        if follower is not None:
            await self._follow(conn, phone, follower, v2=False, pty=False)
            return
        ack, stdin = await self._stdin(conn, command, None)
        out = await self._run_shell(phone, command, one_stream=True, caller=conn, stdin=stdin)
        await reply(conn, ack + out.stdout + out.stderr)

    async def _follow(
        self, conn: Conn, phone: VirtualPhone, follower: getevent.GeteventStream, v2: bool, pty: bool
    ) -> None:
        """Run a command that keeps printing (getevent): its output goes out as it comes, polled every
        FOLLOW_POLL_S, until it is done (v2 then sends its exit status) or the client closes the stream."""

        def framed(data: bytes) -> bytes:
            data = data.replace(b"\n", b"\r\n") if pty else data
            return _v2_packet(1, data) if v2 else data

        await send(conn, okay() + framed(follower.header()))
        with contextlib.suppress(ConnectionError, OSError):
            while True:
                data, done = await self._call(phone, lambda: follower.poll(phone))
                if data:
                    await send(conn, framed(data))
                if done:
                    await reply(conn, _v2_packet(3, b"\0") if v2 else b"")
                    return
                try:
                    if not await asyncio.wait_for(conn.reader.read(65536), FOLLOW_POLL_S):
                        return  # the client closed the stream: getevent gets SIGHUP
                except TimeoutError:
                    pass

    async def _stdin(self, conn: Conn, command: str, v2: _V2ShellIO | None) -> tuple[bytes, bytes]:
        """(the OKAY still to send, stdin). A streamed install reads SIZE bytes of stdin, which the client
        sends once the service is open: OKAY goes out now and the bytes are collected (fewer if the
        client stops sending: the installer then parses a cut-off APK). Any other command reads none
        and its OKAY goes with its output. Raw services carry stdin as plain bytes, v2 as packets."""
        size = _stdin_size(command)
        if size is None:
            return okay(), b""
        await send(conn, okay())
        data = bytearray()
        while len(data) < min(size, MAX_PUSH_BYTES):
            read = v2.read() if v2 is not None else conn.reader.read(min(65536, size - len(data)))
            chunk = await asyncio.wait_for(read, self.idle_timeout)
            if not chunk:
                break
            data += chunk
        return b"", bytes(data[:size])


def _stdin_size(command: str) -> int | None:
    """How much stdin the line's first command reads before it answers (see `streamed_install_size`)."""
    return streamed_install_size(_first_command(command))


def _first_command(command: str, whole: bool = False) -> list[str]:
    """The words of a line's first simple command (up to its first operator); [] if it does not parse,
    or with `whole` if the line holds more than that one command (a pipeline, a list)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    words: list[str] = []
    try:
        for token in lexer:
            if token and all(c in lexer.punctuation_chars for c in token):
                return [] if whole else words
            words.append(token)
    except ValueError:  # unbalanced quotes: the shell will say so
        return []
    return words


def _as_bytes(data: bytes | str | None) -> bytes:
    return data.encode() if isinstance(data, str) else bytes(data or b"")


def _v2_packet(kind: int, data: bytes) -> bytes:
    return b"" if not data and kind != 3 else struct.pack("<BI", kind, len(data)) + data


# -- interactive shells ------------------------------------------------------------------------------
class _ShellIO(ABC):
    """Where an interactive shell reads keystrokes and writes output (v1 raw socket or v2 packets)."""

    conn: Conn

    @abstractmethod
    async def read(self) -> bytes | None: ...

    @abstractmethod
    async def write(self, data: bytes, stream: int = 1) -> None: ...

    async def exit(self, code: int) -> None:  # noqa: B027 - a no-op by default, on purpose
        """Only shell v2 can say how the shell ended."""


@dataclass
class _RawShellIO(_ShellIO):
    conn: Conn
    merge: bool  # shell: merges stderr into the stream; exec: drops it

    async def read(self) -> bytes | None:
        return await self.conn.reader.read(65536) or None

    async def write(self, data: bytes, stream: int = 1) -> None:
        if data and (stream == 1 or self.merge):
            self.conn.writer.write(data)
            await self.conn.writer.drain()


@dataclass
class _V2ShellIO(_ShellIO):
    conn: Conn

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
    """`adb shell` with no command: a line-at-a-time shell with a prompt and echo when a pty is asked for;
    `run_line` runs one command line through the phone's shell."""

    run_line: Callable[[str], Awaitable[_Output]]
    phone: VirtualPhone
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
            out = await self.run_line(command)
            self.status = out.exit_code
            if self.pty:
                await self.io.write((out.stdout + out.stderr).replace(b"\n", b"\r\n"))
            else:
                await self.io.write(out.stdout, 1)
                await self.io.write(out.stderr, 2)
        if self.pty:
            await self.io.write(self.prompt)
        return True
