"""The people every personal-data app shares (Contacts, Gmail, Calendar...), from `people.yaml`.

One fixed list, so the same person has the same email, phone and address in every app, and a cross-app
task can find a person in one app and use them in another."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).with_name("people.yaml")


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return data


def owner() -> dict[str, Any]:
    """The phone's owner (the account signed in to Gmail, Calendar...)."""
    return dict(_data()["owner"])


def people() -> list[dict[str, Any]]:
    """Every person, each a fresh dict (callers put them in app state and may change them)."""
    return [dict(p, name=f"{p['first']} {p['last']}", labels=list(p["labels"])) for p in _data()["people"]]
