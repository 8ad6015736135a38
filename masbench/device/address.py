"""Device addresses: an (adb server host, adb server port, serial) triple, never the global `adbutils.adb`.

Text forms accepted by `DeviceAddress.parse`:

* ``SERIAL`` - on the default adb server (``$ANDROID_ADB_SERVER_HOST`` or 127.0.0.1, port
  ``$ANDROID_ADB_SERVER_PORT`` or 5037). A serial may itself contain ``:`` (``192.168.1.7:5555``).
* ``HOST:PORT/SERIAL`` - on any adb server, e.g. ``127.0.0.1:40123/vphone-1``; ``[::1]:5037/S`` for IPv6.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from types import TracebackType

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5037
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def default_server(default_host: str | None = None, default_port: int | None = None) -> tuple[str, int]:
    """The adb server adb itself would use: explicit defaults, then the ANDROID_ADB_SERVER_* env vars."""
    host = default_host or os.environ.get("ANDROID_ADB_SERVER_HOST") or DEFAULT_HOST
    if default_port is not None:
        return host, default_port
    env_port = os.environ.get("ANDROID_ADB_SERVER_PORT")
    if env_port:
        try:
            return host, _check_port(int(env_port), env_port)
        except ValueError as exc:
            raise ValueError(f"ANDROID_ADB_SERVER_PORT={env_port!r} is not a port number") from exc
    return host, DEFAULT_PORT


def _check_port(port: int, text: object) -> int:
    if not 0 < port < 65536:
        raise ValueError(f"port {text!r} is out of range 1..65535")
    return port


def _check_serial(serial: str, text: str) -> str:
    if not serial:
        raise ValueError(f"device address {text!r} has an empty serial")
    if any(ch.isspace() or not ch.isprintable() for ch in serial) or "/" in serial:
        raise ValueError(
            f"device address {text!r}: serial {serial!r} contains whitespace, '/' or control characters"
        )
    return serial


def parse_server(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``[IPV6]:PORT``) of an adb server; used by `--adb` options."""
    raw = text.strip()
    host, sep, port_text = raw.rpartition(":")
    if not sep or not port_text:
        raise ValueError(f"adb server {text!r} is not HOST:PORT (e.g. 127.0.0.1:5037)")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host:
        host = DEFAULT_HOST
    if any(ch.isspace() for ch in host) or "/" in host:
        raise ValueError(f"adb server {text!r}: bad host {host!r}")
    try:
        port = int(port_text)
    except ValueError as exc:
        raise ValueError(f"adb server {text!r}: port {port_text!r} is not a number") from exc
    return host, _check_port(port, port_text)


@dataclass(frozen=True, slots=True)
class DeviceAddress:
    """Where a device is: which adb server to ask, and for which serial."""

    host: str
    port: int
    serial: str

    def __post_init__(self) -> None:
        if not self.host:
            raise ValueError("device address needs a host")
        _check_port(self.port, self.port)
        _check_serial(self.serial, self.serial)

    @classmethod
    def parse(
        cls, text: str, default_host: str | None = None, default_port: int | None = None
    ) -> DeviceAddress:
        """Parse ``SERIAL`` or ``HOST:PORT/SERIAL``; raises ValueError saying what is wrong."""
        if not isinstance(text, str):
            raise ValueError(f"device address must be text, not {type(text).__name__}")
        raw = text.strip()
        if not raw:
            raise ValueError("empty device address; give SERIAL or HOST:PORT/SERIAL")
        if "/" in raw:
            server, _, serial = raw.partition("/")
            host, port = parse_server(server)
            return cls(host, port, _check_serial(serial, text))
        host, port = default_server(default_host, default_port)
        return cls(host, port, _check_serial(raw, text))

    @property
    def server(self) -> tuple[str, int]:
        return self.host, self.port

    @property
    def is_default_local_server(self) -> bool:
        """True for the developer's own adb daemon (loopback:5037), the only server adb may auto-start."""
        return self.host in _LOOPBACK and self.port == DEFAULT_PORT

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}/{self.serial}"


# -- keeping adbutils from starting a real adb daemon (it bundles adb and runs `adb start-server`) -----


def _noop_binary() -> str:
    """A program that ignores `start-server` and exits: /bin/false, else the Python interpreter itself."""
    for candidate in ("/bin/false", "/usr/bin/false", shutil.which("false")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    # `python start-server` fails at once ("can't open file"), which is exactly the no-op we need.
    return sys.executable


class no_adb_spawn:  # lower-case: used like a function, `no_adb_spawn()` or `with no_adb_spawn():`
    """Point ``ADBUTILS_ADB_PATH`` at a non-adb binary so a refused port fails fast.

    Without it, adbutils answers a refused connection by running ``adb start-server`` (it bundles adb),
    silently starting a real daemon. Calling ``no_adb_spawn()`` sets the variable for the rest of the
    process; used as a context manager it restores the previous value on exit.
    """

    def __init__(self) -> None:
        self._previous = os.environ.get("ADBUTILS_ADB_PATH")
        self.path = _noop_binary()
        os.environ["ADBUTILS_ADB_PATH"] = self.path

    def __enter__(self) -> no_adb_spawn:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._previous is None:
            os.environ.pop("ADBUTILS_ADB_PATH", None)
        else:
            os.environ["ADBUTILS_ADB_PATH"] = self._previous


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "DeviceAddress", "default_server", "no_adb_spawn", "parse_server"]
