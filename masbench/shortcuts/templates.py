"""`{param}` placeholders in KB templates: find them, and fill them from a call's arguments.

A placeholder is `{name}` with `name` an identifier; anything else in braces (a regex quantifier `{2,3}`)
is literal text. Filling never builds shell text: values land in argument lists that are quoted later,
so a value can contain any character.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
REGEX_KEYS = frozenset({"text_regex"})  # selector fields whose filled values are regex-escaped


class MissingValue(LookupError):
    """A template names a parameter the call did not give (an optional one without default)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def placeholders(text: str) -> list[str]:
    return PLACEHOLDER.findall(text)


def as_text(value: Any) -> str:
    """How a typed argument reads inside text: booleans as `true`/`false`, the rest as `str`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def fill(text: str, values: Mapping[str, Any], encode: Callable[[str], str] = str) -> str:
    """Replace every placeholder by its value (passed through `encode`); MissingValue if one is unset."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise MissingValue(name)
        return encode(as_text(values[name]))

    return PLACEHOLDER.sub(one, text)


def fill_typed(template: Any, values: Mapping[str, Any]) -> Any:
    """Fill one argument value: a string that is exactly `{p}` becomes p's typed value (an integer stays
    an integer); other strings are filled as text; non-strings pass through."""
    if not isinstance(template, str):
        return template
    whole = PLACEHOLDER.fullmatch(template)
    if whole is not None:
        if whole.group(1) not in values:
            raise MissingValue(whole.group(1))
        return values[whole.group(1)]
    return fill(template, values)


def fill_data(data: Any, values: Mapping[str, Any], key: str = "") -> Any:
    """Fill every string inside nested dicts and lists; values under `text_regex` are regex-escaped."""
    if isinstance(data, str):
        return fill(data, values, re.escape if key in REGEX_KEYS else str)
    if isinstance(data, dict):
        return {k: fill_data(v, values, k) for k, v in data.items()}
    if isinstance(data, list):
        return [fill_data(v, values, key) for v in data]
    return data


def walk(data: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(dotted path, placeholder name) for every placeholder inside nested dicts and lists."""
    if isinstance(data, str):
        for name in placeholders(data):
            yield path, name
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from walk(v, f"{path}.{k}" if path else str(k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from walk(v, f"{path}.{i}" if path else str(i))
