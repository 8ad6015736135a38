"""masbench's own device exceptions, so callers never have to import or catch adbutils types.

The runner relies on the split: `DeviceGoneError` takes a device out of the pool, every other
`DeviceError` is a failed step or shortcut call on a device that is still usable.
"""

from __future__ import annotations


class DeviceError(Exception):
    """Base class of everything the device layer raises on purpose."""


class DeviceGoneError(DeviceError):
    """The adb server refused/dropped the connection, or the serial is no longer attached."""


class DeviceTimeoutError(DeviceError):
    """A command did not finish within its timeout; the device may still be alive."""


class DeviceCommandError(DeviceError):
    """A shell command ran but failed: non-zero exit status or Android's `Error:` text."""

    def __init__(self, command: str, output: str, exit_code: int | None = None, reason: str = ""):
        self.command = command
        self.output = output
        self.exit_code = exit_code
        self.reason = reason
        detail = reason or (f"exit status {exit_code}" if exit_code is not None else "failed")
        super().__init__(
            f"{detail}: {_clip(command)}" + (f"\n{_clip(output.strip())}" if output.strip() else "")
        )


def _clip(text: str, limit: int = 600) -> str:
    """At most `limit` characters of a command or its output (a typed text can be hundreds of KB)."""
    return text if len(text) <= limit else f"{text[:limit]} … ({len(text) - limit} more characters)"


class NotVirtualError(DeviceError):
    """A virtual-phone control (`cmd masbench ...`) was called on an emulator or physical device."""


class AppNotFoundError(DeviceError, LookupError):
    """`open_app` could not map a name to exactly one installed package."""

    def __init__(self, name: str, candidates: list[str]):
        self.name = name
        self.candidates = candidates
        listed = ", ".join(candidates[:30]) if candidates else "none"
        super().__init__(f"no app matches {name!r} unambiguously; candidates: {listed}")


class UnsupportedTextError(DeviceError, ValueError):
    """Text that `input text` cannot type (non-ASCII) and no ADBKeyboard IME is active."""


__all__ = [
    "AppNotFoundError",
    "DeviceCommandError",
    "DeviceError",
    "DeviceGoneError",
    "DeviceTimeoutError",
    "NotVirtualError",
    "UnsupportedTextError",
]
