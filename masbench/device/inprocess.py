"""A phone this process drives directly: what the route search (masbench/tasks/routes.py) needs to try
thousands of moves a second, where each move over ADB costs shell round trips, a UI dump and a state read.

The device layer only names the interface; the virtual phone implements it (`masbench.vphone.direct`),
and `vphones.open_in_process_phone` hands one out, so nothing above the device layer imports the phone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .device import Device
    from .elements import UIElement


class PhoneSnapshot(Protocol):
    """A saved phone state, opaque but for its key: equal keys, equal states (apps, screens with their
    UI state, settings, clipboard, running apps, files; not the clocks)."""

    @property
    def key(self) -> bytes: ...

    def report_key(self, packages: list[str]) -> bytes:
        """Equal for two states that give the same `InProcessPhone.report(packages)`."""
        ...


class InProcessPhone(Protocol):
    """A virtual phone in this process. `device` acts on it with the very commands a `Device` sends over
    ADB (so an action means the same on both paths); the rest reads and branches its state in memory."""

    @property
    def device(self) -> Device: ...

    def elements(self) -> list[UIElement]:
        """The current screen's elements, from the UI tree the phone holds (as `parse_ui_dump` gives them)."""
        ...

    def report(self, packages: list[str]) -> dict[str, Any]:
        """What a check reads (`Device.snapshot(packages)`'s shape), sharing the phone's objects: read only."""
        ...

    def report_key(self, packages: list[str], rehash: bool = False) -> bytes | None:
        """The live state's `PhoneSnapshot.report_key` without saving it; None if the apps it reads changed
        and not `rehash` (hashing them again may cost more than a check), or if it cannot tell."""
        ...

    def save(self) -> PhoneSnapshot:
        """The current state, to `restore` any number of times."""
        ...

    def restore(self, snapshot: PhoneSnapshot) -> None:
        """Go back to a saved state (cheapest when it is the one restored last: its changes are undone)."""
        ...


__all__ = ["InProcessPhone", "PhoneSnapshot"]
