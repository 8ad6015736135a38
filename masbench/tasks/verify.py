"""Verify many tasks on a pool of phones: one worker thread per device, tasks taken from a shared queue.

Returns reports in task order and calls `on_report` as each finishes (the CLI advances a progress bar);
nothing here prints. A device that vanishes leaves the pool and its current task goes back in the queue
for the devices still alive; if none is left, the remaining tasks fail with the reason.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from masbench.device import DeviceGoneError

from .player import VerifyItem, VerifyReport, verify_task
from .schema import Task

if TYPE_CHECKING:
    from masbench.device import Device
    from masbench.shortcuts import KnowledgeBase


def verify_tasks(
    tasks: list[Task],
    devices: list[Device],
    kb: KnowledgeBase | None,
    on_report: Callable[[VerifyReport], None] | None = None,
) -> list[VerifyReport]:
    if not devices:
        raise ValueError("verify_tasks needs at least one device")
    todo: queue.Queue[Task] = queue.Queue()
    for task in tasks:
        todo.put(task)
    reports: dict[str, VerifyReport] = {}
    gone: dict[str, str] = {}  # serial -> why it left the pool
    lock = threading.Lock()

    def record(report: VerifyReport) -> None:
        with lock:
            reports[report.task_id] = report
            if on_report is not None:
                on_report(report)

    def worker(device: Device) -> None:
        while True:
            try:
                task = todo.get_nowait()
            except queue.Empty:
                return
            try:
                report = verify_task(device, task, kb)
            except DeviceGoneError as exc:
                gone[device.serial] = str(exc)
                todo.put(task)
                return
            record(report)

    alive = list(devices)
    while alive and not todo.empty():  # a second round picks up tasks a vanished device put back
        threads = [threading.Thread(target=worker, args=(d,), name=f"verify-{d.serial}") for d in alive]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        alive = [d for d in alive if d.serial not in gone]
    while not todo.empty():
        reason = "no device left to run it; " + "; ".join(f"{s} went away: {e}" for s, e in gone.items())
        record(
            VerifyReport(
                task_id=todo.get_nowait().id, items=[VerifyItem(name="run", ok=False, reason=reason)]
            )
        )
    return [reports[t.id] for t in tasks]


__all__ = ["verify_tasks"]
