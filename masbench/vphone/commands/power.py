"""`reboot` (also `svc power reboot` and ADB's `reboot:` service) and the boot that follows it.

A reboot keeps what Android keeps on disk (app data, settings, files) and loses what lives in memory:
every app's activities (the phone comes back on the home screen), running processes (uiautomator2's
server, a screen recording), the clipboard and the log buffer. While the phone boots, `sys.boot_completed`
and `dev.bootcomplete` are unset (getprop prints an empty line, which pollers read as "not yet") and
`init.svc.bootanim` is `running`; the boot finishes as soon as something looks (the first getprop after
the reboot), so `until [ "$(getprop sys.boot_completed)" = 1 ]` polling sees it unset once, then `1`.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from . import screenrecord
from .base import CommandError, Proc
from .system import clear_log

if TYPE_CHECKING:
    from ..eventlog import Event
    from ..phone import VirtualPhone

SHUTDOWN_MS = 2_500
BOOT_MS = 21_000  # a Pixel 7 / API 35 AVD's cold boot to sys.boot_completed
BOOT_PROPS = ("sys.boot_completed", "dev.bootcomplete")
POWER_OFF_REFUSED = "powering off is not supported on a virtual phone (reboot is)"

# Phones whose boot has not been observed yet, with the events list of that boot (a reset ends it).
_booting: weakref.WeakKeyDictionary[VirtualPhone, list[Event]] = weakref.WeakKeyDictionary()
# When each phone's kernel last started (device_ms), with the events list it belongs to.
_kernel_start: weakref.WeakKeyDictionary[VirtualPhone, tuple[list[Event], int]] = weakref.WeakKeyDictionary()


def booting(phone: VirtualPhone) -> bool:
    return _booting.get(phone) is phone.events


def kernel_start_ms(phone: VirtualPhone) -> int | None:
    """The device_ms at which the last reboot started the kernel; None if the phone has not rebooted
    since its reset (it then runs the kernel the emulator booted)."""
    events, start = _kernel_start.get(phone, (None, 0))
    return start if events is phone.events else None


def visible_props(phone: VirtualPhone) -> dict[str, str]:
    """The properties as getprop shows them now: without the boot-complete flags while booting."""
    if not booting(phone):
        return phone.props
    shown = {k: v for k, v in phone.props.items() if k not in BOOT_PROPS}
    shown["init.svc.bootanim"] = "running"
    return shown


def finish_boot(phone: VirtualPhone) -> None:
    """The boot completes (once something has seen it in progress)."""
    if booting(phone):
        del _booting[phone]
        phone.device_ms += BOOT_MS
        phone.log("boot_completed")


def reboot_phone(phone: VirtualPhone) -> None:
    """Restart: app data, settings and files stay; activities, processes, clipboard and log go."""
    for recording in screenrecord.running(phone):
        screenrecord.stop(phone, recording, finish=False)  # cut off mid-file, as a power loss does
    phone.tcp_services.clear()
    phone.running.clear()
    phone.stack = []
    phone.go_home(log=False)
    phone.clipboard = ""
    phone.toasts.clear()
    phone.device_ms += SHUTDOWN_MS
    phone.log("reboot")
    clear_log(phone)
    _booting[phone] = phone.events
    _kernel_start[phone] = (phone.events, phone.device_ms)


def reboot(p: Proc, args: list[str]) -> int:
    """`reboot [-f|-n] [bootloader|recovery|...]`; `reboot -p` powers off, which a virtual phone cannot
    come back from, so it is refused rather than faked."""
    operands = [a for a in args if not a.startswith("-")]
    if "-p" in args or operands[:1] == ["shutdown"]:
        raise CommandError(f"reboot: {POWER_OFF_REFUSED}")
    reboot_phone(p.phone)
    return 0


COMMANDS = {"reboot": reboot}
