"""Every wait has an end: a frozen phone or adb server is a lost device within the episode's limit, the run
goes on without it and Ctrl-C ends a run in seconds; a model that never answers is an error whatever the
timeouts, and only a model that answered can run out of time. Faults are a loopback proxy that freezes an
ADB connection (tests/frozen_adb.py) and the fake model server (tests/llm_server.py) made slow."""

from __future__ import annotations

import _thread
import threading
import time
from pathlib import Path

import pytest
from frozen_adb import FreezableAdb
from llm_server import Reply, openai_ok

from masbench.agents import make_agent
from masbench.agents.t3a import T3AAgent
from masbench.deadlines import deadline
from masbench.device import Device, DeviceGoneError
from masbench.device.transport import DEADLINE_FLOOR_S, PROBE_TIMEOUT_S
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.eval.runner import STOP_GRACE_S, RunEvents, Runner, new_config, prepare_run_dir
from masbench.llm import RetryPolicy, ScriptedLLM
from masbench.llm.openai_compat import OpenAICompatLLM
from masbench.shortcuts import load_kb
from masbench.tasks import load_tasks

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = load_tasks(DATA)
TASK = TASKS.get("settings-01")
HOME = 'Reason: start from home.\nAction: {"action_type": "navigate_home"}'


@pytest.fixture
def proxy(vphones):
    """The phone of `vphones` behind a proxy that can freeze."""
    with FreezableAdb(vphones.port) as proxy:
        yield proxy


def phone_behind(proxy: FreezableAdb, **kw) -> Device:
    """A `Device` through the proxy whose kind is known (asked before anything freezes, as a run does)."""
    device = proxy.device(**kw)
    assert device.kind == "virtual"
    return device


# -- devices -----------------------------------------------------------------------------------------------


def test_an_adb_server_that_never_answers_is_a_lost_device_not_a_hang():
    with FreezableAdb() as silent:
        device = silent.device(socket_timeout=0.3)
        for call in (lambda: device.shell("echo hi"), device.observe, device.state):
            t0 = time.monotonic()
            with pytest.raises(DeviceGoneError, match="frozen or gone"):
                call()
            assert time.monotonic() - t0 < 1.5


def test_the_deadline_cuts_every_connection_of_an_observation():
    with FreezableAdb() as silent:
        device = silent.device()  # the default 30 s socket timeout: the deadline is what ends it
        t0 = time.monotonic()
        with deadline(time.monotonic() + 0.2), pytest.raises(DeviceGoneError):
            device.observe()
        assert time.monotonic() - t0 < DEADLINE_FLOOR_S + PROBE_TIMEOUT_S + 1


def test_a_phone_frozen_mid_episode_is_lost_within_the_episode_limit(proxy, tmp_path):
    device = phone_behind(proxy)  # the default 30 s socket timeout: the episode's limit is what ends it
    calls = []

    def model(messages):
        calls.append(messages)
        if len(calls) == 2:  # the summary of step 0: the phone freezes while the model thinks
            proxy.freeze()
        return HOME

    agent = T3AAgent(llm=ScriptedLLM(model))
    t0 = time.monotonic()
    with pytest.raises(DeviceGoneError, match="frozen or gone"):
        run_episode(
            device, TASK, agent, EpisodeSettings(Limits(50, 2.0), save_screens=True),
            kb=None, shortcuts=None, run_dir=tmp_path,
        )  # fmt: skip
    assert time.monotonic() - t0 < 2.0 + PROBE_TIMEOUT_S + 1


def runner(tmp_path: Path, agent, *, timeout_s: float = 5.0) -> Runner:
    config = new_config(
        agent="oracle", tasks="all", task_ids=[t.id for t in TASKS], kb="test", devices=["vphone:2"],
        timeout_s=timeout_s,
    )  # fmt: skip
    config = prepare_run_dir(tmp_path, config, resume=True)
    return Runner(config, list(TASKS), agent, load_kb(DATA / "kb"), tmp_path, save_screens=False)


