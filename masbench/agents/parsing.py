"""Turn a model's free-form reply into one validated action, or a reason why it cannot be used.

Models wrap the JSON action in prose, code fences and `Reason: ... Action: ...` scaffolding, and slip on
details: single quotes, Python `True`/`None`, trailing commas, unquoted keys, AndroidWorld's action names
(`click`, `input_text`, `status`), or a shortcut written as a call `amazon.search_product(query="x")`.
`parse_model_action` tolerates all of these and never raises: whatever is still unusable comes back as
`ParsedAction.error`, which the episode records as an invalid step.
"""

from __future__ import annotations

import ast
import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import ValidationError

from masbench.actions import Action, ShortcutAction, TypeAction, parse_action
from masbench.actions.schema import parse_call

MAX_CHARS = 50_000  # longer replies are cut before scanning: a runaway reply must not stall a run
MAX_CANDIDATES = 20
MAX_CALL = 2_000  # a call written as `name(...)` longer than this is not an action

ACTION_ALIASES = {
    "tap": "tap", "click": "tap", "press": "tap", "touch": "tap", "double_tap": "tap",
    "long_press": "long_press", "long_click": "long_press", "longpress": "long_press",
    "type": "type", "input_text": "type", "type_text": "type", "input": "type", "enter_text": "type",
    "swipe": "swipe", "scroll": "scroll",
    "back": "back", "navigate_back": "back", "go_back": "back", "press_back": "back",
    "home": "home", "navigate_home": "home", "go_home": "home", "press_home": "home",
    "enter": "enter", "keyboard_enter": "enter", "press_enter": "enter",
    "open_app": "open_app", "launch_app": "open_app", "open": "open_app", "open_application": "open_app",
    "wait": "wait",
    "shortcut": "shortcut", "call_shortcut": "shortcut", "shortcut_call": "shortcut", "call": "shortcut",
    "answer": "answer", "respond": "answer",
    "finish": "finish", "status": "finish", "done": "finish", "stop": "finish", "terminate": "finish",
    "complete": "finish", "task_complete": "finish",
}  # fmt: skip
STATUS_ALIASES = {
    "success": "success", "successful": "success", "complete": "success", "completed": "success",
    "done": "success", "finished": "success", "true": "success",
    "infeasible": "infeasible", "impossible": "infeasible", "not_feasible": "infeasible",
    "failure": "failure", "fail": "failure", "failed": "failure", "false": "failure",
}  # fmt: skip
# model-side commentary that sometimes lands inside the action object
COMMENT_KEYS = {"reason", "reasoning", "thought", "thoughts", "thinking", "explanation", "description",
                "summary", "note", "comment", "rationale", "observation"}  # fmt: skip
