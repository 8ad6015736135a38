"""The loaded tasks and their named subsets.

Subset names: `all`, `single-app`, `cross-app`, `level-1`..`level-3`, one per app (`amazon`: the app's
single-app tasks, as the paper's per-app counts), `uses:APP` (every task that uses the app, cross-app ones
included), `generation-eval` and its complement `generation-train`, any extra names from
`tasks/subsets.yaml`, and any comma-separated mix of these and task ids.

`generation-eval` is MAS-Bench's fixed 50% split for shortcut generation: the first half (rounded down) of the single-app
tasks and of the cross-app tasks, ranked by SHA-256 of `GENERATION_SEED:task-id`. Ranking by a hash of the
id, not by file order, keeps the split stable when tasks are reordered, and adding a task moves at most
one other. With 92 + 47 tasks it holds 46 + 23.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterator
from pathlib import Path

from masbench.catalog import APPS

from .schema import Task

GENERATION_SEED = "masbench-generation-eval-v1"
USES = "uses:"  # `uses:amazon`: every task that uses the app; plain `amazon`: its single-app tasks
BUILTIN = (
    "all",
    "single-app",
    "cross-app",
    "level-1",
    "level-2",
    "level-3",
    "generation-eval",
    "generation-train",
)


class TaskError(ValueError):
    """A task file or a subset name is wrong; `errors` holds one line per problem."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("\n".join(errors))


def generation_eval_ids(tasks: list[Task]) -> set[str]:
    """Half of the single-app and half of the cross-app tasks (each rounded down), by seeded hash."""
    chosen: set[str] = set()
    for kind in ("single-app", "cross-app"):
        group = [t for t in tasks if t.kind == kind]
        ranked = sorted(group, key=lambda t: hashlib.sha256(f"{GENERATION_SEED}:{t.id}".encode()).hexdigest())
        chosen.update(t.id for t in ranked[: len(group) // 2])
    return chosen


class TaskSet:
    """Tasks in file order (single-app files, then cross-app), selectable by subset name or id."""

    def __init__(self, tasks: list[Task], root: Path, extra_subsets: dict[str, list[str]] | None = None):
        self.tasks = list(tasks)
        self.root = root
        self.by_id = {t.id: t for t in self.tasks}
        self.extra_subsets = dict(extra_subsets or {})

    def __iter__(self) -> Iterator[Task]:
        return iter(self.tasks)

    def __len__(self) -> int:
        return len(self.tasks)

    def get(self, task_id: str) -> Task:
        if task_id in self.by_id:
            return self.by_id[task_id]
        raise TaskError([f"unknown task id {task_id!r}{self._suggest(task_id)}"])

    def subset_names(self) -> list[str]:
        return [*BUILTIN, *APPS, *(f"{USES}{app}" for app in APPS), *self.extra_subsets]

    def subset(self, name: str) -> list[Task] | None:
        """The tasks of a named subset, or None if there is no subset of that name."""
        tasks = self.tasks
        if name == "all":
            return list(tasks)
        if name in ("single-app", "cross-app"):
            return [t for t in tasks if t.kind == name]
        if name.startswith("level-") and name[6:] in ("1", "2", "3"):
            return [t for t in tasks if t.level == int(name[6:])]
        if name in ("generation-eval", "generation-train"):
            chosen = generation_eval_ids(tasks)
            return [t for t in tasks if (t.id in chosen) == (name == "generation-eval")]
        if name in APPS:
            return [t for t in tasks if t.kind == "single-app" and name in t.apps]
        if name.startswith(USES) and name.removeprefix(USES) in APPS:
            return [t for t in tasks if name.removeprefix(USES) in t.apps]
        if name in self.extra_subsets:
            wanted = set(self.extra_subsets[name])
            return [t for t in tasks if t.id in wanted]
        return None

    def select(self, spec: str) -> list[Task]:
        """Tasks named by `spec`: subset names and/or task ids, comma-separated; in task-set order."""
        parts = [p.strip() for p in spec.split(",") if p.strip()]
        if not parts:
            raise TaskError(
                [f"empty task selection; use one of: {', '.join(self.subset_names())}, or task ids"]
            )
        wanted: set[str] = set()
        unknown = []
        for part in parts:
            found = self.subset(part)
            if found is not None:
                wanted.update(t.id for t in found)
            elif part in self.by_id:
                wanted.add(part)
            else:
                unknown.append(part)
        if unknown:
            raise TaskError(
                [
                    f"unknown subset or task id {name!r}{self._suggest(name)}; subsets: "
                    f"{', '.join(self.subset_names())}; task ids: see `masbench tasks list`"
                    for name in unknown
                ]
            )
        return [t for t in self.tasks if t.id in wanted]

    def _suggest(self, name: str) -> str:
        close = difflib.get_close_matches(name, [*self.subset_names(), *self.by_id], n=3)
        return f" (did you mean {', '.join(close)}?)" if close else ""

    def check_subsets(self) -> list[str]:
        """Problems with `subsets.yaml`: a name that shadows a built-in one or a task id, unknown ids."""
        problems = []
        for name, ids in self.extra_subsets.items():
            if name in BUILTIN or name in APPS or name.startswith(USES) or name in self.by_id:
                problems.append(f"subset {name!r}: the name is already a built-in subset or a task id")
            missing = [i for i in ids if i not in self.by_id]
            if missing:
                problems.append(f"subset {name!r}: unknown task id(s) {', '.join(missing)}")
        return problems


__all__ = ["BUILTIN", "GENERATION_SEED", "TaskError", "TaskSet", "generation_eval_ids"]
