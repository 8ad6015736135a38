"""Chrome stand-in: the default browser, so web links that no app claims open somewhere, as on Android.
It shows the address bar and the page's address; richer pages come with the Chrome tasks."""

from __future__ import annotations

from urllib.parse import urlsplit

from ..app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ..identity import identity
from ..intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ..theme import Theme, theme
from ..ui import EDIT, Node
from ..widgets import column, icon_button, row, scroll_page, text

WEB_FILTER = IntentFilter(
    actions=(ACTION_VIEW,), categories=(CATEGORY_DEFAULT, CATEGORY_BROWSABLE), schemes=("http", "https")
)
MAIN = "com.google.android.apps.chrome.Main"
NEW_TAB = "chrome://newtab/"


def _visit(ctx: AppContext, url: str) -> None:
    if url != NEW_TAB:
        ctx.state["history"].append({"url": url, "time": ctx.now().isoformat()})


def _address(typed: str) -> str:
    """What the address bar makes of typed text: a URL as is, a host name over https, else a search."""
    if "://" in typed:
        return typed
    if "." in typed and " " not in typed:
        return f"https://{typed}"
    return f"https://www.google.com/search?q={typed.replace(' ', '+')}"


def _go(ctx: AppContext, typed: str) -> None:
    if not typed.strip():
        return
    url = _address(typed.strip())
    ctx.args["url"] = url
    ctx.ui.pop("address", None)
    _visit(ctx, url)


def tab(ctx: AppContext) -> Node:
    url = ctx.args.get("url", NEW_TAB)
    if url == NEW_TAB:
        page = column(
            text("Google", "display", size=110, fg="#4285f4", align="center", pad=(0, 300, 0, 60)),
            rid="ntp_content",
        )
    else:
        page = column(
            text(urlsplit(url).hostname or "", "headline", size=56, rid="page_title"),
            text(url, "caption", rid="page_url"),
            text("This page is shown by the virtual phone's browser.", "body", pad=(0, 40, 0, 0)),
            pad=60,
            gap=20,
        )
    address = Node(
        EDIT, field="address", text="" if url == NEW_TAB else url, hint="Search or type web address", size=38,
        bg=theme().pale, radius=60, h=120, weight=1, pad=(36, 0, 36, 0), rid="url_bar", on_submit=lambda v: _go(ctx, v),
    )  # fmt: skip
    return column(
        row(
            icon_button("home", "Home", lambda: ctx.args.update(url=NEW_TAB), rid="home_button"),
            address,
            icon_button("more", "Customize and control Google Chrome", None, rid="menu_button"),
            pad=(16, 20, 16, 20),
            gap=8,
            valign="center",
        ),
        scroll_page("page", page, rid="compositor_view_holder"),
        rid="control_container",
    )


class ChromeApp(App):
    package = identity("chrome").package
    label = identity("chrome").label
    icon_bg = "#ffffff"
    icon_fg = "#1a73e8"
    color = "#ffffff"
    version_name = "131.0.6778.200"
    activities = (Activity(MAIN, "tab", (LAUNCHER_FILTER, WEB_FILTER)),)
    theme = Theme(primary="#1a73e8")
    screens = {"tab": tab}

    def initial_state(self, rng, now):
        return {"history": []}

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen:
        url = intent.data or NEW_TAB
        _visit(ctx, url)
        return ctx.screen("tab", activity=activity.cls, url=url)
