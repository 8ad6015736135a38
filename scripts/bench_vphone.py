#!/usr/bin/env python
"""Virtual phone latency and memory through the real adbutils client, for one and for four phones.

Prints, per configuration: median and p95 of a full observation (screenshot + UI dump via adbutils) of an
unchanged screen and of a fresh one (after a scroll, so the phone renders and encodes a new frame), of a
tap, of a shell round trip, and the memory each phone adds; once through stock adbutils and once through
masbench's Device. Phones run in this process (a server thread), so the figures include the
server; run with `--process` to serve them from a child process instead."""

from __future__ import annotations

import argparse
import statistics
import threading
import time
import tracemalloc

import adbutils

from masbench.device import Device, VPhoneMode, start_virtual_phones
from masbench.vphone.build import build_phone


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def measure_masbench(device: Device, rounds: int) -> dict[str, list[float]]:
    """The same loop through masbench's Device (cached server version, no close sleep, concurrent I/O)."""
    times: dict[str, list[float]] = {"observe": [], "observe_fresh": [], "tap": [], "shell": []}
    for i in range(rounds):
        t = time.perf_counter()
        device.observe()
        times["observe"].append(time.perf_counter() - t)
        device.swipe(540, 1500, 540, 1300 if i % 2 else 1700, 200)  # scroll: the next frame is new
        t = time.perf_counter()
        device.observe()
        times["observe_fresh"].append(time.perf_counter() - t)
        t = time.perf_counter()
        device.tap(540, 1200 + (i % 3))
        times["tap"].append(time.perf_counter() - t)
        t = time.perf_counter()
        device.shell("echo hi")
        times["shell"].append(time.perf_counter() - t)
    return times


def measure(device: adbutils.AdbDevice, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"observe": [], "observe_fresh": [], "tap": [], "shell": []}
    for i in range(rounds):
        t = time.perf_counter()
        device.screenshot(error_ok=False)
        device.dump_hierarchy()
        times["observe"].append(time.perf_counter() - t)
        device.swipe(540, 1500, 540, 1300 if i % 2 else 1700, 0.2)  # scroll: the next frame is new
        t = time.perf_counter()
        device.screenshot(error_ok=False)
        device.dump_hierarchy()
        times["observe_fresh"].append(time.perf_counter() - t)
        t = time.perf_counter()
        device.click(540, 1200 + (i % 3))  # a tap that changes nothing keeps the frame comparable
        times["tap"].append(time.perf_counter() - t)
        t = time.perf_counter()
        device.shell("echo hi")
        times["shell"].append(time.perf_counter() - t)
    return times


def run(count: int, rounds: int, client_kind: str, mode: VPhoneMode) -> None:
    with start_virtual_phones(count, mode=mode) as phones:
        if client_kind == "adbutils":
            client = adbutils.AdbClient(host="127.0.0.1", port=phones.port)
            devices = [client.device(d.serial) for d in phones.devices]
            loop = measure
        else:
            devices = phones.devices
            loop = measure_masbench
        for d in devices:
            d.shell("am start -a android.settings.DISPLAY_SETTINGS")
        results: list[dict[str, list[float]]] = [{} for _ in devices]

        def work(i: int) -> None:
            results[i] = loop(devices[i], rounds)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
    print(
        f"\n{client_kind}: {count} phone(s), {rounds} rounds each, {count} client thread(s), {elapsed:.1f}s"
    )
    for key in ("observe", "observe_fresh", "tap", "shell"):
        values = [v for r in results for v in r[key]]
        print(
            f"  {key:8s} median {statistics.median(values) * 1000:7.1f} ms   p95 {pct(values, 0.95) * 1000:7.1f} ms"
        )
    print(f"  throughput: {count * rounds / elapsed:.1f} observe+tap+shell rounds/s")


def memory_per_phone(n: int = 4) -> tuple[float, float]:
    """(first phone, each further phone) in MB of Python heap after a first frame: app catalogs are
    loaded once per process and shared, so the first phone costs more."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    first = build_phone("vphone-0")
    first.screencap_png()
    after_first = tracemalloc.get_traced_memory()[0]
    phones = [build_phone(f"vphone-{i}") for i in range(1, n + 1)]
    for p in phones:
        p.screencap_png()
        p.ui_dump_xml()
    used = tracemalloc.get_traced_memory()[0] - after_first
    tracemalloc.stop()
    return (after_first - base) / 1e6, used / n / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--process", action="store_true", help="Serve the phones from a child process.")
    # figures: stock adbutils pays two connections and a 10 ms sleep per command; masbench's Device does not
    args = parser.parse_args()
    first, each = memory_per_phone()
    print(
        f"memory: first phone {first:.1f} MB (shared catalogs), each further phone {each:.1f} MB (Python heap)"
    )
    for client_kind in ("adbutils", "masbench"):
        for count in (1, 4):
            run(count, args.rounds, client_kind, "process" if args.process else "thread")


if __name__ == "__main__":
    main()
