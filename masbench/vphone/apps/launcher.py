"""Pixel Launcher stand-in: home screen with a search bar, app icons and a dock, plus the app drawer."""

from __future__ import annotations

from ..app import Activity, App, AppContext
from ..identity import identity
from ..intents import ACTION_MAIN, CATEGORY_DEFAULT, CATEGORY_HOME, IntentFilter
from ..ui import IMAGE, TEXT, Node
from ..widgets import column, icon_button, row, scroll_list, spacer, text

PACKAGE = "com.google.android.apps.nexuslauncher"
HOME_FILTER = IntentFilter(actions=(ACTION_MAIN,), categories=(CATEGORY_HOME, CATEGORY_DEFAULT))
DOCK_SIZE = 4
COLUMNS = 4


class LauncherApp(App):
    package = identity("launcher").package
    label = identity("launcher").label
    in_launcher = False
    activities = (Activity(f"{PACKAGE}.NexusLauncherActivity", "home", (HOME_FILTER,)),)

    def _launchable(self, ctx: AppContext) -> list[App]:
        apps = [a for a in ctx.phone.apps.values() if a.in_launcher and a.launcher_activity is not None]
        return sorted(apps, key=lambda a: a.label.lower())

    def _icon(self, ctx: AppContext, app: App, label_colour: str) -> Node:
        if app.icon_glyph is None:
            glyph = Node(
                TEXT,
                text=app.label[:1],
                size=72,
                bold=True,
                fg=app.icon_fg,
                bg=app.icon_bg,
                radius=76,
                w=152,
                h=152,
                align="center",
            )
        else:
            glyph = Node(
                IMAGE,
                icon=app.icon_glyph,
                size=84,
                fg=app.icon_fg,
                bg=app.icon_bg,
                radius=76,
                w=152,
                h=152,
                align="center",
            )
        return column(
            row(spacer(weight=1), glyph, spacer(weight=1), h=152),
            text(app.label, size=32, fg=label_colour, align="center", max_lines=1),
            cls=TEXT, text="", desc=app.label, on_tap=lambda: ctx.phone.launch(app.package), weight=1, gap=12, rid="icon",
        )  # fmt: skip

    def _grid(self, ctx: AppContext, apps: list[App], label_colour: str) -> list[Node]:
        rows = []
        for i in range(0, len(apps), COLUMNS):
            cells = [self._icon(ctx, a, label_colour) for a in apps[i : i + COLUMNS]]
            cells += [spacer(weight=1) for _ in range(COLUMNS - len(cells))]
            rows.append(row(*cells, pad=(24, 20, 24, 20)))
        return rows

    def build(self, ctx: AppContext) -> Node:
        apps = self._launchable(ctx)
        if ctx.ui.get("drawer"):
            return self._drawer(ctx, apps)
        now = ctx.now()
        dock, rest = apps[:DOCK_SIZE], apps[DOCK_SIZE:]
        return column(
            column(
                text(now.strftime("%A, %b %-d"), size=44, fg="#ffffff", bold=True),
                text("Sunny · 21°C", size=36, fg="#e8eaed"),
                pad=(72, 80, 72, 40),
                rid="smartspace",
            ),
            column(*self._grid(ctx, rest, "#ffffff"), rid="workspace", weight=1),
            column(
                Node(
                    TEXT,
                    text="All apps",
                    icon="apps",
                    size=40,
                    fg="#ffffff",
                    on_tap=lambda: self._open_drawer(ctx),
                    rid="all_apps_button",
                    desc="All apps",
                    w=340,
                    h=110,
                    pad=(40, 0, 40, 0),
                    radius=55,
                    bg="#ffffff33",
                    align="center",
                ),
                pad=(0, 10, 0, 20),
                align="center",
            ),
            row(*[self._icon(ctx, a, "#ffffff") for a in dock], pad=(24, 10, 24, 10), rid="hotseat"),
            row(
                Node(
                    TEXT,
                    text="Search",
                    icon="search",
                    size=40,
                    fg="#5f6368",
                    bg="#ffffff",
                    radius=70,
                    h=140,
                    weight=1,
                    pad=(48, 0, 48, 0),
                    on_tap=lambda: self._open_drawer(ctx),
                    rid="search_container_hotseat",
                    desc="Search",
                ),
                pad=(48, 20, 48, 40),
            ),
            bg="#3b5f8a",
            rid="launcher",
        )

    def _open_drawer(self, ctx: AppContext) -> None:
        ctx.ui["drawer"] = True
        ctx.ui.pop("query", None)

    def _drawer(self, ctx: AppContext, apps: list[App]) -> Node:
        query = str(ctx.ui.get("query", "")).strip().lower()
        shown = [a for a in apps if query in a.label.lower()] if query else apps
        return column(
            row(
                icon_button("back", "Close", lambda: ctx.ui.pop("drawer", None), fg="#202124"),
                Node(
                    "android.widget.EditText",
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
                    on_submit=lambda q: self._launch_first(ctx, q),
                ),
                pad=(24, 30, 48, 30),
                gap=16,
                valign="center",
            ),
            scroll_list("drawer", self._grid(ctx, shown, "#202124"), rid="apps_list_view"),
            bg="#ffffff",
            rid="apps_view",
        )

    def _launch_first(self, ctx: AppContext, query: str) -> None:
        matches = [a for a in self._launchable(ctx) if query.strip().lower() in a.label.lower()]
        if matches:
            ctx.phone.launch(matches[0].package)

    def on_back(self, ctx: AppContext) -> bool:
        return ctx.ui.pop("drawer", None) is not None
