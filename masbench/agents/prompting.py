"""Prompt templates kept as readable text files (`prompts/NAME.txt`), filled with `string.Template`.

`$field` (or `${field}`) marks a value; `$$` is a literal dollar. Braces need no escaping, so JSON
examples read as they will be sent. A template asking for a field the caller did not give is a bug in
the agent, reported with the template's name and the missing field, never sent half-filled to a model.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterable
from importlib import resources
from typing import TYPE_CHECKING

from masbench.catalog import APPS, BY_PACKAGE

if TYPE_CHECKING:
    from masbench.device import Observation
    from masbench.shortcuts import Shortcut


class PromptError(KeyError):
    """A template is missing, or asks for a field the caller did not provide."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0])


@functools.cache
def template(name: str) -> string.Template:
    """The template `prompts/<name>.txt`, read once."""
    path = resources.files("masbench.agents") / "prompts" / f"{name}.txt"
    try:
        return string.Template(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PromptError(
            f"no prompt template {name!r} (expected masbench/agents/prompts/{name}.txt)"
        ) from None


def fields(name: str) -> set[str]:
    """The field names a template uses."""
    return set(template(name).get_identifiers())


def render(name: str, **values: object) -> str:
    """Fill template `name`; every field it uses must be given (extra values are ignored)."""
    tpl = template(name)
    missing = sorted(fields(name) - values.keys())
    if missing:
        raise PromptError(f"prompt template {name!r} needs field(s) {', '.join(missing)}")
    return tpl.substitute({k: str(v) for k, v in values.items()}).rstrip("\n")


# -- pieces every agent's prompts share ------------------------------------------------------------------
NO_ELEMENTS = "(no UI elements were found: the screen may still be loading)"
NO_SHORTCUTS = "(none available)"


def app_names() -> str:
    """The launchable apps' labels, for the open_app action."""
    return ", ".join(a.label for a in APPS.values() if a.name != "launcher")


def fragments() -> dict[str, str]:
    """The shared blocks system prompts embed: `$gui_actions`, `$shortcut_actions`, `$guidance`,
    `$output_format`."""
    return {
        "gui_actions": render("gui_actions", apps=app_names()),
        "shortcut_actions": render("shortcut_actions"),
        "guidance": render("guidance"),
        "output_format": render("output_format"),
    }


def system_prompt(name: str, **values: object) -> str:
    """Template `name` with the shared fragments filled in (plus any `values`)."""
    return render(name, **{**fragments(), **values})


def screen_name(observation: Observation) -> str:
    """`Amazon Shopping (com.amazon.mShop.android.shopping/.SearchActivity)`."""
    info = BY_PACKAGE.get(observation.package)
    where = f"{observation.package}/{observation.activity}".rstrip("/")
    return f"{info.label} ({where})" if info is not None else where or "unknown"


def shortcut_lines(shortcuts: Iterable[Shortcut]) -> str:
    """One signature line per shortcut, with its example call when the KB gives one."""
    lines = []
    for s in shortcuts:
        line = f"- {' '.join(s.signature().split())}"
        if s.example:
            line += f"\n  example: {s.example}"
        lines.append(line)
    return "\n".join(lines) or NO_SHORTCUTS