def test_a_frozen_phone_leaves_the_pool_and_the_run_goes_on(proxy, tmp_path):
    from masbench.device import start_virtual_phones

    frozen = phone_behind(proxy, socket_timeout=0.5)  # lost in a second, not at the episode's limit
    run = runner(tmp_path, lambda: make_agent("oracle"))
    started = threading.Event()

    def freeze_first(device: str, item) -> None:
        if device == str(frozen.address) and not started.is_set():
            started.set()
            proxy.freeze()

    run.events = RunEvents(on_start=freeze_first)
    with start_virtual_phones(1) as healthy:
        t0 = time.monotonic()
        results = run.run([frozen, *healthy.devices])
    assert time.monotonic() - t0 < 5
    assert list(run.lost) == [str(frozen.address)] and "frozen or gone" in run.lost[str(frozen.address)]
    assert sorted(r.task_id for r in results) == sorted(t.id for t in TASKS) and all(
        r.scored for r in results
    )
    assert max(r.attempts for r in results) == 2  # the frozen phone's task, played again on the healthy one


def test_the_last_phone_frozen_ends_the_run_with_its_episode_recorded_as_lost(proxy, tmp_path):
    frozen = phone_behind(proxy, socket_timeout=0.5)
    run = runner(tmp_path, lambda: make_agent("oracle"))
    run.events = RunEvents(on_start=lambda device, item: proxy.freeze())
    t0 = time.monotonic()
    (result,) = run.run([frozen])
    assert time.monotonic() - t0 < 5
    assert (result.end_reason, result.error_kind, result.scored) == ("device_lost", "device", False)
    assert len(run.pending()) == len(TASKS)  # all run again on --resume


def test_ctrl_c_ends_a_run_stuck_in_a_call_within_seconds(tmp_path, vphones, server):
    server.queue(Reply(delay_s=20, body={}))  # the agent's first call hangs
    llm = OpenAICompatLLM("hung", server.url + "/v1", timeout_s=60, retry=RetryPolicy(max_attempts=1))
    run = runner(tmp_path, lambda: T3AAgent(llm=llm), timeout_s=600)
    threading.Timer(0.5, _thread.interrupt_main).start()  # Ctrl-C, as the terminal delivers it
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run.run(vphones.devices)
    assert time.monotonic() - t0 < 0.5 + STOP_GRACE_S + 1
    assert run.results == []  # the episode under way is dropped, for --resume


# -- models --------------------------------------------------------------------------------------------------


def play_on(device, url: str, tmp_path: Path, *, attempt_timeout_s: float, timeout_s: float):
    retry = RetryPolicy(max_attempts=50, sleep=lambda s: None)
    agent = T3AAgent(llm=OpenAICompatLLM("slow", url + "/v1", timeout_s=attempt_timeout_s, retry=retry))
    return run_episode(
        device, TASK, agent, EpisodeSettings(Limits(50, timeout_s), save_screens=False),
        kb=None, shortcuts=None, run_dir=tmp_path,
    )  # fmt: skip


@pytest.mark.parametrize("attempt_timeout_s", [0.3, 1.0, 30.0], ids=["shorter", "equal", "longer"])
def test_a_model_that_never_answers_is_one_verdict_whatever_the_timeouts(
    device, tmp_path, server, attempt_timeout_s
):
    server.queue(*[Reply(delay_s=5, body={})] * 10)
    t0 = time.monotonic()
    result = play_on(device, server.url, tmp_path, attempt_timeout_s=attempt_timeout_s, timeout_s=1.0)
    assert time.monotonic() - t0 < 3
    assert (result.end_reason, result.error_kind, result.scored, result.steps) == ("error", "model", False, 0)


def test_a_slow_model_that_answered_and_acted_runs_out_of_time(device, tmp_path, server):
    server.queue(*[Reply(delay_s=0.25, body=openai_ok(HOME).body)] * 30)
    result = play_on(device, server.url, tmp_path, attempt_timeout_s=30.0, timeout_s=1.5)
    assert (result.end_reason, result.error_kind, result.scored) == ("time_limit", None, True)
    assert result.gui_actions >= 1
