#!/usr/bin/env python
"""Oracle suite throughput: wall time and episodes per second of `masbench run --agent oracle` over the
shipped tasks with 1 and 4 virtual phones (phones in a child process and in a thread), and the harness
overhead per step: the time a step spends outside device I/O (observe + execute), i.e. bookkeeping,
agent and file writes."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/false")


def run(devices: int, mode: str, tasks: str, screens: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        cmd = [sys.executable, "-m", "masbench.cli", "run", "--agent", "oracle", "--tasks", tasks, "--devices", f"vphone:{devices}",
               "--out", str(out), "--vphone-mode", mode, "--screens" if screens else "--no-screens"]  # fmt: skip
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"run failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
        results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
        steps = []
        for r in results:
            for line in (out / r["trajectory"] / "steps.jsonl").read_text().splitlines():
                steps.append(json.loads(line))
        episode_time = sum(r["wall_s"] for r in results)
        step_time = sum(s["wall_s"] for s in steps)
        agent_time = sum(s["agent_s"] for s in steps)
        device_io = sum(s["observe_s"] + s.get("execute_s", 0.0) for s in steps)
        return {
            "devices": devices, "mode": mode, "episodes": len(results), "wall_s": wall,
            "eps_per_s": len(results) / wall, "SR": sum(r["success"] for r in results) / len(results),
            "steps": len(steps), "step_ms": 1000 * step_time / max(1, len(steps)),
            "outside_steps_ms_per_episode": 1000 * (episode_time - step_time) / max(1, len(results)),
            "agent_ms_per_step": 1000 * agent_time / max(1, len(steps)),
            "overhead_ms_per_step": 1000 * (step_time - device_io) / max(1, len(steps)),
        }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", default="all")
    parser.add_argument("--no-screens", action="store_true", help="Do not save per-step screenshots.")
    args = parser.parse_args()
    print(
        f"{'devices':>7} {'mode':>8} {'episodes':>8} {'wall s':>8} {'eps/s':>7} {'SR':>5} {'ms/step':>8} {'reset+judge ms/ep':>18} {'agent ms/step':>14} {'overhead ms/step':>17}"
    )
    for devices, mode in ((1, "process"), (4, "process"), (4, "thread")):
        r = run(devices, mode, args.tasks, not args.no_screens)
        print(f"{r['devices']:>7} {r['mode']:>8} {r['episodes']:>8} {r['wall_s']:>8.1f} {r['eps_per_s']:>7.2f} {r['SR']:>5.2f} "
              f"{r['step_ms']:>8.1f} {r['outside_steps_ms_per_episode']:>18.1f} {r['agent_ms_per_step']:>14.2f} {r['overhead_ms_per_step']:>17.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
