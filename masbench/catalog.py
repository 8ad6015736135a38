"""The apps MAS-Bench covers: short name, real package, launcher label, launcher activity and the other
names people use for them. Shared by the device layer (open an app by name on any phone), the shortcut KB,
the tasks and the agents.

The table itself is `masbench/vphone/identity.yaml`, read here as a data file (not imported: the
benchmark side must not depend on the virtual phone's code, and the phone imports nothing from
masbench), so the phone's apps and the catalog cannot drift apart; tests/test_app_identity.py checks it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import yaml

TABLE = Path(__file__).with_name("vphone") / "identity.yaml"


class AppInfo(NamedTuple):
    name: str
    package: str
    label: str
    launcher_activity: str | None  # None for the home app, which no launcher icon opens
    aliases: tuple[str, ...]  # other names people use, besides the label and the short name


APPS: dict[str, AppInfo] = {
    name: AppInfo(
        name, row["package"], row["label"], row.get("launcher_activity"), tuple(row.get("aliases", ()))
    )
    for name, row in yaml.safe_load(TABLE.read_text(encoding="utf-8")).items()
}
BY_PACKAGE: dict[str, AppInfo] = {a.package: a for a in APPS.values()}


def package_of(name: str) -> str:
    """Package for a short name (or a package given as is); KeyError names the known apps."""
    if name in APPS:
        return APPS[name].package
    if name in BY_PACKAGE:
        return name
    raise KeyError(f"unknown app {name!r}; known: {', '.join(APPS)}")
