"""Mobile-Agent-E-style shortcuts: the ones a `mobileagent-e` run learnt, read from its memory.

A learning agent's memory is kept in the run directory after every task (`memory/chain-N.jsonl`); the
last line of each chain holds everything that chain learnt. Its shortcuts are in the KB schema already
(`replay` shortcuts whose steps find their elements by selector), so they become a KB as they are, with
their provenance: every task the chain played, since its memory learnt from all of them. Shortcuts several
chains learnt under the same name are kept once (the first chain's).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from masbench.shortcuts import Shortcut

MEMORY_DIR = "memory"


def learnt_shortcuts(run_dir: Path) -> list[Shortcut]:
    """The shortcuts in the final memory of each chain of a learning agent's run; ValueError names what
    is missing or unreadable."""
    chains = sorted((run_dir / MEMORY_DIR).glob("chain-*.jsonl"))
    if not chains:
        raise ValueError(
            f"{run_dir} holds no learnt memory (no {MEMORY_DIR}/chain-*.jsonl): run mobileagent-e first"
        )
    found: dict[str, Shortcut] = {}
    for chain in chains:
        lines = [line for line in chain.read_text(encoding="utf-8").splitlines() if line.strip()]
        if not lines:
            continue
        try:
            memory = json.loads(lines[-1])["memory"] or {}
            seen = ", ".join(dict.fromkeys(f"task {json.loads(line)['task_id']}" for line in lines))
            source = f"mobileagent-e memory, {run_dir.name}/{chain.name}, learnt over {seen}"
            for data in memory.get("shortcuts", []):
                shortcut = Shortcut.model_validate({**data, "source": source})
                found.setdefault(shortcut.qualified_name, shortcut)
        except (ValueError, KeyError, TypeError, ValidationError) as exc:
            raise ValueError(f"{chain}:{len(lines)}: not a mobileagent-e memory ({exc})") from None
    return list(found.values())
