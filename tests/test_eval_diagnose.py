"""Teacher-forced next action: the phone put in the reference's state at each step, one decision asked and
scored without being executed; argument values told apart by where they come from."""

from __future__ import annotations

import json

from agent_helpers import androidworld_action, model_action
from typer.testing import CliRunner

from masbench.actions import ShortcutAction
from masbench.agents.mas_t3a import MasT3AAgent
from masbench.cli import app
from masbench.device import Device
from masbench.eval.diagnose import grouped, next_actions, value_source
from masbench.llm import Message, ScriptedLLM
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import load_tasks

TASKS = load_tasks().select("amazon-02,cross-01")  # cross-01: contacts.open_contact, maps.navigate_to_address
KB = load_kb()


class Gold:
    """Answers each decision with the reference's step (read off the same screen the agent sees), or with
    `wrong` (a function of the step) for a shortcut step."""

    def __init__(self, device: Device, wrong=None) -> None:
        self.device, self.wrong = device, wrong
        self.steps = [a for t in TASKS for a in t.solutions.hybrid]

    def __call__(self, messages: list[Message]) -> str:
        step = self.steps.pop(0)
        data = androidworld_action(model_action(step, self.device), self.device.observe())
        if self.wrong is not None and isinstance(step, ShortcutAction):
            data = self.wrong(data)
        return f"Reason: the reference.\nAction: {json.dumps(data)}"


def diagnose(device: Device, wrong=None):
    agent = lambda: MasT3AAgent(llm=ScriptedLLM(Gold(device, wrong)))  # noqa: E731
    return next_actions(device, list(TASKS), agent, KB, ShortcutExecutor(KB, device))


def test_an_agent_that_answers_the_reference_scores_every_figure_full(device):
    scores = diagnose(device)
    assert [(s.task_id, s.step) for s in scores] == [
        (t.id, i) for t in TASKS for i in range(len(t.solutions.hybrid))
    ]
    assert all(s.correct for s in scores), [
        (s.task_id, s.step, s.reference, s.answer) for s in scores if not s.correct
    ]
    figures = grouped(scores)
    assert list(figures) == ["all", "level-1", "length 1-3"]
    assert figures["all"]["action accuracy"] == figures["all"]["shortcut selection"] == 1.0
    assert figures["all"]["shortcut skipped"] == 0.0 and figures["all"]["steps"] == len(scores)


def test_wrong_arguments_are_told_apart_by_where_the_value_comes_from(device):
    scores = diagnose(device, wrong=lambda d: {**d, "arguments": {k: "nope" for k in d["arguments"]}})
    shortcut_steps = [s for s in scores if s.gold_kind == "shortcut"]
    assert shortcut_steps and all(s.shortcut_name and not s.correct for s in shortcut_steps)
    sources = {a.name: a.source for s in shortcut_steps for a in s.arguments}
    # amazon-02 names its query; cross-01's address is on the Contacts screen in front; walking's 'w' is
    # in neither (derived from the instruction's words)
    assert (sources["query"], sources["address"], sources["mode"]) == ("instruction", "screen", "carried")
    assert all(s.correct for s in scores if s.gold_kind != "shortcut")  # the GUI steps still match


def test_choosing_gui_where_the_reference_calls_a_shortcut_is_a_skipped_shortcut(device):
    scores = diagnose(device, wrong=lambda d: {"action_type": "navigate_back"})
    figures = grouped(scores)["all"]
    assert figures["shortcut skipped"] == 1.0 and figures["shortcut selection"] == 0.0


def test_value_source():
    assert value_source("Mechanical Watch", "Find a mechanical watch", "") == "instruction"
    assert value_source("501 Stanyan St", "Navigate to Sam", "Home 501 Stanyan St") == "screen"
    assert value_source(1750464000000, "the 21st of June", "") == "carried"


def test_the_cli_writes_every_score_and_prints_the_figures_at_80_columns(tmp_path):
    script = tmp_path / "finish.yaml"
    finish = 'Reason: done.\nAction: {"action_type": "status", "goal_status": "complete"}'
    script.write_text(json.dumps([finish] * 3))
    out = tmp_path / "na.json"
    result = CliRunner().invoke(
        app,
        ["diagnose", "next-action", "--agent", "mas-t3a", "--model", f"scripted:{script}", "--tasks", "amazon-02",
         "--out", str(out)],
        env={"COLUMNS": "80"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert [s["kind"] for s in data["steps"]] == ["finish"] * 3 and data["figures"]["all"][
        "action accuracy"
    ] == 0
    tables = [
        line for line in result.output.splitlines() if not line.startswith("scores: ")
    ]  # a path is as long as it is
    assert "kind agreement" in result.output and all(len(line) <= 80 for line in tables)
    refused = CliRunner().invoke(app, ["diagnose", "next-action", "--agent", "oracle", "--out", str(out)])
    assert refused.exit_code == 2 and "t3a, m3a and mas-t3a" in refused.output
