"""Record what a person (or a script) does on a virtual phone as a one-episode run directory, so the
generators (`masbench shortcuts generate ... --from RUN_DIR`) learn from it like from an agent's run.

The phone's event log says what was done (taps, swipes, keys, typed text); the UI dump taken just before
says on what: a tap becomes a tap on a selector for the element under the finger (the smallest clickable
one there), or on the point when nothing clickable is there. Each step keeps its dump, as a run does.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from masbench.actions import Action, parse_action
from masbench.actions.selectors import selector_for
from masbench.catalog import BY_PACKAGE
from masbench.device import DeviceError, UIElement, parse_ui_dump
from masbench.eval.records import EpisodeResult
from masbench.eval.runner import RESULTS, new_config, prepare_run_dir
from masbench.tasks.frame import judge
from masbench.tasks.player import prepare
from masbench.trajectory import StepRecord

if TYPE_CHECKING:
    from masbench.device import Device
    from masbench.tasks import Task

KEYS = {"BACK": "back", "HOME": "home", "ENTER": "enter"}
MAIN = "android.intent.action.MAIN"


def action_for(event: dict[str, Any], elements: list[UIElement]) -> Action | None:
    """The action an input event was, targeted at the element it hit; None for events that are not input.
    An app started from outside (`am start`, `monkey`: a MAIN intent no tap caused) is opening the app."""
    kind = event["kind"]
    if kind == "start" and event.get("action") == MAIN and event.get("package") in BY_PACKAGE:
        return parse_action({"action": "open_app", "name": BY_PACKAGE[event["package"]].label})
    if kind == "tap":
        x, y = event["x"], event["y"]
        under = [
            e
            for e in elements
            if e.clickable and e.bounds[0] <= x < e.bounds[2] and e.bounds[1] <= y < e.bounds[3]
        ]
        if under:
            smallest = min(under, key=lambda e: (e.bounds[2] - e.bounds[0]) * (e.bounds[3] - e.bounds[1]))
            target = selector_for(smallest, elements).model_dump(exclude_defaults=True)
            return parse_action({"action": "tap", "target": target})
        return parse_action({"action": "tap", "x": x, "y": y})
    if kind == "swipe":
        return parse_action({"action": "swipe", **{k: event[k] for k in ("x1", "y1", "x2", "y2")}})
    if kind == "key" and event.get("key") in KEYS:
        return parse_action({"action": KEYS[event["key"]]})
    if kind == "text":
        return parse_action({"action": "type", "text": event["text"]})
    return None


def record(
    device: Device,
    out: Path,
    task: Task | None,
    stop: threading.Event,
    poll_s: float = 0.1,
    on_step: Callable[[StepRecord], None] | None = None,
) -> EpisodeResult:
    """Record until `stop` is set; write `out` as a run directory of one episode and return its result
    (a success when the task's check passes at the end; without a task, whatever was recorded).
    `on_step` hears of each step once the screen after it has been read: the recorder is ready for more,
    so whoever acts can wait for it instead of guessing how long it takes."""
    if not device.is_virtual:
        raise DeviceError(
            f"{device.serial}: recording reads a virtual phone's event log; use vphone or vphone:N"
        )
    task_id = task.id if task else "recording"
    config = new_config(
        agent="human", tasks=task_id, task_ids=[task_id], kb="none", devices=[str(device.address)]
    )
    prepare_run_dir(out, config, resume=False)
    before = prepare(device, task) if task is not None else None
    folder = out / "trajectories" / task_id
    folder.mkdir(parents=True, exist_ok=True)
    started, t0 = datetime.now(UTC), time.perf_counter()
    since = max((e["seq"] for e in device.events()), default=-1) + 1
    dump, front = device.ui_dump(), "/".join(device.foreground())
    steps: list[StepRecord] = []
    previous = ""  # the kind of the last event seen
    while True:
        finishing = stop.wait(poll_s)
        events = device.events(since)
        recorded = len(steps)
        for event in events:
            since = event["seq"] + 1
            caused = event["kind"] == "start" and previous in ("tap", "key")
            previous = event["kind"]
            if caused:
                continue  # the launch a tap or key caused (a launcher icon), recorded as that tap or key
            action = action_for(event, parse_ui_dump(dump))
            if action is None:
                continue
            name = f"step_{len(steps):03d}.xml"
            (folder / name).write_text(dump, encoding="utf-8")
            data = action.model_dump(mode="json", exclude_none=True)
            steps.append(
                StepRecord(index=len(steps), action=data, kind="gui", ok=True, ui_dump=name, foreground=front)
            )
        if events:
            dump, front = device.ui_dump(), "/".join(device.foreground())
        if on_step is not None:
            for step in steps[recorded:]:
                on_step(step)
        if finishing:
            break
    with (folder / "steps.jsonl").open("w", encoding="utf-8") as fh:
        fh.writelines(step.model_dump_json() + "\n" for step in steps)
    check = judge(task, device, before) if task is not None else None
    result = EpisodeResult(
        task_id=task_id, agent="human", kb="none", device=str(device.address), device_kind=device.kind,
        success=check.passed if check is not None else True, end_reason="finished",
        check_details=check.details if check is not None else [], check_passed=check.passed if check else None,
        steps=len(steps), gui_actions=len(steps), shortcut_calls=0, shortcut_successes=0, invalid_steps=0,
        optimal_steps=task.optimal_steps if task else len(steps), wall_s=round(time.perf_counter() - t0, 3),
        started_at=started, trajectory=f"trajectories/{task_id}",
    )  # fmt: skip
    with (out / RESULTS).open("a", encoding="utf-8") as fh:
        fh.write(result.model_dump_json() + "\n")
    return result
