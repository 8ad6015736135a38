"""The virtual phone's model: system state, back stack, input dispatch, intents, time and the event log.

No protocol code lives here: the ADB server (adb_server.py) and the shell (shell.py) drive this object
through its public methods, and nothing outside `masbench/vphone` imports it. Its apps and its shell are
handed to it (build.py's `build_phone`), so the model imports neither the app registry nor the shell.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from . import keyboard, render, textmenu, uidump
from .app import Activity, App, AppContext, Screen
from .display import DENSITY, HEIGHT, NAV_BAR_H, STATUS_BAR_H, WIDTH, Frame
from .eventlog import Event
from .fs import VirtualFS
from .intents import (
    ACTION_MAIN,
    ACTION_VIEW,
    CATEGORY_BROWSABLE,
    CATEGORY_DEFAULT,
    CATEGORY_HOME,
    CATEGORY_LAUNCHER,
    Intent,
)
from .theme import use_theme
from .ui import EDIT, Node, hit, layout

DEFAULT_CLOCK = datetime(2025, 6, 2, 9, 30, tzinfo=UTC)
LONG_PRESS_MS = 500
CLOCK_FIELDS = ("clock", "device_ms")  # snapshot fields that move with every command, input or not
TAP_SLOP = 24

# Modelled latency of each operation on a Pixel 7 / API 35 emulator, in milliseconds.
LATENCY_MS = {
    "tap": 350,
    "long_press": 900,
    "swipe": 450,
    "key": 250,
    "text_base": 200,
    "text_char": 30,
    "launch": 1400,
    "start": 900,
    "broadcast": 150,
    "screencap": 180,
    "uidump": 900,
    "shell": 40,
}

ADB_KEYBOARD_IME = "com.android.adbkeyboard/.AdbIME"
IMES = (ADB_KEYBOARD_IME, "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME")
SETTINGS_TABLE = Path(__file__).with_name("settings_defaults.yaml")
# The settings provider's tables as a fresh AVD has them (data, not code: settings_defaults.yaml).
DEFAULT_SETTINGS: dict[str, dict[str, str]] = {
    namespace: {key: str(value) for key, value in table.items()}
    for namespace, table in yaml.safe_load(SETTINGS_TABLE.read_text(encoding="utf-8")).items()
}


def default_settings(serial: str) -> dict[str, dict[str, str]]:
    """A fresh copy of the tables; secure/android_id is per device on Android (64 bits, hex), so it comes
    from the serial: stable across resets and reboots, different between phones."""
    tables = {namespace: dict(table) for namespace, table in DEFAULT_SETTINGS.items()}
    tables["secure"]["android_id"] = hashlib.sha256(f"android_id:{serial}".encode()).hexdigest()[:16]
    return tables


PROPS = {
    "ro.product.model": "sdk_gphone64_x86_64",
    "ro.product.name": "sdk_gphone64_x86_64",
    "ro.product.device": "emu64xa",
    "ro.product.brand": "google",
    "ro.product.manufacturer": "Google",
    "ro.product.cpu.abi": "x86_64",
    "ro.product.cpu.abilist": "x86_64,arm64-v8a",
    "ro.build.version.sdk": "35",
    "ro.build.version.release": "15",
    "ro.build.version.security_patch": "2025-03-05",
    "ro.build.id": "AE3A.240806.043",
    "ro.build.version.incremental": "12960925",
    "ro.build.display.id": "AE3A.240806.043",
    # A Google Play image is a production (user, release-keys) build: no root, not debuggable.
    "ro.build.type": "user",
    "ro.build.tags": "release-keys",
    "ro.build.characteristics": "emulator",
    "ro.build.fingerprint": "google/sdk_gphone64_x86_64/emu64xa:15/AE3A.240806.043/12960925:user/release-keys",
    "ro.kernel.qemu": "1",
    "ro.boot.qemu.avd_name": "Pixel_7_API_35",
    "ro.hardware": "ranchu",
    "ro.sf.lcd_density": str(DENSITY),
    "ro.debuggable": "0",
    "ro.secure": "1",
    "ro.adb.secure": "1",
    "sys.boot_completed": "1",
    "dev.bootcomplete": "1",
    "persist.sys.timezone": "UTC",
    "persist.sys.locale": "en-US",
}


@dataclass
class ShellResult:
    """What one shell command line produced: stdout, stderr and the exit status of its last command."""

    stdout: bytes = b""
    stderr: bytes = b""
    exit_code: int = 0


# How the phone runs a shell command line (shell.run_shell, injected so the model sits below the shell).
ShellRunner = Callable[["VirtualPhone", str], ShellResult]


class VirtualPhone:
    """A deterministic Pixel 7 (1080x2400, 420 dpi, Android 15) with simulated apps."""

    width, height, density = WIDTH, HEIGHT, DENSITY

    def __init__(
        self,
        serial: str,
        apps: list[App],
        run_shell: ShellRunner,
        seed: int = 0,
        clock: datetime | None = None,
    ) -> None:
        """`apps` and `run_shell` come from above this layer (build.py's `build_phone` hands over the
        registry's apps and shell.py's shell)."""
        self.serial = serial
        self.apps: dict[str, App] = {a.package: a for a in apps}
        self.run_shell = run_shell
        self.lock = threading.RLock()  # the ADB server may call in from several connections
        self.props = dict(PROPS, **{"ro.serialno": serial})
        self.tcp_services: dict[int, str] = {}  # device ports a started server listens on (uiautomator2's)
        self.reset(seed, clock)

    # -- reset and time ------------------------------------------------------------------------------
    def reset(self, seed: int = 0, clock: datetime | None = None) -> None:
        """Restore the exact initial state for (seed, clock): the virtual counterpart of an AVD snapshot."""
        with self.lock:
            self.seed = seed
            self.boot_clock = (clock or DEFAULT_CLOCK).astimezone(UTC)
            self.device_ms = 0  # modelled time since reset
            self.events: list[Event] = []
            self.fs = VirtualFS(now=lambda: int(self.now().timestamp()))
            self.settings = default_settings(self.serial)
            self.clipboard = ""
            self.toasts: list[str] = []
            self.stack: list[Screen] = []
            self.app_states: dict[str, dict[str, Any]] = {}
            self.running: set[str] = set()
            for package, app in sorted(self.apps.items()):
                rng = random.Random(f"{seed}:{package}")
                self.app_states[package] = app.initial_state(rng, self.now())
            self._frame: Frame | None = None
            self._changed_ms = 0
            self.go_home(log=False)

    def now(self) -> datetime:
        return self.clock_at(self.device_ms)

    def clock_at(self, device_ms: int) -> datetime:
        """The wall clock the phone shows at a device time."""
        return self.boot_clock + timedelta(milliseconds=device_ms)

    def advance(self, kind: str, extra_ms: int = 0) -> None:
        self.device_ms += LATENCY_MS[kind] + extra_ms

    def log(self, kind: str, **data: Any) -> None:
        self.events.append(Event(len(self.events), self.device_ms, kind, data))

    def invalidate(self) -> None:
        """The screen changed: the next frame is composed anew and shows this moment's device time. Stamping
        it here, not when a screencap or dump first asks for it, keeps screens a function of what was done to
        the phone: an observation's two concurrent requests reach the phone in either order, each advancing
        its clock, and a toast must not show or not by which came first."""
        self._frame = None
        self._changed_ms = self.device_ms

    # -- apps and the back stack ---------------------------------------------------------------------
    @property
    def home_package(self) -> str:
        return next(
            p
            for p, a in self.apps.items()
            if any(CATEGORY_HOME in f.categories for act in a.activities for f in act.filters)
        )

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def context(self, package: str) -> AppContext:
        top = next((s for s in reversed(self.stack) if s.package == package), None)
        return AppContext(self, self.apps[package], top)

    def push_screen(self, screen: Screen) -> None:
        if self.stack:
            self.stack[-1].ui.pop("focus", None)
            self.stack[-1].ui.pop(textmenu.KEY, None)
        self.stack.append(screen)
        self.running.add(screen.package)
        self.invalidate()

    def pop_screen(self) -> Screen | None:
        self.invalidate()
        return self.stack.pop() if len(self.stack) > 1 else None

    def go_home(self, log: bool = True) -> None:
        """Show the home screen; apps' screens stay beneath it (their tasks), for Recents and relaunches."""
        home = self.apps[self.home_package]
        activity = home.launcher_activity or home.activities[0]
        tasks = [s for s in self.stack if s.package != home.package]
        self.stack = [*tasks, Screen(home.package, activity.cls, activity.screen)]
        self.invalidate()
        if log:
            self.log("home")

    @property
    def at_home(self) -> bool:
        """The home screen itself is in front (Back does nothing there)."""
        home = self.apps[self.home_package]
        return (
            self.top.package == home.package
            and self.top.name == (home.launcher_activity or home.activities[0]).screen
        )

    def recent_apps(self) -> list[str]:
        """Packages with screens on the stack, most recent first (what Recents shows; home and the
        platform's own screens, such as an open share sheet, aside)."""
        seen: list[str] = []
        for screen in reversed(self.stack):
            app = self.apps[screen.package]
            if screen.package not in seen and screen.package != self.home_package and not app.platform:
                seen.append(screen.package)
        return seen

    def show_recents(self) -> None:
        """The overview (KEYCODE_APP_SWITCH or the nav bar's square): the launcher's Recents screen."""
        if self.top.package == self.home_package and self.top.name == "recents":
            return
        home = self.apps[self.home_package]
        activity = home.launcher_activity or home.activities[0]
        self.push_screen(Screen(home.package, activity.cls, "recents"))
        self.log("recents")

    def resume(self, package: str) -> None:
        """Bring an app's task to front as it was left (a Recents card, a launcher start)."""
        if self.top.package == self.home_package and self.top.name == "recents":
            self.stack.pop()
        mine = [s for s in self.stack if s.package == package]
        self.stack = [s for s in self.stack if s.package != package] + mine
        self.invalidate()

    def clear_recents(self) -> None:
        """Recents' Clear all: every app's task ends (their data stays), home shows."""
        for package in self.recent_apps():
            self.running.discard(package)
        self.stack = []
        self.go_home(log=False)
        self.log("clear_recents")

    def back(self) -> None:
        """Android's Back: close the keyboard, then a dialog, then pop the screen (home stays)."""
        top = self.top
        if top.ui.pop(textmenu.KEY, None):
            pass
        elif top.ui.get("focus"):
            top.ui.pop("focus")
        elif top.ui.get("dialog"):
            AppContext(self, self.apps[top.package], top).close()
        elif self.apps[top.package].on_back(AppContext(self, self.apps[top.package], top)):
            pass
        elif len(self.stack) > 1 and not self.at_home:
            self.stack.pop()
        self.invalidate()
        self.log("back")

    def force_stop(self, package: str) -> None:
        """Kill the app's activities; its saved state survives, as app data does on Android."""
        with self.lock:
            self.stack = [s for s in self.stack if s.package != package] or self.stack[:0]
            if not self.stack:
                self.go_home(log=False)
            self.running.discard(package)
            self.invalidate()
            self.log("force_stop", package=package)

    def clear_data(self, package: str) -> bool:
        """`pm clear`: stop the app and regenerate its state from the phone's seed."""
        app = self.apps.get(package)
        if app is None:
            return False
        self.force_stop(package)
        self.app_states[package] = app.initial_state(random.Random(f"{self.seed}:{package}"), self.now())
        return True

    # -- intents -------------------------------------------------------------------------------------
    def resolve_activity(self, intent: Intent) -> tuple[App, Activity] | None:
        """The (app, activity) an intent starts, following Android 12+ rules for web links."""
        explicit = intent.component_parts()
        if explicit:
            app = self.apps.get(explicit[0])
            activity = app.activity(explicit[1]) if app else None
            return (app, activity) if app and activity else None
        categories = list(intent.categories)
        if CATEGORY_DEFAULT not in categories and CATEGORY_LAUNCHER not in categories:
            categories.append(CATEGORY_DEFAULT)  # startActivity adds DEFAULT to implicit intents
        probe = Intent(intent.action, intent.data, intent.mime_type, categories, intent.package)
        candidates = [
            (app, act)
            for app in self.apps.values()
            if intent.package in (None, app.package)
            for act in app.activities
            if act.exported and any(f.matches(probe) for f in act.filters)
        ]
        if not candidates:
            return None
        web = (intent.data or "").lower().startswith(("http://", "https://"))
        if web and intent.package is None and len(candidates) > 1:
            # Unverified app links open in the browser; only a verified one goes straight to its app.
            verified = [
                c for c in candidates if any(f.auto_verify and f.matches(probe) for f in c[1].filters)
            ]
            browsers = [c for c in candidates if _is_browser(c[1])]
            candidates = verified or browsers or candidates
        return candidates[0]

    def start_activity(self, intent: Intent) -> str | None:
        """`am start`: returns None on success or Android's error text."""
        with self.lock:
            target = self.resolve_activity(intent)
            if target is None:
                return f"Error: Activity not started, unable to resolve {intent.short_string()}"
            app, activity = target
            if intent.action == ACTION_MAIN and CATEGORY_HOME in intent.categories:
                self.go_home()
                return None
            cold = app.package not in self.running
            ctx = AppContext(self, app, None)
            try:
                screen = app.open(ctx, activity, intent)
            except Exception as exc:  # an app that chokes on hostile intent data crashes, not the phone
                self.log("crash", package=app.package, error=f"{type(exc).__name__}: {exc}")
                return f"Error: Activity not started, {app.package} has stopped ({type(exc).__name__})"
            if screen is None:
                return f"Error: Activity not started, {app.package} refused {intent.short_string()}"
            launcher_start = (
                intent.action in (None, ACTION_MAIN) and intent.data is None and not intent.extras
            )
            if launcher_start and any(s.package == app.package for s in self.stack):
                # A launcher start brings the app's task to front instead of stacking a new root.
                self.resume(app.package)
                self.advance("start")
                self.log("start", package=app.package, activity=activity.cls, resumed=True)
                return None
            self.push_screen(screen)
            self.advance("launch" if cold else "start")
            self.log(
                "start", package=app.package, activity=activity.cls, action=intent.action, data=intent.data
            )
            return None

    def launch(self, package: str) -> str | None:
        """Start an app from the launcher (what `monkey -p PKG 1` and an icon tap do)."""
        app = self.apps.get(package)
        if app is None or app.launcher_activity is None:
            return f"No activities found to run, monkey aborted. ({package})"
        return self.start_activity(
            Intent(
                ACTION_MAIN,
                categories=[CATEGORY_LAUNCHER],
                component=f"{package}/{app.launcher_activity.cls}",
            )
        )

    def broadcast(self, intent: Intent) -> tuple[int, str | None]:
        """`am broadcast`: the ADB keyboard's text actions, else the first app that handles it."""
        with self.lock:
            self.advance("broadcast")
            self.log("broadcast", action=intent.action, package=intent.package)
            command = keyboard.ime_command(intent)
            if command is not None:
                if self.settings["secure"]["default_input_method"] != ADB_KEYBOARD_IME:
                    return 0, None  # nobody listens for the IME's actions when it is not the active one
                kind, value = command
                if kind == "text":
                    self.input_text(value, from_ime=True)
                elif kind == "clear":
                    self.clear_focused()
                elif value in ("66", "6", "3", "2"):  # KEYCODE_ENTER / IME_ACTION_DONE, GO, SEARCH
                    self._submit()
                return -1, None
            for app in self.apps.values():
                if intent.package in (None, app.package):
                    answer = app.receive(self.context(app.package), intent)
                    if answer is not None:
                        self.invalidate()
                        return answer
            return 0, None

    def toast(self, message: str) -> None:
        self.toasts.append(message)
        self.log("toast", text=message)
        self.invalidate()  # it is on screen from now

    # -- the frame -----------------------------------------------------------------------------------
    def frame(self) -> Frame:
        with self.lock:
            if self._frame is None:
                self._frame = self._compose()
            return self._frame

    def _compose(self) -> Frame:
        top = self.top
        app = self.apps[top.package]
        focus = top.ui.get("focus")
        content_bottom = HEIGHT - NAV_BAR_H - (keyboard.HEIGHT if focus else 0)
        box = (0, STATUS_BAR_H, WIDTH, content_bottom)
        offsets = top.ui.setdefault("scroll", {})
        with use_theme(app.theme):  # lazy rows are built during layout, so it stays current until then
            window = app.build(AppContext(self, app, top))
            for node in window.walk():
                if node.field is not None and node.field in top.ui:
                    node.text = str(top.ui[node.field])  # what was typed wins over the app's initial value
            window = textmenu.overlay(self, window, STATUS_BAR_H)
            layout(window, 0, STATUS_BAR_H, WIDTH, content_bottom - STATUS_BAR_H, box, offsets)
            if focus and _reveal(window, focus, offsets):
                layout(window, 0, STATUS_BAR_H, WIDTH, content_bottom - STATUS_BAR_H, box, offsets)
        return Frame(window=window, package=top.package, keyboard=bool(focus), at_ms=self._changed_ms)

    def screencap_png(self) -> bytes:
        with self.lock:
            frame = self.frame()
            if frame.png is None:
                frame.png = render.to_png(self, frame)
            self.advance("screencap")
            return frame.png

    def ui_dump_xml(self) -> str:
        with self.lock:
            frame = self.frame()
            if frame.xml is None:
                frame.xml = uidump.dump(frame.window, frame.package, self.top.ui.get("focus"))
            self.advance("uidump")
            return frame.xml

    def current_focus(self) -> tuple[str, str]:
        top = self.top
        return top.package, top.activity

    # -- input ---------------------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        with self.lock:
            self.advance("tap")
            self.log("tap", x=x, y=y)
            self._tap(int(x), int(y), long=False)

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> None:
        with self.lock:
            self.advance("long_press", max(0, duration_ms - 1000))
            self.log("long_press", x=x, y=y)
            self._tap(int(x), int(y), long=True)

    def _tap(self, x: int, y: int, long: bool) -> None:
        if y >= HEIGHT - NAV_BAR_H:
            self._nav_button(x)
            return
        if y < STATUS_BAR_H:
            return
        frame = self.frame()
        top = self.top
        if top.ui.pop(textmenu.KEY, None):  # any touch closes the text toolbar; its own button still acts
            self.invalidate()
        if top.ui.get("focus") and y >= HEIGHT - NAV_BAR_H - keyboard.HEIGHT:
            key = keyboard.key_at(x, y - (HEIGHT - NAV_BAR_H - keyboard.HEIGHT))
            if key is not None:
                self._keyboard_key(key)
            return
        if long:
            target = hit(frame.window, x, y, lambda n: n.long_clickable or n.clickable)
            if target is not None and target.on_long_press is not None:
                target.on_long_press()
                self.invalidate()
                return
            if target is not None and textmenu.offer(self, target):
                self.invalidate()
                return
        target = hit(frame.window, x, y, lambda n: n.clickable and n.enabled)
        if target is None:
            if top.ui.pop("focus", None) is not None:
                self.invalidate()
            return
        if target.field is not None:
            top.ui["focus"] = target.field
            self.log("focus", field=target.field)
        else:
            top.ui.pop("focus", None)
            if target.on_tap is not None:
                target.on_tap()
        self.invalidate()

    def _nav_button(self, x: int) -> None:
        if x < WIDTH // 3:
            self.back()
        elif x < 2 * WIDTH // 3:
            self.go_home()
        else:
            self.show_recents()

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """A drag: scrolls the innermost scroll container under the start point; a still one is a tap."""
        with self.lock:
            dx, dy = int(x2) - int(x1), int(y2) - int(y1)
            if abs(dx) <= TAP_SLOP and abs(dy) <= TAP_SLOP:
                if duration_ms >= LONG_PRESS_MS:
                    self.long_press(x1, y1, duration_ms)
                else:
                    self.tap(x1, y1)
                return
            self.advance("swipe", max(0, duration_ms - 300))
            self.log("swipe", x1=x1, y1=y1, x2=x2, y2=y2)
            frame = self.frame()
            horizontal = abs(dx) > abs(dy)
            node = hit(
                frame.window,
                int(x1),
                int(y1),
                lambda n: n.scroll is not None and (n.layout == "h") == horizontal,
            )
            if node is None:
                return
            offsets = self.top.ui.setdefault("scroll", {})
            offsets[node.scroll] = offsets.get(node.scroll, 0) - (dx if horizontal else dy)
            self.invalidate()

    def scroll_node(self, node: Node, direction: str) -> None:
        """Scroll a container by most of a page, as a fling would (used by tests and the `scroll` action)."""
        x1, y1, x2, y2 = node.clip
        cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
        span = int(((y2 - y1) if direction in ("up", "down") else (x2 - x1)) * 0.35)
        d = {"down": (0, -span), "up": (0, span), "right": (-span, 0), "left": (span, 0)}[direction]
        self.swipe(cx - d[0], cy - d[1], cx + d[0], cy + d[1], 400)

    def keyevent(self, key: str) -> bool:
        """`input keyevent`: returns False for a key name it does not know."""
        with self.lock:
            name = key.upper().removeprefix("KEYCODE_")
            name = keyboard.KEYCODE_NAMES.get(name, name)
            self.advance("key")
            self.log("key", key=name)
            top = self.top
            if name == "BACK":
                self.back()
            elif name == "HOME":
                self.go_home()
            elif name in ("ENTER", "NUMPAD_ENTER", "SEARCH"):
                self._submit()
            elif name in ("DEL", "FORWARD_DEL"):
                self._edit_focused(lambda v: v[:-1])
            elif name == "APP_SWITCH":
                self.show_recents()
            elif name == "TAB":
                top.ui.pop("focus", None)
            elif name == "MOVE_END":
                pass
            elif name == "SPACE":
                self._edit_focused(lambda v: v + " ")
            elif len(name) == 1 and name.isalnum():
                self._edit_focused(lambda v: v + name.lower())
            elif name not in keyboard.KNOWN_KEYS:
                return False
            self.invalidate()
            return True

    def input_text(self, text: str, from_ime: bool = False) -> None:
        """Type into the focused field (`input text`, the ADB keyboard broadcast or key taps)."""
        with self.lock:
            self.advance("text_base", LATENCY_MS["text_char"] * len(text))
            self.log("text", text=text, ime=from_ime)
            self._edit_focused(lambda v: v + text)

    def append_to_focused(self, text: str) -> None:
        """Add `text` at the end of the focused field (a paste), without typing it key by key."""
        self._edit_focused(lambda v: v + text)

    def clear_focused(self) -> None:
        self._edit_focused(lambda v: "")

    def _focused_field(self) -> tuple[Node, str] | None:
        """The focused EditText and the key of its value in the top screen's ui state."""
        focus: str | None = self.top.ui.get("focus")
        if not focus:
            return None
        node = next((n for n in self.frame().window.walk() if n.field == focus and n.cls == EDIT), None)
        return None if node is None else (node, focus)

    def _edit_focused(self, change: Callable[[str], str]) -> None:
        found = self._focused_field()
        if found is None:
            return
        node, field = found
        top = self.top
        value = change(str(top.ui.get(field, node.text)))
        top.ui[field] = value
        if node.on_change is not None:
            node.on_change(value)
        self.invalidate()

    def _submit(self) -> None:
        found = self._focused_field()
        if found is None:
            return
        node, field = found
        value = str(self.top.ui.get(field, node.text))
        self.top.ui.pop("focus", None)
        if node.on_submit is not None:
            node.on_submit(value)
        self.log("submit", field=node.field, text=value)
        self.invalidate()

    def _keyboard_key(self, key: str) -> None:
        if key == "⌫":
            self._edit_focused(lambda v: v[:-1])
        elif key == "⏎":
            self._submit()
        elif key == "space":
            self._edit_focused(lambda v: v + " ")
        else:
            self._edit_focused(lambda v: v + key)
        self.log("ime_key", key=key)

    # -- the shell -----------------------------------------------------------------------------------
    def shell(self, command: str) -> ShellResult:
        """Run one `adb shell` command line through the phone's POSIX-ish shell (shell.py)."""
        with self.lock:
            self.advance("shell")
            return self.run_shell(self, command)

    # -- reports -------------------------------------------------------------------------------------
    def app_state(self, package: str) -> dict[str, Any]:
        return copy.deepcopy(self.apps[package].public_state(self.app_states[package]))

    def snapshot(self, packages: Iterable[str] | None = None) -> dict[str, Any]:
        """Everything a task check may ask about, as JSON data (a copy: later changes do not leak in).
        With `packages`, only those apps' states: a check reads one or two apps, and the others are most
        of the bytes."""
        return copy.deepcopy(self._report(packages))

    def digest(self) -> str:
        """SHA-1 of the whole snapshot without its clocks (which move with every command): two states
        with equal digests are the same to every check and every later input."""
        report = {k: v for k, v in self._report(None).items() if k not in CLOCK_FIELDS}
        text = json.dumps(report, sort_keys=True, ensure_ascii=False)
        return hashlib.sha1(text.encode("utf-8")).hexdigest()

    def _report(self, packages: Iterable[str] | None) -> dict[str, Any]:
        """The snapshot's fields, sharing the phone's own objects (callers copy or only read)."""
        wanted = sorted(self.apps) if packages is None else sorted(set(packages) & set(self.apps))
        return {
            "serial": self.serial,
            "seed": self.seed,
            "clock": self.now().isoformat(),
            "device_ms": self.device_ms,
            "foreground": {
                "package": self.top.package,
                "activity": self.top.activity,
                "screen": self.top.name,
                "args": self.top.args,
            },
            "stack": [
                {"package": s.package, "activity": s.activity, "screen": s.name, "args": s.args}
                for s in self.stack
            ],
            "settings": self.settings,
            "clipboard": self.clipboard,
            "apps": {p: self.apps[p].public_state(self.app_states[p]) for p in wanted},
        }

    # -- the in-process route search (direct.py) ------------------------------------------------------
    def report(self, packages: Iterable[str] | None = None) -> dict[str, Any]:
        """`snapshot` without the copy, for a reader that only reads (a check run in process)."""
        return self._report(packages)

    def held_frame(self) -> tuple[Frame | None, int]:
        """The laid-out frame and when the screen last changed, for `put_back_frame` once an undone move
        has brought back the very state (the same objects) it was laid out from."""
        return self._frame, self._changed_ms

    def put_back_frame(self, held: tuple[Frame | None, int]) -> None:
        self._frame, self._changed_ms = held


