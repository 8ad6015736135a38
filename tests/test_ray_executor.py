"""`--executor ray` on a real local Ray cluster (a head and a worker node, each its own processes): the same
results as the local runner task by task, files written by the driver alone, a lost device retried."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest
from pyproject_helpers import declared as pyproject_declared
from pyproject_helpers import installed_in_declared_range

from masbench.agents import make_agent
from masbench.eval.ray_executor import INSTALL_HINT, WorkerSpec, import_ray, run_on_ray
from masbench.eval.runner import Runner, load_results, new_config, prepare_run_dir
from masbench.shortcuts import load_kb
from masbench.tasks import load_tasks

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = list(load_tasks(DATA))


@pytest.fixture(scope="module")
def cluster():
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1, resources={"masbench_device": 2})  # the node that has the devices
    ray.init(address=cluster.address, log_to_driver=False)
    yield cluster
    ray.shutdown()
    cluster.shutdown()


def runner(run_dir: Path, devices: list[str]) -> Runner:
    config = new_config(
        agent="oracle", tasks="all", task_ids=[t.id for t in TASKS], kb=str(DATA / "kb"), devices=devices
    )
    config = prepare_run_dir(run_dir, config, resume=True)
    return Runner(
        config, TASKS, lambda: make_agent("oracle"), load_kb(DATA / "kb"), run_dir, save_screens=True
    )


def worker(run: Runner) -> WorkerSpec:
    return WorkerSpec(
        device="", agent="oracle", model=None, judge=None, kb=str(DATA / "kb"), tasks_dir=str(DATA),
        config_json=run.config.model_dump_json(), save_screens=True, record=False,
    )  # fmt: skip


def outcome(results) -> dict[str, tuple]:
    return {r.task_id: (r.success, r.steps, r.shortcut_calls, r.gui_actions, r.end_reason) for r in results}


def test_a_ray_run_equals_the_local_run_task_by_task(cluster, tmp_path):
    from masbench.device import start_virtual_phones

    with start_virtual_phones(2) as phones:
        local = runner(tmp_path / "local", ["vphone:2"]).run(phones.devices)
    remote = runner(tmp_path / "ray", ["vphone:2"])
    run_on_ray(remote, ["vphone:2"], worker(remote))
    assert outcome(load_results(tmp_path / "ray")) == outcome(local) and all(r.success for r in local)
    lines = (tmp_path / "ray" / "results.jsonl").read_text().splitlines()
    assert len(lines) == len(TASKS) and {json.loads(x)["task_id"] for x in lines} == {t.id for t in TASKS}
    for task in TASKS:  # the driver wrote every episode's files from what the actors shipped back
        steps = tmp_path / "ray" / "trajectories" / task.id / "steps.jsonl"
        assert steps.exists() and (steps.parent / "step_000.png").read_bytes().startswith(b"\x89PNG")


def test_a_device_lost_on_one_actor_is_retried_on_another(cluster, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        ghost = f"127.0.0.1:{s.getsockname()[1]}/ghost"  # nothing answers there
    run = runner(tmp_path, ["vphone:1", ghost])
    run_on_ray(run, ["vphone:1", ghost], worker(run))
    results = load_results(tmp_path)
    assert {r.task_id for r in results} == {t.id for t in TASKS} and all(r.success for r in results)
    assert list(run.lost) == [ghost]


def test_without_ray_the_executor_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError) as info:
        import_ray()
    assert str(info.value) == INSTALL_HINT and "pip install -e '.[ray]'" in INSTALL_HINT


def test_an_actor_that_cannot_start_is_one_clear_error(cluster, tmp_path):
    from masbench.eval.ray_executor import ActorStartError

    run = runner(tmp_path, ["vphone:1"])
    spec = worker(run)
    broken = WorkerSpec(**{**spec.__dict__, "kb": str(tmp_path / "no-such-kb")})
    with pytest.raises(ActorStartError, match="a Ray actor could not start: "):
        run_on_ray(run, ["vphone:1"], broken)
    assert load_results(tmp_path) == []


def test_ray_is_in_the_range_the_executor_was_checked_against():
    """eval/ray_executor.py turns multi-node clusters off for a local instance through Ray's private
    `ray_constants` (no public switch once Ray is imported): the installed Ray must be in the declared range,
    and the constant must still exist."""
    pytest.importorskip("ray")
    from ray._private import ray_constants

    inside, installed, checked_on = installed_in_declared_range("ray")
    assert inside, (installed, checked_on)
    assert not pyproject_declared("ray").specifier.contains("3.0"), "a new major version: check the executor"
    assert isinstance(ray_constants.ENABLE_RAY_CLUSTER, bool)
