"""`masbench run --executor ray`: episodes spread over a Ray cluster, one actor per device.

Each device becomes an `EpisodeWorker` actor that needs one unit of the custom resource `masbench_device`; a
node offers as many units as it has devices (`ray start --resources '{"masbench_device": 4}'`), so actors land
where devices are. A `vphone` spec starts the actor's own virtual phone on its node; a serial or
HOST:PORT/SERIAL is a device that node's adb server reaches. The actor plays an item exactly as a local worker
does (`play_item`), in a scratch directory, and returns the result with the episode's files and the model
calls it recorded; the driver alone writes them into the run directory and appends `results.jsonl`, so
`--resume`, metrics, cassettes and the report do not change. An actor that dies (its node lost) has its
item retried on another; Ctrl-C on the driver stops the actors and leaves unfinished items to `--resume`.

Ray is an optional extra: `pip install -e '.[ray]'`.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .runner import MAX_ATTEMPTS, WorkItem, load_run_kb, play_item

if TYPE_CHECKING:
    from .runner import Runner

RESOURCE = "masbench_device"


class ActorStartError(RuntimeError):
    """An actor failed while setting up (its device, agent or KB): the run cannot start on Ray."""


INSTALL_HINT = "--executor ray needs Ray: pip install -e '.[ray]' (or pip install 'ray>=2.9')"


def import_ray() -> Any:
    """The `ray` module, or ImportError saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise ImportError(INSTALL_HINT) from exc
    return ray


@dataclass(frozen=True)
class WorkerSpec:
    """What an actor needs to build its own agent, judge, KB and device: plain values that Ray can ship."""

    device: str  # "vphone" or a device address
    agent: str
    model: str | None
    judge: str | None
    kb: str
    tasks_dir: str | None
    config_json: str
    save_screens: bool
    record: bool  # record live model calls (returned to the driver, which appends them to the run's cassette)
    grounding_model: str | None = None  # grounds dynamic shortcuts' described targets at call time
    grounding_cassette: str | None = None  # where its live calls are recorded (the agent's cassette or own)
    driver: int | None = None  # the driver's pid on a local cluster: the actor ends when the driver does


