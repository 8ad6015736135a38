"""Tasks (docs/formats.md): the YAML schema, loading and subsets, programmatic checks over app state, and the
player that replays and verifies reference solutions. The CLI lives in `masbench.tasks.cli`."""

from .checks import CheckResult, SnapshotState, StateReader, check_device, evaluate
from .loader import default_tasks_dir, load_tasks
from .player import PlayResult, VerifyItem, VerifyReport, play, prepare, verify_task
from .schema import Check, InitialState, NearMiss, Solutions, Task, TaskView
from .stats import TaskStats, task_stats
from .taskset import TaskError, TaskSet, generation_eval_ids

__all__ = [
    "Check",
    "CheckResult",
    "InitialState",
    "NearMiss",
    "PlayResult",
    "SnapshotState",
    "Solutions",
    "StateReader",
    "Task",
    "TaskError",
    "TaskSet",
    "TaskStats",
    "TaskView",
    "VerifyItem",
    "VerifyReport",
    "check_device",
    "default_tasks_dir",
    "evaluate",
    "generation_eval_ids",
    "load_tasks",
    "play",
    "prepare",
    "task_stats",
    "verify_task",
]
