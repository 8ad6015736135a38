"""Gmail stand-in (`com.google.android.gm`): Alex Morgan's mailbox with folders, labels, search, threads,
selection of several conversations, compose with drafts, snooze and settings.

Intents follow the real app: the launcher's ConversationListActivityGmail; ComposeActivityGmailExternal
for `ACTION_SENDTO mailto:` (address, `?subject=&body=&cc=&bcc=`), `ACTION_VIEW mailto:` and `ACTION_SEND`
with the `android.intent.extra.EMAIL/CC/BCC/SUBJECT/TEXT` extras, which open compose filled in but never
send; PublicPreferenceActivity for Settings; and mail.google.com web addresses (`#search/QUERY`,
`#sent`, `#label/NAME`...), which without `-p` open in Chrome as unverified links do.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from ...app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ...identity import identity
from ...intents import ACTION_VIEW, CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from ...theme import Theme
from . import compose, datepick, mailbox, search, settings, thread
from .common import COMPOSE, COMPOSE_EXTERNAL, MAIN, SETTINGS
from .content import make_mailbox, phone_files, user_labels
from .model import FOLDERS

ACTION_SENDTO = "android.intent.action.SENDTO"
ACTION_SEND = "android.intent.action.SEND"
ACTION_SEND_MULTIPLE = "android.intent.action.SEND_MULTIPLE"
EXTRA = "android.intent.extra."
BROWSABLE = (CATEGORY_DEFAULT, CATEGORY_BROWSABLE)
COMPOSE_FILTERS = (
    IntentFilter(actions=(ACTION_SENDTO,), schemes=("mailto",)),
    IntentFilter(actions=(ACTION_VIEW,), categories=BROWSABLE, schemes=("mailto",)),
    IntentFilter(actions=(ACTION_SEND, ACTION_SEND_MULTIPLE), mime_types=("text/*", "message/rfc822", "*/*")),
)
WEB_FILTER = IntentFilter(actions=(ACTION_VIEW,), categories=BROWSABLE, schemes=("https", "http"),
                          hosts=("mail.google.com",), path_patterns=("/mail*",))  # fmt: skip
PUBLIC_KEYS = ("sent", "drafts", "labels", "settings")
THREAD_KEYS = ("id", "subject", "category", "labels", "starred", "unread", "important", "snoozed_until",
               "archived", "trashed", "spam")  # fmt: skip


class GmailApp(App):
    package = identity("gmail").package
    label = identity("gmail").label
    icon_bg = "#ffffff"
    icon_fg = "#ea4335"
    icon_glyph = "mail"
    version_name = "2025.05.11.758393042.Release"
    version_code = 64920011
    activities = (
        Activity(MAIN, "mailbox", (LAUNCHER_FILTER, WEB_FILTER)),
        Activity(COMPOSE_EXTERNAL, "compose", COMPOSE_FILTERS),
        Activity(COMPOSE, "compose", exported=False),
        Activity(SETTINGS, "settings"),
    )
    theme = Theme(primary="#0b57d0", accent="#0b57d0", pale="#e9eef6", background="#ffffff", ink="#1f1f1f",
                  muted="#444746", error="#b3261e")  # fmt: skip
    screens = {
        "mailbox": mailbox.build_mailbox,
        "search": search.build_search,
        "thread": thread.build_thread,
        "compose": compose.build_compose,
        "settings": settings.build_settings,
        "vacation": settings.build_vacation,
    }
    dialogs = {
        "drawer": mailbox.drawer,
        "person_filter": search.person_dialog,
        "date_filter": search.date_dialog,
        "label_filter": search.label_dialog,
        "thread_menu": thread.thread_menu,
        "label_as": thread.label_dialog,
        "move_to": thread.move_dialog,
        "snooze": thread.snooze_dialog,
        "pick_date": datepick.date_dialog,
        "attach": compose.attach_sheet,
        "no_recipients": compose.no_recipients_dialog,
        "invalid": compose.invalid_dialog,
        "signature": settings.signature_dialog,
        "default_reply": settings.default_reply_dialog,
    }
    screen_activities = {
        **dict.fromkeys(("mailbox", "search", "thread"), MAIN),
        "compose": COMPOSE,
        **dict.fromkeys(("settings", "vacation"), SETTINGS),
    }

    def initial_state(self, rng: random.Random, now: datetime) -> dict[str, Any]:
        return {
            **make_mailbox(rng, now),
            "labels": user_labels(),
            "settings": settings.default_settings(),
            "files": phone_files(),
            "next_seq": 0,
        }

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        threads = [
            {**{k: t[k] for k in THREAD_KEYS}, "message_ids": [m["id"] for m in t["messages"]]}
            for t in state["threads"]
        ]
        return {"threads": threads, **{k: state[k] for k in PUBLIC_KEYS}}

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        if activity.cls == COMPOSE_EXTERNAL:
            return compose.compose_screen(ctx, "new", activity=COMPOSE_EXTERNAL, **compose_fields(intent))
        if activity.cls == SETTINGS:
            return ctx.screen("settings", activity=SETTINGS)
        if intent.data and intent.data.lower().startswith("http"):
            return web_link(ctx, intent.data)
        return ctx.screen("mailbox", activity=MAIN, folder="inbox")

    def on_back(self, ctx: AppContext) -> bool:
        """Back leaves selection mode first; from compose it keeps what was written as a draft, as Gmail
        does, then the screen closes."""
        if ctx.top is not None and ctx.top.ui.pop("selected", None):
            return True
        if ctx.top is not None and ctx.top.name == "compose":
            compose.save_draft(ctx)
        return False


def _addresses(value: Any) -> list[str]:
    """Addresses from a mailto part or an extra (a string, or a string array as `--esa` gives)."""
    items = value if isinstance(value, list) else [value] if value else []
    return [a.strip() for item in items for a in unquote(str(item)).split(",") if a.strip()]


def compose_fields(intent: Intent) -> dict[str, Any]:
    """To, Cc, Bcc, subject and body from a mailto: URI and the intent's extras (the extras add to it)."""
    fields: dict[str, Any] = {"to": [], "cc": [], "bcc": [], "subject": "", "body": ""}
    if intent.data and intent.data.lower().startswith("mailto:"):
        address, _, query = intent.data[len("mailto:") :].partition("?")
        fields["to"] = _addresses(address)
        for key, values in parse_qs(query, keep_blank_values=True).items():
            key = key.lower()
            if key in ("to", "cc", "bcc"):
                fields[key] += _addresses(values)
            elif key in ("subject", "body"):
                fields[key] = values[-1]
    extras = intent.extras
    fields["to"] += _addresses(extras.get(EXTRA + "EMAIL"))
    fields["cc"] += _addresses(extras.get(EXTRA + "CC"))
    fields["bcc"] += _addresses(extras.get(EXTRA + "BCC"))
    fields["subject"] = str(extras.get(EXTRA + "SUBJECT") or fields["subject"])
    fields["body"] = str(extras.get(EXTRA + "TEXT") or fields["body"])
    return fields


def web_link(ctx: AppContext, uri: str) -> Screen:
    """mail.google.com/mail/u/0/#search/QUERY, #inbox, #sent, #starred, #label/NAME... as Gmail's screens."""
    fragment = unquote(urlsplit(uri).fragment.replace("+", " "))
    target, _, rest = fragment.partition("/")
    target = target.lower()
    if target == "search" and rest.strip():
        return ctx.screen("search", activity=MAIN, query=rest.strip())
    if target == "label" and rest in ctx.state["labels"]:
        return ctx.screen("mailbox", activity=MAIN, folder=f"label:{rest}")
    if target in FOLDERS:
        return ctx.screen("mailbox", activity=MAIN, folder=target)
    return ctx.screen("mailbox", activity=MAIN, folder="inbox")