class EpisodeWorker:
    """One device and one agent on some node; `play` runs one item there and ships everything back."""

    def __init__(self, spec: WorkerSpec) -> None:
        from masbench.agents import make_agent
        from masbench.device import Device, DeviceAddress, start_virtual_phones
        from masbench.eval.judge import Judge
        from masbench.eval.records import RunConfig
        from masbench.llm import make_llm
        from masbench.shortcuts import ShortcutExecutor
        from masbench.shortcuts.grounding import make_ground
        from masbench.tasks import load_tasks

        self.config = RunConfig.model_validate_json(spec.config_json)
        self.scratch = Path(tempfile.mkdtemp(prefix="masbench-ray-"))
        self.phones = None
        if spec.device == "vphone":
            self.phones = start_virtual_phones(1, mode="thread", seed=self.config.seed)
            self.device = self.phones.devices[0]
        else:
            self.device = Device(DeviceAddress.parse(spec.device))
        self.tasks = {t.id: t for t in load_tasks(Path(spec.tasks_dir) if spec.tasks_dir else None)}
        self.kb = load_run_kb(spec.kb)
        self.cassette = self.scratch / "llm_cassette.jsonl" if spec.record else None
        self.agent = make_agent(spec.agent, spec.model, record_to=self.cassette)
        self.judge_cassette = self.scratch / "judge_cassette.jsonl"
        self.judge = Judge(make_llm(spec.judge, record_to=self.judge_cassette)) if spec.judge else None
        kb = self.agent.executor_kb(self.kb)
        ground = None
        if spec.grounding_model:
            record = self.scratch / spec.grounding_cassette if spec.grounding_cassette else None
            ground = make_ground(spec.grounding_model, record_to=record)
        self.shortcuts = ShortcutExecutor(kb, self.device, ground=ground) if kb is not None else None
        self.save_screens = spec.save_screens
        self.sent = {"llm_cassette.jsonl": 0, "judge_cassette.jsonl": 0, "grounding_cassette.jsonl": 0}
        self.stop = threading.Event()
        if spec.driver is not None:
            threading.Thread(target=self._end_with, args=(spec.driver,), daemon=True).start()

    def _end_with(self, driver: int) -> None:
        """Poll the driver's pid and end this process once it is gone: a driver killed with -9 cannot stop
        its actors, and Ray notices the lost owner only after its health checks (about a minute)."""
        while True:
            time.sleep(0.5)
            try:
                os.kill(driver, 0)
            except ProcessLookupError:
                break
            except PermissionError:  # alive, someone else's
                pass
        self.close()
        os._exit(0)

    def label(self) -> str:
        return str(self.device.address)

    def play(self, task_id: str, repeat: int, attempts: int) -> tuple[str, dict[str, bytes]]:
        """(the result's JSON, files to write under the run directory: the trajectory and new cassette lines).
        `DeviceGoneError` propagates: the driver retries the item on another actor."""
        item = WorkItem(self.tasks[task_id], repeat, attempts)
        result = play_item(
            self.device, item, self.agent, self.judge, self.shortcuts, kb=self.kb, config=self.config,
            run_dir=self.scratch, save_screens=self.save_screens, stop=self.stop,
        )  # fmt: skip
        files: dict[str, bytes] = {}
        trajectory = self.scratch / result.trajectory
        for path in sorted(trajectory.rglob("*")) if trajectory.exists() else []:
            if path.is_file():
                files[str(path.relative_to(self.scratch))] = path.read_bytes()
        shutil.rmtree(trajectory, ignore_errors=True)
        for name, offset in self.sent.items():  # only the lines recorded since the last item
            path = self.scratch / name
            if path.exists():
                data = path.read_bytes()
                if len(data) > offset:
                    files[name] = data[offset:]
                    self.sent[name] = len(data)
        return result.model_dump_json(), files

    def close(self) -> None:
        if self.phones is not None:
            self.phones.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)


def _loopback_only() -> None:
    """Make the local Ray instance's servers (GCS, raylet, workers) listen on 127.0.0.1 only. Ray binds them
    to the node's IP, which it resolves to the machine's external address even when told 127.0.0.1, except
    where multi-node clusters are off (its macOS and Windows default); a local instance is one node, so we
    turn them off for it. (A cluster of several nodes is secured as docs/scaling.md says.)"""
    from ray._private import ray_constants  # private: pinned by tests/test_ray_executor.py

    ray_constants.ENABLE_RAY_CLUSTER = False


def _quiet_local_instance() -> Path:
    """Keep a local Ray instance quiet and its session files in the user's cache (`~/.cache/masbench/ray`,
    not /tmp/ray): its start-up lines, including the notice that it turned token authentication on, go to
    its own logs. (Its token stays where Ray's tools look for it, ~/.ray/auth_token.) Returns `_temp_dir`."""
    logging.getLogger("ray").setLevel(logging.ERROR)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    temp = cache / "masbench" / "ray"
    temp.mkdir(parents=True, exist_ok=True)
    return temp


def device_specs(specs: list[str]) -> list[str]:
    """One entry per device: `vphone:N` becomes N `vphone`s, addresses stay as given."""
    from masbench.device import parse_specs

    phones, addresses = parse_specs(specs)
    return ["vphone"] * phones + [str(a) for a in addresses]


