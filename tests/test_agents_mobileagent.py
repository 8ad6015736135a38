"""Mobile-Agent-E: what each role is shown, what persists across tasks (only its tips and shortcuts, by
design), and the agent driving its tasks to success on a virtual phone through its full prompt → parse →
execute path, with a scripted model that answers each role (Mobile-Agent-v2: test_agents_mobileagent_v2.py)."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest
from agent_helpers import CountingLLM, model_action
from PIL import Image

from masbench.actions import FinishAction, ShortcutAction, select
from masbench.actions.selectors import selector_for
from masbench.agents import AGENTS, make_agent
from masbench.agents.mas_mobileagent import MasMobileAgent, MasMobileAgentTree
from masbench.agents.mobileagent_e import Attempt, Experience, MobileAgentE, shortcut_from
from masbench.agents.mobileagent_v2 import MobileAgentV2, MobileAgentV2Tree, perception_lines
from masbench.catalog import APPS
from masbench.device import Device, Observation, UIElement
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.llm import Message, ScriptedLLM
from masbench.shortcuts import KnowledgeBase, ShortcutExecutor, load_kb
from masbench.tasks import Task, load_tasks
from masbench.trajectory import StepRecord

DATA = Path(__file__).parent / "data" / "tasks"
TEST_TASKS = load_tasks(DATA)
TEST_KB = load_kb(DATA / "kb")
SHIPPED_TASKS = [t for t in load_tasks() if t.kind == "single-app"]
SHIPPED_KB = load_kb() if SHIPPED_TASKS else None
FIRST_PER_APP = list({t.apps[0]: t for t in reversed(SHIPPED_TASKS)}.values())  # one real task per app
CASES = [(t, TEST_KB) for t in TEST_TASKS] + [(t, SHIPPED_KB) for t in FIRST_PER_APP]

ROLES = {  # how each role's prompt opens → the role
    "You are the Manager": "manager",
    "You are the Operator": "operator",
    "You are the Action Reflector": "reflector",
    "You are the Notetaker": "notetaker",
    "You are the Tips Reflector": "tips",
    "You are the Shortcut Reflector": "shortcuts",
}
TIPS = "Updated tips:\n- Settings has a search field at the top of its main page."
SEARCH_SHORTCUT = {
    "app": "settings",
    "name": "search_settings",
    "description": "Open Settings, search for a setting and open the first result.",
    "precondition": "Any screen.",
    "parameters": [{"name": "query", "type": "string", "required": True, "description": "what to look for"}],
    "actions": [
        {"action": "open_app", "name": "Settings"},
        {"action": "type", "target": {"resource_id": "search_action_bar"}, "text": "{query}"},
        {"action": "tap", "target": {"resource_id": "search_result"}},
    ],
}


def role_of(messages: list[Message]) -> str:
    text = messages[0].text
    return next(role for opening, role in ROLES.items() if text.startswith(opening))


class Team:
    """A scripted model for every role. The acting role (the Operator) answers the next reference
    step, its selector grounded to the index of the element on the device's screen (observed here:
    nothing changes the screen in between); the other roles answer in their formats."""

    def __init__(self, device: Device, shortcut: dict | None = None) -> None:
        self.device = device
        self.shortcut_reply = json.dumps(shortcut) if shortcut else "None"
        self.roles: list[str] = []
        self.start([])

    def start(self, plan: list) -> None:
        self.plan, self.done, self.acts = list(plan), 0, 0

    def __call__(self, messages: list[Message]) -> str:
        role = role_of(messages)
        self.roles.append(role)
        if role == "operator":
            return self.act()
        return {
            "manager": "Thought: t.\nPlan: 1. Follow the reference.\nCurrent subgoal: "
            + ("Finished" if self.done >= len(self.plan) else "follow the reference"),
            "reflector": "Outcome: A\nError description: None\nProgress status: on track",
            "notetaker": "Important notes: None",
            "tips": TIPS,
            "shortcuts": self.shortcut_reply,
        }[role]

    def act(self) -> str:
        self.acts += 1
        step = self.plan[self.done]
        self.done += 1
        data = model_action(step, self.device)
        if data["action"] == "open_app":  # as the published agent opens apps: by the label on the screen
            data["name"] = next(a.label for a in APPS.values() if data["name"] in (a.name, a.label))
        return f"Thought: reference step.\nAction: {json.dumps(data)}\nDescription: step {self.done}."


def episode(device: Device, task: Task, agent, kb, tmp_path: Path, shortcuts=None, max_steps: int = 30):
    if shortcuts is None and agent.uses_shortcuts:
        shortcuts = ShortcutExecutor(kb, device)
    return run_episode(
        device, task, agent, EpisodeSettings(Limits(max_steps, 120.0), save_screens=False),
        kb=kb, shortcuts=shortcuts, run_dir=tmp_path,
    )  # fmt: skip


def steps_of(tmp_path: Path, result) -> list[dict]:
    return [json.loads(s) for s in (tmp_path / result.trajectory / "steps.jsonl").read_text().splitlines()]


# -- end to end on a virtual phone ----------------------------------------------------------------------
@pytest.mark.parametrize(("task", "kb"), CASES, ids=[t.id for t, _ in CASES])
def test_mobileagent_e_drives_its_tasks_to_success(device, tmp_path, task, kb):
    plan = task.solutions.gui
    team = Team(device)
    team.start(plan)
    llm = CountingLLM(team)
    agent = MobileAgentE(llm=llm)
    result = episode(
        device, task, agent, kb, tmp_path, shortcuts=ShortcutExecutor(agent.executor_kb(), device)
    )
    assert result.success and result.end_reason == "finished", result.check_details
    assert result.steps == len(plan) and result.invalid_steps == 0 and result.shortcut_calls == 0
    # every step: the Manager, then the Operator; the Manager's "Finished" ends it (the Operator cannot)
    later = ["reflector", "notetaker", "manager", "operator"]
    assert team.roles == ["manager", "operator", *later * (len(plan) - 1), *later[:3], "shortcuts", "tips"]
    assert result.agent_usage.calls == 4 * len(plan) + 3
    assert result.agent_usage.input_tokens == llm.input_tokens > 0
    assert agent.experience.tips == TIPS.removeprefix("Updated tips:\n")
    assert len(agent.executor_kb()) == 0  # the scripted Shortcut Reflector saw nothing worth keeping


def test_mobileagent_e_learns_a_shortcut_and_calls_it_through_the_executor_on_the_next_task(device, tmp_path):
    team = Team(device, shortcut=SEARCH_SHORTCUT)
    llm = ScriptedLLM(team)
    agent = MobileAgentE(llm=llm)
    executor = ShortcutExecutor(agent.executor_kb(), device)
    task = TEST_TASKS.get("settings-03")  # search Settings for Bluetooth and turn it on
    team.start(task.solutions.gui)
    first = episode(device, task, agent, None, tmp_path / "1", executor)
    assert first.success and first.shortcut_calls == 0
    reflector_prompt = next(m for m in llm.requests if role_of(m) == "shortcuts")[0].text
    assert '"target": {"resource_id": "search_action_bar"}' in reflector_prompt  # indices became selectors
    assert '"index"' not in reflector_prompt.split("The actions, with")[1].split("Existing shortcuts")[0]
    assert "settings.search_settings" in agent.executor_kb()
    assert agent.memory()["shortcuts"][0]["name"] == "search_settings"

    llm.requests.clear()
    call = ShortcutAction(name="settings.search_settings", arguments={"query": "Bluetooth"})
    team.start([call, task.solutions.gui[-1]])
    second = episode(device, task, agent, None, tmp_path / "2", executor)
    assert second.success and second.steps == 2 < task.optimal_steps
    assert second.shortcut_calls == second.shortcut_successes == 1
    assert second.shortcut_calls_detail[0]["name"] == "settings.search_settings"
    operator = next(m for m in llm.requests if role_of(m) == "operator")
    assert (
        "- settings.search_settings(query: string) — Open Settings, search for a setting and open the first result. Precondition: Any screen."
        in operator[1].text
    )
    assert "- Tap_Type_and_Enter(index, text):" in operator[1].text  # the built-in one, always offered
    assert "Settings has a search field at the top" in operator[1].text  # tips carry over, by design
    assert "No actions have been taken yet." in operator[1].text  # the history does not
    assert len(agent.executor_kb()) == 1  # the same routine offered again is not kept twice

    reloaded = MobileAgentE(llm=ScriptedLLM([]))
    reloaded.remember(json.loads(json.dumps(agent.memory())))  # as the run directory keeps it
    assert [s.qualified_name for s in reloaded.executor_kb()] == ["settings.search_settings"]
    assert reloaded.experience.tips == agent.experience.tips


# -- prompts ----------------------------------------------------------------------------------------------
def observation(colour: str = "white", texts: tuple[str, ...] = ("Display", "Dark theme")) -> Observation:
    image = Image.new("RGB", (1080, 2400), colour)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    package = "com.android.settings"
    elements = [
        UIElement(index=0, cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), scrollable=True)
    ]
    elements += [
        UIElement(index=i, cls="android.widget.TextView", text=t, resource_id=f"{package}:id/row{i}",
                  bounds=(0, 200 * i, 1080, 200 * i + 150), clickable=True)
        for i, t in enumerate(texts, 1)
    ]  # fmt: skip
    elements.append(UIElement(index=len(elements), cls="android.widget.Switch", resource_id=f"{package}:id/toggle",
                              bounds=(900, 1000, 1000, 1100), checkable=True, clickable=True))  # fmt: skip
    return Observation(
        image, buf.getvalue(), "<hierarchy/>", elements, package, ".Settings", 1080, 2400, 0.0, 0.0
    )


DONE = StepRecord(index=0, action={"action": "tap", "index": 1}, kind="gui", ok=True,
                  foreground="com.android.settings/.Settings")  # fmt: skip


def test_perception_lists_texts_and_icons_with_numbers_and_centres():
    lines = perception_lines(observation()).splitlines()
    assert lines == [
        '[1] text "Display" (540, 275)',
        '[2] text "Dark theme" (540, 475)',
        '[3] icon "Switch" (950, 1050), off',
    ]


# -- Mobile-Agent-E's roles and memory ---------------------------------------------------------------------
MANAGER = (
    "Thought: t.\nPlan: 1. Open Display.\n2. Turn on Dark theme.\nCurrent subgoal: Open the Display page"
)
OPERATE = 'Thought: t.\nAction: {"action": "tap", "index": 1}\nDescription: the Display page opens'
FINISH = 'Thought: done.\nAction: {"action": "finish", "status": "success"}\nDescription: stop'
FAILED = "Outcome: C\nError description: The tap on Display did nothing.\nProgress status: Settings open"


def e_agent(replies: list[str], **kwargs) -> MobileAgentE:
    agent = MobileAgentE(llm=ScriptedLLM(replies), **kwargs)
    agent.reset(TEST_TASKS.get("settings-01"), TEST_KB)
    return agent


def test_e_first_step_plans_then_acts_on_the_subgoal():
    agent = e_agent([MANAGER, OPERATE])
    obs = observation()
    step = agent.step(obs, [])
    assert step.action is not None and step.usage.calls == 2 and agent.kb is None  # no predefined KB
    manager, operator = agent.llm.requests
    text = manager[0].text
    assert "User instruction: Turn on the dark theme." in text and "make a high-level plan" in text
    assert "- Tap_Type_and_Enter(index, text):" in text  # the shortcut the published agent starts with
    for absent in (
        "Tips",
        "Display",
        "com.android.settings",
        "History",
    ):  # the published Manager's inputs only
        assert absent not in text
    assert [p.image for p in manager[0].images] == [obs.screenshot_png]
    system, user = operator
    assert system.text.startswith("You are the Operator") and "{" not in system.text
    assert "Overall plan:\n1. Open Display.\n2. Turn on Dark theme." in user.text
    assert "Current subgoal: Open the Display page" in user.text and "No progress yet." in user.text
    assert "0. Never add payment details." in user.text  # the initial tips
    assert "Keyboard status: The keyboard has not been activated and you can't type." in user.text
    assert "You cannot type now" in user.text and '"action": "type"' not in user.text.split("Shortcuts (")[0]
    assert '{"action": "swipe", "x1": 540, "y1": 1200, "x2": 540, "y2": 240}' in user.text
    assert (
        "Use shortcuts whenever you can" in user.text
        and "Do not repeat an action that already failed" in user.text
    )
    assert "No actions have been taken yet." in user.text and "com.android.settings" not in user.text
    assert [p.image for p in user.images] == [obs.screenshot_png]


def test_e_type_is_offered_only_while_the_keyboard_is_up():
    agent = e_agent([MANAGER, OPERATE])
    obs = observation()
    field = UIElement(index=4, cls="android.widget.EditText", bounds=(0, 1500, 1080, 1600), focused=True)
    agent.step(dataclasses.replace(obs, elements=[*obs.elements, field]), [])
    user = agent.llm.requests[1][1].text
    assert (
        '- {"action": "type", "text": "hello"}  Type the text into the input box that has the focus.' in user
    )
    assert "You cannot type now" not in user and "The keyboard has been activated and you can type." in user


def test_e_a_failure_shows_in_the_operators_log_and_two_go_up_to_the_manager():
    agent = e_agent([MANAGER, OPERATE, FAILED, MANAGER, OPERATE, FAILED, MANAGER, OPERATE])
    before, after = observation("white"), observation("gray")
    agent.step(before, [])
    agent.step(after, [DONE])
    reflector, manager, operator = agent.llm.requests[2:5]
    assert [p.image for p in reflector[0].images] == [before.screenshot_png, after.screenshot_png]
    assert (
        'Latest action: {"action": "tap", "index": 1}\nExpectation: the Display page opens'
        in reflector[0].text
    )
    assert "Keyboard status before the action: The keyboard has not been activated" in reflector[0].text
    assert "Previous subgoal: Open the Display page" in manager[0].text
    assert "Possibly stuck" not in manager[0].text  # one failure: not escalated
    failed = (
        'Action: {"action": "tap", "index": 1} | Description: the Display page opens | Outcome: Failed | '
        "Feedback: The tap on Display did nothing."
    )
    assert f"Latest actions and whether they worked:\n{failed}" in operator[1].text
    second = StepRecord(index=1, action={"action": "tap", "index": 1}, kind="gui", ok=True)
    agent.step(after, [DONE, second])
    manager, operator = agent.llm.requests[6:8]
    assert (
        f"Possibly stuck: the last attempts failed. Their log:\n- Attempt: {failed}\n- Attempt: {failed}"
        in manager[0].text
    )
    assert operator[1].text.count(failed) == 2
    assert "Hint: when several taps changed nothing" in operator[1].text  # two taps, the last a C


def test_e_stops_after_three_failures_or_the_same_action_three_times():
    def attempts(outcomes: str, action: dict) -> list[Attempt]:
        return [Attempt(i, action, "d", o, "", "") for i, o in enumerate(outcomes)]

    agent = e_agent([])
    agent.attempts = attempts("CBC", {"action": "tap", "index": 1})
    step = agent.step(observation(), [])
    assert step.action == FinishAction(status="failure") and agent.llm.requests == []
    assert agent.notes[0].reason == "stopped: 3 actions in a row judged failed"
    agent.attempts = attempts("CAC", {"action": "tap", "index": 2})
    assert agent.stop_reason() == "stopped: the same action 3 times in a row"
    agent.attempts = attempts("ACC", {"action": "swipe", "x1": 1, "y1": 2, "x2": 1, "y2": 0})
    assert agent.stop_reason() == ""  # swiping on is browsing, not being stuck
    agent.attempts = attempts("AAA", {"action": "back"})
    assert agent.stop_reason() == ""


def test_e_finishes_when_the_manager_says_so_and_then_reflects_on_its_experience():
    finished = MANAGER.replace("Current subgoal: Open the Display page", "Current subgoal: Finished")
    agent = e_agent([MANAGER, OPERATE, "Outcome: A\nProgress status: done", "Important notes: None", finished,
                     json.dumps(SEARCH_SHORTCUT), TIPS])  # fmt: skip
    agent.step(observation(), [])
    step = agent.step(observation("gray"), [DONE])
    assert step.action == FinishAction(status="success")
    roles = [role_of(m) for m in agent.llm.requests]
    assert roles == ["manager", "operator", "reflector", "notetaker", "manager", "shortcuts", "tips"]
    assert step.usage.calls == 5
    tips_prompt = agent.llm.requests[6][0].text
    assert "The task: Turn on the dark theme." in tips_prompt
    line = '- Action: {"action": "tap", "index": 1} | Description: the Display page opens | Outcome: Successful | Progress: done'
    assert line in tips_prompt
    shortcut_prompt = agent.llm.requests[5][0].text
    assert '{"action": "tap", "target": {"resource_id": "row1"}}' in shortcut_prompt  # replayable
    assert "settings.search_settings" in agent.executor_kb()


def test_e_without_an_action_a_finished_manager_learns_nothing():
    finished = MANAGER.replace("Current subgoal: Open the Display page", "Current subgoal: Finished")
    agent = e_agent([finished])
    assert agent.step(observation(), []).action == FinishAction(status="success")
    assert [role_of(m) for m in agent.llm.requests] == ["manager"]  # as published: no reflection


def test_e_keeps_tips_and_shortcuts_across_tasks_but_nothing_else():
    first, second = TEST_TASKS.get("settings-02"), TEST_TASKS.get("cross-01")
    used = e_agent([MANAGER, OPERATE, "Outcome: A\nProgress status: Wi-Fi page open", "Important notes: Wi-Fi is on",
                    MANAGER.replace("Open the Display page", "Finished"), json.dumps(SEARCH_SHORTCUT), TIPS, MANAGER,
                    OPERATE])  # fmt: skip
    used.reset(first, TEST_KB)
    used.step(observation(), [])
    assert isinstance(used.step(observation("gray"), [DONE]).action, FinishAction)
    used.reset(second, TEST_KB)
    used.step(observation(), [])
    fresh = MobileAgentE(llm=ScriptedLLM([MANAGER, OPERATE]))
    fresh.experience = used.experience  # the long-term memory, and only it
    fresh.reset(second, TEST_KB)
    fresh.step(observation(), [])
    assert used.llm.requests[-2:] == fresh.llm.requests  # manager and operator, as if nothing came before
    text = "\n".join(m.text for request in fresh.llm.requests for m in request)
    assert second.instruction.strip() in text and first.instruction not in text
    assert "No actions have been taken yet." in text and "make a high-level plan" in text
    assert "Wi-Fi" not in text  # notes and progress of the first task are gone
    assert (
        "Settings has a search field at the top" in text
        and "- settings.search_settings(query: string)" in text
    )


def test_experience_round_trips_through_json_and_bad_data_is_refused():
    experience = Experience(tips="- be brief")
    experience.kb.add(shortcut_from(SEARCH_SHORTCUT))
    data = json.loads(json.dumps(experience.data()))
    loaded = Experience.from_data(data)
    assert loaded.tips == "- be brief" and data["schema_version"] == 1
    assert [s.model_dump() for s in loaded.kb] == [s.model_dump() for s in experience.kb]
    with pytest.raises(ValueError, match=r"not a Mobile-Agent-E memory: .*tips"):
        Experience.from_data({"tips": 3})


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"app": "nope"}, "app 'nope' is not in the catalog"),
        ({"actions": [{"action": "type", "text": "{missing}"}]}, "placeholder {missing} is not a parameter"),
        ({"actions": [{"action": "answer", "text": "x"}]}, "cannot be part of a replay"),
        ({"actions": []}, "at least 1 item"),
    ],
)
def test_an_unusable_learnt_shortcut_is_rejected(change, error):
    with pytest.raises(ValueError, match=error):
        shortcut_from({**SEARCH_SHORTCUT, **change})


def test_a_shortcut_is_learnt_once():
    kb = KnowledgeBase()
    kb.add(shortcut_from(SEARCH_SHORTCUT))
    with pytest.raises(ValueError, match="already exists"):
        kb.add(shortcut_from(SEARCH_SHORTCUT))


def test_selectors_find_the_same_element_again():
    elements = observation(texts=("Display", "Dark theme")).elements
    assert selector_for(elements[1], elements).model_dump(exclude_defaults=True) == {"resource_id": "row1"}
    twins = [el.model_copy(update={"index": i, "resource_id": "x:id/row"}) for i, el in enumerate(elements)]
    assert selector_for(twins[2], twins).model_dump(exclude_defaults=True) == {"text": "Dark theme"}
    same = [el.model_copy(update={"index": i}) for i, el in enumerate([elements[1]] * 3)]
    assert selector_for(same[2], same).model_dump(exclude_defaults=True) == {"resource_id": "row1", "nth": 2}
    for group in (elements, twins, same):
        for element in group:
            assert select(selector_for(element, group), group) == element


def test_the_registry_builds_all_three_on_a_script(tmp_path):
    script = tmp_path / "s.yaml"
    script.write_text('- \'Action: {"action": "back"}\'\n')
    for name, cls in [
        ("mobileagent-v2-tree", MobileAgentV2Tree),
        ("mobileagent-e", MobileAgentE),
        ("mas-mobileagent-tree", MasMobileAgentTree),
    ]:
        spec = AGENTS[name]
        assert spec.needs_model and spec.default_model == "gemini-2.5-pro"
        assert isinstance(make_agent(name, f"scripted:{script}"), cls)
    try:  # mobileagent-v2 reads the screen by OCR: made with the ocr extra, refused at once without it
        import rapidocr_onnxruntime  # noqa: F401
    except ImportError:
        with pytest.raises(ValueError, match=r"pip install 'masbench\[ocr\]'"):
            make_agent("mobileagent-v2", f"scripted:{script}")
    else:
        assert isinstance(make_agent("mobileagent-v2", f"scripted:{script}"), MobileAgentV2)
        assert isinstance(make_agent("mas-mobileagent", f"scripted:{script}"), MasMobileAgent)
    assert AGENTS["mas-mobileagent"].uses_shortcuts and not AGENTS["mobileagent-v2"].uses_shortcuts
