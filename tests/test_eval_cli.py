"""`masbench run`, `report` and `compare` from the command line, including Ctrl-C and --resume."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from masbench.cli import app

DATA = Path(__file__).parent / "data" / "tasks"
COMMON = ["--tasks-dir", str(DATA), "--kb", str(DATA / "kb"), "--vphone-mode", "thread"]


def test_run_report_compare(tmp_path):
    cli = CliRunner(env={"COLUMNS": "200"})
    a, b = tmp_path / "a", tmp_path / "b"
    result = cli.invoke(app, ["run", "--agent", "oracle", "--devices", "vphone:2", "--out", str(a), *COMMON])
    assert result.exit_code == 0, result.output
    assert "MAS-Bench results" in result.output and "1.000" in result.output
    summary = json.loads((a / "summary.json").read_text())
    assert summary["overall"]["SR"] == 1.0 and summary["schema_version"] == 1
    result = cli.invoke(
        app,
        ["run", "--agent", "oracle-gui", "--devices", "vphone:1", "--out", str(b), "--no-screens", *COMMON],
    )
    assert result.exit_code == 0, result.output

    result = cli.invoke(app, ["report", str(a), "--tasks-dir", str(DATA)])
    assert result.exit_code == 0, result.output
    page = (a / "report.html").read_text()
    assert page.count('<a class=shot href="trajectories/') >= 4 and "<svg" in page and "settings-01" in page

    assert "<h2>Outcomes</h2>" in page and "<td>success</td><td>4</td>" in page
    assert "paper: oracle" not in page and "paper: t3a (single-app)" in page  # Table 2 rows, tasks=all
    assert page.index("<td>Single-app</td>") < page.index("<td>All</td>")  # the terminal table's order
    assert "class=target>on [" in page  # each GUI step names the element it acted on

    html_out = tmp_path / "compare.html"
    result = cli.invoke(
        app,
        ["compare", str(a), str(b), "--tasks-dir", str(DATA), "--html", str(html_out)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0 and "oracle-gui" in result.output and "Comparison" in result.output
    assert "Per task" in result.output and "settings-01" in result.output
    comparison = html_out.read_text()
    assert "<h2>Per task</h2>" in comparison
    assert comparison.count('<td><a class=ok href="a/report.html#ep-') == 4  # each cell opens its episode
    assert comparison.count('<td><a class=ok href="b/trajectories/') == 4  # b has no report: its episodes


def test_a_touch_is_marked_on_the_screenshot_it_links(tmp_path):
    from PIL import Image

    from masbench.eval.html import MARK, screenshot_html

    shot = tmp_path / "run" / "trajectories" / "t" / "step 0.png"
    shot.parent.mkdir(parents=True)
    Image.new("RGB", (1080, 2400), "white").save(shot)
    tap = screenshot_html(shot, tmp_path / "run", [(540, 1200)])
    assert 'href="trajectories/t/step%200.png"' in tap and 'viewBox="0 0 1080 2400"' in tap
    assert f'<circle cx="540" cy="1200" r="67" fill="none" stroke="{MARK}"' in tap
    swipe = screenshot_html(shot, tmp_path, [(540, 1800), (540, 600)])
    assert 'src="run/trajectories/t/step%200.png"' in swipe  # relative to the page, wherever it is
    assert '<line x1="540" y1="1800" x2="540" y2="600"' in swipe and "<polygon" in swipe
    assert screenshot_html(shot.with_name("missing.png"), tmp_path, None) == ""


def test_existing_run_directory_needs_resume(tmp_path):
    cli = CliRunner(env={"COLUMNS": "200"})  # a long tmp path must not wrap the line being checked
    args = [
        "run",
        "--agent",
        "oracle",
        "--devices",
        "vphone:1",
        "--out",
        str(tmp_path),
        "--no-screens",
        *COMMON,
    ]
    assert cli.invoke(app, args).exit_code == 0
    result = cli.invoke(app, args)
    assert result.exit_code == 2 and "--resume" in result.output
    result = cli.invoke(app, [*args, "--resume"])
    assert result.exit_code == 0 and "4 already done" in result.output


def test_bad_options_give_one_clear_line(tmp_path):
    cli = CliRunner()
    result = cli.invoke(app, ["run", "--agent", "nope", *COMMON])
    assert result.exit_code != 0 and "unknown agent" in result.output
    result = cli.invoke(
        app, ["run", "--agent", "oracle", "--tasks", "no-such-subset", "--out", str(tmp_path), *COMMON]
    )
    assert result.exit_code == 2 and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--devices", "vphone:0"], "starts no phone"),
        (["--resume"], "--resume needs --out"),
        (["--resume", "--out", "{tmp}/never-ran"], "holds no run to resume"),
        (["--tasks", "level-3"], "no tasks match --tasks 'level-3'"),
        (["--kb", "none"], "use oracle-gui"),
        (["--devices", "127.0.0.1:{closed}/emulator-5554"], "cannot reach the adb server at 127.0.0.1:"),
        (["--devices", "127.0.0.1:{port}/emulator-5554x"], "no device 'emulator-5554x' on the adb server"),
    ],
)
def test_bad_input_is_one_clear_line_before_anything_starts(tmp_path, vphones, args, message):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    args = [a.format(tmp=tmp_path, closed=closed, port=vphones.port) for a in args]
    cli = CliRunner(env={"COLUMNS": "200"})
    out = [] if {"--out", "--resume"} & set(args) else ["--out", str(tmp_path / "run")]
    result = cli.invoke(app, ["run", "--agent", "oracle", *out, *COMMON, *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert "oracle on" not in result.output  # no run header, no phones booted
    assert not (tmp_path / "run").exists()  # and no run directory to trip over later


def test_vphone_serve_on_a_busy_port_is_one_line(vphones):
    result = CliRunner().invoke(app, ["vphone", "serve", "--port", str(vphones.port)])
    assert result.exit_code == 2 and f"cannot serve on 127.0.0.1:{vphones.port}" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_compare_warns_when_runs_cover_different_tasks(tmp_path):
    cli = CliRunner(env={"COLUMNS": "200"})
    a, b = tmp_path / "a", tmp_path / "b"
    common = ["--agent", "oracle", "--devices", "vphone:1", "--no-screens", *COMMON]
    assert cli.invoke(app, ["run", "--out", str(a), *common]).exit_code == 0
    assert cli.invoke(app, ["run", "--out", str(b), "--tasks", "settings-01", *common]).exit_code == 0
    result = cli.invoke(app, ["compare", str(a), str(b), "--tasks-dir", str(DATA)])
    assert (
        result.exit_code == 0 and "cover different tasks" in result.output and "1 in common" in result.output
    )


def test_ctrl_c_to_the_process_group_then_resume_keeps_each_task_once(tmp_path):
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "masbench.cli",
        "run",
        "--agent",
        "oracle",
        "--devices",
        "vphone:1",
        "--out",
        str(out),
        *COMMON,
    ]
    env = {**os.environ, "ADBUTILS_ADB_PATH": "/bin/false"}
    # its own process group, signalled as a whole the way a terminal's Ctrl-C is
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
    )
    results = out / "results.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (results.exists() and results.read_text().count("\n") >= 1):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    output, _ = proc.communicate(timeout=60)
    done_before = results.read_text().count("\n")
    if done_before < 4:  # interrupted mid-run, as intended
        assert proc.returncode == 130, output
        assert "interrupted" in output and "--resume" in output
        assert "lost" not in output and "no device left" not in output  # the phones outlived the Ctrl-C
    resumed = subprocess.run([*cmd, "--resume"], capture_output=True, text=True, env=env, timeout=120)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    ids = [json.loads(line)["task_id"] for line in results.read_text().splitlines()]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == 4