FIELD_ALIASES = {
    "element_index": "index", "element_id": "index", "element": "index", "idx": "index", "mark": "index",
    "clear_text": "clear",
    "args": "arguments", "params": "arguments", "parameters": "arguments", "kwargs": "arguments",
}  # fmt: skip
TEXT_KEYS = ("text", "content", "value", "input", "message", "answer")
NAME_KEYS = ("name", "app_name", "app", "package", "application")
SHORTCUT_NAME_KEYS = ("name", "shortcut", "shortcut_name", "function", "call", "tool")
KNOWN_ACTIONS = set(ACTION_ALIASES.values())
POSITIONAL = {"tap": "index", "long_press": "index", "type": "text", "open_app": "name", "answer": "text",
              "scroll": "direction", "swipe": "direction", "finish": "status", "wait": "seconds"}  # fmt: skip

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n?(.*?)```", re.S)
_ACTION_MARK = re.compile(r"\baction[ \t*_]*[:：]", re.I)
_REASON = re.compile(
    r"\b(?:reason|thought|thinking)[ \t*_]*[:：](.*?)(?=\baction[ \t*_]*[:：]|\Z)", re.I | re.S
)
_TOKEN = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|[A-Za-z_][A-Za-z0-9_]*|\s+|.", re.S)
_LITERALS = {"true": "True", "false": "False", "null": "None"}
_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\(")


@dataclass(frozen=True)
class Grammar:
    """What an agent's prompt offers: its actions (by this project's names) and how an element may be
    named ("index", "coordinates", "selector"). A reply outside it is an invalid step, however well
    formed: an agent must not act through an interface its prompt never described."""

    actions: frozenset[str]
    targets: frozenset[str] = frozenset({"index"})
    type_presses_enter: bool = False  # AndroidWorld's input_text types, then presses Enter

    def with_actions(self, *names: str) -> Grammar:
        return replace(self, actions=self.actions | frozenset(names))


ParseMode = Literal["strict", "lenient"]


@dataclass(frozen=True)
class ParsedAction:
    """The action a reply asked for (None when unusable, `error` says why) and the model's stated reason.
    `rescued` marks a reply the agent's strict rules refuse and the lenient parser still read: the run
    counts such steps, so a reader sees how much leniency changed the score."""

    action: Action | None
    error: str | None = None
    reason: str = ""
    rescued: bool = False


def parse_in_mode(
    text: str, mode: ParseMode, strict: Callable[[str], ParsedAction], lenient: Callable[[str], ParsedAction]
) -> ParsedAction:
    """`strict`'s reading of `text`; in lenient mode, a reply it refuses is read by `lenient` instead and
    marked `rescued` when that yields an action."""
    first = strict(text)
    if mode == "strict" or first.action is not None:
        return first
    second = lenient(text)
    return replace(second, rescued=second.action is not None)


def parse_model_action(text: str, *, allow_shortcuts: bool, grammar: Grammar | None = None) -> ParsedAction:
    """The single action in `text`; shortcut calls are an error unless `allow_shortcuts`, and anything
    `grammar` (when given) does not offer is an error too."""
    try:
        return _parse(str(text)[:MAX_CHARS], allow_shortcuts, grammar)
    except Exception as exc:  # the contract is "never raises": a parser bug becomes an invalid step
        return ParsedAction(None, f"could not parse the reply ({type(exc).__name__}: {exc})")


def _parse(text: str, allow_shortcuts: bool, grammar: Grammar | None) -> ParsedAction:
    reason = _reason(text)
    if not text.strip():
        return ParsedAction(None, "empty reply: expected an action as JSON", reason)
    first_error: str | None = None
    for candidate in _candidates(text):
        data = _load(candidate)
        if data is None:
            continue
        normalized = _normalize(data)
        if normalized is None:
            continue
        action, error = _validate(normalized, allow_shortcuts)
        if action is not None and grammar is not None:
            action, error = _within(action, grammar)
        if action is not None:
            return ParsedAction(action, None, reason or _inline_reason(data))
        first_error = first_error or error
    return ParsedAction(None, first_error or "no action found: reply with one JSON object such as "
                        '{"action": "tap", "index": 3}', reason)  # fmt: skip


def _reason(text: str) -> str:
    m = _REASON.search(text)
    return " ".join(m.group(1).split())[:1000] if m else ""


def _inline_reason(data: Any) -> str:
    if isinstance(data, dict):
        for key, value in data.items():
            if str(key).lower() in COMMENT_KEYS and isinstance(value, str):
                return " ".join(value.split())[:1000]
    return ""


# -- finding candidates ---------------------------------------------------------------------------------
def _candidates(text: str) -> list[str]:
    """Places an action may be written, most likely first: after `Action:`, in fences, then anywhere."""
    found: list[str] = []
    marks = list(_ACTION_MARK.finditer(text))
    if marks:
        tail = text[marks[-1].end() :]
        found += _objects(tail)[:1] + _calls(tail)[:1]
    for fence in _FENCE.finditer(text):
        found += _objects(fence.group(1))[::-1] + _calls(fence.group(1))[:1]
    objects = _objects(text)
    found += objects[::-1] + _calls(text)
    if not objects and "{" in text:  # a reply cut off before its closing brace
        found.append(text[text.find("{") :].rstrip().rstrip("`").rstrip() + "}")
    return list(dict.fromkeys(found))[:MAX_CANDIDATES]


def _objects(text: str) -> list[str]:
    """Balanced outermost `{...}` spans, in order, found in one pass; braces in quoted strings do not
    count, and an opening brace that never closes does not hide the balanced objects inside it."""
    spans: list[tuple[int, int]] = []
    stack: list[int] = []
    quote, escaped = "", False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote or ch == "\n":
                quote = ""
        elif ch in "\"'" and stack:
            quote = ch
        elif ch == "{":
            stack.append(i)
        elif ch == "}" and stack:
            spans.append((stack.pop(), i))
    outermost: list[tuple[int, int]] = []
    for begin, end in sorted(spans):
        if not outermost or begin > outermost[-1][1]:
            outermost.append((begin, end))
    return [text[b : e + 1] for b, e in outermost[:MAX_CANDIDATES]]


