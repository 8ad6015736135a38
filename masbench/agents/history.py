"""What the agents keep of their steps: the note taken when a step was chosen (the element meant and the
stated reason, since an index alone means nothing once the screen has changed), an app's name for a
foreground, and an action as a short call for prompts and logs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from masbench.catalog import BY_PACKAGE

if TYPE_CHECKING:
    from collections.abc import Mapping

    from masbench.actions import Action
    from masbench.device import Observation

MAX_REASON = 200


@dataclass(frozen=True)
class StepNote:
    """What the agent knew when it chose step N: the element it meant and why."""

    target: str = ""
    reason: str = ""


def note_for(action: Action | None, observation: Observation, reason: str = "") -> StepNote:
    """A note naming the element an index-targeted action meant on the screen the agent was shown."""
    index = getattr(action, "index", None)
    target = ""
    if index is not None:
        element = next((el for el in observation.elements if el.index == index), None)
        target = element.describe().split(" ", 1)[-1] if element is not None else "(no such element)"
    return StepNote(target=target, reason=" ".join(reason.split())[:MAX_REASON])


def app_name(foreground: str | None) -> str:
    """`com.amazon.mShop.android.shopping/.Main` → `Amazon Shopping`; unknown packages stay as they are."""
    package = (foreground or "").split("/", 1)[0]
    info = BY_PACKAGE.get(package)
    return info.label if info is not None else package or "unknown"


def describe_action(action: Mapping[str, Any]) -> str:
    """An action as a short call: `tap [5]`, `type "shoes" into [2]`, `amazon.search_product(query="x")`."""
    kind = action.get("action", "?")
    target = _target(action)
    if kind == "shortcut":
        args = ", ".join(
            f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in action.get("arguments", {}).items()
        )
        return f"{action.get('name')}({args})"
    if kind == "type":
        text = f"type {json.dumps(action.get('text', ''), ensure_ascii=False)}"
        return f"{text} into {target}" if target else text
    if kind in ("scroll", "swipe"):
        where = f" on {target}" if target else ""
        return f"{kind} {action.get('direction') or 'by coordinates'}{where}"
    if kind == "open_app":
        return f"open_app {json.dumps(action.get('name', ''), ensure_ascii=False)}"
    if kind == "answer":
        return f"answer {json.dumps(action.get('text', ''), ensure_ascii=False)}"
    if kind == "wait":
        return f"wait {action.get('seconds', 1.0)}s"
    return f"{kind} {target}".rstrip()


def _target(action: Mapping[str, Any]) -> str:
    if action.get("index") is not None:
        return f"[{action['index']}]"
    if action.get("x") is not None:
        return f"({action['x']}, {action['y']})"
    if action.get("target"):
        return "{" + ", ".join(f"{k}={v!r}" for k, v in action["target"].items()) + "}"
    return ""
