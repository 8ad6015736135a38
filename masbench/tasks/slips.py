"""Slips: what a careless agent does on the way, per app (slips.yaml), to prove every check catches them.

`masbench tasks verify` plays a task's hybrid reference, saves the phone, and for each slip of each app
the task names restores it, makes the slip in the app's state and judges the task: the check must fail,
through the frame (frame.py) or its own leaves. A slip is state, not taps, so it is the same whatever
screen the reference ends on; it is skipped where it cannot apply (nothing to drop, already set).
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from masbench.catalog import APPS

from . import ops
from .frame import identity_key

SLIPS_FILE = Path(__file__).with_name("slips.yaml")


class Slip(BaseModel):
    """One slip: `do` to the value at `path` in an app's state (slips.yaml says what each `do` means)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str
    path: str = Field(min_length=1)
    do: Literal["drop", "toggle", "add", "bump", "edit", "set"]
    value: Any = None
    from_: str | None = Field(None, alias="from")
    by: float = 1

    @model_validator(mode="after")
    def _operands(self) -> Slip:
        if self.do == "add" and (self.value is None) == (self.from_ is None):
            raise ValueError("`add` takes a `value` or a `from` list, one of them")
        if self.do == "set" and self.value is None:
            raise ValueError("`set` needs a `value`")
        return self

    def apply(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The app's stored state (what `cmd masbench patch` writes) with the slip made (a copy), or None
        when it cannot apply here."""
        slipped = copy.deepcopy(state)
        *parent_path, last = self.path.split(".")
        parent, missing = ops.resolve(slipped, ".".join(parent_path)) if parent_path else (slipped, None)
        if missing is not None:
            return None
        key: Any = int(last) if isinstance(parent, list) and last.lstrip("-").isdigit() else last
        try:
            current = parent[key]
        except (KeyError, IndexError, TypeError):
            return None
        new = self._changed(current, slipped)
        if new is None or new == current:
            return None
        parent[key] = new
        return slipped

    def _changed(self, current: Any, state: dict[str, Any]) -> Any:
        if self.do == "drop":  # a list's last item, or a table's last row (calendar events by id)
            if isinstance(current, dict) and current:
                return {k: v for k, v in list(current.items())[:-1]}
            return current[:-1] if isinstance(current, list) and current else None
        if self.do == "toggle":
            return (not current) if isinstance(current, bool) else None
        if self.do == "bump":
            return (
                current + self.by
                if isinstance(current, int | float) and not isinstance(current, bool)
                else None
            )
        if self.do == "edit":
            return f"{current} (old)" if isinstance(current, str) else None
        if self.do == "set":
            return self.value
        if not isinstance(current, list):
            return None
        item = self.value if self.from_ is None else _first_new(current, ops.resolve(state, self.from_)[0])
        return None if item is None or item in current else [*current, item]


def _first_new(target: list[Any], source: Any) -> Any:
    """The first item of `source` not in `target`, as `target` holds items: by id where `target` keeps
    ids only, cut to the fields `target`'s items have where it keeps records."""
    if not isinstance(source, list):
        return None
    source_key = identity_key(source, source)
    for item in source:
        if isinstance(item, dict) and target and not isinstance(target[0], dict):
            item = item.get(source_key) if source_key else None  # a list of ids
        elif isinstance(item, dict) and target and isinstance(target[0], dict):
            item = {k: v for k, v in item.items() if k in target[0]}
        key = identity_key(target, [item]) if isinstance(item, dict) else None
        if item is not None and item not in target and not (key and any(t[key] == item[key] for t in target)):
            return item
    return None


@cache
def app_slips() -> dict[str, tuple[Slip, ...]]:
    """Every app's slips, from slips.yaml (validated: a bad entry names the app, the slip and the field)."""
    data = yaml.safe_load(SLIPS_FILE.read_text(encoding="utf-8"))
    slips: dict[str, tuple[Slip, ...]] = {}
    for app, entries in data.items():
        if app not in APPS:
            raise ValueError(f"{SLIPS_FILE.name}: unknown app {app!r}")
        try:
            slips[app] = tuple(Slip.model_validate(e) for e in entries)
        except ValueError as exc:
            raise ValueError(f"{SLIPS_FILE.name}: {app}: {exc}") from None
    return slips


__all__ = ["Slip", "app_slips"]
