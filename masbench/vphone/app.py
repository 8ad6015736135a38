"""The contract between the phone and a simulated app.

An app declares its manifest (package, label, activities with intent filters), its theme, its screens and
its dialogs, makes its seeded initial state and turns intents into screens. A screen or a dialog is a
function from `AppContext` to a `Node` tree; the default `App.build` draws the screen on top of the back
stack and, when one is open, its dialog or sheet as a modal layer: the dump shows only the layer and taps
never reach the screen beneath, as on Android. The phone owns the back stack, focus, scrolling and time;
the app owns its state, which must be plain JSON data so `cmd masbench state PKG` can report it and task
checks can read it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Protocol

from .fs import VirtualFS
from .intents import ACTION_MAIN, CATEGORY_DEFAULT, CATEGORY_LAUNCHER, Intent, IntentFilter, chooser_intent
from .theme import Theme
from .ui import FRAME, IMAGE, TEXT, Node

LAUNCHER_FILTER = IntentFilter(actions=(ACTION_MAIN,), categories=(CATEGORY_LAUNCHER, CATEGORY_DEFAULT))
Build = Callable[["AppContext"], Node]


@dataclass
class Screen:
    """One activity instance on a back stack: which screen of which app, its arguments and its transient
    UI state (field values, scroll offsets, open tab or dialog, focused field)."""

    package: str
    activity: str  # fully-qualified activity class, reported by dumpsys
    name: str  # the app's own screen name
    args: dict[str, Any] = field(default_factory=dict)
    ui: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Activity:
    """A manifest `<activity>`: its class, the screen it opens by default and its intent filters."""

    cls: str
    screen: str
    filters: tuple[IntentFilter, ...] = ()
    exported: bool = True


class App:
    """Base class of simulated apps. Subclasses set the class attributes (identity, manifest, `theme`,
    `screens`, `dialogs`) and override the hooks they need."""

    package: str = ""
    label: str = ""
    icon_bg: str = "#1a73e8"
    icon_fg: str = "#ffffff"
    icon_glyph: str | None = None  # an icon name from icons.ICONS, else the label's first letter
    activities: tuple[Activity, ...] = ()
    in_launcher: bool = True
    platform: bool = False  # part of Android itself (the share sheet's `android`): no catalog entry
    version_name: str = "1.0"
    version_code: int = 1
    theme: ClassVar[Theme] = Theme()
    screens: ClassVar[Mapping[str, Build]] = {}  # screen name -> builder of its view tree
    dialogs: ClassVar[Mapping[str, Build]] = {}  # dialog or sheet name -> builder of its layer
    screen_activities: ClassVar[Mapping[str, str]] = {}  # screen -> activity class, where not the caller's
    providers: ClassVar[
        tuple[str, ...]
    ] = ()  # content-provider authorities this app answers (`content query`)

    # -- manifest --------------------------------------------------------------------------------------
    @property
    def launcher_activity(self) -> Activity | None:
        return next((a for a in self.activities if LAUNCHER_FILTER in a.filters), None)

    def activity(self, cls: str) -> Activity | None:
        return next((a for a in self.activities if a.cls == cls), None)

    def activity_of(self, screen: str, current: str | None) -> str:
        """The activity a newly opened `screen` runs in: declared, else the caller's, else the first."""
        return self.screen_activities.get(screen) or current or self.activities[0].cls

    def icon(self, diameter: int) -> Node:
        """The app's round icon at `diameter` px (launcher, Recents, share sheet, App info): its glyph on its
        colour, else its label's first letter."""
        letter = self.icon_glyph is None
        return Node(
            TEXT if letter else IMAGE,
            text=self.label[:1] if letter else "",
            icon=self.icon_glyph,
            size=diameter * 9 // 19 if letter else diameter * 21 // 38,
            bold=letter,
            fg=self.icon_fg,
            bg=self.icon_bg,
            radius=diameter // 2,
            w=diameter,
            h=diameter,
            align="center",
        )

    # -- hooks -----------------------------------------------------------------------------------------
    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        """Fresh state for a reset; everything random must come from `rng` so a seed fixes it."""
        return {}

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        """Turn an intent that resolved to `activity` into the screen to push (None: refuse it)."""
        return ctx.screen(activity.screen, activity=activity.cls)

    def build(self, ctx: AppContext) -> Node:
        """The view tree of `ctx.top`: its screen, under its open dialog or sheet if any."""
        assert ctx.top is not None
        body = self.screens[ctx.top.name](ctx)
        name = ctx.dialog
        if name is None:
            return body
        return modal(body, self.dialogs[name](ctx))

    def on_back(self, ctx: AppContext) -> bool:
        """Give the app first refusal on Back (close a drawer, a tab...). True means handled."""
        return False

    def receive(self, ctx: AppContext, intent: Intent) -> tuple[int, str | None] | None:
        """Handle a broadcast addressed to this app: (result code, result data), or None if not for it."""
        return None

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """What `cmd masbench state` reports; by default the whole state."""
        return state

    def query(self, ctx: AppContext, uri: str, where: str | None, sort: str | None) -> list[dict[str, Any]]:
        """Rows for `content query --uri URI` on one of `providers`, columns in Android's order, as the
        real provider answers (so a check can read the same data on a real device). Raise ValueError
        for a URI or selection the provider does not know."""
        raise ValueError(f"Unknown URI {uri}")


