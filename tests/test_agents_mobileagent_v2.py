"""Mobile-Agent-v2 and MAS-MobileAgent as v2's public implementation runs: what the decision, memory,
reflection and planning calls see and when they happen, v2's coordinate grammar (Open app as a tap on the
home screen's label, Type as written), the history of operations judged A only, the automatic Back after a
B - and both agents driving tasks to success on a virtual phone. The step logic is tested on the
tree-perceiving pair (fast); OCR perception, v2's line merging and pixel captions on screenshots."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from agent_helpers import CountingLLM
from PIL import Image

from masbench.actions import BackAction, ShortcutAction, SwipeAction, TapAction, TypeAction, select
from masbench.agents import mobileagent_v2 as v2
from masbench.agents.mas_mobileagent import MasMobileAgent as MasMobileAgentOcr
from masbench.agents.mas_mobileagent import MasMobileAgentTree as MasMobileAgent
from masbench.agents.mobileagent_v2 import MobileAgentV2Tree as MobileAgentV2
from masbench.agents.mobileagent_v2 import keyboard_active, parse_v2_action, perception_infos
from masbench.agents.ocr import TextBox, caption, merge_lines
from masbench.device import Device, Observation, UIElement
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.llm import Message, ScriptedLLM
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import load_tasks
from masbench.trajectory import StepRecord

DATA = Path(__file__).parent / "data" / "tasks"
TEST_TASKS = load_tasks(DATA)
TEST_KB = load_kb(DATA / "kb")
V2_STEPS = {"tap", "type", "scroll", "open_app", "back", "home", "shortcut"}  # what v2's grammar can do
CASES = [t for t in TEST_TASKS if all(s.action in V2_STEPS for s in t.solutions.gui + t.solutions.hybrid)]
SWIPES = {"down": "(540, 1700), (540, 700)", "up": "(540, 700), (540, 1700)"}


def role_of(messages: list[Message]) -> str:
    last = messages[-1].text or ""
    if last.startswith("### Response requirements ###\nIs there content"):
        return "memory"
    if last.startswith("These images are two screenshots"):
        return "reflection"
    if last.startswith("### Background ###\nThe user's instruction is"):
        return "planning"
    assert last.startswith("### Background ###\nThis image is a screenshot"), last[:80]
    return "decision"


class V2Team:
    """A scripted model for v2's roles. The decision answers the next reference step as v2 writes it,
    located on the live screen: a tap by its element's centre, a typed step as a tap on its field until
    the keyboard is up and then Type, a scroll as a swipe, a shortcut as its call; Stop at the end."""

    def __init__(self, device: Device, plan: list, verdicts: str = "") -> None:
        self.device, self.plan, self.done = device, list(plan), 0
        self.verdicts = list(verdicts)
        self.roles: list[str] = []

    def __call__(self, messages: list[Message]) -> str:
        role = role_of(messages)
        self.roles.append(role)
        if role == "memory":
            return "### Important content ###\nNone"
        if role == "reflection":
            return f"### Thought ###\nt\n### Answer ###\n{self.verdicts.pop(0) if self.verdicts else 'A'}"
        if role == "planning":
            return f"### Completed contents ###\n{self.done} reference steps done."
        return f"### Thought ###\nreference step\n### Action ###\n{self.act()}\n### Operation ###\nstep {self.done}"

    def act(self) -> str:
        if self.done >= len(self.plan):
            return "Stop"
        step = self.plan[self.done]
        elements = self.device.observe(screenshot=False).elements
        if step.action == "type" and step.target is not None and not keyboard_active(elements):
            x, y = select(step.target, elements).center
            return f"Tap ({x}, {y})"
        self.done += 1
        if isinstance(step, ShortcutAction):
            return f"Shortcut {step.name}({', '.join(f'{k}={json.dumps(v)}' for k, v in step.arguments.items())})"
        if step.action == "tap":
            x, y = select(step.target, elements).center
            return f"Tap ({x}, {y})"
        return {
            "type": lambda: f"Type ({getattr(step, 'text', '')})",
            "scroll": lambda: f"Swipe {SWIPES[getattr(step, 'direction', 'down')]}",
            "open_app": lambda: f"Open app ({getattr(step, 'name', '')})",
            "back": lambda: "Back",
            "home": lambda: "Home",
        }[step.action]()


def episode(device: Device, task, agent, tmp_path: Path, max_steps: int = 40):
    shortcuts = ShortcutExecutor(TEST_KB, device) if agent.uses_shortcuts else None
    return run_episode(
        device, task, agent, EpisodeSettings(Limits(max_steps, 120.0), save_screens=False),
        kb=TEST_KB, shortcuts=shortcuts, run_dir=tmp_path,
    )  # fmt: skip


# -- end to end ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("cls", "solution"), [(MobileAgentV2, "gui"), (MasMobileAgent, "hybrid")])
@pytest.mark.parametrize("task", CASES, ids=[t.id for t in CASES])
def test_v2_and_mas_mobileagent_drive_their_tasks_to_success(device, tmp_path, cls, solution, task):
    plan = getattr(task.solutions, solution)
    team = V2Team(device, plan)
    llm = CountingLLM(team)
    result = episode(device, task, cls(llm=llm), tmp_path)
    assert result.success and result.end_reason == "finished", result.check_details
    actions = result.steps
    assert actions >= len(plan) and result.invalid_steps == 0
    # first: decision + memory; after each action: reflection (A), planning, decision, memory
    assert team.roles == ["decision", "memory"] + ["reflection", "planning", "decision", "memory"] * actions
    assert result.agent_usage.calls == 2 + 4 * actions and result.agent_usage.input_tokens == llm.input_tokens
    expected_calls = sum(isinstance(s, ShortcutAction) for s in plan)
    assert result.shortcut_calls == result.shortcut_successes == expected_calls
    assert (expected_calls > 0) == (cls is MasMobileAgent)


# -- one step at a time --------------------------------------------------------------------------------------
def observation(colour: str = "white", focused_field: bool = False) -> Observation:
    image = Image.new("RGB", (1080, 2400), colour)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    package = "com.android.settings"
    elements = [
        UIElement(index=0, cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), scrollable=True),
        UIElement(index=1, cls="android.widget.TextView", text="Display", resource_id=f"{package}:id/row1",
                  bounds=(0, 200, 1080, 350), clickable=True),
        UIElement(index=2, cls="android.widget.ImageButton", content_desc="Search settings",
                  resource_id=f"{package}:id/search", bounds=(900, 40, 1040, 160), clickable=True),
        UIElement(index=3, cls="android.widget.Switch", resource_id=f"{package}:id/toggle",
                  bounds=(900, 1000, 1000, 1100), checkable=True, clickable=True),
        UIElement(index=4, cls="android.widget.EditText", hint="Search", bounds=(0, 400, 1080, 500),
                  focusable=True, focused=focused_field),
    ]  # fmt: skip
    return Observation(
        image, buf.getvalue(), "<hierarchy/>", elements, package, ".Settings", 1080, 2400, 0.0, 0.0
    )


TAP = (
    "### Thought ###\nopen Display\n### Action ###\nTap (540, 275)\n### Operation ###\nopen the display page"
)
MEMORY = "### Important content ###\nNone"
RAN = StepRecord(index=0, action={"action": "tap", "x": 540, "y": 275}, kind="gui", ok=True)


def agent_on(replies, cls=MobileAgentV2, kb=TEST_KB):
    agent = cls(llm=ScriptedLLM(replies))
    agent.reset(TEST_TASKS.get("settings-01"), kb)
    return agent


def test_perception_is_texts_and_icons_by_centre_with_no_tree_details():
    assert perception_infos(observation()) == [
        "[540, 275]; text: Display",
        "[970, 100]; icon: Search settings",
        "[950, 1050]; icon: Switch",
        "[540, 450]; icon: Search",
    ]


def test_first_step_is_a_decision_on_the_screenshot_then_a_memory_call_in_the_same_conversation():
    obs = observation()
    agent = agent_on([TAP, MEMORY])
    step = agent.step(obs, [])
    assert step.action == TapAction(x=540, y=275) and step.usage.calls == 2
    (_, user), memory_call = agent.llm.requests
    assert [m.role for m in memory_call] == ["system", "user", "model", "user"]
    assert memory_call[2].text == TAP and "Is there content on the current page" in memory_call[3].text
    text = user.text
    sections = ["### Background ###", "1080 pixels wide and 2400 pixels high", "### Screenshot information ###",
                "[540, 275]; text: Display", "### Keyboard status ###", "The keyboard has not been activated",
                "### Hint ###", 'use the action "Open app"', "### Response requirements ###", "Tap (x, y):", "You cannot Type now", "### Output format ###"]  # fmt: skip
    positions = [text.index(s) for s in sections]
    assert positions == sorted(positions)
    for absent in (
        "### History operations ###",
        "### Progress ###",
        "### Memory ###",
        "### Last operation ###",
    ):
        assert absent not in text  # nothing to say yet
    assert "id=" not in text and "[1]" not in text and "shortcut" not in text.lower()
    assert [p.image for p in user.images] == [obs.screenshot_png]


def test_type_is_offered_only_while_the_keyboard_is_up():
    agent = agent_on([TAP, MEMORY])
    agent.step(observation(focused_field=True), [])
    text = agent.llm.requests[0][1].text
    assert 'Type (text): type "text" into the input box.' in text and "You cannot Type now" not in text
    assert "The keyboard has been activated and you can type." in text


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("Tap (10, 20)", TapAction(x=10, y=20)),
        ("Swipe (540, 1700), (540, 700)", SwipeAction(x1=540, y1=1700, x2=540, y2=700)),
        ("Type (dark theme)", TypeAction(text="dark theme")),
        ("Type ( dark theme )", TypeAction(text=" dark theme ")),  # typed as written, as v2 types it
        ("Back", BackAction()),
    ],
)
def test_v2_grammar(action, expected):
    assert (
        parse_v2_action(f"### Action ###\n{action}\n### Operation ###\nx", allow_shortcuts=False).action
        == expected
    )


def test_a_json_action_or_a_shortcut_from_v2_is_not_v2s_grammar():
    parsed = parse_v2_action('### Action ###\n{"action": "tap", "index": 1}', allow_shortcuts=False)
    assert parsed.action is None and "Tap (x, y)" in parsed.error
    assert (
        parse_v2_action(
            "### Action ###\nShortcut settings.open_display_settings()", allow_shortcuts=False
        ).action
        is None
    )


def test_an_a_verdict_enters_the_history_and_runs_planning_before_the_next_decision():
    replies = [TAP, "### Important content ###\nDisplay holds the theme switch.", "### Answer ###\nA",
               "### Completed contents ###\nThe Display page is open.", TAP, MEMORY]  # fmt: skip
    agent = agent_on(replies)
    before, after = observation(), observation("gray")
    agent.step(before, [])
    step = agent.step(after, [RAN])
    assert step.usage.calls == 4
    reflection, planning, decision, _ = agent.llm.requests[2:]
    assert [p.image for p in reflection[0].images] == [before.screenshot_png, after.screenshot_png]
    assert "Operation thought: open the display page" in reflection[0].text
    assert "Operation action: Tap (540, 275)" in reflection[0].text
    assert planning[0].images == [] and "Operation action: open the display page" in planning[0].text
    text = decision[1].text
    assert "Step-1: [Operation: open the display page; Action: Tap (540, 275)]" in text
    assert "Completed contents:\nThe Display page is open." in text
    assert "Memory:\nDisplay holds the theme switch." in text and "### Last operation ###" not in text


def test_a_b_verdict_presses_back_at_once_and_flags_the_next_decision():
    agent = agent_on([TAP, MEMORY, "### Answer ###\nB", TAP, MEMORY])
    agent.step(observation(), [])
    back = agent.step(observation("gray"), [RAN])
    assert back.action == BackAction() and back.usage.calls == 1  # the reflection only: no decision
    after_back = StepRecord(index=1, action={"action": "back"}, kind="gui", ok=True)
    agent.step(observation(), [RAN, after_back])
    assert [role_of(r) for r in agent.llm.requests] == [
        "decision",
        "memory",
        "reflection",
        "decision",
        "memory",
    ]
    text = agent.llm.requests[3][1].text
    assert (
        '### Last operation ###\nOn this page you meant to perform the operation "open the display page"'
        in text
    )
    assert "### History operations ###" not in text  # a failed operation stays out of the history


def test_an_unusable_reply_costs_a_step_and_flags_the_next_decision_without_a_reflection_call():
    agent = agent_on(["I am not sure.", MEMORY, TAP, MEMORY])
    first = agent.step(observation(), [])
    assert first.action is None and "no action found under ### Action ###" in first.error
    invalid = StepRecord(index=0, action=None, kind="invalid", ok=False, error=first.error)
    agent.step(observation(), [invalid])
    assert [role_of(r) for r in agent.llm.requests] == ["decision", "memory", "decision", "memory"]
    assert "### Last operation ###" in agent.llm.requests[2][1].text


def only_the_shortcuts_differ(plain, mas) -> str:
    """Both agents' first decision prompt on one screen; the MAS one adds its shortcut block and the call
    action and nothing else. Returns the block."""
    plain.step(observation(), [])
    mas.step(observation(), [])
    base, text = plain.llm.requests[0][1].text, mas.llm.requests[0][1].text
    block = text[text.index("### Shortcuts ###") : text.index("### Response requirements ###")]
    call = "Shortcut app.name(parameter=value, ...): call one of the shortcuts listed in ### Shortcuts ### with its arguments.\n"
    assert text.replace(block, "").replace(call, "") == base
    return block


def test_mas_mobileagent_adds_the_shortcut_block_and_a_call_action_and_nothing_else():
    mas = agent_on([TAP, MEMORY], cls=MasMobileAgent)
    block = only_the_shortcuts_differ(agent_on([TAP, MEMORY]), mas)
    assert (
        "- settings.open_display_settings()" in block and "prefer" not in mas.llm.requests[0][1].text.lower()
    )
    reply = "### Action ###\nShortcut settings.open_display_settings()\n### Operation ###\nopen Display"
    step = agent_on([reply, MEMORY], cls=MasMobileAgent).step(observation(), [])
    assert step.action == ShortcutAction(name="settings.open_display_settings", arguments={})


@pytest.mark.parametrize("cls", [MobileAgentV2, MasMobileAgent])
def test_nothing_leaks_from_one_task_into_the_next(cls):
    used = agent_on([TAP, "### Important content ###\nWi-Fi is on", "### Answer ###\nA",
                     "### Completed contents ###\nhalf", TAP, MEMORY, TAP, MEMORY], cls=cls)  # fmt: skip
    used.step(observation(), [])
    used.step(observation("gray"), [RAN])
    second = TEST_TASKS.get("cross-01")
    used.reset(second, TEST_KB)
    used.step(observation(), [])
    fresh = cls(llm=ScriptedLLM([TAP, MEMORY]))
    fresh.reset(second, TEST_KB)
    fresh.step(observation(), [])
    assert used.llm.requests[-2:] == fresh.llm.requests
    text = fresh.llm.requests[0][1].text
    assert "Wi-Fi is on" not in text and "half" not in text and "Step-1" not in text


def test_v2_perceives_the_screenshot_by_ocr_where_the_tree_says_the_text_is(device):
    pytest.importorskip("rapidocr_onnxruntime")
    from masbench.agents.ocr import ocr_perception, read_text

    device.reset(0, None)
    obs = device.observe()
    found = {}
    for line in ocr_perception(obs, read_text(obs.screenshot_png)):
        position, what = line.split("; ", 1)
        x, y = (int(v) for v in position.strip("[]").split(", "))
        found.setdefault(what, (x, y))
    labels = [el for el in obs.elements if el.text in ("Settings", "Chrome", "Maps", "Yelp")]
    assert labels
    for el in labels:  # each label read off the pixels, within a few pixels of its node's centre
        x, y = found[f"text: {el.text}"]
        assert abs(x - el.center[0]) < 40 and abs(y - el.center[1]) < 40, (el.text, (x, y), el.center)


# -- Open app, hint, perception as v2 ---------------------------------------------------------------------
def test_open_app_taps_above_the_apps_label_on_the_home_screen_and_nowhere_else(device, tmp_path):
    device.reset(0, None)
    home = device.observe()
    label = next(el for el in home.elements if el.text == "Settings")
    reply = "### Thought ###\nopen it\n### Action ###\nOpen app (Settings)\n### Operation ###\nopen Settings"
    agent = agent_on([reply, MEMORY, reply.replace("(Settings)", "(Chrome)"), MEMORY])
    step = agent.step(home, [])
    height = label.bounds[3] - label.bounds[1]
    assert step.action == TapAction(x=label.center[0], y=label.center[1] - height)  # the icon above it
    outcome = device.tap(step.action.x, step.action.y)
    assert outcome is None and device.observe(screenshot=False).package == "com.android.settings"
    inside = agent.step(device.observe(), [])  # Chrome's label is not on Settings' page: nothing to tap
    assert inside.action is None and 'no label reading "Chrome" on this screen' in inside.error


def test_the_default_hint_reaches_the_reflection_and_the_planning_calls():
    replies = [TAP, MEMORY, "### Answer ###\nA", "### Completed contents ###\nopen", TAP, MEMORY]
    agent = agent_on(replies)
    agent.step(observation(), [])
    agent.step(observation("gray"), [RAN])
    reflection, planning = agent.llm.requests[2:4]
    hint = 'use the action "Open app" rather than tapping its icon'
    assert hint in reflection[0].text and hint in planning[0].text


def test_ocr_lines_of_one_paragraph_merge_as_v2_merges_them():
    lines = [TextBox(40, 100, 600, 140, "A long headline that"), TextBox(42, 150, 500, 190, "wraps once"),
             TextBox(40, 400, 300, 440, "Next item"), TextBox(700, 100, 900, 140, "12:30")]  # fmt: skip
    assert merge_lines(lines) == [
        TextBox(40, 100, 600, 190, "A long headline that\nwraps once"),
        TextBox(700, 100, 900, 140, "12:30"),
        TextBox(40, 400, 300, 440, "Next item"),
    ]
    taller = [TextBox(40, 100, 600, 140, "Title"), TextBox(40, 150, 600, 240, "Big")]  # heights differ
    assert len(merge_lines(taller)) == 2


def test_ocr_perception_captions_icons_from_their_pixels_not_their_labels():
    image = Image.new("RGB", (1080, 2400), "white")
    image.paste((40, 110, 230), (900, 40, 1040, 160))  # a blue button
    image.paste((255, 255, 255), (940, 70, 1000, 130))  # with a white glyph
    obs = observation()
    assert caption(image, (900, 40, 1040, 160)) == "a square icon, white on blue"
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    shot = Observation(image, buf.getvalue(), "<hierarchy/>", obs.elements, obs.package, obs.activity, 1080,
                       2400, 0.0, 0.0)  # fmt: skip
    from masbench.agents.ocr import ocr_perception

    infos = ocr_perception(shot, [TextBox(0, 250, 200, 300, "Display")])
    assert infos == [
        "[100, 275]; text: Display",
        "[970, 100]; icon: a square icon, white on blue",
        "[950, 1050]; icon: a square white icon",
    ]
    assert not any("Search settings" in line for line in infos)  # no accessibility label


def test_mas_mobileagent_perceives_as_mobileagent_v2_and_each_pair_differs_by_the_shortcuts_only():
    pytest.importorskip("rapidocr_onnxruntime")
    assert MasMobileAgentOcr.perception == v2.MobileAgentV2.perception == "ocr"
    assert MasMobileAgent.perception == MobileAgentV2.perception == "tree"
    only_the_shortcuts_differ(
        agent_on([TAP, MEMORY], cls=v2.MobileAgentV2), agent_on([TAP, MEMORY], cls=MasMobileAgentOcr)
    )
