"""Teacher-forced next action: the phone put in the reference's state at each step, one decision asked and
scored without being executed; argument values told apart by where they come from; the missing-information
cases; each agent family given the gold history in its own format; the diagnosis directory, its report and
its cassette replay."""

from __future__ import annotations

import json

from agent_helpers import androidworld_action, model_action
from llm_server import openai_ok
from typer.testing import CliRunner

from masbench.actions import ShortcutAction, TapAction, TypeAction
from masbench.agents.base import PastStep
from masbench.agents.mas_mobileagent import MasMobileAgentTree
from masbench.agents.mas_t3a import MasT3AAgent
from masbench.agents.mobileagent_v2 import v2_action_text
from masbench.cli import app
from masbench.device import Device
from masbench.eval.diagnose import grouped, missing_cases, missing_outcome, next_actions, value_source
from masbench.llm import Message, ScriptedLLM
from masbench.llm.cassette import RecordingLLM
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
        if not any(t.instruction in (messages[-1].text or "") for t in TASKS):  # a value left out: stop
            return (
                'Reason: a value is missing.\nAction: {"action_type": "status", "goal_status": "infeasible"}'
            )
        step = self.steps.pop(0)
        data = androidworld_action(model_action(step, self.device), self.device.observe())
        if self.wrong is not None and isinstance(step, ShortcutAction):
            data = self.wrong(data)
        return f"Reason: the reference.\nAction: {json.dumps(data)}"


def diagnose(device: Device, wrong=None, missing_info=False, llm=None):
    agent = lambda: MasT3AAgent(llm=llm or ScriptedLLM(Gold(device, wrong)))  # noqa: E731
    return next_actions(
        device, list(TASKS), agent, KB, ShortcutExecutor(KB, device), missing_info=missing_info
    )


def test_an_agent_that_answers_the_reference_scores_every_figure_full(device):
    scores = diagnose(device)
    assert [(s.task_id, s.step) for s in scores] == [
        (t.id, i) for t in TASKS for i in range(len(t.solutions.hybrid))
    ]
    assert all(s.correct for s in scores), [
        (s.task_id, s.step, s.reference, s.answer) for s in scores if not s.correct
    ]
    figures = grouped(scores)
    assert list(figures) == ["all", "level-1", "length 1-3"] and figures["all"]["missing: cases"] == 0
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