class AppContext:
    """What an app sees while opening, building or reacting: its state, the top screen, navigation."""

    def __init__(self, phone: Phone, app: App, top: Screen | None) -> None:
        self.phone = phone
        self.app = app
        self.top = top

    @property
    def state(self) -> dict[str, Any]:
        return self.phone.app_states[self.app.package]

    @property
    def ui(self) -> dict[str, Any]:
        assert self.top is not None
        return self.top.ui

    @property
    def args(self) -> dict[str, Any]:
        assert self.top is not None
        return self.top.args

    def now(self) -> datetime:
        return self.phone.now()

    def screen(self, name: str, /, activity: str | None = None, **args: Any) -> Screen:
        """A new screen of this app (not yet shown): in `activity` when an intent names it, else in the
        activity the app declares for the screen."""
        cls = activity or self.app.activity_of(name, self.top.activity if self.top else None)
        return Screen(self.app.package, cls, name, dict(args))

    def go(self, name: str, /, activity: str | None = None, **args: Any) -> None:
        """Open screen `name` on top of the back stack now."""
        self.phone.push_screen(self.screen(name, activity, **args))

    def link(self, name: str, /, activity: str | None = None, **args: Any) -> Callable[[], None]:
        """A tap handler that opens screen `name`."""
        return lambda: self.go(name, activity, **args)

    def replace(self, name: str, /, activity: str | None = None, **args: Any) -> None:
        """Swap the top screen for `name` (a redirect, or a step of a flow that Back should skip)."""
        self.phone.pop_screen()
        self.go(name, activity, **args)

    # -- dialogs and sheets ----------------------------------------------------------------------------
    @property
    def dialog(self) -> str | None:
        """The open dialog or sheet of the top screen, by name."""
        return self.top.ui.get("dialog") if self.top else None

    @property
    def dialog_args(self) -> dict[str, Any]:
        return self.top.ui.get("dialog_args", {}) if self.top else {}

    def open(self, dialog: str, /, **args: Any) -> None:
        """Open a dialog or sheet (one of the app's `dialogs`) over the top screen."""
        if dialog not in self.app.dialogs:
            raise KeyError(f"{self.app.package} has no dialog {dialog!r}")
        self.ui["dialog"] = dialog
        self.ui["dialog_args"] = dict(args)

    def opener(self, dialog: str, /, **args: Any) -> Callable[[], None]:
        """A tap handler that opens a dialog or sheet."""
        return lambda: self.open(dialog, **args)

    def close(self) -> None:
        """Close the open dialog or sheet (as its buttons, a tap outside it, or Back do)."""
        self.ui.pop("dialog", None)
        self.ui.pop("dialog_args", None)

    def switch_tab(self, screen: Screen) -> None:
        """Bottom navigation: drop this app's screens above its first one in the task, then show `screen`
        (the tab's root), so Back from a tab leaves the app as on Android."""
        stack = self.phone.stack
        first = len(stack) - 1
        while first > 1 and stack[first - 1].package == self.app.package:
            first -= 1
        while len(stack) > first:
            self.phone.pop_screen()
        self.phone.push_screen(screen)

    def back(self) -> None:
        self.phone.back()

    def toast(self, message: str) -> None:
        self.phone.toast(message)

    def start_activity(self, intent: Intent) -> str | None:
        """Start another activity (share sheet, open in Maps...). Returns an error message or None."""
        return self.phone.start_activity(intent)

    def share(self, text: str, subject: str = "") -> None:
        """Open Android's share sheet for `text`, as a Share button does (`Intent.createChooser`)."""
        error = self.start_activity(chooser_intent(text, subject))
        if error:
            self.toast("Can't share right now")

    def log(self, kind: str, **data: Any) -> None:
        self.phone.log(kind, package=self.app.package, **data)


class Phone(Protocol):
    """The phone as apps (through `AppContext.phone`) and the system UI see it: the services they may use
    of a VirtualPhone, which sits above this contract."""

    apps: dict[str, App]
    app_states: dict[str, dict[str, Any]]
    stack: list[Screen]
    running: set[str]
    settings: dict[str, dict[str, str]]
    props: dict[str, str]
    clipboard: str
    fs: VirtualFS

    @property
    def top(self) -> Screen: ...

    def now(self) -> datetime: ...

    def log(self, kind: str, **data: Any) -> None: ...

    def context(self, package: str) -> AppContext: ...

    def push_screen(self, screen: Screen) -> None: ...

    def pop_screen(self) -> Screen | None: ...

    def back(self) -> None: ...

    def toast(self, message: str) -> None: ...

    def resolve_activity(self, intent: Intent) -> tuple[App, Activity] | None: ...

    def start_activity(self, intent: Intent) -> str | None: ...

    def launch(self, package: str) -> str | None: ...

    def resume(self, package: str) -> None: ...

    def recent_apps(self) -> list[str]: ...

    def clear_recents(self) -> None: ...

    def force_stop(self, package: str) -> None: ...

    def clear_data(self, package: str) -> bool: ...

    def append_to_focused(self, text: str) -> None: ...


def modal(body: Node, layer: Node) -> Node:
    """`layer` (a dialog or sheet) over `body`, as its own window: dumped alone and alone to take taps."""
    body.weight = layer.weight = 1.0
    layer.modal = True
    return Node(FRAME, layout="stack", children=[body, layer], rid="content")
