"""The compact step history every model agent shows its model: what it did, and what came of it.

One line per step from the episode's own records (action, success or the error, a shortcut call's
result and reason, where the phone ended up), enriched with the agent's notes taken when it decided (the
element it meant and its stated reason), since an index alone means nothing once the screen has changed.
This replaces AndroidWorld's separate per-step summary call: the outcome is known from the device, so
one model call per step suffices.
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
    from masbench.trajectory import StepRecord

MAX_STEPS_SHOWN = 30
MAX_REASON = 200
EMPTY = "(nothing yet: this is the first step)"


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


def _outcome(record: StepRecord) -> str:
    if record.kind == "invalid":
        return f"not executed: {record.error or 'unusable output'}"
    if record.kind == "shortcut":
        return "shortcut succeeded" if record.ok else f"shortcut failed: {record.error or 'unknown reason'}"
    return "done" if record.ok else f"failed: {record.error or 'unknown error'}"


def render_history(
    history: list[StepRecord], notes: Mapping[int, StepNote] | None = None, now: str | None = None
) -> str:
    """The history as numbered lines (the latest `MAX_STEPS_SHOWN`), or a first-step marker. `now` is
    the current foreground (`package/activity`), to tell where the last step left the phone."""
    if not history:
        return EMPTY
    notes = notes or {}
    lines = []
    start = max(0, len(history) - MAX_STEPS_SHOWN)
    if start:
        lines.append(f"({start} earlier steps not shown)")
    for i in range(start, len(history)):
        record, note = history[i], notes.get(history[i].index, StepNote())
        action = describe_action(record.action) if record.action else "(no valid action)"
        if note.target and record.action and record.action.get("index") is not None:
            action += f" {note.target}"
        line = f"Step {i + 1}: {action} -> {_outcome(record)}"
        after = history[i + 1].foreground if i + 1 < len(history) else now
        if after and after != record.foreground:
            line += f"; now in {app_name(after)}"
        if note.reason:
            line += f". Reason: {note.reason}"
        lines.append(line)
    return "\n".join(lines)
