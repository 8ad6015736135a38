"""AndroidWorld's reading of a T3A/M3A reply, the strict parse mode these agents use by default.

As published (`m3a_utils.parse_reason_action_output`, `agent_utils.extract_json`, `json_action.JSONAction`):
the reply needs a non-empty "Reason:" part and an "Action:" part (the reason runs to the last "Action:",
the action from the first); the action is the first `{...}` after "Action:" on one line, read as a
Python or JSON literal, and it may only use `JSONAction`'s fields. Of those, each field is either honoured
as AndroidWorld's executor honours it or refused: the prompt offers elements by index only, so `x`/`y`
are refused, as are `keycode`, action types the prompt never lists (`double_tap`, `swipe`, `unknown`) and
fields an action does not use (AndroidWorld would ignore them silently). `clear_text` on `input_text`
empties the field first, as AndroidWorld's executor does. The text is typed as written.

One difference: braces inside the object are balanced, so MAS-T3A's shortcut call, whose `arguments` are
an object, can be read (AndroidWorld's `\\{.*?\\}` stops at the first `}`).
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from pydantic import ValidationError

from masbench.actions import parse_action

from .parsing import Grammar, ParsedAction

_REASON = re.compile(r"Reason:(.*)Action:", re.S)
_ACTION = re.compile(r"Action:(.*)", re.S)

# AndroidWorld's action types by this project's names; `double_tap`, `swipe` and `unknown` parse there
# but no prompt offers them, so they are absent here and refused
OURS = {
    "click": "tap", "long_press": "long_press", "input_text": "type", "keyboard_enter": "enter",
    "navigate_home": "home", "navigate_back": "back", "scroll": "scroll", "open_app": "open_app",
    "wait": "wait", "status": "finish", "answer": "answer", "shortcut": "shortcut",
}  # fmt: skip
PUBLISHED_TYPES = {*OURS, "double_tap", "swipe", "unknown"} - {"shortcut"}
FIELDS = {"action_type", "index", "x", "y", "text", "direction", "goal_status", "app_name", "keycode",
          "clear_text"}  # fmt: skip
SHORTCUT_FIELDS = {"name", "arguments"}
# the fields each offered action honours, and those it needs
USES: dict[str, set[str]] = {
    "click": {"index"}, "long_press": {"index"}, "input_text": {"text", "index", "clear_text"},
    "scroll": {"direction", "index"}, "open_app": {"app_name"}, "status": {"goal_status"},
    "answer": {"text"}, "shortcut": SHORTCUT_FIELDS,
}  # fmt: skip
NEEDS: dict[str, set[str]] = {
    "click": {"index"}, "long_press": {"index"}, "input_text": {"text"}, "scroll": {"direction"},
    "open_app": {"app_name"}, "answer": {"text"}, "shortcut": {"name"},
}  # fmt: skip
DIRECTIONS = ("up", "down", "left", "right")
STATUSES = {"complete": "success", "infeasible": "infeasible"}  # any other goal_status still ends the task


def parse_strict(text: str, grammar: Grammar) -> ParsedAction:
    """The action in `text` by AndroidWorld's rules; never raises."""
    found_reason, found_action = _REASON.search(text), _ACTION.search(text)
    reason = found_reason.group(1).strip() if found_reason else ""
    written = found_action.group(1).strip() if found_action else ""
    if not reason or not written:
        return ParsedAction(None, 'the reply needs a "Reason: ..." part followed by an "Action: {...}" part')
    reason = " ".join(reason.split())[:1000]
    data = _first_object(written)
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        return ParsedAction(None, 'no action object after "Action:": write it on one line', reason)
    action, error = _action(data, grammar)
    return ParsedAction(action, error, reason)


def _first_object(written: str) -> Any:
    """The first `{...}` on one line, read as a Python literal, else as JSON; None when there is none."""
    start = written.find("{")
    if start < 0:
        return None
    depth = 0
    for end in range(start, len(written)):
        ch = written[end]
        if ch == "\n":
            return None
        depth += (ch == "{") - (ch == "}")
        if depth == 0:
            candidate = written[start : end + 1]
            try:
                return ast.literal_eval(candidate)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                try:
                    return json.loads(candidate)
                except ValueError:
                    return None
    return None


def _action(data: dict[str, Any], grammar: Grammar) -> tuple[Any, str | None]:
    kind = data.get("action_type")
    known = FIELDS | (SHORTCUT_FIELDS if "shortcut" in grammar.actions else set())
    unknown = sorted(set(data) - known)
    if not (isinstance(kind, str) and kind in OURS and OURS[kind] in grammar.actions):
        if kind in PUBLISHED_TYPES or kind == "shortcut":
            return None, f"action_type {kind!r} is not one of the actions listed"
        return None, f"invalid action_type {kind!r}"
    if unknown:
        return None, f"unknown field(s) {', '.join(map(repr, unknown))}: not part of the action format"
    given = {k for k, v in data.items() if v is not None and k != "action_type"}
    extra, missing = sorted(given - USES.get(kind, set())), sorted(NEEDS.get(kind, set()) - given)
    if {"x", "y"} & set(extra):
        return None, f"{kind} names its element by coordinates; use its index"
    if extra:
        return None, f"{kind} takes no {', '.join(map(repr, extra))}"
    if missing:
        return None, f"{kind} needs {', '.join(map(repr, missing))}"
    try:
        ours = _fields(kind, data)
        return parse_action(ours), None
    except ValidationError as exc:
        return None, f"invalid {kind}: {exc.errors()[0]['msg'].removeprefix('Value error, ')}"
    except (ValueError, TypeError) as exc:
        return None, f"invalid {kind}: {exc}"


def _fields(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The action in this project's schema, each field converted as AndroidWorld converts it."""
    out: dict[str, Any] = {"action": OURS[kind]}
    if data.get("index") is not None:
        out["index"] = int(data["index"])
    if kind in ("input_text", "answer"):
        out["text"] = data["text"] if isinstance(data["text"], str) else str(data["text"])
    if kind == "input_text":
        if not out["text"]:
            raise ValueError("the text to type is empty")
        out |= {"clear": bool(data.get("clear_text")), "enter": True}
    elif kind == "scroll":
        if data["direction"] not in DIRECTIONS:
            raise ValueError(f"direction must be one of {', '.join(DIRECTIONS)}")
        out["direction"] = data["direction"]
    elif kind == "open_app":
        out["name"] = str(data["app_name"])
    elif kind == "status":
        out["status"] = STATUSES.get(str(data.get("goal_status")), "failure")
    elif kind == "shortcut":
        out |= {"name": data["name"], "arguments": data.get("arguments") or {}}
    return out
