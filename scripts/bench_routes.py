#!/usr/bin/env python
"""Route search speed: moves tried per second by `masbench tasks routes` on one virtual phone.

For each task (default: one foreground check, one data check, one cross-app task), runs the breadth-first
search to a fixed depth and prints the moves tried, the distinct states and the moves per second. The
search's cost is all in the phone round trips of each move (restore, act, read state, dump the screen), so
moves per second is what sets how deep a proof reaches in a given time."""

from __future__ import annotations

import argparse

from masbench.device import start_virtual_phones
from masbench.tasks import default_tasks_dir, load_tasks
from masbench.tasks.routes import search_routes

DEFAULT_TASKS = ("yelp-01", "gmail-01", "cross-25")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tasks", nargs="*", default=DEFAULT_TASKS, help="task ids")
    parser.add_argument("--depth", type=int, default=3, help="search depth (default 3)")
    args = parser.parse_args()
    tasks = {t.id: t for t in load_tasks(default_tasks_dir())}
    print(f"{'task':<12} {'depth':>5} {'moves':>7} {'states':>7} {'seconds':>8} {'moves/s':>8}")
    with start_virtual_phones(1) as phones:
        device = phones.devices[0]
        for task_id in args.tasks:
            found = search_routes(device, tasks[task_id], max_depth=args.depth, budget=10**9)
            rate = found.observed / found.seconds
            print(
                f"{task_id:<12} {found.depth_done:>5} {found.observed:>7} {found.states:>7}"
                f" {found.seconds:>8.1f} {rate:>8.1f}"
            )


if __name__ == "__main__":
    main()