def test_the_cli_writes_a_diagnosis_directory_and_prints_the_figures_at_80_columns(tmp_path):
    script = tmp_path / "finish.yaml"
    finish = 'Reason: done.\nAction: {"action_type": "status", "goal_status": "complete"}'
    script.write_text(json.dumps([finish] * 4))  # amazon-02's 3 steps and its 1 missing-information case
    out = tmp_path / "na"
    result = CliRunner().invoke(
        app,
        ["diagnose", "next-action", "--agent", "mas-t3a", "--model", f"scripted:{script}", "--tasks", "amazon-02",
         "--out", str(out)],
        env={"COLUMNS": "80"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    decisions = [json.loads(line) for line in (out / "decisions.jsonl").read_text().splitlines()]
    assert [(d["kind"], d["missing"]) for d in decisions] == [
        ("finish", None),
        ("finish", "mechanical watch"),
        ("finish", None),
        ("finish", None),
    ]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["agent"] == "mas-t3a" and summary["figures"]["all"]["action accuracy"] == 0
    assert summary["figures"]["all"]["missing: asked/stopped"] == 1.0
    page = (out / "report.html").read_text()
    assert "Missing information" in page and "Search Amazon for something" in page
    tables = [line for line in result.output.splitlines() if not line.startswith("diagnosis: ")]
    assert "kind agreement" in result.output and all(len(line) <= 80 for line in tables)
    (out / "report.html").unlink()
    again = CliRunner().invoke(app, ["diagnose", "report", str(out)], env={"COLUMNS": "80"})
    assert again.exit_code == 0 and (out / "report.html").read_text() == page


def test_agents_whose_history_cannot_be_written_are_refused_saying_why(tmp_path):
    script = tmp_path / "none.yaml"
    script.write_text("[]")
    for agent, why in (("oracle", "not a model agent"), ("mobileagent-e", "Manager's plan")):
        refused = CliRunner().invoke(
            app, ["diagnose", "next-action", "--agent", agent, "--model", f"scripted:{script}"],
            env={"COLUMNS": "300"},
        )  # fmt: skip
        assert refused.exit_code == 2 and why in refused.output, refused.output


# -- missing information ------------------------------------------------------------------------------------
def test_missing_cases_leave_out_values_the_screen_or_the_history_shows():
    instruction = "Search Amazon for a mechanical watch and share it with Sam"
    call = ShortcutAction(name="amazon.search_product", arguments={"query": "mechanical watch", "n": 3})
    assert missing_cases(instruction, call, [], "Home") == [
        ("mechanical watch", "Search Amazon for a something and share it with Sam")
    ]
    assert missing_cases(instruction, call, [], "Results for mechanical watch") == []
    typed = PastStep(TapAction(x=1, y=1), None, "type 'mechanical watch'")  # type: ignore[arg-type]
    assert missing_cases(instruction, call, [typed], "Home") == []
    assert missing_cases(instruction, TypeAction(text="Sam"), [], "")[0][1].endswith(
        "share it with something"
    )


def test_what_an_agent_does_without_the_value_is_asked_stopped_invented_or_other():
    from masbench.actions import parse_action

    assert missing_outcome(parse_action({"action": "answer", "text": "Which watch?"})) == "asked"
    assert missing_outcome(parse_action({"action": "finish", "status": "infeasible"})) == "stopped"
    assert (
        missing_outcome(ShortcutAction(name="amazon.search_product", arguments={"query": "x"})) == "invented"
    )
    assert missing_outcome(TypeAction(text="watch")) == "invented"
    assert missing_outcome(TapAction(x=1, y=1)) == "other" and missing_outcome(None) == "invalid"


def test_an_agent_that_stops_when_a_value_is_missing_scores_full_and_its_decisions_are_unchanged(device):
    scores = diagnose(device, missing_info=True)
    cases = [s for s in scores if s.missing is not None]
    assert {(s.task_id, s.missing) for s in cases} == {
        ("amazon-02", "mechanical watch"),
        ("cross-01", "Samuel Okafor"),
    }
    assert all(s.outcome == "stopped" and "something" in (s.instruction or "") for s in cases)
    figures = grouped(scores)["all"]
    assert figures["missing: cases"] == 2 and figures["missing: asked/stopped"] == 1.0
    assert figures["action accuracy"] == 1.0 and figures["missing: invented"] == 0.0


# -- other agent families ---------------------------------------------------------------------------------
class V2Gold:
    """Mobile-Agent-v2's decision answering each reference step as v2 writes it; its memory call keeps
    nothing. Keeps the decision prompts, to read the history they show."""

    def __init__(self, device: Device, tasks=TASKS) -> None:
        self.device, self.prompts = device, []
        self.steps = [a for t in tasks for a in t.solutions.hybrid]

    def __call__(self, messages: list[Message]) -> str:
        if (messages[-1].text or "").startswith("### Response requirements ###\nIs there content"):
            return "### Important content ###\nNone"
        self.prompts.append(messages[-1].text or "")
        action = v2_action_text(self.steps.pop(0), self.device.observe())
        return f"### Thought ###\nthe reference\n### Action ###\n{action}\n### Operation ###\nthe reference"


def test_mas_mobileagent_is_given_the_gold_history_as_its_operations(device):
    gold = V2Gold(device)
    agent = lambda: MasMobileAgentTree(llm=ScriptedLLM(gold))  # noqa: E731
    scores = next_actions(device, list(TASKS), agent, KB, ShortcutExecutor(KB, device), missing_info=False)
    assert scores and all(s.correct for s in scores), [
        (s.reference, s.answer) for s in scores if not s.correct
    ]
    first, second = gold.prompts[0], gold.prompts[1]
    assert "### History operations ###" not in first
    call = "amazon.search_product(query='mechanical watch', sort='review-rank')"
    assert f"Step-1: [Operation: shortcut {call}; Action: Shortcut {call}]" in second


def test_mobile_agents_open_app_taps_the_launcher_icon_and_scores_as_the_references_open_app(device):
    tasks = list(load_tasks().select("cross-15"))  # opens Contacts from the home screen first
    agent = lambda: MasMobileAgentTree(llm=ScriptedLLM(V2Gold(device, tasks)))  # noqa: E731
    scores = next_actions(device, tasks, agent, KB, ShortcutExecutor(KB, device), missing_info=False)
    assert scores[0].reference.startswith("open_app") and scores[0].kind == "gui" and scores[0].correct
    assert all(s.correct for s in scores), [(s.reference, s.answer) for s in scores if not s.correct]


# -- cassette ------------------------------------------------------------------------------------------------
def test_a_diagnosis_recorded_to_a_cassette_replays_offline_with_identical_scores(device, tmp_path):
    cassette = tmp_path / "llm_cassette.jsonl"
    wrong = lambda d: {**d, "arguments": {k: "nope" for k in d["arguments"]}}  # noqa: E731
    recorded = diagnose(
        device, wrong, missing_info=True, llm=RecordingLLM(ScriptedLLM(Gold(device, wrong)), cassette)
    )
    out = tmp_path / "replay"
    result = CliRunner().invoke(
        app, ["diagnose", "next-action", "--agent", "mas-t3a", "--model", f"cassette:{cassette}",
              "--tasks", ",".join(t.id for t in TASKS), "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    replayed = [json.loads(line) for line in (out / "decisions.jsonl").read_text().splitlines()]
    assert replayed == [s.model_dump(mode="json") for s in recorded]
    assert json.loads((out / "summary.json").read_text())["figures"] == json.loads(
        json.dumps(grouped(recorded))
    )


class SameCall:
    """A model server's replies (tests/llm_server.py): amazon-02's first step, whatever is asked."""

    def __bool__(self) -> bool:
        return True

    def popleft(self):
        call = {
            "name": "amazon.search_product",
            "arguments": {"query": "mechanical watch", "sort": "review-rank"},
        }
        return openai_ok(f"Reason: search.\nAction: {json.dumps({'action_type': 'shortcut', **call})}")


def test_the_cli_records_an_openai_compatible_model_and_replays_it_from_the_cassette(server, tmp_path):
    server.replies = SameCall()
    runs = {}
    for name in ("live", "replay"):
        model = (
            f"openai:fake@{server.url}/v1"
            if name == "live"
            else f"cassette:{tmp_path / 'live' / 'llm_cassette.jsonl'}"
        )
        result = CliRunner().invoke(
            app, ["diagnose", "next-action", "--agent", "mas-t3a", "--model", model, "--tasks", "amazon-02",
                  "--out", str(tmp_path / name)],
            env={"OPENAI_API_KEY": "test"},
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        runs[name] = [
            json.loads(line) for line in (tmp_path / name / "decisions.jsonl").read_text().splitlines()
        ]
    assert len(server.seen) == 4 and not (tmp_path / "replay" / "llm_cassette.jsonl").exists()
    assert runs["live"] == runs["replay"]
    assert [(d["correct"], d["outcome"]) for d in runs["live"]] == [
        (True, None),
        (True, "invented"),  # the value it gave is the one removed: still invented
        (False, None),
        (False, None),
    ]