def _reveal(window: Node, field: str, offsets: dict[str, int]) -> bool:
    """Scroll the focused field's scroll container so the field sits above the soft keyboard, as Android's
    adjustResize does. True if an offset changed (the window must be laid out again)."""
    path = _path_to(window, lambda n: n.field == field and n.cls == EDIT)
    if not path:
        return False
    target = path[-1]
    found = next(
        ((n, n.scroll) for n in reversed(path[:-1]) if n.scroll is not None and n.layout == "v"), None
    )
    if found is None:
        return False
    container, key = found
    top, bottom = container.clip[1], container.clip[3]
    y1, y2 = target.bounds[1], target.bounds[3]
    delta = y2 - bottom if y2 > bottom else (y1 - top if y1 < top else 0)
    if not delta:
        return False
    offsets[key] = offsets.get(key, 0) + delta
    return True


def _path_to(node: Node, want: Callable[[Node], bool]) -> list[Node]:
    if want(node):
        return [node]
    for child in node.children:
        path = _path_to(child, want)
        if path:
            return [node, *path]
    return []


def _is_browser(activity: Activity) -> bool:
    return any(
        CATEGORY_BROWSABLE in f.categories and not f.hosts and "https" in f.schemes for f in activity.filters
    )


__all__ = ["ACTION_VIEW", "Event", "Frame", "ShellResult", "VirtualPhone"]
