"""A learning agent's memory, kept in the run directory so that what it learns follows task order.

A learning agent (Mobile-Agent-E) plays its tasks as *chains*: one per repeat, in the run's task order
(one chain through every repeat with `--learn-across-repeats`). After each scored episode its memory is
appended to `memory/chain-<n>.jsonl`, before the episode's result is recorded; the next task of the chain
starts from it. So the memory a task starts from is the one left by the task before it in its chain,
whichever device ran what, however many devices there are, and after `--resume`; and repeats of a task
do not see each other's learning unless asked.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from masbench.tasks import Task

    from .runner import WorkItem

MEMORY_DIR = "memory"
Key = tuple[str, int]  # (task id, repeat)


class MemoryLog:
    """The memory after each scored episode, one JSON line each, per chain."""

    def __init__(self, run_dir: Path, tasks: list[Task], repeats: int, across_repeats: bool) -> None:
        self.dir = run_dir / MEMORY_DIR
        self.across_repeats = across_repeats
        order = [(t.id, k) for k in range(repeats) for t in tasks]
        self.chains: dict[int, list[Key]] = {}
        for key in order:
            self.chains.setdefault(self.chain_of(key[1]), []).append(key)

    def chain_of(self, repeat: int) -> int:
        return 0 if self.across_repeats else repeat

    def path(self, chain: int) -> Path:
        return self.dir / f"chain-{chain}.jsonl"

    def before(self, item: WorkItem) -> dict[str, Any] | None:
        """The memory `item` starts from: what the nearest earlier task of its chain left (None at the
        start of a chain)."""
        chain = self.chain_of(item.repeat)
        keys = self.chains[chain]
        kept = self._read(chain)
        earlier = keys[: keys.index((item.task.id, item.repeat))]
        return next((kept[key] for key in reversed(earlier) if key in kept), None)

    def keep(self, item: WorkItem, memory: dict[str, Any] | None) -> None:
        """Append the memory `item` ended with, durably, before its result is recorded."""
        self.dir.mkdir(parents=True, exist_ok=True)
        line = json.dumps(
            {"task_id": item.task.id, "repeat": item.repeat, "memory": memory}, ensure_ascii=False
        )
        with self.path(self.chain_of(item.repeat)).open("a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def _read(self, chain: int) -> dict[Key, dict[str, Any] | None]:
        """Each task's latest kept memory (a task run again after a crash is kept again: the last wins)."""
        path = self.path(chain)
        if not path.exists():
            return {}
        kept: dict[Key, dict[str, Any] | None] = {}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                kept[(str(entry["task_id"]), int(entry["repeat"]))] = entry["memory"]
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(
                    f"{path}:{number}: not a memory line ({type(exc).__name__}: {exc})"
                ) from None
        return kept
