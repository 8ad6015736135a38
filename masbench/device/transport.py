"""The adbutils seam: one client per adb server, and adbutils errors translated into masbench's own.

Only this module and `device.py` touch adbutils; everything above sees `DeviceError` subclasses.

Nothing waits on a device forever: every adb connection has a socket timeout (stock adbutils clients have
none, and open each transport with ten minutes), and under a `deadline` (an episode's time limit) every
wait is cut to the time left, so a frozen device or adb server fails a call instead of hanging the run.
"""

from __future__ import annotations

import contextlib
import re
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import adbutils
from adbutils import AdbConnection
from adbutils.errors import AdbConnectionError, AdbError, AdbTimeout

from masbench.deadlines import time_left

from .errors import DeviceCommandError, DeviceError, DeviceGoneError, DeviceTimeoutError

SOCKET_TIMEOUT_S = 30.0  # the longest an adb server may stay silent while a connection is set up
DEADLINE_FLOOR_S = 1.0  # a call made as the deadline passes still gets this long (the last tap lands)
PROBE_TIMEOUT_S = 2.0  # how long a device that stopped answering gets to answer `echo` before it is lost

# FAIL texts of an adb server (real or virtual) that mean "this serial is not usable any more".
_GONE = re.compile(
    r"device .*not found|device offline|device unauthorized|device still authorizing|no devices"
    r"|connection closed|unknown data: b''|connection is closed|connect to adb server",
    re.IGNORECASE,
)


@dataclass
class ShellOutput:
    """A finished shell command: merged stdout+stderr text and the exit status of its last command."""

    output: str
    exit_code: int

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


# adbutils ships no type information, so its classes are `Any` to mypy and subclassing them is flagged.
class _PromptConnection(AdbConnection):  # type: ignore[misc]
    """An AdbConnection whose close() does not sleep: stock adbutils sleeps 10 ms after shutting the
    write side down (G2), which was over half of a virtual phone's round trip. Every reply has been
    read to its end by then, so closing at once loses nothing."""

    def close(self) -> None:
        if self.closed:
            return
        sock = self.conn
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_WR)
        sock.close()
        # adbutils has no public way to mark a connection closed: `closed` and `conn` read its private
        # `__conn`, so this one line sets it. Checked against the adbutils range in pyproject.toml, which
        # tests/test_device.py pins.
        self._AdbConnection__conn = None


def call_timeout(timeout: float) -> float:
    """A device call's socket timeout: its own, cut to what the current deadline leaves (at least
    `DEADLINE_FLOOR_S`, so a call is never sent with no time to answer)."""
    left = time_left()
    return timeout if left is None else min(timeout, max(DEADLINE_FLOOR_S, left))


class CachedVersionClient(adbutils.AdbClient):  # type: ignore[misc]  # adbutils is untyped: see above
    """An AdbClient that asks the server's version once instead of before every command, and whose every
    connection has a socket timeout.

    adbutils' `open_transport` calls `host:version` on a separate connection before each shell/sync
    call; caching it halves the connections per command (~10 ms each). Connections are set up with at most
    `socket_timeout` of silence (adbutils asks for ten minutes, or none at all); a command then sets its own.
    """

    def __init__(self, host: str, port: int, socket_timeout: float = SOCKET_TIMEOUT_S):
        super().__init__(host=host, port=port, socket_timeout=socket_timeout)
        self._socket_timeout = socket_timeout
        self._version: int | None = None

    def make_connection(self, timeout: float | None = None) -> AdbConnection:
        try:
            conn = _PromptConnection(self.host, self.port)
        except TimeoutError:
            raise AdbTimeout("connect to adb server timeout") from None
        conn.conn.settimeout(call_timeout(min(timeout or self._socket_timeout, self._socket_timeout)))
        return conn

    def server_version(self) -> int:
        if self._version is None:
            self._version = super().server_version()
        return self._version


def gone_message(exc: BaseException) -> bool:
    return bool(_GONE.search(str(exc)))


@contextmanager
def translate_errors(where: str, command: str, probe: Callable[[], bool] | None = None) -> Iterator[None]:
    """Turn adbutils/socket exceptions into DeviceGoneError / DeviceTimeoutError / DeviceError.

    `probe()` is asked, only on an ambiguous failure (a timeout, or a shell stream that ended without its
    exit marker), whether the device still answers: a device silent to the probe too is frozen or gone,
    and lost like a vanished one.
    """
    try:
        yield
    except DeviceError:
        raise
    except AdbTimeout as exc:
        if "connect" in str(exc):
            raise DeviceGoneError(f"{where}: adb server did not answer ({exc})") from exc
        raise timed_out(where, command, probe) from exc
    except AdbConnectionError as exc:
        raise DeviceGoneError(f"{where}: adb server refused the connection ({exc})") from exc
    except TimeoutError as exc:
        raise timed_out(where, command, probe) from exc
    except (ConnectionError, EOFError) as exc:
        raise DeviceGoneError(f"{where}: connection lost ({exc.__class__.__name__}: {exc})") from exc
    except AdbError as exc:
        if gone_message(exc):
            raise DeviceGoneError(f"{where}: {exc}") from exc
        if "shell output invalid" in str(exc):
            if probe is not None and not probe():
                raise DeviceGoneError(f"{where}: device vanished while running {command!r}") from exc
            raise DeviceCommandError(command, "", None, reason="shell ended without an exit status") from exc
        raise DeviceError(f"{where}: adb error running {command!r}: {exc}") from exc
    except OSError as exc:
        raise DeviceGoneError(f"{where}: connection failed ({exc})") from exc


def timed_out(where: str, command: str, probe: Callable[[], bool] | None) -> DeviceError:
    """The error for a call that got no answer in time: the device is lost when it does not answer the
    probe either, else the call merely timed out."""
    if probe is not None and not probe():
        return DeviceGoneError(f"{where}: no answer to {command[:200]!r} nor to a probe: frozen or gone")
    return DeviceTimeoutError(f"{where}: timed out running {command[:200]!r}")


__all__ = [
    "DEADLINE_FLOOR_S",
    "PROBE_TIMEOUT_S",
    "SOCKET_TIMEOUT_S",
    "CachedVersionClient",
    "ShellOutput",
    "call_timeout",
    "gone_message",
    "timed_out",
    "translate_errors",
]
