"""Controls only a virtual phone has, reached like everything else: shell commands (`cmd masbench ...`).

Nothing here imports `masbench.vphone`: the phone may live in this process, another process or another
machine, and these calls work the same.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .errors import DeviceCommandError, NotVirtualError

if TYPE_CHECKING:
    from .transport import ShellOutput


class VirtualControls:
    """Mixin for `Device`: reset, state, patches, events and the modelled clock of a virtual phone."""

    serial: str
    _ime_adb_keyboard: bool | None

    if TYPE_CHECKING:  # provided by Device

        def shell(self, cmd: str | list[str], timeout: float = 60, check: bool = False) -> ShellOutput: ...

        @property
        def is_virtual(self) -> bool: ...

    def _masbench(self, *args: str, timeout: float = 30, lines: bool = False) -> Any:
        """Run `cmd masbench ARGS...` and decode its JSON answer (None when empty).

        With `lines=True` the answer is a list: a JSON array, or one JSON value per line.
        """
        if not self.is_virtual:
            raise NotVirtualError(
                f"{self.serial} is not a masbench virtual phone; `cmd masbench {args[0]}` is only available there"
            )
        line_args = ["cmd", "masbench", *args]
        result = self.shell(line_args, timeout=timeout, check=True)
        return _decode_json(result.output, " ".join(line_args), lines)

    def _masbench_object(self, *args: str) -> dict[str, Any]:
        """`_masbench` for a command that answers one JSON object (a state, a clock)."""
        answer = self._masbench(*args)
        if not isinstance(answer, dict):
            command = " ".join(["cmd", "masbench", *args])
            raise DeviceCommandError(command, json.dumps(answer), 0, reason="answer is not a JSON object")
        return answer

    def reset(self, seed: int = 0, clock: datetime | str | None = None) -> Any:
        """Restore the phone to the exact initial state for (seed, clock): the AVD-snapshot counterpart."""
        args = ["reset", "--seed", str(int(seed))]
        if clock is not None:
            args += ["--clock", clock.isoformat() if isinstance(clock, datetime) else str(clock)]
        answer = self._masbench(*args)
        self._ime_adb_keyboard = None  # settings are part of the reset state
        return answer

    def app_state(self, package: str) -> dict[str, Any]:
        """One app's public state as JSON data (what task checks read)."""
        return self._masbench_object("state", package)

    def snapshot(self, packages: Iterable[str] | None = None, digest: bool = False) -> dict[str, Any]:
        """The whole phone: foreground, back stack, settings, clipboard and every app's state; with
        `packages`, only those apps' states (what a check reads, a fraction of the bytes). `digest` adds
        "digest": the SHA-1 of the whole snapshot without its clocks, equal exactly when the states are."""
        args = ["state"]
        if packages is not None:
            args += ["--apps", ",".join(packages)]
        if digest:
            args.append("--digest")
        return self._masbench_object(*args)

    def stored_state(self, package: str) -> dict[str, Any]:
        """One app's stored state: what `patch_state` writes, of which `app_state` is the public view."""
        return self._masbench_object("state", package, "--stored")

    def patch_state(self, package: str, data: dict[str, Any], replace: bool = False) -> Any:
        """Merge `data` into an app's stored state (task preconditions), or with `replace` put each of its
        top-level keys in place of what was there; sent base64 so any JSON survives."""
        b64 = base64.b64encode(json.dumps(data, ensure_ascii=False).encode("utf-8")).decode("ascii")
        return self._masbench("patch", package, "--b64", b64, *(["--replace"] if replace else []))

    def save_state(self, name: str) -> Any:
        """Remember the whole phone (apps, screens, clock, settings) as `name`, to come back to."""
        return self._masbench("save", name)

    def restore_state(self, name: str) -> Any:
        """Go back to the state saved as `name` (it stays saved)."""
        return self._masbench("restore", name)

    def events(self, since: int = 0) -> list[dict[str, Any]]:
        """The event log from sequence number `since` on (taps, text, starts, broadcasts, ...)."""
        events: list[dict[str, Any]] = self._masbench("events", "--since", str(int(since)), lines=True)
        return events

    def device_time(self) -> dict[str, Any]:
        """The modelled device clock (ISO time and ms since reset), as opposed to wall time."""
        return self._masbench_object("time")


def _decode_json(output: str, command: str, lines: bool = False) -> Any:
    text = output.strip()
    if not text:
        return [] if lines else None
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        pass
    else:
        if lines and not isinstance(whole, list):
            return [whole]
        return whole
    items = []
    for line in text.splitlines():  # JSON lines
        if line.strip():
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise DeviceCommandError(command, output, 0, reason="answer is not JSON") from exc
    return items


__all__ = ["VirtualControls"]
