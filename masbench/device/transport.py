"""The adbutils seam: one client per adb server, and adbutils errors translated into masbench's own.

Only this module and `device.py` touch adbutils; everything above sees `DeviceError` subclasses.
"""

from __future__ import annotations

import contextlib
import re
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import adbutils
from adbutils._adb import AdbConnection
from adbutils.errors import AdbConnectionError, AdbError, AdbTimeout

from .errors import DeviceCommandError, DeviceError, DeviceGoneError, DeviceTimeoutError

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


class _PromptConnection(AdbConnection):
    """An AdbConnection whose close() does not sleep: stock adbutils sleeps 10 ms after shutting the
    write side down (G2), which was over half of a virtual phone's round trip. Every reply has been
    read to its end by then, so closing at once loses nothing."""

    def close(self) -> None:
        conn = self._AdbConnection__conn
        if conn is None:
            return
        with contextlib.suppress(OSError):
            conn.shutdown(socket.SHUT_WR)
        conn.close()
        self._AdbConnection__conn = None


class CachedVersionClient(adbutils.AdbClient):
    """An AdbClient that asks the server's version once instead of before every command.

    adbutils' `open_transport` calls `host:version` on a separate connection before each shell/sync
    call; caching it halves the connections per command (~10 ms each).
    """

    def __init__(self, host: str, port: int, socket_timeout: float | None = None):
        super().__init__(host=host, port=port, socket_timeout=socket_timeout)
        self._socket_timeout = socket_timeout
        self._version: int | None = None

    def make_connection(self, timeout: float | None = None) -> AdbConnection:
        try:
            conn = _PromptConnection(self.host, self.port)
        except TimeoutError:
            raise AdbTimeout("connect to adb server timeout") from None
        timeout = timeout or self._socket_timeout
        if timeout:
            conn.conn.settimeout(timeout)
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

    `probe()` is asked, only on an ambiguous failure (a shell stream that ended without its exit
    marker), whether the device is still attached.
    """
    try:
        yield
    except DeviceError:
        raise
    except AdbTimeout as exc:
        if "connect" in str(exc):
            raise DeviceGoneError(f"{where}: adb server did not answer ({exc})") from exc
        raise DeviceTimeoutError(f"{where}: timed out running {command!r}") from exc
    except AdbConnectionError as exc:
        raise DeviceGoneError(f"{where}: adb server refused the connection ({exc})") from exc
    except TimeoutError as exc:
        raise DeviceTimeoutError(f"{where}: timed out running {command!r}") from exc
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


__all__ = ["CachedVersionClient", "ShellOutput", "gone_message", "translate_errors"]
