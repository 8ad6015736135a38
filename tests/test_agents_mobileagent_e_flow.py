"""Mobile-Agent-E's control flow as published, replayed from scripted replies on a virtual phone: three
actions in a row judged B or C stop the task; an Operator reply it cannot run, or a stop, ends it; the
built-in Tap_Type_and_Enter shortcut types and submits; and the grammar holes closed for it (a scroll's
coordinates are honoured by the executor)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from masbench.actions import parse_action
from masbench.actions.execute import execute_action
from masbench.agents.mobileagent_e import MobileAgentE
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.llm import Message, ScriptedLLM
from masbench.shortcuts import ShortcutExecutor
from masbench.tasks import load_tasks

TASK = load_tasks(Path(__file__).parent / "data" / "tasks").get("settings-01")
MANAGER = "Thought: t.\nPlan: 1. Open Settings.\nCurrent subgoal: Open Settings"


def reply_for(operator: str, verdict: str = "C"):
    """Every role's answer: the Operator gives `operator`, the Action Reflector `verdict`."""

    def answer(messages: list[Message]) -> str:
        text = messages[0].text or ""
        if text.startswith("You are the Operator"):
            return operator
        if text.startswith("You are the Action Reflector"):
            return f"Outcome: {verdict}\nError description: nothing changed.\nProgress status: none"
        if text.startswith("You are the Notetaker"):
            return "Important notes: None"
        return MANAGER

    return answer


def episode(device, tmp_path: Path, operator: str, verdict: str = "C"):
    agent = MobileAgentE(llm=ScriptedLLM(reply_for(operator, verdict)))
    result = run_episode(
        device, TASK, agent, EpisodeSettings(Limits(10, 120.0), save_screens=False),
        kb=None, shortcuts=ShortcutExecutor(agent.executor_kb(), device), run_dir=tmp_path,
    )  # fmt: skip
    steps = [json.loads(s) for s in (tmp_path / result.trajectory / "steps.jsonl").read_text().splitlines()]
    return result, steps, agent


def test_three_actions_in_a_row_judged_failed_stop_the_task(device, tmp_path):
    wait = 'Thought: t.\nAction: {"action": "wait", "seconds": 0}\nDescription: the page loads'
    result, steps, agent = episode(device, tmp_path, wait, verdict="B")
    # three waits ran, each judged B by the Action Reflector; the fourth step stops without a call
    assert [s["kind"] for s in steps] == ["gui", "gui", "gui", "finish"]
    assert result.steps == 3 and not result.success and result.end_reason == "finished"
    assert agent.notes[3].reason == "stopped: 3 actions in a row judged failed"
    assert "You are the Manager" not in (steps[-1].get("model_input") or "")


@pytest.mark.parametrize(
    ("operator", "why"),
    [
        ("Thought: I am not sure what to do here.", "no JSON object in the Action part"),
        (
            'Thought: done.\nAction: {"action": "finish", "status": "success"}\nDescription: stop',
            "chose to stop",
        ),
        (
            'Thought: t.\nAction: {"action": "scroll", "direction": "down"}\nDescription: more',
            "not one of the offered",
        ),
    ],
    ids=["unusable", "stop", "off-grammar"],
)
def test_an_operator_reply_it_cannot_run_ends_the_task(device, tmp_path, operator, why):
    result, steps, agent = episode(device, tmp_path, operator)
    assert [s["kind"] for s in steps] == ["finish"] and result.steps == 0 and result.invalid_steps == 0
    reason = agent.notes[0].reason
    assert reason.startswith("task ended by the Operator's reply") and why in reason


def test_tap_type_and_enter_taps_types_and_submits(device):
    from masbench.agents.mobileagent_e import tap_type_enter
    from masbench.agents.parsing import parse_model_action

    device.reset(0, None)
    execute_action(device, parse_action({"action": "open_app", "name": "Settings"}), device.elements())
    box = next(el for el in device.elements() if el.resource_id.endswith("search_action_bar"))
    call = {
        "action": "shortcut",
        "name": "Tap_Type_and_Enter",
        "arguments": {"index": box.index, "text": "Wi"},
    }
    parsed = tap_type_enter(parse_model_action(f"Action: {json.dumps(call)}", allow_shortcuts=True))
    assert parsed.action is not None and parsed.action.enter and parsed.action.index == box.index
    assert execute_action(device, parsed.action, device.elements()).ok
    assert next(el for el in device.elements() if el.resource_id.endswith("search_action_bar")).text == "Wi"
    bad = {**call, "arguments": {"text": "Wi", "where": 3}}
    refused = tap_type_enter(parse_model_action(f"Action: {json.dumps(bad)}", allow_shortcuts=True))
    assert refused.action is None and "Tap_Type_and_Enter(index, text)" in refused.error


def test_a_scroll_at_a_point_scrolls_what_is_there_and_nothing_there_is_refused(device):
    device.reset(0, None)
    execute_action(device, parse_action({"action": "open_app", "name": "Settings"}), device.elements())
    listing = next(el for el in device.elements() if el.resource_id.endswith("recycler_view"))
    assert not any(el.text == "About phone" for el in device.elements())
    x, y = listing.center
    outcome = execute_action(device, parse_action({"action": "scroll", "direction": "down", "x": x, "y": y}),
                             device.elements())  # fmt: skip
    assert outcome.ok and outcome.target == listing.describe()
    assert any(el.text == "About phone" for el in device.elements())
    top = parse_action({"action": "scroll", "direction": "down", "x": 5, "y": 5})  # the status bar
    refused = execute_action(device, top, device.elements())
    assert refused.kind == "invalid" and refused.error == "nothing scrollable at (5, 5)"


def test_the_published_reading_rule_is_strict_and_a_lenient_rescue_is_counted():
    from test_agents_mobileagent import e_agent, observation

    alias = 'Thought: t.\nAction: {"action": "click", "index": 1}\nDescription: open Display'
    strict = e_agent([MANAGER, alias])
    step = strict.step(observation(), [])
    assert step.action is not None and step.action.action == "finish" and not step.rescued
    assert "'click' is not one of the offered actions" in strict.notes[0].reason
    lenient = e_agent([MANAGER, alias])
    lenient.parse_mode = "lenient"
    step = lenient.step(observation(), [])
    assert step.action is not None and step.action.action == "tap" and step.rescued
