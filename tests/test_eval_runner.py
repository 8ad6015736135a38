"""The runner: oracle/random results, resume after an interruption, a vanishing device, metrics."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from masbench.agents import make_agent
from masbench.device import start_virtual_phones
from masbench.eval.metrics import summarise
from masbench.eval.runner import RunEvents, Runner, load_results, new_config, prepare_run_dir
from masbench.shortcuts import load_kb
from masbench.tasks import load_tasks

DATA = Path(__file__).parent / "data" / "tasks"


@pytest.fixture(scope="module")
def tasks():
    return load_tasks(DATA).select("all")


@pytest.fixture(scope="module")
def kb():
    return load_kb(DATA / "kb")


@pytest.fixture
def phones():
    with start_virtual_phones(2) as phones:
        yield phones


def runner(tmp_path: Path, tasks, kb, agent: str, **kw) -> Runner:
    config = new_config(
        agent=agent, tasks="all", task_ids=[t.id for t in tasks], kb="test", devices=["vphone:2"], **kw
    )
    config = prepare_run_dir(tmp_path, config, resume=True)
    return Runner(config, tasks, lambda: make_agent(agent), kb, tmp_path, save_screens=False)


def test_oracle_gui_is_the_human_row(tmp_path, tasks, kb, phones):
    results = runner(tmp_path, tasks, kb, "oracle-gui").run(phones.devices)
    m = summarise(results, tasks).overall
    assert m.SR == 1.0 and m.MSR == 1.0 and m.MSC == 0 and m.GSAR == 0.0


def test_oracle_uses_shortcuts_and_is_shorter(tmp_path, tasks, kb, phones):
    results = runner(tmp_path, tasks, kb, "oracle").run(phones.devices)
    m = summarise(results, tasks).overall
    assert m.SR == 1.0 and m.MSR < 1.0 and m.SSR == 1.0 and m.MSC > 0
    assert m.shortcut_name_accuracy == 1.0 and m.missed_shortcut_rate == 0.0
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert len(lines) == len(tasks) and all(json.loads(line)["schema_version"] == 1 for line in lines)


def test_random_is_the_floor(tmp_path, tasks, kb, phones):
    results = runner(tmp_path, tasks, kb, "random", max_steps=5).run(phones.devices)
    assert summarise(results, tasks).overall.SR < 1.0
    assert all(r.steps == 5 and r.end_reason == "step_limit" for r in results)


def test_kb_none_removes_shortcuts(tmp_path, tasks, phones):
    results = runner(tmp_path, tasks, None, "oracle").run(phones.devices)
    assert all(r.shortcut_calls == 0 for r in results)
    with_shortcut_steps = [r for r in results if r.invalid_steps]
    assert with_shortcut_steps, "the hybrid solutions' shortcut steps must be invalid without a KB"


def test_interrupted_run_resumes_with_each_task_once_and_the_same_summary(tmp_path, tasks, kb, phones):
    reference = summarise(runner(tmp_path / "a", tasks, kb, "oracle").run(phones.devices), tasks).overall

    first = runner(tmp_path / "b", tasks, kb, "oracle")
    stop_after_one = RunEvents(on_result=lambda device, result: first.stop.set())
    first.events = stop_after_one
    first.run(phones.devices)  # Ctrl-C lands while the other episode is mid-way: it is dropped
    recorded = load_results(tmp_path / "b")
    assert 1 <= len(recorded) < len(tasks)

    with (tmp_path / "b" / "results.jsonl").open("a") as fh:
        fh.write('{"schema_version": 1, "task_id": "torn')  # a kill during a write leaves half a line
    resumed = runner(tmp_path / "b", tasks, kb, "oracle").run(phones.devices)
    ids = [r.task_id for r in resumed]
    assert sorted(ids) == sorted(t.id for t in tasks)
    assert len(load_results(tmp_path / "b")) == len(tasks)
    again = summarise(resumed, tasks).overall
    assert (again.SR, again.MS, again.MSR, again.MSC, again.SSR) == (
        reference.SR,
        reference.MS,
        reference.MSR,
        reference.MSC,
        reference.SSR,
    )


def test_a_phone_that_vanishes_mid_run_does_not_stop_the_run(tmp_path, tasks, kb, phones):
    lost: list[str] = []
    run = runner(tmp_path, tasks, kb, "oracle")
    pulled = threading.Event()

    def pull(device: str, item) -> None:
        if device.endswith("vphone-2") and not pulled.is_set():
            pulled.set()
            phones.server.remove_phone("vphone-2")

    run.events = RunEvents(on_start=pull, on_device_lost=lambda device, reason: lost.append(device))
    results = run.run(phones.devices)
    assert lost and lost[0].endswith("vphone-2")
    assert sorted(r.task_id for r in results) == sorted(t.id for t in tasks)
    assert all(r.success for r in results)


def test_resume_refuses_a_different_configuration(tmp_path, tasks, kb):
    from masbench.eval.runner import RunConfigMismatch

    prepare_run_dir(
        tmp_path, new_config(agent="oracle", tasks="all", task_ids=["a"], kb="x", devices=[]), resume=False
    )
    with pytest.raises(RunConfigMismatch):
        prepare_run_dir(
            tmp_path, new_config(agent="random", tasks="all", task_ids=["a"], kb="x", devices=[]), resume=True
        )
    with pytest.raises(RunConfigMismatch):
        prepare_run_dir(
            tmp_path,
            new_config(agent="oracle", tasks="all", task_ids=["a"], kb="x", devices=[]),
            resume=False,
        )
