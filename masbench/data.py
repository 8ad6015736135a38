"""Where the benchmark's data (the shortcut KB and the tasks) lives.

Decision: the YAML stays at the top of the checkout (`shortcuts_kb/`, `tasks/`), where researchers edit
it. An editable install reads it there; a regular `pip install .` copies it to
`<prefix>/share/masbench/` (pyproject `data-files`), which is the fallback. An environment variable
(`MASBENCH_KB_DIR`, `MASBENCH_TASKS_DIR`) or a CLI option overrides both."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import yaml

import masbench


def data_dir(name: str, env: str) -> Path:
    """The directory of data set `name` ("shortcuts_kb", "tasks" or "emulator", the scripts)."""
    if os.environ.get(env):
        return Path(os.environ[env])
    checkout = Path(masbench.__file__).resolve().parents[1] / name
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "masbench" / name


class _NoAliases(yaml.SafeLoader):
    """PyYAML's safe loader without aliases: a few hundred bytes of nested aliases (a "billion laughs")
    expand to gigabytes, and our data files (tasks, KB, action lists) never need them."""

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]  # types-PyYAML leaves it unannotated
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in masbench data files", event.start_mark
            )
        # types-PyYAML says `index: int`; PyYAML passes a mapping's key node (or None) too
        return super().compose_node(parent, index)  # type: ignore[arg-type]


def load_yaml(text: str) -> Any:
    """Parse one YAML document of user data, refusing aliases (`yaml.YAMLError` with the line)."""
    return yaml.load(text, Loader=_NoAliases)  # a SafeLoader subclass: as safe, only stricter
