"""Pixel Launcher stand-in: the home screen (smartspace, app icons, All apps, the dock and the search bar),
the app drawer with its search, and the popup a long press on an icon opens (App info)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..app import Activity, App, AppContext
from ..identity import identity
from ..intents import ACTION_MAIN, CATEGORY_DEFAULT, CATEGORY_HOME, Intent, IntentFilter
from ..theme import Theme
from ..ui import EDIT, IMAGE, TEXT, Node
from ..widgets import column, dialog, icon_button, list_item, row, scroll_list, spacer, text

PACKAGE = identity("launcher").package
HOME_FILTER = IntentFilter(actions=(ACTION_MAIN,), categories=(CATEGORY_HOME, CATEGORY_DEFAULT))
DOCK_SIZE = 4
COLUMNS = 4
WALLPAPER = "#3b5f8a"
ON_WALLPAPER = "#ffffff"
APP_DETAILS = "android.settings.APPLICATION_DETAILS_SETTINGS"


def _launchable(ctx: AppContext) -> list[App]:
    apps = [a for a in ctx.phone.apps.values() if a.in_launcher and a.launcher_activity is not None]
    return sorted(apps, key=lambda a: a.label.lower())


def _icon(ctx: AppContext, app: App, label_colour: str) -> Node:
    """An app's round icon and label; a tap launches it, a long press opens its popup."""
    return column(
        row(spacer(weight=1), app.icon(152), spacer(weight=1), h=152),
        text(app.label, "label", fg=label_colour, bold=False, align="center", max_lines=1),
        cls=TEXT, text="", desc=app.label, on_tap=lambda: ctx.phone.launch(app.package), weight=1, gap=12, rid="icon",
        on_long_press=ctx.opener("app_popup", package=app.package),
    )  # fmt: skip


def app_popup(ctx: AppContext) -> Node:
    """The long-press popup of an icon, reduced to its system shortcut App info."""
    app = ctx.phone.apps[ctx.dialog_args["package"]]
    info = list_item("App info", icon="info", on_tap=lambda: _app_info(ctx, app.package), rid="app_info")
    return dialog(app.label, [info], [], ctx.close, rid="popup_container")


def _app_info(ctx: AppContext, package: str) -> None:
    """Open the app's page in Settings (APPLICATION_DETAILS_SETTINGS, package:PKG); where nothing
    handles that, Launcher3's startActivitySafely toasts instead."""
    ctx.close()
    if ctx.start_activity(Intent(APP_DETAILS, data=f"package:{package}")) is not None:
        ctx.toast("App isn't installed.")


def _grid(ctx: AppContext, apps: list[App], label_colour: str) -> list[Node]:
    rows = []
    for i in range(0, len(apps), COLUMNS):
        cells = [_icon(ctx, a, label_colour) for a in apps[i : i + COLUMNS]]
        cells += [spacer(weight=1) for _ in range(COLUMNS - len(cells))]
        rows.append(row(*cells, pad=(24, 20, 24, 20)))
    return rows


def _pill(label: str, icon: str, rid: str, on_tap: Callable[[], None], **look: Any) -> Node:
    return Node(TEXT, text=label, icon=icon, size=40, on_tap=on_tap, rid=rid, desc=label, **look)


def home(ctx: AppContext) -> Node:
    apps = _launchable(ctx)
    dock, rest = apps[:DOCK_SIZE], apps[DOCK_SIZE:]
    drawer = ctx.link("drawer")
    return column(
        column(
            text(ctx.now().strftime("%A, %b %-d"), "headline", fg=ON_WALLPAPER, bold=True),
            text("Sunny · 21°C", "subtitle", fg="#e8eaed"),
            pad=(72, 80, 72, 40),
            rid="smartspace",
        ),
        column(*_grid(ctx, rest, ON_WALLPAPER), rid="workspace", weight=1),
        column(
            _pill(
                "All apps",
                "apps",
                "all_apps_button",
                drawer,
                fg=ON_WALLPAPER,
                bg="#ffffff33",
                w=340,
                h=110,
                pad=(40, 0, 40, 0),
                radius=55,
                align="center",
            ),
            pad=(0, 10, 0, 20),
            align="center",
        ),
        row(*[_icon(ctx, a, ON_WALLPAPER) for a in dock], pad=(24, 10, 24, 10), rid="hotseat"),
        row(
            _pill(
                "Search",
                "search",
                "search_container_hotseat",
                drawer,
                fg="#5f6368",
                bg="#ffffff",
                radius=70,
                h=140,
                weight=1,
                pad=(48, 0, 48, 0),
            ),
            pad=(48, 20, 48, 40),
        ),
        bg=WALLPAPER,
        rid="launcher",
    )


