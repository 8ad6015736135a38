"""The prompt templates and the agent registry (what each agent sends: test_agents_androidworld.py and
test_agents_mobileagent.py)."""

from __future__ import annotations

import pytest

from masbench.agents import AGENTS, make_agent
from masbench.agents.m3a import M3AAgent
from masbench.agents.prompting import PromptError, render


def test_a_template_with_a_missing_field_names_it():
    with pytest.raises(
        PromptError, match=r"prompt template 't3a_action' needs field\(s\) elements, guidance, history"
    ):
        render("t3a_action", goal="x", preamble="p", shortcuts="")
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
