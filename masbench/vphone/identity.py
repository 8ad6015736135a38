"""Who each app is (package, launcher label, launcher activity, shipped in the system image or not).

The one table of app identity is the data file `identity.yaml` beside this module, not Python code:
the virtual phone imports nothing from the rest of masbench, and the benchmark side (`masbench.catalog`)
must not import the phone, so both read the same file. App classes take their `package` and `label`
from here; tests/test_app_identity.py checks that every simulated app agrees with the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import yaml

TABLE = Path(__file__).with_name("identity.yaml")


class AppIdentity(NamedTuple):
    package: str
    label: str
    launcher_activity: str | None
    system: bool  # ships in the system image of a Google APIs AVD; every other app is user-installed


IDENTITIES: dict[str, AppIdentity] = {
    name: AppIdentity(row["package"], row["label"], row.get("launcher_activity"), row.get("system", False))
    for name, row in yaml.safe_load(TABLE.read_text(encoding="utf-8")).items()
}


def identity(name: str) -> AppIdentity:
    """The identity of the app with short name `name` (as tasks and shortcuts call it)."""
    return IDENTITIES[name]