def _calls(text: str) -> list[str]:
    """`name(...)` call expressions such as `amazon.search_product(query="x")` or `tap(3)` (the first
    `MAX_CANDIDATES` tried: a call is written near the start of a reply, or after `Action:`)."""
    calls = []
    for tried, m in enumerate(_CALL.finditer(text)):
        if tried >= MAX_CANDIDATES:
            break
        end = _closing_paren(text, m.end() - 1)
        if end is not None:
            calls.append(text[m.start() : end + 1])
    return calls


def _closing_paren(text: str, at: int) -> int | None:
    """Index of the `)` closing the `(` at `at` within `MAX_CALL` characters, or None."""
    depth, quote, escaped = 0, "", False
    for i in range(at, min(len(text), at + MAX_CALL)):
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote or ch == "\n":
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


# -- reading one candidate ------------------------------------------------------------------------------
def _load(candidate: str) -> Any:
    """JSON, else the same text repaired (quotes, literals, commas, bare keys), else a call; None if none."""
    candidate = candidate.strip()
    if candidate.startswith("{"):
        try:
            return json.loads(candidate)
        except (ValueError, RecursionError):
            pass
        try:
            return ast.literal_eval(_pythonize(candidate))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    if candidate.endswith(")") and _CALL.match(candidate):
        return _load_call(candidate)
    return None


def _pythonize(text: str) -> str:
    """Rewrite JSON-ish text as a Python literal: true/false/null become Python's, bare keys get quotes."""
    parts = _TOKEN.findall(text)
    out, last = [], ""
    for i, tok in enumerate(parts):
        if tok[0].isalpha() or tok[0] == "_":
            after = next((t for t in parts[i + 1 : i + 3] if not t.isspace()), "")
            tok = repr(tok) if after == ":" and last in ("{", ",") else _LITERALS.get(tok, tok)
        out.append(tok)
        if not tok.isspace():
            last = tok
    return "".join(out)


