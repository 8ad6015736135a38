"""Validating a shortcut call before anything touches a device.

`validate_call(kb, "amazon.search_product", {"query": "shoes", "min_price": 100})` returns a `BoundCall`
with typed arguments and defaults filled in, or raises `CallError` naming the shortcut and every bad
argument: missing required, unknown, ill-typed, outside the enum, malformed date/time. An argument given
as None counts as omitted (models often spell out optional arguments that way).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .parameters import show
from .schema import KnowledgeBase, Shortcut

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


class CallError(ValueError):
    """A shortcut call that cannot run: unknown shortcut or bad arguments. Raised before any device I/O."""


@dataclass(frozen=True)
class BoundCall:
    """A validated call: the shortcut and its typed arguments (defaults filled, unset optionals absent)."""

    shortcut: Shortcut
    arguments: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.shortcut.qualified_name

    def text(self) -> str:
        """`amazon.search_product(query="shoes", min_price=100)`; parses back with `parse_call`."""
        args = ", ".join(
            f"{k}={show(v) if isinstance(v, str) else repr(v)}" for k, v in self.arguments.items()
        )
        return f"{self.name}({args})"


def check_arguments(shortcut: Shortcut, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Typed arguments in parameter order, defaults filled; CallError listing every problem."""
    problems: list[str] = []
    params = {p.name: p for p in shortcut.parameters}
    for name in arguments:
        if name not in params:
            known = ", ".join(params) or "none"
            problems.append(f"unknown argument {name!r} (parameters: {known})")
    bound: dict[str, Any] = {}
    for param in shortcut.parameters:
        value = arguments.get(param.name)
        if value is None:
            if param.required:
                problems.append(f"missing required argument {param.name!r} ({param.type})")
            elif param.default is not None:
                bound[param.name] = param.default
            continue
        try:
            bound[param.name] = param.check(value)
        except ValueError as exc:
            problems.append(f"argument {param.name!r} {exc}")
    if problems:
        raise CallError(f"{shortcut.qualified_name}: " + "; ".join(problems))
    return bound


def validate_call(kb: KnowledgeBase, name: str, arguments: Mapping[str, Any] | None = None) -> BoundCall:
    """Look the shortcut up and check the arguments against its parameters."""
    shortcut = kb.get(name)
    if shortcut is None:
        raise CallError(kb.unknown_message(name))
    if arguments is not None and not isinstance(arguments, Mapping):
        raise CallError(
            f"{name}: arguments must be a mapping of name to value, not {type(arguments).__name__}"
        )
    return BoundCall(shortcut, check_arguments(shortcut, arguments or {}))


def coerce_cli_arguments(shortcut: Shortcut, items: Sequence[str]) -> dict[str, Any]:
    """`["query=red shoes", "min_price=100"]` → typed values for the declared parameter types.

    A value that does not convert stays a string, so `validate_call` reports it as ill-typed.
    """
    arguments: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise CallError(f"{shortcut.qualified_name}: argument {item!r} is not NAME=VALUE")
        if key in arguments:
            raise CallError(f"{shortcut.qualified_name}: argument {key!r} is given twice")
        param = shortcut.parameter(key)
        arguments[key] = _convert(param.type, text) if param is not None else text
    return arguments


def _convert(ptype: str, text: str) -> Any:
    try:
        if ptype == "integer":
            return int(text)
        if ptype == "number":
            return int(text) if text.strip().lstrip("+-").isdigit() else float(text)
    except ValueError:
        return text
    if ptype == "boolean" and text.strip().lower() in _TRUE | _FALSE:
        return text.strip().lower() in _TRUE
    return text
