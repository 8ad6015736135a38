"""KB exposure levels (`--kb-exposure`): what MAS-T3A is offered at each level, and a call of a KB shortcut
not offered in the episode refused as an invalid step (nothing executed), counted by the diagnostics."""

from __future__ import annotations

import json
from pathlib import Path

from agent_helpers import androidworld_action, model_action, typing_submits
from typer.testing import CliRunner

from masbench.agents.mas_t3a import MasT3AAgent
from masbench.agents.retrieval import NOT_OFFERED, ShortcutRetriever
from masbench.cli import app
from masbench.device import Device
from masbench.eval import diagnostics
from masbench.eval.diagnostics import diagnose, read_steps, run_retriever
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.llm import Message, ScriptedLLM
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import load_tasks

TASK = load_tasks().select("amazon-02")[0]  # hybrid: amazon.search_product, then two taps
KB = load_kb()
FINISH = 'Reason: done.\nAction: {"action_type": "status", "goal_status": "complete"}'


def call(name: str, arguments: dict | None = None) -> str:
    data = {"action_type": "shortcut", "name": name, "arguments": arguments or {}}
    return f"Reason: try it.\nAction: {json.dumps(data)}"


class Script:
    """Replies `first` to the first action call, then plays the hybrid reference; summaries as asked."""

    def __init__(self, device: Device, first: list[str]) -> None:
        self.device, self.first = device, list(first)
        self.plan, self.done = typing_submits(TASK.solutions.hybrid), 0

    def __call__(self, messages: list[Message]) -> str:
        if "Summary of this step:" in (messages[-1].text or ""):
            return "Done."
        if self.first:
            return self.first.pop(0)
        if self.done >= len(self.plan):
            return FINISH
        step = self.plan[self.done]
        self.done += 1
        data = androidworld_action(model_action(step, self.device), self.device.observe())
        return f"Reason: step.\nAction: {json.dumps(data)}"


class Watched(MasT3AAgent):
    """MAS-T3A noting the names it offered at each action call."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.shown: list[list[str]] = []

    def offered(self, observation):
        shown = super().offered(observation)
        self.shown.append([s.qualified_name for s in shown])
        return shown


def play(device: Device, tmp_path: Path, exposure: str, first: list[str], screens: bool = False):
    agent = Watched(llm=ScriptedLLM(Script(device, first)))
    agent.expose(exposure)
    result = run_episode(
        device, TASK, agent, EpisodeSettings(Limits(12, 120.0), save_screens=screens),
        kb=KB, shortcuts=ShortcutExecutor(KB, device), run_dir=tmp_path,
    )  # fmt: skip
    steps = read_steps(tmp_path / result.trajectory / "steps.jsonl")
    assert steps is not None
    return result, steps, agent


def offered_names(prompt: str) -> set[str]:
    return {s.qualified_name for s in KB if f"- {s.qualified_name}(" in prompt}


def test_oracle_offers_the_references_shortcuts_only_and_refuses_any_other(device, tmp_path):
    result, steps, _ = play(device, tmp_path, "oracle", [call("amazon.open_cart")])
    assert offered_names(steps[0].model_input or "") == {"amazon.search_product"}
    refused = steps[0]
    assert refused.kind == "invalid" and refused.shortcut is None  # nothing ran
    assert (refused.error or "").startswith(NOT_OFFERED) and "amazon.open_cart" in refused.error
    assert result.success and result.shortcut_calls == 1 and result.invalid_steps == 1
    assert diagnose(result, TASK, steps).refused_calls == 1


def test_full_offers_the_whole_kb_and_lets_any_of_it_run(device, tmp_path):
    result, steps, agent = play(device, tmp_path, "full", [call("amazon.open_cart")])
    assert [s.qualified_name for s in agent.offered(device.observe())] == [s.qualified_name for s in KB]
    assert steps[0].kind == "shortcut" and steps[0].ok
    assert diagnose(result, TASK, steps).refused_calls == 0


def test_retrieved_allows_what_was_offered_in_the_episode_and_refuses_the_rest(device, tmp_path):
    result, steps, _ = play(
        device, tmp_path, "retrieved", [call("contacts.open_contact", {"name": "Sam Lee"})]
    )
    shown = offered_names(steps[0].model_input or "")
    assert "amazon.search_product" in shown and "contacts.open_contact" not in shown
    assert steps[0].kind == "invalid" and (steps[0].error or "").startswith(NOT_OFFERED)
    assert result.success  # the reference's own shortcut was offered, and ran


def test_a_name_the_kb_lacks_reaches_the_executor_at_every_level(device, tmp_path):
    _, steps, _ = play(device, tmp_path, "oracle", [call("amazon.teleport")])
    assert steps[0].kind == "shortcut" and not steps[0].ok
    assert "unknown shortcut" in (steps[0].shortcut or {}).get("reason", "")


def test_the_cli_refuses_an_exposure_level_for_an_agent_without_retrieval(tmp_path):
    runner = CliRunner()
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", "--agent", "oracle", "--tasks", "amazon-02", "--kb-exposure", "full",
                                 "--devices", "vphone:1", "--out", str(out)])  # fmt: skip
    assert result.exit_code == 2 and "--kb-exposure full" in result.output and not out.exists()
    result = runner.invoke(app, ["run", "--agent", "mas-t3a", "--kb-exposure", "some", "--out", str(out)])
    assert result.exit_code == 2 and "use oracle, retrieved, full" in " ".join(result.output.split())


def test_online_recall_recomputes_what_the_agent_was_offered_at_each_step(device, tmp_path, monkeypatch):
    result, recorded, agent = play(device, tmp_path, "retrieved", [], screens=True)
    steps = [s.model_copy(update={"reference_offered": None}) for s in recorded]  # a run before the record
    retriever = ShortcutRetriever(KB)
    seen = []
    real = diagnostics.retrieve_for_screen
    monkeypatch.setattr(diagnostics, "retrieve_for_screen", lambda *a: seen.append(real(*a)) or seen[-1])
    hits, total = diagnostics.online_recall(TASK, steps, tmp_path / result.trajectory, retriever)
    assert (hits, total) == (1, 1)  # one step before the reference's only shortcut ran, and it was offered
    assert [s.qualified_name for s in seen[0]] == agent.shown[0]
    assert diagnostics.online_recall(TASK, recorded, tmp_path / result.trajectory, None) == (1, 1)
    assert run_retriever({"agent": "mas-t3a", "kb": "predefined"}) is not None
    assert run_retriever({"agent": "mas-t3a", "kb": "predefined", "kb_exposure": "full"}) is None
    assert run_retriever({"agent": "t3a", "kb": "predefined"}) is None
