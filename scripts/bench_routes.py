#!/usr/bin/env python
"""Route search speed: moves tried per second by `masbench tasks routes`, over ADB and in process, side by
side on the same tasks in the same run.

For each task (default: one foreground check, one data check, one cross-app task), runs the breadth-first
search to a fixed depth on a virtual phone served over ADB and on one driven in process
(`open_in_process_phone`), and prints the moves tried, the distinct states, the seconds and the moves per
second of each, and the ratio. Over ADB every move is phone round trips (restore, act, read state, dump the
screen); in process a move is an undo, the action and a hash of what it changed, so moves per second is
what sets how deep a proof reaches in a given time."""

from __future__ import annotations

import argparse

from masbench.device import open_in_process_phone, start_virtual_phones
from masbench.tasks import default_tasks_dir, load_tasks
from masbench.tasks.routes import RouteSearch, search_routes

DEFAULT_TASKS = ("yelp-01", "gmail-01", "cross-25")


def _row(path: str, found: RouteSearch) -> str:
    rate = _rate([found])
    return (
        f"{found.task_id:<12} {path:<10} {found.depth_done:>5} {found.observed:>7} {found.states:>7}"
        f" {found.seconds:>8.1f} {rate:>8.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tasks", nargs="*", default=DEFAULT_TASKS, help="task ids")
    parser.add_argument("--depth", type=int, default=3, help="search depth (default 3)")
    args = parser.parse_args()
    tasks = {t.id: t for t in load_tasks(default_tasks_dir())}
    print(f"{'task':<12} {'path':<10} {'depth':>5} {'moves':>7} {'states':>7} {'seconds':>8} {'moves/s':>8}")
    in_process = open_in_process_phone()
    runs: dict[str, list[RouteSearch]] = {"adb": [], "in-process": []}
    with start_virtual_phones(1) as phones:
        for task_id in args.tasks:
            over_adb = search_routes(phones.devices[0], tasks[task_id], max_depth=args.depth, budget=10**9)
            direct = search_routes(in_process, tasks[task_id], max_depth=args.depth, budget=10**9)
            print(_row("adb", over_adb))
            print(_row("in-process", direct))
            runs["adb"].append(over_adb)
            runs["in-process"].append(direct)
            print(f"{task_id:<12} {'ratio':<10} {_rate([direct]) / _rate([over_adb]):>52.1f}x")
    ratio = _rate(runs["in-process"]) / _rate(runs["adb"])
    print(f"{'all':<12} {'ratio':<10} {ratio:>52.1f}x  (all moves over all seconds, per path)")


def _rate(searches: list[RouteSearch]) -> float:
    return sum(s.observed for s in searches) / sum(s.seconds for s in searches)


if __name__ == "__main__":
    main()