def drawer(ctx: AppContext) -> Node:
    apps = _launchable(ctx)
    query = str(ctx.ui.get("query", "")).strip().lower()
    shown = [a for a in apps if query in a.label.lower()] if query else apps
    return column(
        row(
            icon_button("back", "Close", ctx.back, fg="#202124"),
            Node(
                EDIT,
                field="query",
                hint="Search your apps",
                icon="search",
                size=42,
                bg="#f1f3f4",
                radius=60,
                h=128,
                weight=1,
                pad=(36, 0, 36, 0),
                rid="search_box_input",
                on_submit=lambda q: _launch_first(ctx, q),
            ),
            pad=(24, 30, 48, 30),
            gap=16,
            valign="center",
        ),
        scroll_list("drawer", _grid(ctx, shown, "#202124"), rid="apps_list_view"),
        bg="#ffffff",
        rid="apps_view",
    )


def _launch_first(ctx: AppContext, query: str) -> None:
    matches = [a for a in _launchable(ctx) if query.strip().lower() in a.label.lower()]
    if matches:
        ctx.phone.launch(matches[0].package)


def recents(ctx: AppContext) -> Node:
    """The overview: a card per app with a task, most recent first; a tap resumes it, Clear all ends all."""
    phone = ctx.phone
    cards = [_recent_card(ctx, phone.apps[p]) for p in phone.recent_apps()]
    body = (
        row(*cards, scroll="recents", gap=48, pad=(90, 0, 90, 0), weight=1, rid="recents_list")
        if cards
        else text("No recent items", "subtitle", fg=ON_WALLPAPER, align="center", valign="center", weight=1)
    )
    clear = _pill("Clear all", "close", "recents_clear_all", phone.clear_recents, fg=ON_WALLPAPER,
                  bg="#ffffff33", w=340, h=110, pad=(40, 0, 40, 0), radius=55, align="center")  # fmt: skip
    return column(
        spacer(h=80),
        body,
        column(clear if cards else None, pad=(0, 40, 0, 80), align="center"),
        bg="#2d3e50",
        rid="overview_panel",
    )


def _recent_card(ctx: AppContext, app: App) -> Node:
    """One app's card: its icon and label over a snapshot panel in its colours; a tap resumes the app."""
    title = ctx.phone.context(app.package).top
    return column(
        row(app.icon(80), text(app.label, "subtitle", fg=ON_WALLPAPER, max_lines=1, weight=1), gap=24, valign="center"),
        column(
            Node(IMAGE, icon=app.icon_glyph or "apps", size=220, fg=app.icon_fg, align="center", weight=1),
            text(title.name.replace("_", " ").capitalize() if title else "", "caption", fg=app.icon_fg, align="center"),
            bg=app.icon_bg, radius=48, weight=1, pad=(0, 0, 0, 40), dumped=False,
        ),
        desc=app.label, rid="recents_card", w=720, gap=28,
        on_tap=lambda: ctx.phone.resume(app.package),
    )  # fmt: skip


class LauncherApp(App):
    package = PACKAGE
    label = identity("launcher").label
    in_launcher = False
    activities = (Activity(f"{PACKAGE}.NexusLauncherActivity", "home", (HOME_FILTER,)),)
    theme = Theme(primary=WALLPAPER, background=WALLPAPER)
    screens = {"home": home, "drawer": drawer, "recents": recents}
    dialogs = {"app_popup": app_popup}
