"""Comparison ops of task checks (docs/formats.md): `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`,
`contains`, `icontains`, `regex`, `exists`, `mentions`.

A condition is a dict of ops that must all hold; a bare value means `eq`. Conditions are validated when
a task file loads (`normalize`), so evaluation never meets an unknown op. Two decisions beyond the table:

- a string that holds a number compares as a number against a number, so `setting: {..., eq: 2}` and
  `gte: 120` work on Android's string-valued settings;
- `exists: true` holds when the path resolves to a non-null value, `exists: false` when it does not;
  every other op fails on a missing value;
- `mentions` finds typed values in free text with the matchers of `textmatch` (each group of them tied to
  one item), so checks never hand-write regexes for what an agent writes.
"""

from __future__ import annotations

import re
from typing import Any

from . import textmatch

OPS = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "contains", "icontains", "regex", "exists", "mentions")
ORDERING = ("gt", "gte", "lt", "lte")


class _Missing:
    """The value at a path that does not exist (distinct from a stored null)."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()


def is_ops(value: Any) -> bool:
    """Is `value` an op dict (every key an op), rather than a bare value to compare with `eq`?"""
    return isinstance(value, dict) and bool(value) and all(k in OPS for k in value)


def normalize(value: Any) -> dict[str, Any]:
    """A condition as an op dict: a bare value becomes `{eq: value}`; op values are checked."""
    if not is_ops(value):
        if isinstance(value, dict) and any(k in OPS for k in value):
            mixed = ", ".join(sorted(k for k in value if k not in OPS))
            raise ValueError(f"mixes ops with other keys ({mixed}); ops are {', '.join(OPS)}")
        return {"eq": value}
    return validate_ops(value)


def validate_ops(cond: dict[str, Any]) -> dict[str, Any]:
    """Check an op dict: known ops, at least one, operands of the right kind (`mentions` groups come back
    normalized, `textmatch.normalize`)."""
    if not cond:
        raise ValueError(f"needs at least one op: {', '.join(OPS)}")
    for op, operand in cond.items():
        if op not in OPS:
            raise ValueError(f"unknown op {op!r}; ops are {', '.join(OPS)}")
        _check_operand(op, operand)
    return {op: textmatch.normalize(v) if op == "mentions" else v for op, v in cond.items()}


def _check_operand(op: str, operand: Any) -> None:
    if op in ORDERING and (isinstance(operand, bool) or not isinstance(operand, int | float | str)):
        raise ValueError(f"{op} needs a number or a string, got {operand!r}")
    if op == "in" and not isinstance(operand, list):
        raise ValueError(f"in needs a list, got {operand!r}")
    if op in ("icontains", "regex") and not isinstance(operand, str):
        raise ValueError(f"{op} needs a string, got {operand!r}")
    if op == "regex":
        try:
            re.compile(operand)
        except re.error as exc:
            raise ValueError(f"bad regex {operand!r}: {exc}") from None
    if op == "exists" and not isinstance(operand, bool):
        raise ValueError(f"exists needs true or false, got {operand!r}")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _coerce(actual: Any, expected: Any) -> Any:
    """A numeric string against a number compares as a number (Android settings are strings)."""
    if isinstance(actual, str) and _is_number(expected):
        try:
            return float(actual)
        except ValueError:
            return actual
    return actual


def _eq(actual: Any, expected: Any) -> bool:
    return bool(_coerce(actual, expected) == expected)


def _order(op: str, actual: Any, expected: Any) -> bool:
    actual = _coerce(actual, expected)
    try:
        if op == "gt":
            return bool(actual > expected)
        if op == "gte":
            return bool(actual >= expected)
        if op == "lt":
            return bool(actual < expected)
        return bool(actual <= expected)
    except TypeError:
        return False


def _contains(actual: Any, expected: Any) -> bool:
    if isinstance(actual, list):
        return any(_eq(item, expected) for item in actual)
    if isinstance(actual, str):
        return str(expected) in actual
    if isinstance(actual, dict):
        return expected in actual
    return False


def _icontains(actual: Any, expected: str) -> bool:
    """Case-insensitive substring; on a list, of any string item."""
    needle = expected.lower()
    if isinstance(actual, list):
        return any(isinstance(item, str) and needle in item.lower() for item in actual)
    return isinstance(actual, str) and needle in actual.lower()


def _apply(op: str, actual: Any, expected: Any) -> bool:
    if op == "exists":
        return bool((actual is not MISSING and actual is not None) == expected)
    if actual is MISSING:
        return False
    if op == "eq":
        return _eq(actual, expected)
    if op == "ne":
        return not _eq(actual, expected)
    if op in ORDERING:
        return _order(op, actual, expected)
    if op == "in":
        return any(_eq(actual, option) for option in expected)
    if op == "contains":
        return _contains(actual, expected)
    if op == "icontains":
        return _icontains(actual, expected)
    if op == "mentions":
        return isinstance(actual, str) and not textmatch.missing(actual, expected)
    # regex
    return isinstance(actual, str | int | float) and re.search(expected, str(actual)) is not None


def failed_op(actual: Any, cond: dict[str, Any]) -> str | None:
    """The first op of `cond` that `actual` does not satisfy, described (`gte 100`; for `mentions`, the
    first group not found), or None if all hold."""
    for op, expected in cond.items():
        if not _apply(op, actual, expected):
            if op == "mentions" and isinstance(actual, str):
                return f"mentions {textmatch.describe(textmatch.missing(actual, expected)[0])}"
            return f"{op} {_operand(op, expected)}"
    return None


def holds(actual: Any, cond: dict[str, Any]) -> bool:
    return failed_op(actual, cond) is None


def describe(cond: dict[str, Any]) -> str:
    """`gte 100, lte 200`, or just the value for a bare `eq`."""
    if list(cond) == ["eq"]:
        return repr(cond["eq"])
    return ", ".join(f"{op} {_operand(op, v)}" for op, v in cond.items())


def _operand(op: str, operand: Any) -> str:
    if op == "mentions":
        return "; ".join(textmatch.describe(group) for group in operand)
    return repr(operand)


def resolve(data: Any, path: str) -> tuple[Any, str | None]:
    """The value at a dotted path (integers index lists, negative from the end) and, when it is
    missing, the prefix of the path that does not exist."""
    current = data
    walked: list[str] = []
    for part in path.split("."):
        walked.append(part)
        if isinstance(current, dict) and part in current:
            current = current[part]
        elif (
            isinstance(current, list)
            and re.fullmatch(r"-?\d+", part)
            and -len(current) <= int(part) < len(current)
        ):
            current = current[int(part)]
        else:
            return MISSING, ".".join(walked)
    return current, None


def show(value: Any, limit: int = 120) -> str:
    """A value for a detail line, cut to `limit` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
