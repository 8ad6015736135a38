"""Intents and intent filters: how `am start`/`am broadcast` find their target, as Android resolves them."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

ACTION_MAIN = "android.intent.action.MAIN"
ACTION_VIEW = "android.intent.action.VIEW"
CATEGORY_LAUNCHER = "android.intent.category.LAUNCHER"
CATEGORY_DEFAULT = "android.intent.category.DEFAULT"
CATEGORY_BROWSABLE = "android.intent.category.BROWSABLE"
CATEGORY_HOME = "android.intent.category.HOME"
ACTION_SEND = "android.intent.action.SEND"
ACTION_CHOOSER = "android.intent.action.CHOOSER"
EXTRA_TEXT = "android.intent.extra.TEXT"
EXTRA_SUBJECT = "android.intent.extra.SUBJECT"
EXTRA_TITLE = "android.intent.extra.TITLE"


@dataclass
class Intent:
    """What `am start`/`am broadcast` builds from its flags."""

    action: str | None = None
    data: str | None = None
    mime_type: str | None = None
    categories: list[str] = field(default_factory=list)
    package: str | None = None
    component: str | None = None  # "pkg/.Activity" or "pkg/full.Activity"
    extras: dict[str, Any] = field(default_factory=dict)
    flags: int = 0

    def component_parts(self) -> tuple[str, str] | None:
        """(package, fully-qualified class) of an explicit component, expanding the leading-dot form."""
        if not self.component or "/" not in self.component:
            return None
        pkg, cls = self.component.split("/", 1)
        if cls.startswith("."):
            cls = pkg + cls
        return pkg, cls

    def short_string(self, extra_flags: int = 0) -> str:
        """`Intent.toShortString` as `am` and the activity manager print it."""
        parts = []
        if self.action:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data:
            parts.append(f"dat={self.data}")
        if self.mime_type:
            parts.append(f"typ={self.mime_type}")
        if self.flags | extra_flags:
            parts.append(f"flg=0x{self.flags | extra_flags:x}")
        if self.package:
            parts.append(f"pkg={self.package}")
        if cp := self.component_parts():
            parts.append(f"cmp={short_component(*cp)}")
        if self.extras:
            parts.append("(has extras)")
        return "Intent { " + " ".join(parts) + " }"


def short_component(package: str, cls: str) -> str:
    """`ComponentName.flattenToShortString`: pkg/.Act when the class lives in the package."""
    return f"{package}/{cls[len(package) :]}" if cls.startswith(package + ".") else f"{package}/{cls}"


@dataclass(frozen=True)
class IntentFilter:
    """One `<intent-filter>`: actions, categories and data (scheme/host/path glob) it accepts."""

    actions: tuple[str, ...]
    categories: tuple[str, ...] = (CATEGORY_DEFAULT,)
    schemes: tuple[str, ...] = ()
    hosts: tuple[str, ...] = ()  # "*.example.com" allowed
    path_patterns: tuple[str, ...] = ()  # fnmatch globs over the path; empty means any path
    mime_types: tuple[str, ...] = ()
    auto_verify: bool = False  # an http(s) app link whose domain Android has verified

    def matches(self, intent: Intent) -> bool:
        if intent.action and intent.action not in self.actions:
            return False
        if not intent.action and not self.actions:
            return False
        # Activities only receive implicit intents carrying DEFAULT; `am start` adds it implicitly.
        for category in intent.categories:
            if category not in self.categories:
                return False
        if intent.mime_type and self.mime_types:
            if not any(fnmatch.fnmatch(intent.mime_type, m) for m in self.mime_types):
                return False
        elif intent.mime_type and not self.mime_types:
            return False
        if intent.data is None:
            return not self.schemes
        if not self.schemes:
            return False
        parts = urlsplit(intent.data)
        if parts.scheme.lower() not in self.schemes:
            return False
        if self.hosts and not any(fnmatch.fnmatch((parts.hostname or "").lower(), h) for h in self.hosts):
            return False
        path = parts.path or "/"
        return not self.path_patterns or any(fnmatch.fnmatch(path, p) for p in self.path_patterns)


def chooser_intent(text: str, subject: str = "", title: str = "") -> Intent:
    """`Intent.createChooser(ACTION_SEND text/plain)`, flattened: the share sheet reads the extras itself."""
    extras = {EXTRA_TEXT: text, EXTRA_SUBJECT: subject, EXTRA_TITLE: title}
    return Intent(ACTION_CHOOSER, extras={k: v for k, v in extras.items() if v})
