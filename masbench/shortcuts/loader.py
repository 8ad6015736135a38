"""Loading the knowledge base from YAML, with errors that name the file, the entry and the field:

    shortcuts_kb/amazon.yaml: shortcut search_product: field "parameters.0.type": Input should be ...

Every problem in every file is collected and reported at once (`KBError.problems`). Beyond the schema,
the loader rejects duplicate names, an `example` that does not validate against its own parameters, and
a nested shortcut call to a shortcut that does not exist or that calls back into itself.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from masbench.actions.schema import parse_call
from masbench.data import data_dir, load_yaml

from .calls import CallError, check_arguments
from .parameters import IDENTIFIER
from .schema import KnowledgeBase, Shortcut
from .steps import TAG

ENV_DIR = "MASBENCH_KB_DIR"
MAX_SHOWN = 50


class KBError(ValueError):
    """The KB could not be loaded; `problems` holds one line per problem."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        shown = problems[:MAX_SHOWN]
        more = len(problems) - len(shown)
        super().__init__("\n".join(shown) + (f"\n... and {more} more problems" if more > 0 else ""))


def default_kb_dir() -> Path:
    """`$MASBENCH_KB_DIR`, else the checkout's `shortcuts_kb/`, else the installed copy (masbench.data)."""
    return data_dir("shortcuts_kb", ENV_DIR)


def load_kb(path: Path | str | None = None) -> KnowledgeBase:
    """Every `*.yaml` of a directory (sorted), or one file; default `default_kb_dir()`."""
    root = Path(path) if path is not None else default_kb_dir()
    if root.is_dir():
        files = sorted([*root.glob("*.yaml"), *root.glob("*.yml")])
        if not files:
            raise KBError([f"{_shown(root)}: no *.yaml files in this knowledge-base directory"])
    elif root.is_file():
        files = [root]
    else:
        hint = "" if path is not None else f" (set {ENV_DIR} or pass --kb-dir)"
        raise KBError([f"{_shown(root)}: no such knowledge-base file or directory{hint}"])
    problems: list[str] = []
    shortcuts: list[Shortcut] = []
    sources: dict[str, Path] = {}
    for file in files:
        for shortcut in _load_file(file, problems):
            where = f"{_shown(file)}: shortcut {shortcut.name}"
            if shortcut.qualified_name in sources:
                problems.append(
                    f"{where}: duplicate of {shortcut.qualified_name} in {_shown(sources[shortcut.qualified_name])}"
                )
                continue
            sources[shortcut.qualified_name] = file
            shortcuts.append(shortcut)
    kb = KnowledgeBase(shortcuts, sources)
    problems += _reference_problems(kb)
    if problems:
        raise KBError(problems)
    return kb


def _shown(path: Path) -> str:
    """The path relative to the working directory when it is below it, as written otherwise."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _load_file(file: Path, problems: list[str]) -> list[Shortcut]:
    name = _shown(file)
    try:
        data = load_yaml(file.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problems.append(f"{name}{line}: invalid YAML: {getattr(exc, 'problem', None) or exc}")
        return []
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"{name}: cannot read: {exc}")
        return []
    if not isinstance(data, dict):
        problems.append(f"{name}: expected a mapping with app, package and shortcuts")
        return []
    unknown = sorted(set(data) - {"app", "package", "shortcuts"})
    if unknown:
        problems.append(
            f"{name}: unknown top-level key(s) {', '.join(map(str, unknown))} (expected app, package, shortcuts)"
        )
    app, package, entries = data.get("app"), data.get("package"), data.get("shortcuts")
    if not isinstance(app, str) or not re.fullmatch(IDENTIFIER, app):
        problems.append(f'{name}: field "app": must be a short app name such as amazon, got {app!r}')
        return []
    if package is not None and not (isinstance(package, str) and package):
        problems.append(
            f'{name}: field "package": must be a package name such as com.amazon.mShop.android.shopping'
        )
        return []
    if not isinstance(entries, list):
        problems.append(f'{name}: field "shortcuts": must be a list of shortcuts')
        return []
    loaded = []
    for index, entry in enumerate(entries):
        label = _entry_label(entry, index)
        shortcut = _load_entry(entry, app, package, f"{name}: shortcut {label}", problems)
        if shortcut is not None:
            loaded.append(shortcut)
    return loaded


def _entry_label(entry: Any, index: int) -> str:
    entry_name = entry.get("name") if isinstance(entry, dict) else None
    return entry_name if isinstance(entry_name, str) and entry_name else f"#{index}"


def _load_entry(
    entry: Any, app: str, package: str | None, where: str, problems: list[str]
) -> Shortcut | None:
    if not isinstance(entry, dict):
        problems.append(f"{where}: expected a mapping, got {type(entry).__name__}")
        return None
    clash = [k for k in ("app", "package") if k in entry]
    if clash:
        problems.append(f'{where}: field "{clash[0]}": set once per file, at the top, not per shortcut')
        return None
    try:
        shortcut = Shortcut.model_validate({**entry, "app": app, **({"package": package} if package else {})})
    except ValidationError as exc:
        problems += [f"{where}: {_describe_error(err)}" for err in exc.errors()]
        return None
    if shortcut.example is not None:
        problem = _example_problem(shortcut)
        if problem:
            problems.append(f'{where}: field "example": {problem}')
            return None
    return shortcut


def _describe_error(err: Any) -> str:
    """One pydantic error as `field "a.b.0": message`."""
    if err["type"] == "kb_field":
        field, message = err["ctx"]["field"], err["ctx"]["detail"]
    else:
        field = ".".join(str(p) for p in err["loc"] if not (isinstance(p, str) and p.startswith(TAG)))
        message = err["msg"].removeprefix("Value error, ")
    return f'field "{field}": {message}' if field else message


def _example_problem(shortcut: Shortcut) -> str | None:
    try:
        name, arguments = parse_call(shortcut.example or "")
    except ValueError as exc:
        return str(exc)
    if name != shortcut.qualified_name:
        return f"calls {name}, not {shortcut.qualified_name}"
    try:
        check_arguments(shortcut, arguments)
    except CallError as exc:
        return f"does not validate: {exc}"
    return None


def _reference_problems(kb: KnowledgeBase) -> list[str]:
    """Nested calls must name shortcuts of this KB and must not lead back to the caller."""
    problems = []
    for shortcut in kb:
        where = f"{_shown(kb.sources[shortcut.qualified_name])}: shortcut {shortcut.name}"
        for field, target in shortcut.nested_calls():
            if target not in kb:
                problems.append(f'{where}: field "{field}": {kb.unknown_message(target)}')
        cycle = _cycle_from(kb, shortcut.qualified_name)
        if cycle:
            problems.append(f"{where}: calls itself through {' -> '.join(cycle)}")
    return problems


def _cycle_from(kb: KnowledgeBase, start: str) -> list[str] | None:
    """A call path start -> ... -> start, if there is one."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        name, path = stack.pop()
        shortcut = kb.get(name)
        for _, target in shortcut.nested_calls() if shortcut is not None else []:
            if target == start:
                return [*path, target]
            if target not in seen:
                seen.add(target)
                stack.append((target, [*path, target]))
    return None
