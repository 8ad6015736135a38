"""`getevent`: the emulator's input devices and the kernel events of the input the phone receives.

The devices are what a Pixel 7 AVD shows: the `qwerty2` keyboard and the `virtio_input_multi_touch_1`
touchscreen, whose ABS_MT axes run 0..32767 over the whole display. Each tap, long press, swipe and key
in the phone's event log becomes the evdev sequence the kernel would report for it (tracking id,
position, BTN_TOUCH, SYN_REPORT...), stamped with the kernel's uptime. Unlike a real device, input that
`input`/uiautomator2 inject shows up here too: on the virtual phone every input is the user's.

Over the ADB shell service `getevent` streams: the service prints the device list, then each new event
as the phone receives it, until the client closes the stream or `-c COUNT` events have been printed
(`GeteventStream`). Run inside the shell (a pipeline, `phone.shell()`), it cannot wait, so it prints the
device list and, with `-c COUNT`, the last COUNT events already received.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..display import HEIGHT, WIDTH
from .base import CommandError, Proc, getopt
from .kernel import uptime_at

if TYPE_CHECKING:
    from ..eventlog import Event
    from ..phone import VirtualPhone

EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT = 0x00
BTN_TOUCH = 0x14A
ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x2F, 0x30, 0x35, 0x36
ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x39, 0x3A
TOUCH_MAX = 32767
INT_MAX = 2147483647
UP, DOWN = 0, 1

TYPE_LABELS = {EV_SYN: "EV_SYN", EV_KEY: "EV_KEY", EV_ABS: "EV_ABS"}
ABS_LABELS = {
    ABS_MT_SLOT: "ABS_MT_SLOT",
    ABS_MT_TOUCH_MAJOR: "ABS_MT_TOUCH_MAJOR",
    ABS_MT_POSITION_X: "ABS_MT_POSITION_X",
    ABS_MT_POSITION_Y: "ABS_MT_POSITION_Y",
    ABS_MT_TRACKING_ID: "ABS_MT_TRACKING_ID",
    ABS_MT_PRESSURE: "ABS_MT_PRESSURE",
}
# Linux key codes of the keys the phone knows (its event log names them as Android's KEYCODE_ does).
KEY_CODES = {
    "ESCAPE": ("KEY_ESC", 1), "DEL": ("KEY_BACKSPACE", 14), "TAB": ("KEY_TAB", 15), "ENTER": ("KEY_ENTER", 28),
    "SPACE": ("KEY_SPACE", 57), "PAGE_UP": ("KEY_PAGEUP", 104), "PAGE_DOWN": ("KEY_PAGEDOWN", 109),
    "DPAD_UP": ("KEY_UP", 103), "DPAD_LEFT": ("KEY_LEFT", 105), "DPAD_RIGHT": ("KEY_RIGHT", 106),
    "DPAD_DOWN": ("KEY_DOWN", 108), "MOVE_HOME": ("KEY_HOME", 102), "MOVE_END": ("KEY_END", 107),
    "FORWARD_DEL": ("KEY_DELETE", 111), "VOLUME_MUTE": ("KEY_MUTE", 113), "VOLUME_DOWN": ("KEY_VOLUMEDOWN", 114),
    "VOLUME_UP": ("KEY_VOLUMEUP", 115), "POWER": ("KEY_POWER", 116), "MENU": ("KEY_MENU", 139),
    "SLEEP": ("KEY_SLEEP", 142), "WAKEUP": ("KEY_WAKEUP", 143), "BACK": ("KEY_BACK", 158),
    "MEDIA_PLAY_PAUSE": ("KEY_PLAYPAUSE", 164), "HOME": ("KEY_HOMEPAGE", 172), "MEDIA_PLAY": ("KEY_PLAY", 207),
    "MEDIA_PAUSE": ("KEY_PAUSECD", 201), "CAMERA": ("KEY_CAMERA", 212), "SEARCH": ("KEY_SEARCH", 217),
    "APP_SWITCH": ("KEY_APPSELECT", 580), "NOTIFICATION": ("KEY_NOTIFICATION_CENTER", 444),
    "CTRL_LEFT": ("KEY_LEFTCTRL", 29), "SHIFT_LEFT": ("KEY_LEFTSHIFT", 42),
    **{d: (f"KEY_{d}", 11 if d == "0" else int(d) + 1) for d in "0123456789"},
    **{c: (f"KEY_{c}", code) for row, first in (("QWERTYUIOP", 16), ("ASDFGHJKL", 30), ("ZXCVBNM", 44))
       for code, c in enumerate(row, first)},
}  # fmt: skip
KEY_LABELS = {code: label for label, code in KEY_CODES.values()} | {BTN_TOUCH: "BTN_TOUCH"}
TAP_MS, LONG_PRESS_MS, SWIPE_MS, KEY_MS = 60, 1000, 300, 40  # how long each gesture holds the touch/key
SWIPE_STEPS = 10
USAGE = "Usage: getevent [-t] [-n] [-s switchmask] [-S] [-v [mask]] [-d] [-p] [-i] [-l] [-q] [-c count] [-r] [device]"


@dataclass(frozen=True)
class InputDevice:
    path: str
    name: str
    keys: tuple[int, ...]
    axes: tuple[tuple[int, int], ...]  # (code, max); min is 0
    direct: bool  # INPUT_PROP_DIRECT: a touchscreen


KEYBOARD = InputDevice(
    "/dev/input/event0", "qwerty2", tuple(sorted({c for _, c in KEY_CODES.values()})), (), False
)
TOUCH = InputDevice(
    "/dev/input/event1",
    "virtio_input_multi_touch_1",
    (BTN_TOUCH,),
    ((ABS_MT_SLOT, 9), (ABS_MT_TOUCH_MAJOR, INT_MAX), (ABS_MT_POSITION_X, TOUCH_MAX),
     (ABS_MT_POSITION_Y, TOUCH_MAX), (ABS_MT_TRACKING_ID, 65535), (ABS_MT_PRESSURE, INT_MAX)),
    True,
)  # fmt: skip
DEVICES = (KEYBOARD, TOUCH)

KernelEvent = tuple[int, InputDevice, int, int, int]  # (device_ms, device, type, code, value)


@dataclass
class Options:
    labels: bool = False
    timestamps: bool = False
    quiet: bool = False
    possible: bool = False
    count: int | None = None
    devices: tuple[InputDevice, ...] = DEVICES


def parse_options(args: list[str]) -> Options:
    try:
        opts, operands = getopt("getevent", args, "tnSdpilqr", "scv")
    except CommandError:
        raise CommandError(USAGE) from None
    if len(operands) > 1:
        raise CommandError(USAGE)
    devices: tuple[InputDevice, ...] = DEVICES
    if operands:
        devices = tuple(d for d in DEVICES if d.path == operands[0])
        if not devices:
            raise CommandError(f"could not open {operands[0]}, No such file or directory")
    count = None
    if "c" in opts:
        try:
            count = int(opts["c"][-1])
        except ValueError:
            raise CommandError(USAGE) from None
    return Options(
        labels="l" in opts,
        timestamps="t" in opts,
        quiet="q" in opts,
        possible="p" in opts or "i" in opts,
        count=count,
        devices=devices,
    )


# -- devices ----------------------------------------------------------------------------------------------
def device_lines(options: Options, possible: bool) -> list[str]:
    """`add device N: PATH` and its name, and with -p what each device can report, as getevent prints."""
    out = []
    for n, device in enumerate(options.devices, 1):
        out += [f"add device {n}: {device.path}", f'  name:     "{device.name}"']
        if possible:
            out += ["  events:", *_possible(device, options.labels), "  input props:"]
            out.append("    INPUT_PROP_DIRECT" if device.direct else "    <none>")
    return out


def _possible(device: InputDevice, labels: bool) -> list[str]:
    lines: list[str] = []
    per_line = 4 if labels else 8
    for n, code in enumerate(device.keys):
        name = f" {KEY_LABELS[code]:<20.20} " if labels else f" {code:04x} "
        if n == 0:
            lines.append(f"    KEY ({EV_KEY:04x}):{name}")
        elif n % per_line == 0:
            lines.append(f"               {name}")
        else:
            lines[-1] += name
    for n, (code, maximum) in enumerate(device.axes):
        name = f" {ABS_LABELS[code]:<20.20} " if labels else f" {code:04x} "
        info = f" : value 0, min 0, max {maximum}, fuzz 0, flat 0, resolution 0"
        lines.append(("    ABS (0003):" if n == 0 else "               ") + name + info)
    return lines


# -- events ---------------------------------------------------------------------------------------------
def kernel_events(event: Event) -> list[KernelEvent]:
    """The evdev events one logged input produced (nothing for other log entries)."""
    data, end = event.data, event.t_ms
    if event.kind in ("tap", "long_press"):
        held = TAP_MS if event.kind == "tap" else LONG_PRESS_MS
        return _touch(event.seq, [(end - held, data["x"], data["y"])], end)
    if event.kind == "swipe":
        x1, y1, x2, y2 = data["x1"], data["y1"], data["x2"], data["y2"]
        path = [
            (end - SWIPE_MS + SWIPE_MS * i // SWIPE_STEPS, x1 + (x2 - x1) * i / SWIPE_STEPS, y1 + (y2 - y1) * i / SWIPE_STEPS)
            for i in range(SWIPE_STEPS + 1)
        ]  # fmt: skip
        return _touch(event.seq, path, end)
    if event.kind == "key" and data.get("key") in KEY_CODES:
        code = KEY_CODES[data["key"]][1]
        return [
            (end - KEY_MS, KEYBOARD, EV_KEY, code, DOWN),
            (end - KEY_MS, KEYBOARD, EV_SYN, SYN_REPORT, 0),
            (end, KEYBOARD, EV_KEY, code, UP),
            (end, KEYBOARD, EV_SYN, SYN_REPORT, 0),
        ]
    return []


def _touch(tracking_id: int, path: list[tuple[int, float, float]], up_ms: int) -> list[KernelEvent]:
    """One finger down at path[0], moved through the rest of the (ms, x, y) points, lifted at up_ms."""
    out: list[KernelEvent] = []
    last = (-1, -1)
    for n, (ms, x, y) in enumerate(path):
        raw = (round(x * TOUCH_MAX / (WIDTH - 1)), round(y * TOUCH_MAX / (HEIGHT - 1)))
        if n == 0:
            out.append((ms, TOUCH, EV_ABS, ABS_MT_TRACKING_ID, tracking_id & 0xFFFF))
        if raw[0] != last[0]:
            out.append((ms, TOUCH, EV_ABS, ABS_MT_POSITION_X, raw[0]))
        if raw[1] != last[1]:
            out.append((ms, TOUCH, EV_ABS, ABS_MT_POSITION_Y, raw[1]))
        if n == 0:
            out.append((ms, TOUCH, EV_KEY, BTN_TOUCH, DOWN))
        if n == 0 or raw != last:
            out.append((ms, TOUCH, EV_SYN, SYN_REPORT, 0))
        last = raw
    out += [
        (up_ms, TOUCH, EV_ABS, ABS_MT_TRACKING_ID, 0xFFFFFFFF),
        (up_ms, TOUCH, EV_KEY, BTN_TOUCH, UP),
        (up_ms, TOUCH, EV_SYN, SYN_REPORT, 0),
    ]
    return out


def event_line(phone: VirtualPhone, event: KernelEvent, options: Options) -> str:
    """One line as getevent prints it: [timestamp] device: type code value, labelled with -l."""
    ms, device, kind, code, value = event
    line = ""
    if options.timestamps:
        seconds = max(0.0, uptime_at(phone, ms))
        line += f"[{int(seconds):8d}.{round(seconds % 1 * 1_000_000) % 1_000_000:06d}] "
    if len(options.devices) > 1:
        line += f"{device.path}: "
    if not options.labels:
        return line + f"{kind:04x} {code:04x} {value & 0xFFFFFFFF:08x}"
    labels = {EV_KEY: KEY_LABELS, EV_ABS: ABS_LABELS, EV_SYN: {SYN_REPORT: "SYN_REPORT"}}[kind]
    line += f"{TYPE_LABELS[kind]:<12.12} {labels[code]:<20.20}"
    value_label = {DOWN: "DOWN", UP: "UP"}.get(value) if kind == EV_KEY else None
    return line + (f" {value_label:<20.20}" if value_label else f" {value & 0xFFFFFFFF:08x}            ")


def _events(logged: list[Event], options: Options) -> list[KernelEvent]:
    wanted = set(options.devices)
    return [k for event in logged for k in kernel_events(event) if k[1] in wanted]


@dataclass
class GeteventStream:
    """A `getevent` running on an open ADB stream: prints the events logged after it started."""

    options: Options
    log: list[Event]  # the phone's event list when it started (a reset starts a new one)
    seen: int
    printed: int = 0

    def header(self) -> bytes:
        lines = [] if self.options.quiet else device_lines(self.options, possible=False)
        return "".join(line + "\n" for line in lines).encode()

    def poll(self, phone: VirtualPhone) -> tuple[bytes, bool]:
        """(lines for the events since the last poll, whether it has printed its -c COUNT)."""
        if phone.events is not self.log:  # the phone was reset: its input starts over
            self.log, self.seen = phone.events, 0
        fresh = self.log[self.seen :]
        self.seen = len(self.log)
        lines = [event_line(phone, k, self.options) for k in _events(fresh, self.options)]
        if self.options.count is not None:
            lines = lines[: self.options.count - self.printed]
        self.printed += len(lines)
        done = self.options.count is not None and self.printed >= self.options.count
        return "".join(line + "\n" for line in lines).encode(), done


def stream(phone: VirtualPhone, argv: list[str]) -> GeteventStream | None:
    """A streaming getevent for a command line that is exactly `getevent [OPTIONS]` watching events
    (not -p, not a bad option): the ADB shell service runs it while the stream stays open."""
    if not argv or argv[0].rsplit("/", 1)[-1] != "getevent":
        return None
    try:
        options = parse_options(argv[1:])
    except CommandError:
        return None
    if options.possible or options.count == 0:
        return None
    return GeteventStream(options, phone.events, len(phone.events))


def getevent(p: Proc, args: list[str]) -> int:
    """In the shell: the device list (with -p what each reports) and, with -c COUNT, the last COUNT
    events already received; see the module docstring for the streaming form."""
    options = parse_options(args)
    if options.possible:
        p.lines(device_lines(options, possible=True))
        return 0
    if not options.quiet:
        p.lines(device_lines(options, possible=False))
    if options.count:
        events = _events(p.phone.events, options)[-options.count :]
        p.lines([event_line(p.phone, k, options) for k in events])
    return 0


COMMANDS = {"getevent": getevent}
