"""Where the benchmark's data (the shortcut KB and the tasks) lives.

Decision: the YAML stays at the top of the checkout (`shortcuts_kb/`, `tasks/`), where researchers edit
it. An editable install reads it there; a regular `pip install .` copies it to
`<prefix>/share/masbench/` (pyproject `data-files`), which is the fallback. An environment variable
(`MASBENCH_KB_DIR`, `MASBENCH_TASKS_DIR`) or a CLI option overrides both."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import masbench


def data_dir(name: str, env: str) -> Path:
    """The directory of data set `name` ("shortcuts_kb", "tasks" or "emulator", the scripts)."""
    if os.environ.get(env):
        return Path(os.environ[env])
    checkout = Path(masbench.__file__).resolve().parents[1] / name
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "masbench" / name
