"""A run directory survives torn files, a second process, a full or unwritable disk: a corrupt line of
results.jsonl is reported with file and line and skipped, whole files are replaced atomically, one process
holds the directory (a dead holder's lock is taken over), an episode failing with the same harness error on
every resume is given up and said so, and the CLI ends such faults with one line, not a traceback."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest

from masbench.eval.lock import LOCK, RunDirLocked, lock_run_dir
from masbench.eval.records import (
    GIVE_UP_AFTER,
    EpisodeResult,
    OutputError,
    given_up,
    read_results,
    write_atomic,
)
from masbench.eval.runner import Runner, new_config, prepare_run_dir
from masbench.tasks import load_tasks

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = load_tasks(DATA)


def result(task_id: str = "settings-01", error: str | None = None, **kw) -> EpisodeResult:
    return EpisodeResult(
        task_id=task_id, agent="oracle", kb="none", device="d", device_kind="virtual", success=error is None,
        end_reason="error" if error else "finished", error=error, error_kind="harness" if error else None,
        steps=1, gui_actions=1, shortcut_calls=0, shortcut_successes=0, invalid_steps=0, optimal_steps=1,
        wall_s=0.1, started_at=datetime.now(UTC), trajectory=f"trajectories/{task_id}", **kw,
    )  # fmt: skip


def test_a_corrupt_line_anywhere_is_reported_with_file_and_line_and_skipped(tmp_path, caplog):
    path = tmp_path / "results.jsonl"
    good = [result("a"), result("b"), result("c")]
    lines = [good[0].model_dump_json(), "{not json", good[1].model_dump_json(), '{"task_id": 3}',
             "\xff\xfe", good[2].model_dump_json(), '{"torn": ']  # fmt: skip
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogateescape"))
    with caplog.at_level(logging.WARNING):
        assert [r.task_id for r in read_results(path)] == ["a", "b", "c"]
    assert [m for m in caplog.messages if "not a result" in m] == [
        m for m in caplog.messages if m.startswith(f"{path}:")
    ]
    assert {m.split(":")[1] for m in caplog.messages} == {"2", "4", "5"}
    assert path.read_bytes().endswith(b"\n")  # the torn last line (a kill mid-write) is cut off


def test_whole_files_are_replaced_atomically_and_a_failed_write_loses_nothing(tmp_path, monkeypatch):
    path = tmp_path / "summary.json"
    write_atomic(path, "old")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputError, match=r"summary.json: No space left on device"):
        write_atomic(path, "new")
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["summary.json"]  # no temp file left


def test_an_episode_failing_the_same_way_every_time_is_given_up(tmp_path):
    crash = "RuntimeError: raqm_layout() failed at 0x7f{}".format
    history = [result(error=crash(n)) for n in range(GIVE_UP_AFTER)]
    assert set(given_up(history)) == {("settings-01", 0)}
    assert given_up(history[1:]) == {}  # not yet: one resume more
    assert given_up([*history, result()]) == {}  # it passed in the end
    assert given_up([*history[:-1], result(error="ValueError: another bug")]) == {}

    config = prepare_run_dir(tmp_path, new_config(agent="oracle-gui", tasks="x", task_ids=["settings-01"],
                                                  kb="none", devices=[]), resume=False)  # fmt: skip
    (tmp_path / "results.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in history))
    runner = Runner(config, [TASKS.get("settings-01")], lambda: None, None, tmp_path)
    assert runner.pending() == [] and set(runner.given_up) == {("settings-01", 0)}


HOLD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from masbench.eval.lock import lock_run_dir
    lock_run_dir(Path(sys.argv[1]))
    print("held", flush=True)
    time.sleep(60)
""")


def test_one_process_per_run_directory_and_a_dead_holder_is_taken_over(tmp_path, caplog):
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(RunDirLocked, match=rf"is in use by pid {holder.pid} on "):
            lock_run_dir(tmp_path)
    finally:
        holder.send_signal(signal.SIGKILL)  # dies without releasing anything: its lock file stays
        holder.wait()
    assert (tmp_path / LOCK).read_text().startswith(f"pid {holder.pid} ")
    with caplog.at_level(logging.WARNING):
        lock_run_dir(tmp_path)
    assert f"taking over the lock of pid {holder.pid}" in caplog.text
    assert (tmp_path / LOCK).read_text().startswith(f"pid {os.getpid()} ")
    lock_run_dir(tmp_path)  # the holder may take it again


def masbench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "masbench.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_the_cli_ends_run_directory_faults_with_one_line(tmp_path):
    common = [
        "--agent",
        "oracle",
        "--tasks",
        "settings-01",
        "--tasks-dir",
        str(DATA),
        "--kb",
        str(DATA / "kb"),
    ]
    (tmp_path / "file").write_text("")
    out = masbench(
        "run", *common, "--devices", "vphone", "--out", str(tmp_path / "file" / "run"), cwd=tmp_path
    )
    assert out.returncode == 2 and out.stderr.strip().count("\n") == 0, out.stderr
    assert out.stderr.startswith("error: cannot write ") and "Not a directory" in out.stderr

    out = masbench("run", *common, "--devices", "vphone:100000", "--out", str(tmp_path / "big"), cwd=tmp_path)
    assert out.returncode == 2 and "at most 64" in out.stdout + out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "big").exists()  # no run.json left behind

    run = tmp_path / "run"
    prepare_run_dir(run, new_config(agent="oracle", tasks="settings-01", task_ids=["settings-01"],
                                    kb=str(DATA / "kb"), devices=["vphone"]), resume=False)  # fmt: skip
    out = masbench("run", *common, "--devices", "vphone", "--out", str(run), "--resume", cwd=tmp_path)
    assert (
        out.returncode == 2
        and out.stderr
        == f"error: {run} is in use by pid {os.getpid()} on {os.uname()[1]}; wait for it to end (or stop it) before running here\n"
    )
