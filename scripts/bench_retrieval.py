#!/usr/bin/env python
"""Shortcut retrieval quality: recall@k (k = 3, 5, 8) of the shortcuts used in the shipped tasks' hybrid
reference solutions, when the retriever sees the instruction alone (the first step, on the home screen),
overall and per app. `--json` prints the numbers for scripts."""

from __future__ import annotations

import argparse
import json

from masbench.agents.retrieval import measure_recall
from masbench.shortcuts import load_kb
from masbench.tasks import load_tasks

KS = (3, 5, 8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", default="all", help="task subset (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    tasks = load_tasks().select(args.tasks)
    kb = load_kb()
    recall = measure_recall(tasks, kb, KS)
    rows = {"all": (recall.total, [recall.at(k) for k in KS])}
    rows |= {app: (recall.per_app[app][0], [recall.at(k, app) for k in KS]) for app in sorted(recall.per_app)}
    if args.json:
        print(json.dumps({name: {"shortcuts": n, **{f"recall@{k}": round(v, 4) for k, v in zip(KS, vals, strict=True)}}
                          for name, (n, vals) in rows.items()}, indent=1))  # fmt: skip
        return
    print(f"{len(tasks)} tasks, {len(kb)} shortcuts in the KB, {recall.total} reference shortcut uses")
    print(f"{'app':<10} {'uses':>5} " + " ".join(f"{'R@' + str(k):>6}" for k in KS))
    for name, (n, vals) in rows.items():
        print(f"{name:<10} {n:>5} " + " ".join(f"{v:>6.3f}" for v in vals))
    if recall.missing_from_kb:
        print(f"\n{len(recall.missing_from_kb)} reference shortcuts are not in the KB (counted as misses):")
        for line in recall.missing_from_kb:
            print(f"  {line}")


if __name__ == "__main__":
    main()
