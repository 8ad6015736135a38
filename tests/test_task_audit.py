"""The audit's action lists (tests/data/audit/*.yaml), kept as regression tests: routes of other people's
making that must pass (other orders, other screens, shortcuts used another way) and careless outcomes
that must fail (a side effect, a second item, a wrong value): docs/tasks.md, rules 1-8.

Each entry: `task`, `name`, `expect: pass|fail`, `actions` (the solutions' schema), and an optional
`why`. A `fail` entry must run every step, so it fails on its outcome, never on a step that did not run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
import yaml
from pydantic import BaseModel, ConfigDict, Field

from masbench.actions import Action
from masbench.tasks import default_tasks_dir, load_tasks
from masbench.tasks.player import play

AUDIT_DIR = Path(__file__).parent / "data" / "audit"
TASKS = {task.id: task for task in load_tasks(default_tasks_dir())}


class AuditCase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    name: str
    expect: Literal["pass", "fail"]
    why: str = ""
    actions: list[Action] = Field(min_length=1)


def _cases() -> list[AuditCase]:
    cases = []
    for path in sorted(AUDIT_DIR.glob("*.yaml")):
        for n, entry in enumerate(yaml.safe_load(path.read_text(encoding="utf-8")) or []):
            try:
                cases.append(AuditCase.model_validate(entry))
            except ValueError as exc:
                raise ValueError(f"{path.name}: entry {n}: {exc}") from None
    return cases


CASES = _cases()


def test_every_task_is_audited_both_ways():
    """Each task has at least one other route that passes and one careless outcome that fails."""
    unknown = sorted({c.task for c in CASES} - set(TASKS))
    assert not unknown, f"audit cases for unknown tasks: {unknown}"
    missing = [
        f"{task} ({want})"
        for task in TASKS
        for want in ("pass", "fail")
        if not any(c.task == task and c.expect == want for c in CASES)
    ]
    assert not missing, f"not audited: {', '.join(missing)}"


@pytest.fixture(scope="module")
def shortcuts(device):
    from masbench.shortcuts import ShortcutExecutor, load_kb

    return ShortcutExecutor(load_kb(), device)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.task}:{c.expect}:{c.name}")
def test_audit_case(device, shortcuts, case):
    result = play(device, TASKS[case.task], case.actions, shortcuts)
    assert not result.failures, f"a step did not run, so the case proves nothing: {result.failures}"
    verdict = "pass" if result.check_passed else "fail"
    assert verdict == case.expect, "\n".join(result.details)
