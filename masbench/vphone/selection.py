"""The selection language of Android content providers, for apps that answer `content query` (Calendar,
Contacts): `--where` is an SQL WHERE clause and `--sort` an ORDER BY list, evaluated over the rows a
provider returns as SQLite would evaluate them over its tables.

Supported: comparisons (`= == != <> < <= > >=`), `LIKE` (SQLite's: `%`, `_`, ASCII case-insensitive),
`IN (...)`, `IS [NOT] NULL`, `AND`, `OR`, `NOT`, parentheses; values are 'quoted' (`''` escapes a quote),
"quoted", numbers or NULL. A column a row lacks is NULL. Anything else is a syntax error, reported as the
provider reports one (`ValueError`, which `content` prints as an IllegalArgumentException)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

Row = dict[str, Any]
Predicate = Callable[[Row], bool]

TOKEN = re.compile(
    r"""\s*(?:
        (?P<string>'(?:[^']|'')*'|"(?:[^"]|"")*")
      | (?P<number>-?\d+(?:\.\d+)?)
      | (?P<op><=|>=|==|!=|<>|=|<|>|\(|\)|,)
      | (?P<word>[A-Za-z_][A-Za-z0-9_.]*)
    )""",
    re.VERBOSE,
)
COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: a == b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<>": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def _tokens(clause: str) -> list[tuple[str, Any]]:
    tokens: list[tuple[str, Any]] = []
    pos = 0
    while pos < len(clause.rstrip()):
        m = TOKEN.match(clause, pos)
        if m is None:
            raise ValueError(f"near {clause[pos:].strip()[:20]!r}: syntax error")
        pos = m.end()
        if m["string"] is not None:
            quote = m["string"][0]
            tokens.append(("value", m["string"][1:-1].replace(quote * 2, quote)))
        elif m["number"] is not None:
            tokens.append(("value", float(m["number"]) if "." in m["number"] else int(m["number"])))
        elif m["op"] is not None:
            tokens.append(("op", m["op"]))
        elif m["word"].upper() in ("AND", "OR", "NOT", "LIKE", "IN", "IS", "NULL"):
            tokens.append(("key", m["word"].upper()))
        else:
            tokens.append(("column", m["word"]))
    return tokens


def _comparable(a: Any, b: Any) -> tuple[Any, Any]:
    """SQLite's affinity, roughly: numbers compare as numbers (a numeric text column too), else as text."""
    if isinstance(a, bool):
        a = int(a)
    if isinstance(b, bool):
        b = int(b)
    numeric = (int, float)
    if isinstance(b, numeric) and isinstance(a, str):
        try:
            return float(a), b
        except ValueError:
            return a, str(b)
    if isinstance(a, numeric) and isinstance(b, str):
        try:
            return a, float(b)
        except ValueError:
            return str(a), b
    return a, b


def like(value: Any, pattern: str) -> bool:
    """SQLite LIKE: `%` any run, `_` one character, ASCII letters case-insensitive."""
    regex = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, str(value), re.IGNORECASE | re.DOTALL) is not None


class _Parser:
    """Recursive descent over the tokens: OR of ANDs of (NOT) comparisons or parenthesised clauses."""

    def __init__(self, clause: str) -> None:
        self.tokens = _tokens(clause)
        self.pos = 0

    def peek(self) -> tuple[str, Any] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, kind: str, value: Any = None) -> Any:
        token = self.peek()
        if token is None or token[0] != kind or (value is not None and token[1] != value):
            found = "end of input" if token is None else repr(token[1])
            raise ValueError(f"near {found}: syntax error")
        self.pos += 1
        return token[1]

    def accept(self, kind: str, value: Any) -> bool:
        if self.peek() == (kind, value):
            self.pos += 1
            return True
        return False

    def parse(self) -> Predicate:
        predicate = self.disjunction()
        if self.peek() is not None:
            raise ValueError(f"near {self.peek()[1]!r}: syntax error")  # type: ignore[index]
        return predicate

    def disjunction(self) -> Predicate:
        parts = [self.conjunction()]
        while self.accept("key", "OR"):
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else lambda row: any(p(row) for p in parts)

    def conjunction(self) -> Predicate:
        parts = [self.negation()]
        while self.accept("key", "AND"):
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else lambda row: all(p(row) for p in parts)

    def negation(self) -> Predicate:
        if self.accept("key", "NOT"):
            inner = self.negation()
            return lambda row: not inner(row)
        if self.accept("op", "("):
            inner = self.disjunction()
            self.take("op", ")")
            return inner
        return self.comparison()

    def value(self) -> Any:
        if self.accept("key", "NULL"):
            return None
        return self.take("value")

    def comparison(self) -> Predicate:
        column = self.take("column")
        if self.accept("key", "IS"):
            negated = self.accept("key", "NOT")
            self.take("key", "NULL")
            return lambda row: (row.get(column) is None) != negated
        negated = self.accept("key", "NOT")
        if self.accept("key", "LIKE"):
            pattern = str(self.take("value"))
            return lambda row: row.get(column) is not None and like(row[column], pattern) != negated
        if self.accept("key", "IN"):
            self.take("op", "(")
            options = [self.value()]
            while self.accept("op", ","):
                options.append(self.value())
            self.take("op", ")")
            return lambda row: (
                row.get(column) is not None and any(_equal(row[column], o) for o in options) != negated
            )
        if negated:
            raise ValueError("near 'NOT': syntax error")
        op = self.take("op")
        if op not in COMPARE:
            raise ValueError(f"near {op!r}: syntax error")
        expected = self.value()
        test = COMPARE[op]

        def compare(row: Row) -> bool:
            found = row.get(column)
            if found is None or expected is None:
                return False  # NULL compares as unknown, which a WHERE clause drops
            a, b = _comparable(found, expected)
            try:
                return test(a, b)
            except TypeError:
                return test(str(a), str(b))

        return compare


def _equal(a: Any, b: Any) -> bool:
    if b is None:
        return False
    x, y = _comparable(a, b)
    return bool(x == y)


def where(clause: str | None) -> Predicate:
    """The predicate of a WHERE clause (every row passes an empty one)."""
    if clause is None or not clause.strip():
        return lambda row: True
    return _Parser(clause).parse()


def order(rows: list[Row], sort: str | None) -> list[Row]:
    """Rows in the order of an ORDER BY list (`dtstart DESC, title`); NULLs first, as SQLite sorts them."""
    if sort is None or not sort.strip():
        return rows
    keys = []
    for term in sort.split(","):
        m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_.]*)(?:\s+(ASC|DESC))?\s*", term, re.IGNORECASE)
        if m is None:
            raise ValueError(f"near {term.strip()!r}: syntax error")
        keys.append((m[1], (m[2] or "ASC").upper() == "DESC"))
    for column, descending in reversed(keys):
        rows = sorted(rows, key=partial(_column_key, column), reverse=descending)
    return rows


def _column_key(column: str, row: Row) -> tuple[int, Any]:
    return _sort_key(row.get(column))


def _sort_key(value: Any) -> tuple[int, Any]:
    if value is None:
        return (0, 0)
    if isinstance(value, (int, float)):
        return (1, value)
    return (2, str(value))


def select(rows: Sequence[Row], clause: str | None, sort: str | None) -> list[Row]:
    """The rows a provider returns for `--where clause --sort sort`."""
    keep = where(clause)
    return order([r for r in rows if keep(r)], sort)