def _load_call(candidate: str) -> dict[str, Any] | None:
    """`app.shortcut(k=v)` → a shortcut action; `tap(3)` / `open_app("Maps")` → that GUI action."""
    try:
        node = ast.parse(candidate, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(node, ast.Call):
        return None
    name = ast.unparse(node.func)
    if name.lower() in ACTION_ALIASES and "." not in name:
        kind = ACTION_ALIASES[name.lower()]
        data: dict[str, Any] = {"action": kind}
        try:
            for kw in node.keywords:
                if kw.arg is None:
                    return None
                data[kw.arg] = ast.literal_eval(kw.value)
            if len(node.args) == 1 and kind in POSITIONAL:
                data.setdefault(POSITIONAL[kind], ast.literal_eval(node.args[0]))
            elif node.args:
                return None
        except (ValueError, SyntaxError, TypeError):
            return None
        return data
    if "." not in name:
        return None
    try:
        qualified, arguments = parse_call(candidate)
    except ValueError:
        return None
    return {"action": "shortcut", "name": qualified, "arguments": arguments}


# -- normalising ----------------------------------------------------------------------------------------
def _normalize(data: Any) -> dict[str, Any] | None:
    """Map aliases onto the action schema; None when `data` does not look like an action at all."""
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    if not isinstance(data, dict):
        return None
    data = {str(k).strip().lower(): v for k, v in data.items()}
    if isinstance(data.get("action"), dict):  # {"reason": "...", "action": {...}}
        data = {str(k).strip().lower(): v for k, v in data["action"].items()}
    kind_key = next((k for k in ("action", "action_type", "type") if isinstance(data.get(k), str)), None)
    if kind_key is None:
        return None
    raw_kind = data.pop(kind_key).strip()
    kind = ACTION_ALIASES.get(raw_kind.lower().replace("-", "_").replace(" ", "_"))
    data = {k: v for k, v in data.items() if k not in COMMENT_KEYS}
    if kind is None and "." in raw_kind:  # {"action": "amazon.search_product", "query": "x"}
        return _shortcut({"name": raw_kind, **data})
    if kind is None:
        return {"action": raw_kind} if kind_key != "type" else None
    for old, new in FIELD_ALIASES.items():
        if old in data and new not in data:
            data[new] = data.pop(old)
    if kind != "shortcut" and isinstance(data.get("arguments"), dict):
        data = {**data.pop("arguments"), **data}
    if isinstance(data.get("direction"), str):
        data["direction"] = data["direction"].strip().lower()
    return _FIXERS.get(kind, _plain)(kind, data)


def _plain(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"action": kind, **data}


def _targeted(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    coords = next((data.pop(k) for k in ("coordinate", "coordinates", "point", "xy") if k in data), None)
    if isinstance(coords, list | tuple) and len(coords) == 2:
        data.setdefault("x", coords[0])
        data.setdefault("y", coords[1])
    if kind == "type":
        _rename_first(data, TEXT_KEYS, "text")
    if isinstance(data.get("index"), str) and data["index"].strip().lstrip("[").rstrip("]").isdigit():
        data["index"] = int(data["index"].strip().lstrip("[").rstrip("]"))
    return {"action": kind, **data}


def _open_app(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    _rename_first(data, NAME_KEYS, "name")
    return {"action": kind, **data}


def _answer(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    _rename_first(data, TEXT_KEYS, "text")
    return {"action": kind, **data}


def _finish(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    status = next(
        (data.pop(k) for k in ("status", "goal_status", "result", "outcome") if k in data), "success"
    )
    data["status"] = STATUS_ALIASES.get(str(status).strip().lower(), str(status))
    return {"action": kind, **data}


def _shortcut(data: dict[str, Any], kind: str = "shortcut") -> dict[str, Any]:
    """Name and arguments from any of the usual spellings; loose keys become arguments."""
    name = next((data.pop(k) for k in SHORTCUT_NAME_KEYS if isinstance(data.get(k), str)), None)
    arguments: Any = {}
    if name is not None and "(" in name:
        with contextlib.suppress(ValueError):
            name, arguments = parse_call(name)
    for old, new in FIELD_ALIASES.items():
        if old in data and new not in data:
            data[new] = data.pop(old)
    given = data.pop("arguments", None)
    if isinstance(given, str):
        with contextlib.suppress(ValueError):
            given = json.loads(given)
    if given is not None and not isinstance(given, dict):
        return {"action": kind, "name": name, "arguments": given}  # let validation name the problem
    loose = {k: v for k, v in data.items() if k not in COMMENT_KEYS}
    return {"action": kind, **({"name": name} if name is not None else {}),
            "arguments": {**loose, **arguments, **(given or {})}}  # fmt: skip


def _rename_first(data: dict[str, Any], keys: tuple[str, ...], to: str) -> None:
    if to not in data:
        found = next((k for k in keys if k in data), None)
        if found is not None:
            data[to] = data.pop(found)


_FIXERS: dict[str, Callable[[str, dict[str, Any]], dict[str, Any]]] = {
    "tap": _targeted, "long_press": _targeted, "type": _targeted, "scroll": _targeted,
    "open_app": _open_app, "answer": _answer, "finish": _finish,
    "shortcut": lambda kind, data: _shortcut(data, kind),
}  # fmt: skip


def _validate(data: dict[str, Any], allow_shortcuts: bool) -> tuple[Action | None, str | None]:
    if data.get("action") not in KNOWN_ACTIONS:
        return None, f"unknown action {data.get('action')!r}; use one of: {', '.join(sorted(KNOWN_ACTIONS))}"
    try:
        action = parse_action(data)
    except ValidationError as exc:
        return None, f"invalid {data.get('action', 'action')!s} action: {_errors(exc)}"
    except (TypeError, ValueError) as exc:
        return None, f"invalid action: {exc}"
    if isinstance(action, ShortcutAction) and not allow_shortcuts:
        return None, f"shortcut {action.name} is not available: this agent has GUI actions only"
    return action, None


def _within(action: Action, grammar: Grammar) -> tuple[Action | None, str | None]:
    """`action` as the grammar executes it, or why the grammar does not offer it."""
    if action.action not in grammar.actions:
        return None, f"action {action.action!r} is not one this agent offers"
    used = {
        kind
        for kind, given in (
            ("index", getattr(action, "index", None) is not None),
            ("coordinates", getattr(action, "x", None) is not None),
            ("selector", getattr(action, "target", None) is not None),
        )
        if given
    }
    if used - grammar.targets:
        offered = " or ".join(sorted(grammar.targets))
        return None, f"{action.action} names its element by {', '.join(sorted(used))}; use its {offered}"
    if grammar.type_presses_enter and isinstance(action, TypeAction):
        action = action.model_copy(update={"enter": True})
    return action, None


def _errors(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err["loc"][1:])  # loc[0] is the action tag
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts)
