#!/usr/bin/env python
"""Local vs Ray executor: wall time and episodes per second of `masbench run --agent oracle` over the
shipped tasks with N virtual phones, once with the local executor (worker threads, phones in a child
process) and once with `--executor ray` (one Ray actor per phone, on a local Ray instance started by the
run). The Ray figure includes starting Ray and its actors, as a user's run does."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/false")


def run(executor: str, devices: int, tasks: str) -> tuple[float, int]:
    """(wall seconds, episodes) of one run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        cmd = [sys.executable, "-m", "masbench.cli", "run", "--agent", "oracle", "--tasks", tasks,
               "--devices", f"vphone:{devices}", "--out", str(out), "--executor", executor, "--screens"]  # fmt: skip
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
        wall = time.perf_counter() - t0
        if done.returncode != 0:
            raise SystemExit(
                f"{executor} run failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            )
        return wall, len((out / "results.jsonl").read_text().splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--devices", type=int, default=2, help="virtual phones (default 2)")
    parser.add_argument("--tasks", default="all", help="task subset (default all)")
    args = parser.parse_args()
    print(
        f"oracle over --tasks {args.tasks} on {args.devices} virtual phones, screenshots saved, {os.cpu_count()} cores"
    )
    for executor in ("local", "ray"):
        wall, episodes = run(executor, args.devices, args.tasks)
        print(f"  {executor:5}  {wall:6.1f} s  {episodes / wall:5.2f} episodes/s  ({episodes} episodes)")


if __name__ == "__main__":
    main()
