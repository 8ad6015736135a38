"""`--grounding-model` is kept in run.json like the other options that shape scores: a resumed run grounds
dynamic shortcuts with the model it started with, and a resume given another one is refused naming both."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from masbench.cli import app
from masbench.eval.records import read_config

cli = CliRunner(env={"COLUMNS": "200"})


def _run(out: Path, grounding: Path, *extra: str):
    args = ["run", "--agent", "oracle-gui", "--kb", "none", "--tasks", "yelp-02", "--devices", "vphone:1",
            "--out", str(out), "--grounding-model", f"scripted:{grounding}", *extra]  # fmt: skip
    return cli.invoke(app, args)


def test_a_run_keeps_its_grounding_model_and_refuses_a_resume_with_another(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for path in (first, second):
        path.write_text(json.dumps(["[0]"]))
    out = tmp_path / "run"
    result = _run(out, first)
    assert result.exit_code == 0, result.output
    assert read_config(out / "run.json").grounding_model == f"scripted:{first}"

    result = _run(out, first, "--resume")
    assert result.exit_code == 0, result.output

    result = _run(out, second, "--resume")
    assert result.exit_code == 2
    said = " ".join(result.output.split())  # the console wraps long lines
    assert f"--grounding-model scripted:{first} (this command: scripted:{second})" in said, said
    assert read_config(out / "run.json").grounding_model == f"scripted:{first}"
