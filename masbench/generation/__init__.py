"""Shortcut generation: knowledge bases built from what agents did (the paper's agent-generated shortcuts),
to be imported into a fixed baseline agent whose results measure their quality (`masbench kb eval`)."""

from __future__ import annotations

from .kbfiles import write_kb
from .replay import subtask_replays, task_replays
from .trajectories import Trajectory, load_trajectories

__all__ = ["Trajectory", "load_trajectories", "subtask_replays", "task_replays", "write_kb"]
