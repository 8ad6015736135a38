"""`--resume` as the run tells you: the command printed after errors (and after Ctrl-C, the same code) is
complete and works as printed, and a resumed run refuses changed limits with a message naming them."""

from __future__ import annotations

import shlex
from pathlib import Path

from llm_server import Reply, openai_ok
from typer.testing import CliRunner

from masbench.cli import app
from masbench.eval.runner import load_results

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = "settings-01,settings-02,settings-03"
DONE = 'Reason: done.\nAction: {"action_type": "status", "goal_status": "complete"}'


def hint_in(output: str) -> list[str]:
    """The printed resume command, as the arguments a shell would pass to `masbench`."""
    (line,) = [ln for ln in output.splitlines() if ln.strip().startswith("masbench run ")]
    words = shlex.split(line)
    assert words[:2] == ["masbench", "run"] and words[-1] == "--resume"
    return words[1:]


def test_the_printed_resume_command_is_complete_and_works(tmp_path, server):
    out = tmp_path / "run with space"
    model = f"openai:local@{server.url}/v1"
    args = [
        "run", "--agent", "t3a", "--model", model, "--tasks", TASKS, "--devices", "vphone:1",
        "--tasks-dir", str(DATA), "--kb", str(DATA / "kb"), "--vphone-mode", "thread",
        "--timeout", "30", "--max-steps", "3", "--no-screens", "--out", str(out),
    ]  # fmt: skip
    cli = CliRunner(env={"COLUMNS": "60"})  # narrow: the command must still come out on one line
    server.queue(*[Reply(400, {"error": "bad key"})] * 3)  # three errors in a row stop the run
    stopped = cli.invoke(app, args)
    assert stopped.exit_code == 3, stopped.output
    resume = hint_in(stopped.output)
    for given in (model, "--tasks-dir", "--kb", "--devices", "--timeout", "--max-steps", "--no-screens"):
        assert given in resume

    server.queue(*[openai_ok(DONE)] * 3)  # the cause fixed
    resumed = cli.invoke(app, resume)
    assert resumed.exit_code == 0, resumed.output
    final = {r.task_id: r for r in load_results(out)}
    assert sorted(final) == sorted(TASKS.split(",")) and all(
        r.end_reason == "finished" for r in final.values()
    )


def test_resume_refuses_changed_limits_and_says_which(tmp_path):
    out = tmp_path / "run"
    base = ["run", "--agent", "oracle", "--tasks", "settings-01", "--devices", "vphone:1", "--tasks-dir", str(DATA),
            "--kb", str(DATA / "kb"), "--vphone-mode", "thread", "--no-screens", "--out", str(out)]  # fmt: skip
    cli = CliRunner(env={"COLUMNS": "200"})
    assert cli.invoke(app, [*base, "--timeout", "60", "--max-steps", "5"]).exit_code == 0
    refused = cli.invoke(app, [*base, "--timeout", "5", "--max-steps", "5", "--resume"])
    assert refused.exit_code == 2
    assert "--timeout 60.0 (this command: 5.0)" in refused.output and "limits included" in refused.output
    refused = cli.invoke(app, [*base, "--timeout", "60", "--resume"])  # --max-steps left out
    assert refused.exit_code == 2 and "--max-steps 5 (this command: None)" in refused.output
    assert cli.invoke(app, [*base, "--timeout", "60", "--max-steps", "5", "--resume"]).exit_code == 0
