"""Android's own share sheet (`ChooserActivity` of the `android` package): what an app's Share button
opens. It offers Copy and every installed app whose activity takes `ACTION_SEND` of the shared type, and
starts the one tapped with the text (and subject) as extras, as `Intent.createChooser` does."""

from __future__ import annotations

from typing import Any

from ..app import Activity, App, AppContext, Screen
from ..intents import (
    ACTION_CHOOSER,
    ACTION_SEND,
    CATEGORY_DEFAULT,
    EXTRA_SUBJECT,
    EXTRA_TEXT,
    EXTRA_TITLE,
    Intent,
    IntentFilter,
)
from ..theme import Theme
from ..ui import TEXT, Node
from ..widgets import column, row, spacer, text

PACKAGE = "android"
CHOOSER_ACTIVITY = "com.android.internal.app.ChooserActivity"
TEXT_TYPE = "text/plain"
SCRIM = "#3c4043"  # the dimmed window behind the sheet (the sharing app is not redrawn beneath it)


def share_targets(apps: list[App], mime_type: str = TEXT_TYPE) -> list[App]:
    """The installed apps with an exported activity that takes `ACTION_SEND` of `mime_type`."""
    probe = Intent(ACTION_SEND, mime_type=mime_type, categories=[CATEGORY_DEFAULT])
    return [
        app
        for app in apps
        if any(a.exported and any(f.matches(probe) for f in a.filters) for a in app.activities)
    ]


def chooser(ctx: AppContext) -> Node:
    shared, subject = ctx.args["text"], ctx.args.get("subject", "")

    def copy() -> None:
        ctx.phone.clipboard = shared
        ctx.log("copy", text=shared)
        ctx.back()

    def send(app: App) -> Any:
        def run() -> None:
            ctx.phone.pop_screen()  # the chooser finishes as the target starts, so Back skips it
            extras = {EXTRA_TEXT: shared, **({EXTRA_SUBJECT: subject} if subject else {})}
            error = ctx.start_activity(
                Intent(ACTION_SEND, mime_type=TEXT_TYPE, package=app.package, extras=extras)
            )
            if error:
                ctx.toast(f"{app.label} can't share this")

        return run

    targets = share_targets(sorted(ctx.phone.apps.values(), key=lambda a: a.label.lower()))
    copy_button = Node(TEXT, text="Copy", icon="copy", size=38, fg="#0b57d0", on_tap=copy, rid="chooser_copy",
                       desc="Copy", pad=(32, 0, 32, 0), h=96, radius=48, bg="#ffffff", valign="center")  # fmt: skip
    preview = column(
        text(subject, "subtitle", max_lines=1) if subject else None,
        text(shared, "body_small", max_lines=3, rid="chooser_preview"),
        row(spacer(weight=1), copy_button),
        gap=12, pad=(40, 24, 40, 24), bg="#f1f3f4", radius=28,
    )  # fmt: skip
    cells = [_target_cell(app, send(app)) for app in targets]
    return column(
        Node(TEXT, text="", weight=1, bg=SCRIM, on_tap=ctx.back, dumped=False),
        column(
            Node(TEXT, text="", w=120, h=12, radius=6, bg="#c4c7c5", align="center", dumped=False),
            text(ctx.args.get("title") or "Share", "title", align="center", pad=(0, 24, 0, 8)),
            preview,
            text("Apps", "caption", pad=(8, 24, 0, 0)),
            row(*cells, spacer(weight=1), gap=16, pad=(0, 16, 0, 24), rid="chooser_targets")
            if cells
            else text("No apps can perform this action.", "body_small", pad=(8, 24, 0, 24)),
            bg="#ffffff", radius=36, pad=(40, 24, 40, 48), rid="chooser_sheet",
        ),
        rid="chooser",
    )  # fmt: skip


def _target_cell(app: App, on_tap: Any) -> Node:
    return column(
        row(spacer(weight=1), app.icon(120), spacer(weight=1)),
        text(app.label, "caption", align="center", max_lines=1),
        on_tap=on_tap, desc=app.label, rid="chooser_target", w=200, gap=10,
    )  # fmt: skip


class SystemApp(App):
    """The `android` package's screens; part of the platform, so no catalog entry and no launcher icon."""

    package = PACKAGE
    label = "Android System"
    in_launcher = False
    platform = True
    activities = (Activity(CHOOSER_ACTIVITY, "chooser", (IntentFilter(actions=(ACTION_CHOOSER,)),)),)
    theme = Theme(primary="#1a73e8", background=SCRIM)
    screens = {"chooser": chooser}

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        shared = intent.extras.get(EXTRA_TEXT)
        if intent.action != ACTION_CHOOSER or not isinstance(shared, str) or not shared:
            return None
        return ctx.screen(
            "chooser",
            activity=activity.cls,
            text=shared,
            subject=str(intent.extras.get(EXTRA_SUBJECT, "")),
            title=str(intent.extras.get(EXTRA_TITLE, "")),
        )
