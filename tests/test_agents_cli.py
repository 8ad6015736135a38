"""The agents from the command line: `masbench agents list`, and a model agent without its key."""

from __future__ import annotations

from typer.testing import CliRunner

from masbench.cli import app

runner = CliRunner()


def test_agents_list_describes_every_agent_and_its_default_model():
    result = runner.invoke(app, ["agents", "list"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for name in ("t3a", "m3a", "mas-t3a", "oracle", "oracle-gui", "random"):
        assert name in result.output
    assert "gemini-2.5-pro" in result.output and "set-of-marks" in result.output


def test_run_without_a_key_says_which_variable_and_which_models_instead(monkeypatch, tmp_path):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    result = runner.invoke(
        app, ["run", "--agent", "mas-t3a", "--tasks", "single-app", "--out", str(tmp_path / "run")],
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    text = " ".join(result.output.split())
    assert "Traceback" not in result.output
    assert "GEMINI_API_KEY is not set" in text
    assert "--model cassette:PATH" in text and "--model scripted:PATH" in text
    assert text.count("error:") == 1
    assert not (tmp_path / "run").exists()