def run_on_ray(
    runner: Runner,
    specs: list[str],
    worker: WorkerSpec,
    *,
    address: str | None = None,
    poll_s: float = 0.2,
) -> None:
    """Run the runner's pending items on Ray actors, one per device spec, recording as the local runner does.
    Without `address` a local Ray instance is started offering one `masbench_device` unit per device."""
    temp = None if address else _quiet_local_instance()  # before Ray reads its settings
    ray = import_ray()
    devices = device_specs(specs)
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            _loopback_only()
            ray.init(
                resources={RESOURCE: len(devices)},
                log_to_driver=False,
                include_dashboard=False,
                logging_level=logging.ERROR,  # its start-up lines go to its own logs under _temp_dir
                _temp_dir=str(temp),
            )
    actor_class = ray.remote(num_cpus=0, resources={RESOURCE: 1}, max_restarts=0)(EpisodeWorker)
    driver = None if address else os.getpid()
    actors = [actor_class.remote(replace(worker, device=spec, driver=driver)) for spec in devices]
    try:
        labels = dict(zip(actors, ray.get([a.label.remote() for a in actors]), strict=True))
    except ray.exceptions.RayError as exc:  # an actor could not set up its device, agent or KB
        for actor in actors:
            ray.kill(actor)
        if started_here:
            ray.shutdown()
        cause = getattr(exc, "cause", None) or exc
        raise ActorStartError(
            f"a Ray actor could not start: {type(cause).__name__}: {str(cause).splitlines()[-1]}"
        ) from None
    pool = _Pool(list(actors), list(reversed(runner.pending())), len(actors))  # items pop from the end
    running: dict[Any, tuple[Any, WorkItem]] = {}
    try:
        while (pool.queue or running) and not runner.stop.is_set():
            while pool.idle and pool.queue:
                actor, item = pool.idle.pop(0), pool.queue.pop()
                item.attempts += 1
                runner.events.on_start(labels[actor], item)
                running[actor.play.remote(item.task.id, item.repeat, item.attempts)] = (actor, item)
            if not running:  # items left but no actor: every device is gone; --resume runs them
                break
            ready, _ = ray.wait(list(running), num_returns=1, timeout=poll_s)
            for ref in ready:
                actor, item = running.pop(ref)
                _collect(ray, runner, ref, actor, item, labels[actor], pool)
    except KeyboardInterrupt:
        runner.stop.set()
        raise
    finally:
        closing = [actor.close.remote() for actor in pool.idle]  # stop their phones, remove their scratch
        ray.wait(closing, num_returns=len(closing), timeout=10)
        for actor in actors:
            ray.kill(actor)
        if started_here:
            ray.shutdown()


@dataclass
class _Pool:
    idle: list[Any]  # actors waiting for an item
    queue: list[WorkItem]  # items not yet played (or to retry)
    alive: int  # actors not lost

    def lose(self, runner: Runner, label: str, reason: str, item: WorkItem) -> None:
        """Take an actor out; its item is retried on another, or recorded as lost after MAX_ATTEMPTS, or
        left to --resume when no actor is left."""
        self.alive -= 1
        runner.lost[label] = reason
        runner.events.on_device_lost(label, reason)
        if self.alive and item.attempts < MAX_ATTEMPTS:
            self.queue.append(item)
        elif self.alive:
            runner.record(label, runner.device_lost_result(item, reason))


def _collect(ray: Any, runner: Runner, ref: Any, actor: Any, item: WorkItem, label: str, pool: _Pool) -> None:
    """Write a finished item's files and result, or retry it elsewhere when its actor or device is gone."""
    from masbench.device.errors import DeviceGoneError

    from .records import EpisodeResult

    try:
        result_json, files = ray.get(ref)
    except (ray.exceptions.RayActorError, ray.exceptions.RayTaskError) as exc:
        gone = isinstance(exc, ray.exceptions.RayActorError) or isinstance(exc.cause, DeviceGoneError)
        if not gone:
            raise
        if isinstance(exc, ray.exceptions.RayTaskError):  # the actor lives on: let it clean up first
            ray.wait([actor.close.remote()], timeout=10)
        ray.kill(actor)
        reason = (
            str(exc.cause) if isinstance(exc, ray.exceptions.RayTaskError) else "Ray actor lost (node died)"
        )
        pool.lose(runner, label, reason, item)
        return
    for name, data in files.items():
        path = runner.run_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("ab" if name.endswith("cassette.jsonl") else "wb") as fh:
            fh.write(data)
    runner.record(label, EpisodeResult.model_validate_json(result_json))
    pool.idle.append(actor)
