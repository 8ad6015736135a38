"""`Device`: drives any adb device - emulator, device farm or masbench virtual phone - through adbutils.

It knows nothing about agents or tasks: it observes (screenshot + UI tree + foreground app) and acts
(input, intents, app launches). Every command is an argument list joined with `shlex.join`.
"""

from __future__ import annotations

import contextvars
import io
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Literal, TypeVar

from PIL import Image, UnidentifiedImageError

from . import commands as C
from .address import DeviceAddress, no_adb_spawn
from .apps import labels_for, resolve_app
from .elements import UIElement, parse_ui_dump
from .errors import AppNotFoundError, DeviceCommandError
from .observation import Observation
from .transport import (
    PROBE_TIMEOUT_S,
    SOCKET_TIMEOUT_S,
    CachedVersionClient,
    ShellOutput,
    call_timeout,
    timed_out,
    translate_errors,
)
from .u2 import U2Session
from .virtual import VirtualControls

Kind = Literal["virtual", "emulator", "physical"]
T = TypeVar("T")

DUMP_PATH = "/data/local/tmp/masbench_window_dump.xml"
_SPLIT = "MASBENCH_OBSERVE_SPLIT_7f3a"
_FOCUS_GREP = ["grep", "-E", "mCurrentFocus|mFocusedApp"]
_RESUMED_GREP = ["grep", "-E", "mResumedActivity|topResumedActivity|ResumedActivity:"]
_XML_START = ("<?xml", "<hierarchy")
SCREENCAP_TIMEOUT_S = 30.0


@dataclass
class BroadcastResult:
    """`am broadcast`'s answer: result code and data, when the receiver set them."""

    code: int | None
    data: str | None
    output: str


