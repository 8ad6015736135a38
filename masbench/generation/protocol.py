"""The two protocols for generated shortcuts, and the leakage rules they share between `shortcuts generate` and
`kb eval` (one place, so both commands refuse the same things).

- `paper`: as MAS-Bench (Sec. 4.3, Appendix C.1): the shortcuts are generated from the agent's runs on the
  evaluated subset (`generation-eval`, our fixed 50 % stand-in for the paper's random one) and evaluated on that
  subset. A task-level replay may then meet the very task it replays.
- `held-out` (ours, the default, stricter): generated from runs on `generation-train`, evaluated on the
  disjoint `generation-eval`, so a KB is never tested on a task it saw.

Every generated shortcut names all the tasks it came from in its `source` ("task ID" for each); a KB's
source tasks are read back from there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from masbench.shortcuts import KnowledgeBase

Protocol = Literal["held-out", "paper"]
PROTOCOLS: tuple[Protocol, ...] = ("held-out", "paper")
SOURCE_TASK = re.compile(r"\btask ([\w.-]+)")


def source_tasks(kb: KnowledgeBase) -> set[str]:
    """Every task any shortcut of `kb` was generated from (none for hand-written shortcuts)."""
    return {task for s in kb if s.source for task in SOURCE_TASK.findall(s.source)}


def _listed(ids: Iterable[str]) -> str:
    ids = sorted(ids)
    return ", ".join(ids[:6]) + ("..." if len(ids) > 6 else "")


def check_generation(protocol: Protocol, learnt_from: set[str], evaluated: set[str]) -> None:
    """ValueError when a held-out KB would learn from an evaluated (`generation-eval`) task."""
    leaked = learnt_from & evaluated
    if protocol == "held-out" and leaked:
        raise ValueError(
            f"these runs include generation-eval tasks ({_listed(leaked)}): under --protocol held-out a KB "
            "learns from generation-train only. Run the generator on --tasks generation-train, or pass "
            "--protocol paper (generate from and evaluate on the same subset, as the paper)"
        )


def check_evaluation(protocol: Protocol, kb: KnowledgeBase, label: str, evaluated: set[str]) -> None:
    """ValueError when, under held-out, `kb` was generated from a task it would be evaluated on."""
    leaked = source_tasks(kb) & evaluated
    if protocol == "held-out" and leaked:
        raise ValueError(
            f"{label} was generated from tasks it would be evaluated on ({_listed(leaked)}); under --protocol "
            "held-out a KB is tested on unseen tasks only. Pass --protocol paper to evaluate it as the paper does"
        )
