"""The CI workflows are valid GitHub Actions files (checked against the workflow schema that
check-jsonschema ships, offline) and call what they claim to; the emulator scripts they run parse."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_matches_the_github_actions_schema(workflow):
    tool = shutil.which("check-jsonschema")
    if tool is None:
        pytest.skip("check-jsonschema is not installed (pip install -e '.[test]')")
    done = subprocess.run(
        [tool, "--builtin-schema", "vendor.github-workflows", str(workflow)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_ci_runs_the_same_script_as_a_developer_and_the_emulator_job_keeps_its_run():
    ci = yaml.safe_load((WORKFLOWS[0].parent / "ci.yml").read_text())
    assert any(step.get("run") == ".ci/run" for step in ci["jobs"]["tests"]["steps"])
    emulators = yaml.safe_load((WORKFLOWS[0].parent / "emulators.yml").read_text())
    steps = emulators["jobs"]["evaluate"]["steps"]
    commands = "\n".join(step.get("run", "") for step in steps)
    assert "masbench run" in commands and "--judge" in commands and "snapshot.sh save clean" in commands
    assert any(step.get("uses", "").startswith("actions/upload-artifact") for step in steps)


@pytest.mark.parametrize("script", sorted((ROOT / "emulator").glob("*.sh")), ids=lambda p: p.name)
def test_emulator_scripts_parse_and_the_workflow_uses_them(script):
    done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    if script.name != "env.sh":
        assert f"emulator/{script.name}" in (ROOT / ".github" / "workflows" / "emulators.yml").read_text()
