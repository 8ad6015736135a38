"""Chrome stand-in: the default browser, so web links that no app claims open somewhere, as on Android.
It shows the address bar and the page's address; richer pages come with the Chrome tasks."""

from __future__ import annotations

from urllib.parse import urlsplit

from ..app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ..identity import identity
from ..intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ..ui import EDIT, Node
from ..widgets import column, icon_button, row, scroll_page, text

PACKAGE = "com.android.chrome"
WEB_FILTER = IntentFilter(
    actions=(ACTION_VIEW,), categories=(CATEGORY_DEFAULT, CATEGORY_BROWSABLE), schemes=("http", "https")
)
MAIN = "com.google.android.apps.chrome.Main"
NEW_TAB = "chrome://newtab/"


class ChromeApp(App):
    package = identity("chrome").package
    label = identity("chrome").label
    icon_bg = "#ffffff"
    icon_fg = "#1a73e8"
    color = "#ffffff"
    version_name = "131.0.6778.200"
    activities = (Activity(MAIN, "tab", (LAUNCHER_FILTER, WEB_FILTER)),)

    def initial_state(self, rng, now):
        return {"history": []}

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen:
        url = intent.data or NEW_TAB
        self._visit(ctx, url)
        return ctx.screen("tab", activity=activity.cls, url=url)

    def _visit(self, ctx: AppContext, url: str) -> None:
        if url != NEW_TAB:
            ctx.state["history"].append({"url": url, "time": ctx.now().isoformat()})

    def _go(self, ctx: AppContext, typed: str) -> None:
        typed = typed.strip()
        if not typed:
            return
        url = (
            typed
            if "://" in typed
            else (
                f"https://{typed}"
                if "." in typed and " " not in typed
                else f"https://www.google.com/search?q={typed.replace(' ', '+')}"
            )
        )
        ctx.args["url"] = url
        ctx.ui.pop("address", None)
        self._visit(ctx, url)

    def build(self, ctx: AppContext) -> Node:
        url = ctx.args.get("url", NEW_TAB)
        host = urlsplit(url).hostname or ""
        page = (
            column(
                text("Google", size=110, bold=True, fg="#4285f4", align="center", pad=(0, 300, 0, 60)),
                rid="ntp_content",
            )
            if url == NEW_TAB
            else column(
                text(host, size=56, bold=True, rid="page_title"),
                text(url, size=36, fg="#5f6368", rid="page_url"),
                text("This page is shown by the virtual phone's browser.", size=40, pad=(0, 40, 0, 0)),
                pad=60,
                gap=20,
            )
        )
        return column(
            row(
                icon_button("home", "Home", lambda: ctx.args.update(url=NEW_TAB), rid="home_button"),
                Node(
                    EDIT,
                    field="address",
                    text="" if url == NEW_TAB else url,
                    hint="Search or type web address",
                    size=38,
                    bg="#f1f3f4",
                    radius=60,
                    h=120,
                    weight=1,
                    pad=(36, 0, 36, 0),
                    rid="url_bar",
                    on_submit=lambda v: self._go(ctx, v),
                ),
                icon_button("more", "Customize and control Google Chrome", None, rid="menu_button"),
                pad=(16, 20, 16, 20),
                gap=8,
                valign="center",
                bg="#ffffff",
            ),
            scroll_page("page", page, rid="compositor_view_holder"),
            rid="control_container",
        )
