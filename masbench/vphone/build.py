"""The one place a virtual phone is put together: the phone model gets its apps (the registry's, unless
a test brings its own) and its shell. It sits above the apps and the shell and below the servers, so the
phone model imports neither."""

from __future__ import annotations

from datetime import datetime

from .app import App
from .apps import default_apps
from .phone import VirtualPhone
from .shell import run_shell


def build_phone(
    serial: str, apps: list[App] | None = None, seed: int = 0, clock: datetime | None = None
) -> VirtualPhone:
    """A phone named `serial` with `apps` (default: every registered app) and the POSIX-ish shell."""
    return VirtualPhone(serial, default_apps() if apps is None else apps, run_shell, seed=seed, clock=clock)
