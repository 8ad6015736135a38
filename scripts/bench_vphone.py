#!/usr/bin/env python
"""Virtual phone latency and memory through the real adbutils client, for one and for four phones.

Prints, per configuration: median and p95 of a full observation (screenshot + UI dump via adbutils), of a
tap, of a shell round trip, and the memory each phone adds. Phones run in this process (thread) so the
figures include the server; run with `--process` to serve them from a child process instead."""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
import tracemalloc

os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/false")

import adbutils

from masbench.vphone.adb_server import serve_phones
from masbench.vphone.phone import VirtualPhone


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def measure(device: adbutils.AdbDevice, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"observe": [], "tap": [], "shell": []}
    for i in range(rounds):
        t = time.perf_counter()
        device.screenshot(error_ok=False)
        device.dump_hierarchy()
        times["observe"].append(time.perf_counter() - t)
        t = time.perf_counter()
        device.click(540, 1200 + (i % 3))  # a tap that changes nothing keeps the frame comparable
        times["tap"].append(time.perf_counter() - t)
        t = time.perf_counter()
        device.shell("echo hi")
        times["shell"].append(time.perf_counter() - t)
    return times


def run(count: int, rounds: int) -> None:
    with serve_phones(count) as server:
        client = adbutils.AdbClient(host="127.0.0.1", port=server.port)
        devices = [client.device(f"vphone-{i}") for i in range(1, count + 1)]
        for d in devices:
            d.shell("am start -a android.settings.DISPLAY_SETTINGS")
        results: list[dict[str, list[float]]] = [{} for _ in devices]

        def work(i: int) -> None:
            results[i] = measure(devices[i], rounds)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
    print(f"\n{count} phone(s), {rounds} rounds each, {count} client thread(s), {elapsed:.1f}s")
    for key in ("observe", "tap", "shell"):
        values = [v for r in results for v in r[key]]
        print(
            f"  {key:8s} median {statistics.median(values) * 1000:7.1f} ms   p95 {pct(values, 0.95) * 1000:7.1f} ms"
        )
    print(f"  throughput: {count * rounds / elapsed:.1f} observe+tap+shell rounds/s")


def memory_per_phone(n: int = 4) -> float:
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    phones = [VirtualPhone(f"vphone-{i}") for i in range(n)]
    for p in phones:
        p.screencap_png()
        p.ui_dump_xml()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return used / n / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    print(f"memory per phone (Python heap after a first frame): {memory_per_phone():.1f} MB")
    for count in (1, 4):
        run(count, args.rounds)


if __name__ == "__main__":
    main()
