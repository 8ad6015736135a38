"""What the model agents send: goal, history, element list or screenshots, offered shortcuts with their
signatures - and nothing of a previous task."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from masbench.agents import AGENTS, make_agent
from masbench.agents.m3a import M3AAgent
from masbench.agents.mas_t3a import MasT3AAgent
from masbench.agents.prompting import PromptError, render
from masbench.agents.t3a import T3AAgent
from masbench.device import Observation, UIElement
from masbench.llm import ScriptedLLM
from masbench.shortcuts import load_kb
from masbench.tasks import load_tasks
from masbench.trajectory import StepRecord

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = load_tasks(DATA)
KB = load_kb(DATA / "kb")
REPLY = 'Reason: r.\nAction: {"action": "tap", "index": 1}'


def observation(
    package: str = "com.android.settings", texts: tuple[str, ...] = ("Display", "Dark theme")
) -> Observation:
    image = Image.new("RGB", (1080, 2400), "white")
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    elements = [
        UIElement(index=0, cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), scrollable=True)
    ]
    elements += [
        UIElement(index=i, cls="android.widget.TextView", text=t, resource_id=f"{package}:id/row{i}",
                  bounds=(0, 200 * i, 1080, 200 * i + 150), clickable=True)
        for i, t in enumerate(texts, 1)
    ]  # fmt: skip
    return Observation(
        image, buf.getvalue(), "<hierarchy/>", elements, package, ".Settings", 1080, 2400, 0.0, 0.0
    )


def prompt(agent, obs: Observation, history: list[StepRecord] | None = None) -> tuple[str, str, list]:
    agent.step(obs, history or [])
    system, user = agent.llm.requests[-1]
    return system.text, user.text, user.images


def test_t3a_prompt_has_goal_actions_elements_and_first_step_marker():
    agent = T3AAgent(llm=ScriptedLLM([REPLY]))
    agent.reset(TASKS.get("settings-01"), KB)
    system, user, images = prompt(agent, observation())
    assert '{"action": "tap", "index": 5}' in system and "Reason:" in system and "Action:" in system
    assert "Apps on this phone: YouTube, Amazon Shopping" in system
    assert "shortcut" not in system.lower()
    assert "Goal: Turn on the dark theme." in user
    assert "(nothing yet: this is the first step)" in user
    assert '[2] TextView "Dark theme" id=row2 clickable' in user
    assert "Current screen: Settings (com.android.settings/.Settings)" in user
    assert images == []


def test_history_lines_name_the_action_its_target_outcome_and_reason():
    agent = T3AAgent(llm=ScriptedLLM([REPLY, REPLY, REPLY]))
    agent.reset(TASKS.get("settings-01"), KB)
    obs = observation()
    agent.step(obs, [])
    history = [StepRecord(index=0, action={"action": "tap", "index": 1}, kind="gui", ok=True,
                          foreground="com.google.android.apps.nexuslauncher/.Launcher")]  # fmt: skip
    agent.step(obs, history)
    history.append(StepRecord(index=1, action=None, kind="invalid", ok=False, error="no action found",
                              foreground="com.android.settings/.Settings"))  # fmt: skip
    _, user, _ = prompt(agent, obs, history)
    assert 'Step 1: tap [1] TextView "Display" id=row1 clickable -> done; now in Settings. Reason: r.' in user
    assert "Step 2: (no valid action) -> not executed: no action found" in user


def test_shortcut_history_reports_success_or_the_reason_it_failed():
    agent = MasT3AAgent(llm=ScriptedLLM([REPLY]))
    agent.reset(TASKS.get("settings-01"), KB)
    history = [
        StepRecord(index=0, action={"action": "shortcut", "name": "settings.open_display", "arguments": {}},
                   kind="shortcut", ok=True),
        StepRecord(index=1, action={"action": "shortcut", "name": "settings.search", "arguments": {"query": "wifi"}},
                   kind="shortcut", ok=False, error="step 4 assert {resource_id='title'}: no element matches"),
    ]  # fmt: skip
    _, user, _ = prompt(agent, observation(), history)
    assert "Step 1: settings.open_display() -> shortcut succeeded" in user
    assert 'Step 2: settings.search(query="wifi") -> shortcut failed: step 4 assert' in user


def test_m3a_sends_the_screenshot_and_a_set_of_marks_copy():
    agent = M3AAgent(llm=ScriptedLLM([REPLY]))
    agent.reset(TASKS.get("settings-01"), KB)
    obs = observation()
    system, user, images = prompt(agent, obs)
    assert "numbered box" in system
    assert "Goal: Turn on the dark theme." in user and '[1] TextView "Display"' in user
    assert [p.mime_type for p in images] == ["image/png", "image/png"]
    assert images[0].image == obs.screenshot_png
    marked = Image.open(io.BytesIO(images[1].image)).convert("RGB")
    assert marked.size == (1080, 2400)
    assert marked.getpixel((1, 201)) != (255, 255, 255)  # element 1's box is drawn...
    assert marked.getpixel((540, 1800)) == (255, 255, 255)  # ...and the rest left alone


def test_mas_t3a_offers_retrieved_shortcuts_with_signatures_and_says_when_to_use_them():
    agent = MasT3AAgent(llm=ScriptedLLM([REPLY]))
    agent.reset(TASKS.get("settings-01"), KB)
    system, user, _ = prompt(agent, observation())
    assert '{"action": "shortcut", "name": "app.shortcut_name"' in system
    assert "Prefer a shortcut whenever" in system
    offered = agent.offered(observation())
    assert offered[0] is KB["settings.open_display_settings"]  # "dark theme" is on the Display page
    for shortcut in offered:
        assert f"- {shortcut.signature()}" in user
    assert "- chrome.search_web(query: string) — Search the web with Google in Chrome." in user
    assert 'example: chrome.search_web(query="mars rover")' in user


def test_mas_t3a_without_a_kb_offers_nothing():
    agent = MasT3AAgent(llm=ScriptedLLM([REPLY]))
    agent.reset(TASKS.get("settings-01"), None)
    _, user, _ = prompt(agent, observation())
    assert "Shortcuts you can call (name(parameters) - what it does):\n(none available)" in user


@pytest.mark.parametrize("cls", [T3AAgent, M3AAgent, MasT3AAgent])
def test_nothing_leaks_from_one_task_into_the_next(cls):
    used = cls(llm=ScriptedLLM([REPLY] * 3))
    first, second = TASKS.get("settings-02"), TASKS.get("cross-01")
    used.reset(first, KB)
    obs = observation()
    used.step(obs, [])
    used.step(obs, [StepRecord(index=0, action={"action": "tap", "index": 1}, kind="gui", ok=True)])
    used.reset(second, KB)
    fresh = cls(llm=ScriptedLLM([REPLY]))
    fresh.reset(second, KB)
    after_reuse, from_fresh = prompt(used, obs), prompt(fresh, obs)
    assert after_reuse == from_fresh  # the same prompt as an agent that never saw the first task
    _, user, _ = after_reuse
    assert second.instruction.strip() in user and first.instruction not in user
    assert "Step 1" not in user and "(nothing yet: this is the first step)" in user


def test_a_template_with_a_missing_field_names_it():
    with pytest.raises(
        PromptError, match=r"prompt template 't3a_step' needs field\(s\) app, elements, history"
    ):
        render("t3a_step", goal="x")
    with pytest.raises(PromptError, match="no prompt template 'nope'"):
        render("nope")


def test_registry_describes_every_agent_and_builds_model_agents_on_a_script(tmp_path):
    assert {"t3a", "m3a", "mas-t3a", "oracle", "oracle-gui", "random"} <= set(AGENTS)
    assert AGENTS["mas-t3a"].uses_shortcuts and not AGENTS["t3a"].uses_shortcuts
    assert AGENTS["t3a"].needs_model and AGENTS["t3a"].default_model == "gemini-2.5-pro"
    script = tmp_path / "s.yaml"
    script.write_text('- \'Action: {"action": "back"}\'\n')
    agent = make_agent("m3a", f"scripted:{script}")
    assert isinstance(agent, M3AAgent) and agent.model == f"scripted:{script}"
    assert make_agent("oracle").name == "oracle"
