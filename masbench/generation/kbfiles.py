"""Write generated shortcuts as a knowledge-base directory in the KB schema: one YAML file per app, read
back by `load_kb` like the predefined KB (so a generated KB is validated exactly as a hand-written one)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

from masbench.catalog import APPS
from masbench.shortcuts import Shortcut, load_kb


def write_kb(shortcuts: list[Shortcut], out: Path) -> Path:
    """Write `shortcuts` under `out` (created; files of the same apps replaced) and load them back."""
    by_app: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for shortcut in shortcuts:
        entry = shortcut.model_dump(mode="json", exclude_none=True)  # nested actions keep their `action`
        for key in ("app", "package", "expect"):  # the file says the app; replays expect nothing
            entry.pop(key, None)
        by_app[shortcut.app].append({k: v for k, v in entry.items() if v != []})
    out.mkdir(parents=True, exist_ok=True)
    for app, entries in sorted(by_app.items()):
        document = {"app": app, "package": APPS[app].package, "shortcuts": entries}
        (out / f"{app}.yaml").write_text(
            yaml.safe_dump(document, sort_keys=False, allow_unicode=True), "utf-8"
        )
    load_kb(out)  # a generated KB that the loader refuses is a bug here, not the user's problem later
    return out