class Device(VirtualControls):
    """One adb device, addressed by (adb host, adb port, serial).

    Every call has a deadline: each command its own timeout (cut to an episode's deadline when one is
    set), each connection at most `socket_timeout` to be set up. A call that gets no answer asks the device
    for an `echo`; a device silent to that too is lost (`DeviceGoneError`), as if unplugged."""

    def __init__(
        self,
        address: DeviceAddress | str,
        *,
        socket_timeout: float = SOCKET_TIMEOUT_S,
        fast_path: bool | None = None,
    ):
        if isinstance(address, str):
            address = DeviceAddress.parse(address)
        if not address.is_default_local_server:
            no_adb_spawn()  # only the developer's own loopback:5037 server may be auto-started by adb
        self.address = address
        self.serial = address.serial
        self.client = CachedVersionClient(address.host, address.port, socket_timeout)
        self.adb = self.client.device(self.serial)
        self.probe_timeout = min(socket_timeout, PROBE_TIMEOUT_S)
        self._probe = CachedVersionClient(address.host, address.port, self.probe_timeout).device(self.serial)
        self._kind: Kind | None = None
        self._ime_adb_keyboard: bool | None = None
        self._size: tuple[int, int] | None = None
        self._apps: dict[str, str] | None = None
        # uiautomator2 for the UI hierarchy: on real devices when installed (None), always, or never
        self.fast_path = fast_path
        self._u2: U2Session | None = None
        self._u2_tried = False

    def __repr__(self) -> str:
        return f"Device({str(self.address)!r})"

    def close(self) -> None:
        """Nothing to release: every call opens and closes its own connections, and an observation's
        helper thread ends with it. Kept so a Device is released like the phones it may come from."""

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- shell -------------------------------------------------------------------------------------
    def _alive(self) -> bool:
        """Does the device answer `echo` within `probe_timeout`, whatever deadline the failed call had?"""
        try:
            answer: str = self._probe.shell2("echo ok", timeout=self.probe_timeout).output
            return answer.strip() == "ok"
        except Exception:
            return False

    def shell(self, cmd: str | Sequence[str], timeout: float = 60, check: bool = False) -> ShellOutput:
        """Run a shell command; a list is quoted argument by argument. `check` raises on non-zero exit."""
        line = cmd if isinstance(cmd, str) else C.join(cmd)
        with translate_errors(str(self.address), line, self._alive):
            result = self.adb.shell2(line, timeout=call_timeout(timeout))
        out = ShellOutput(result.output, result.returncode)
        if check and out.exit_code != 0:
            raise DeviceCommandError(line, out.output, out.exit_code)
        return out

    def shell_bytes(self, cmd: str | Sequence[str], timeout: float = 60) -> bytes:
        """Raw stdout bytes (no exit status), for binary output such as `screencap -p`."""
        line = cmd if isinstance(cmd, str) else C.join(cmd)
        with translate_errors(str(self.address), line, self._alive):
            output: bytes = self.adb.shell(line, timeout=call_timeout(timeout), encoding=None)
        return output

    def _run(self, args: Sequence[str], timeout: float = 60) -> ShellOutput:
        """Run and fail loudly: non-zero exit or Android's `Error:`/exception text."""
        out = self.shell(args, timeout=timeout)
        error = C.am_error(out.output)
        if out.exit_code != 0 or error:
            raise DeviceCommandError(C.join(args), out.output, out.exit_code, reason=error or "")
        return out

    # -- identity ----------------------------------------------------------------------------------
    @property
    def kind(self) -> Kind:
        """ "virtual" when `cmd masbench time` answers, else "emulator" or "physical" (cached)."""
        if self._kind is None:
            probe = self.shell(["cmd", "masbench", "time"], timeout=10)
            if probe.exit_code == 0 and probe.output.lstrip().startswith("{"):
                self._kind = "virtual"
            elif self.serial.startswith("emulator-") or self.getprop("ro.kernel.qemu") == "1":
                self._kind = "emulator"
            else:
                self._kind = "physical"
        return self._kind

    @property
    def is_virtual(self) -> bool:
        return self.kind == "virtual"

    def getprop(self, name: str) -> str:
        return self.shell(["getprop", name], timeout=10).output.strip()

    def state(self) -> str:
        """adb's state for the serial (`device`, `offline`, ...); DeviceGoneError when it is not listed."""
        with translate_errors(str(self.address), "get-state", self._alive):
            state: str = self.adb.get_state()
        return state

    # -- observation -------------------------------------------------------------------------------
    def screenshot_png(self) -> bytes:
        return self.shell_bytes(["screencap", "-p"], timeout=SCREENCAP_TIMEOUT_S)

    def screenshot(self) -> Image.Image:
        return _decode_png(self.screenshot_png(), self.address)[0]

    def observe(self, screenshot: bool = True) -> Observation:
        """Screenshot + UI dump + foreground app in two concurrent round trips.

        With `screenshot=False` (a text-only agent whose run saves no screens) the screenshot is not
        taken at all: on a virtual phone that skips rendering and PNG encoding, most of an observation.

        The screenshot (binary, `screencap -p`) and one text command - `uiautomator dump` to a file and
        `cat` it back, then the focus lines of `dumpsys window` - run on two adb connections at once.
        Dump-then-cat works on every Android version (the `/dev/tty` trick does not) and saves the sync
        round trip a pull would cost. The width and height come from the screenshot itself, so they
        follow rotation; the element bounds are clipped to them. The screenshot is waited for no longer
        than its own timeout allows; when the dump fails it is not waited for at all.
        """
        start, t0 = time.time(), time.perf_counter()
        if screenshot:
            shot = _in_background(self.screenshot_png, f"observe-{self.serial}")
            xml, focus_text = self._dump_and_focus()
            try:
                png = shot.result(timeout=call_timeout(SCREENCAP_TIMEOUT_S) + self.probe_timeout)
            except FutureTimeout:
                raise timed_out(str(self.address), "screencap -p", self._alive) from None
            t_io = time.perf_counter()
            image, width, height = _decode_png(png, self.address)
        else:
            xml, focus_text = self._dump_and_focus()
            t_io = time.perf_counter()
            png, image, (width, height) = b"", None, self.screen_size()
        t_png = time.perf_counter()
        elements = parse_ui_dump(xml, screen=(width, height))
        focus = C.parse_focus(focus_text) or self._focus_fallback()
        if focus is None:
            package = next((el.package for el in elements if el.package), "")
            focus = (package, "")
        end = time.perf_counter()
        return Observation(
            screenshot=image,
            screenshot_png=png,
            xml=xml,
            elements=elements,
            package=focus[0],
            activity=focus[1],
            width=width,
            height=height,
            timestamp=start,
            wall_ms=(end - t0) * 1000,
            timings_ms={
                "io": (t_io - t0) * 1000,
                "decode_png": (t_png - t_io) * 1000,
                "parse": (end - t_png) * 1000,
            },
        )

    @property
    def path(self) -> Literal["uiautomator2", "adb"]:
        """How the UI hierarchy is read: uiautomator2's resident server, or `uiautomator dump` over adb."""
        return "uiautomator2" if self._session() is not None else "adb"

    def _session(self) -> U2Session | None:
        """The uiautomator2 session, started on first use when the fast path applies."""
        if not self._u2_tried:
            self._u2_tried = True
            wanted = self.fast_path if self.fast_path is not None else not self.is_virtual
            self._u2 = U2Session.start(self.adb) if wanted else None
        return self._u2

    def _dump_and_focus(self, attempts: int = 3) -> tuple[str, str]:
        session = self._session()
        if session is not None:
            return session.dump(), self.shell(
                C.join(["dumpsys", "window", "windows"]) + " | " + C.join(_FOCUS_GREP)
            ).output
        line = "; ".join(
            [
                C.join(["rm", "-f", DUMP_PATH]),
                C.join(["uiautomator", "dump", DUMP_PATH]) + " 2>&1 && " + C.join(["cat", DUMP_PATH]),
                "echo",
                C.join(["echo", _SPLIT]),
                C.join(["dumpsys", "window", "windows"]) + " | " + C.join(_FOCUS_GREP),
            ]
        )
        output = ""
        for attempt in range(attempts):
            output = self.shell(line, timeout=30).output
            dump_part, _, focus_part = output.rpartition(_SPLIT)
            starts = [i for i in (dump_part.find(s) for s in _XML_START) if i >= 0]
            if starts:
                return dump_part[min(starts) :].strip(), focus_part
            if attempt + 1 < attempts:
                time.sleep(0.3 * (attempt + 1))  # "could not get idle state" during animations
        raise DeviceCommandError(line, output, None, reason="uiautomator dump produced no XML")

    def ui_dump(self) -> str:
        """The raw uiautomator XML of the current screen."""
        return self._dump_and_focus()[0]

    def elements(self) -> list[UIElement]:
        return parse_ui_dump(self.ui_dump(), screen=self.screen_size())

    def _focus_fallback(self) -> tuple[str, str] | None:
        line = C.join(["dumpsys", "activity", "activities"]) + " | " + C.join(_RESUMED_GREP)
        return C.parse_focus(self.shell(line, timeout=15).output)

    def foreground(self) -> tuple[str, str]:
        """(package, activity) of the focused app."""
        line = C.join(["dumpsys", "window", "windows"]) + " | " + C.join(_FOCUS_GREP)
        found = C.parse_focus(self.shell(line, timeout=15).output) or self._focus_fallback()
        if found is None:
            raise DeviceCommandError(line, "", None, reason="could not find the foreground activity")
        return found

    def screen_size(self) -> tuple[int, int]:
        """(width, height) from `wm size`, cached per device."""
        if self._size is None:
            out = self.shell(["wm", "size"], timeout=10)
            size = C.parse_wm_size(out.output)
            if size is None:
                raise DeviceCommandError("wm size", out.output, out.exit_code, reason="no size in the answer")
            self._size = size
        return self._size

    # -- gestures and keys -------------------------------------------------------------------------
    def tap(self, x: float, y: float) -> None:
        self._run(["input", "tap", *_coords(x, y)])

    def tap_element(self, element: UIElement) -> None:
        self.tap(*element.center)

    def long_press(self, x: float, y: float, ms: int = 1000) -> None:
        px, py = _coords(x, y)
        self._run(["input", "swipe", px, py, px, py, str(int(ms))])

    def swipe(self, x1: float, y1: float, x2: float, y2: float, ms: int = 300) -> None:
        self._run(["input", "swipe", *_coords(x1, y1), *_coords(x2, y2), str(int(ms))])

    def scroll(self, direction: str, element: UIElement | None = None, ms: int = 400) -> None:
        """Scroll so content further `direction` comes into view ("down": the finger moves up).

        Inside `element`'s bounds, or around the screen centre when no element is given.
        """
        if element is not None:
            region = element.bounds
        else:
            w, h = self.screen_size()
            region = (w // 6, h // 6, w - w // 6, h - h // 6)  # keep clear of status and nav bars
        self.swipe(*C.scroll_gesture(direction, region), ms=ms)

    def keyevent(self, name: str | int) -> None:
        """`input keyevent`; accepts ``back``, ``KEYCODE_BACK`` or a key code number."""
        key = C.keycode(name)
        self._run(["input", "keyevent", key])

    def back(self) -> None:
        self.keyevent("BACK")

    def home(self) -> None:
        self.keyevent("HOME")

    def enter(self) -> None:
        self.keyevent("ENTER")

    # -- text --------------------------------------------------------------------------------------
    @property
    def has_adb_keyboard(self) -> bool:
        """Is ADBKeyboard the default IME? (cached; reset() forgets it)"""
        if self._ime_adb_keyboard is None:
            out = self.shell(["settings", "get", "secure", "default_input_method"], timeout=10)
            self._ime_adb_keyboard = C.uses_adb_keyboard(out.output)
        return self._ime_adb_keyboard

    def type_text(self, text: str) -> None:
        """Type into the focused field: any Unicode via ADBKeyboard, else printable ASCII via `input text`."""
        if not text:
            return
        if self.has_adb_keyboard:
            self._run(C.adb_keyboard_text_args(text))
        else:
            self._run(C.input_text_args(text))

    def clear_text(self) -> None:
        """Empty the focused field: ADBKeyboard's clear broadcast, else select-all + delete."""
        if self.has_adb_keyboard:
            self._run(["am", "broadcast", "-a", "ADB_CLEAR_TEXT"])
            return
        combo = self.shell(["input", "keycombination", "KEYCODE_CTRL_LEFT", "KEYCODE_A"], timeout=10)
        if combo.exit_code == 0 and not C.am_error(combo.output):
            self._run(["input", "keyevent", "KEYCODE_DEL"])
        else:  # before Android 13 there is no keycombination: go to the end and delete backwards
            self._run(["input", "keyevent", "KEYCODE_MOVE_END", *["KEYCODE_DEL"] * 80])

    # -- apps and intents --------------------------------------------------------------------------
    def installed_apps(self, refresh: bool = False) -> dict[str, str]:
        """package → label of launchable apps (labels from the phone, or the built-in table)."""
        if self._apps is None or refresh:
            self._apps = self._list_apps()
        return self._apps

    def _list_apps(self) -> dict[str, str]:
        if self.is_virtual:
            apps = self._masbench("apps", lines=True)
            return {str(a["package"]): str(a.get("label") or "") for a in apps if a.get("in_launcher", True)}
        out = self.shell(["pm", "list", "packages"], timeout=30, check=True)
        packages = [
            ln.strip().removeprefix("package:") for ln in out.output.splitlines() if ln.startswith("package:")
        ]
        return labels_for(packages)

    def resolve_app(self, name: str) -> str:
        """The package `name` means; AppNotFoundError lists candidates when unknown or ambiguous."""
        try:
            return resolve_app(name, self.installed_apps())
        except AppNotFoundError:  # maybe installed since we listed: look once more
            return resolve_app(name, self.installed_apps(refresh=True))

    def open_app(self, name: str) -> str:
        """Launch an app by human name or package, as its launcher icon would; returns the package."""
        package = self.resolve_app(name)
        self._run(["monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1"], timeout=30)
        return package

    def stop_app(self, package: str) -> None:
        self._run(["am", "force-stop", package])

    def open_uri(self, uri: str, package: str | None = None) -> ShellOutput:
        """`am start -W -a VIEW -d URI [-p PKG]`: a deep link, in `package` when given."""
        return self.start_intent(action="android.intent.action.VIEW", data=uri, package=package)

    def start_intent(
        self,
        action: str | None = None,
        data: str | None = None,
        component: str | None = None,
        package: str | None = None,
        categories: Sequence[str] = (),
        extras: Mapping[str, C.ExtraValue] | None = None,
        mime_type: str | None = None,
        wait: bool = True,
    ) -> ShellOutput:
        """`am start` with typed extras; raises DeviceCommandError when Android does not start it."""
        args = C.am_start_args(action, data, component, package, categories, extras, mime_type, wait)
        return self._run(args, timeout=30)

    def broadcast(
        self, action: str, extras: Mapping[str, C.ExtraValue] | None = None, package: str | None = None
    ) -> BroadcastResult:
        out = self._run(C.broadcast_args(action, extras, package), timeout=30)
        code, data = C.parse_broadcast(out.output)
        return BroadcastResult(code, data, out.output)

    def wait(self, seconds: float) -> None:
        """Let the device wait: `sleep` runs on the device, so a virtual phone advances its modelled
        clock at once instead of burning wall time, and a real device really waits."""
        if seconds < 0:
            raise ValueError(f"wait needs a non-negative number of seconds, got {seconds}")
        if seconds > 0:
            self._run(["sleep", f"{seconds:.3f}".rstrip("0").rstrip(".")], timeout=seconds + 30)


def _in_background(call: Callable[[], T], name: str) -> Future[T]:
    """`call()` on a daemon thread, under the caller's deadline: a call abandoned on a frozen device
    must not keep the process from exiting (a pool's worker threads are joined at exit)."""
    future: Future[T] = Future()
    context = contextvars.copy_context()

    def run() -> None:
        try:
            future.set_result(context.run(call))
        except BaseException as exc:  # handed to the waiting caller, who re-raises it
            future.set_exception(exc)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future


def _coords(x: float, y: float) -> list[str]:
    if x < 0 or y < 0:
        raise ValueError(f"coordinates must be non-negative, got ({x}, {y})")
    return [str(round(x)), str(round(y))]


def _decode_png(png: bytes, where: object) -> tuple[Image.Image, int, int]:
    """Open `screencap -p` output as an RGB image; old PTY shells turn LF into CRLF, so try undoing that.

    An RGB PNG (the virtual phone's) is returned unloaded: Pillow has checked the signature and header
    and decodes the pixels on first use, which saves ~40 ms per observation for agents that only read
    the UI tree. Other modes (real devices send RGBA) are decoded and converted here.
    """
    for data in (png, png.replace(b"\r\n", b"\n")):
        try:
            image: Image.Image = Image.open(io.BytesIO(data), formats=["PNG"])
            if image.mode != "RGB":
                image = image.convert("RGB")
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
            continue
        return image, image.width, image.height
    head = png[:120].decode("utf-8", errors="replace")
    raise DeviceCommandError("screencap -p", head, None, reason=f"{where}: screencap did not return a PNG")
