"""T3A, M3A and MAS-T3A as AndroidWorld publishes them: an action call and a summary call per step, the
prompt sections each call carries, the `action_type` grammar with elements by index, `input_text`
pressing Enter, fixed history lines for steps that never ran - and nothing of a previous task."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from masbench.actions import TypeAction
from masbench.agents.m3a import M3AAgent
from masbench.agents.mas_t3a import MasT3AAgent
from masbench.agents.t3a import T3AAgent
from masbench.device import Observation, parse_ui_dump
from masbench.llm import Message, ScriptedLLM
from masbench.shortcuts import load_kb
from masbench.tasks import load_tasks
from masbench.trajectory import StepRecord

DATA = Path(__file__).parent / "data" / "tasks"
TASKS = load_tasks(DATA)
KB = load_kb(DATA / "kb")
CLICK = 'Reason: the Display row holds the theme.\nAction: {"action_type": "click", "index": 1}'
SUMMARY_MARK = "Summary of this step:"


def observation(texts: tuple[str, ...] = ("Display", "Dark theme"), colour: str = "white") -> Observation:
    """A settings list: a scrollable frame holding clickable rows, and one more row below the screen."""
    image = Image.new("RGB", (1080, 2400), colour)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    rows = "".join(
        f'<node class="android.widget.TextView" text="{t}" resource-id="com.android.settings:id/row{i}" '
        f'package="com.android.settings" clickable="true" bounds="[0,{200 * i}][1080,{200 * i + 150}]"/>'
        for i, t in enumerate(texts, 1)
    )
    below = '<node class="android.widget.TextView" text="Below the screen" bounds="[0,2500][1080,2600]"/>'
    xml = (
        '<hierarchy rotation="0"><node class="android.widget.FrameLayout" scrollable="true" '
        f'bounds="[0,0][1080,2400]">{rows}{below}</node></hierarchy>'
    )
    return Observation(
        image,
        buf.getvalue(),
        xml,
        parse_ui_dump(xml, screen=(1080, 2400)),
        "com.android.settings",
        ".Settings",
        1080,
        2400,
        0.0,
        0.0,
    )


def brain(action_reply: str = CLICK, summary: str = "Opened Display; the theme switch is there."):
    """A scripted model that answers summary requests with `summary` and action requests with the reply."""

    def answer(messages: list[Message]) -> str:
        return summary if SUMMARY_MARK in (messages[-1].text or "") else action_reply

    return answer


def agent_for(cls, task: str = "settings-01", kb=KB, **kw):
    agent = cls(llm=ScriptedLLM(brain(**kw)))
    agent.reset(TASKS.get(task), kb)
    return agent


def ran(index: int, ok: bool = True, error: str | None = None) -> StepRecord:
    return StepRecord(index=index, action={"action": "tap", "index": 1}, kind="gui", ok=ok, error=error)


def test_t3a_first_step_is_one_text_call_with_the_published_sections_in_order():
    agent = agent_for(T3AAgent)
    step = agent.step(observation(), [])
    (request,) = agent.llm.requests
    assert [m.role for m in request] == ["user"] and request[0].images == []
    text = request[0].text
    sections = [
        "You operate an Android phone for a user.",
        '{"action_type": "status", "goal_status": "complete"}',
        '{"action_type": "input_text", "text": "<text>", "index": <index>}',
        "The user's goal: Turn on the dark theme.",
        "Nothing has been done yet: this is the first step.",
        "UI element 2: UIElement(text='Dark theme', content_description=None, class_name='android.widget.TextView', "
        "bbox=None, bbox_pixels=BoundingBox(x_min=0, x_max=1080, y_min=400, y_max=550), hint_text=None",
        "Guidelines to follow:",
        'Reason: ...\nAction: {"action_type": ...}',
        "Your answer:",
    ]
    positions = [text.index(s) for s in sections]
    assert positions == sorted(positions)
    assert (
        "is_clickable=True, is_editable=False" in text
        and "resource_name='com.android.settings:id/row2', tooltip=None, resource_id=None, metadata=None)"
        in text
    )
    assert "installed apps" not in text and "YouTube" not in text  # AndroidWorld names no apps
    assert "Below the screen" not in text  # off-screen elements are not listed, as in AndroidWorld
    assert "shortcut" not in text.lower()
    assert step.action.action == "tap" and step.action.index == 1 and step.usage.calls == 1


def test_t3a_later_steps_summarise_the_previous_step_then_choose_with_the_summary_in_the_history():
    agent = agent_for(T3AAgent)
    before, after = observation(), observation(("Dark theme", "Font size"))
    agent.step(before, [])
    step = agent.step(after, [ran(0)])
    summary_call, action_call = agent.llm.requests[1:]
    summary = summary_call[0].text
    assert summary.index("UI element 1: UIElement(text='Display'") < summary.index(
        "UI element 2: UIElement(text='Font size'"
    )  # the element lists before and after the action
    assert 'The action you chose: {"action_type": "click", "index": 1}' in summary
    assert "Your reason: the Display row holds the theme." in summary and summary.endswith(SUMMARY_MARK)
    assert (
        'Step 1: Action selected: {"action_type": "click", "index": 1}. Opened Display; the theme switch is there.'
        in action_call[0].text
    )
    assert step.usage.calls == 2 and step.model_input.count("[user]") == 2


def test_steps_that_never_ran_get_a_fixed_history_line_and_no_summary_call():
    agent = agent_for(T3AAgent, action_reply="I am not sure.")
    agent.step(observation(), [])  # unusable: no call owed
    agent.llm._script = brain()
    agent.step(observation(), [StepRecord(index=0, action=None, kind="invalid", ok=False)])
    agent.step(observation(), [ran(1, ok=False, error="element index 1 is out of range 0..0")])
    assert len(agent.llm.requests) == 3  # three action calls, no summaries
    history = agent.llm.requests[-1][0].text
    assert (
        "Step 1: The reply was not an action in the required format, so nothing was done: "
        'the reply needs a "Reason: ..." part' in history
    )
    assert (
        'Step 2: The action {"action_type": "click", "index": 1} could not be carried out: '
        "element index 1 is out of range 0..0." in history
    )


def test_finishing_owes_no_summary():
    agent = agent_for(
        T3AAgent, action_reply='Reason: done.\nAction: {"action_type": "status", "goal_status": "complete"}'
    )
    step = agent.step(observation(), [])
    assert step.action.action == "finish" and step.action.status == "success" and agent.owed is None


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ('Action: {"action": "tap", "target": {"text": "Display"}}', "invalid action_type None"),
        ('Action: {"action_type": "click", "x": 10, "y": 20}', "names its element by coordinates"),
        ('Action: {"action_type": "swipe", "direction": "up"}', "'swipe' is not one of the actions listed"),
        (
            'Action: {"action_type": "shortcut", "name": "settings.open_display_settings"}',
            "'shortcut' is not one of the actions listed",
        ),
    ],
)
def test_the_grammar_refuses_what_the_prompt_never_offered(reply, error):
    step = agent_for(T3AAgent, action_reply=f"Reason: r.\n{reply}").step(observation(), [])
    assert step.action is None and error in step.error


def test_input_text_taps_types_and_presses_enter():
    reply = 'Reason: r.\nAction: {"action_type": "input_text", "text": "dark", "index": 2}'
    step = agent_for(T3AAgent, action_reply=reply).step(observation(), [])
    assert step.action == TypeAction(text="dark", index=2, enter=True)


def test_m3a_action_call_sends_the_screenshot_and_its_marked_copy_with_concise_records():
    agent = agent_for(M3AAgent)
    obs = observation()
    agent.step(obs, [])
    (request,) = agent.llm.requests
    text, images = request[0].text, request[0].images
    assert (
        'UI element 2: {"index": 2, "text": "Dark theme", "is_clickable": True, "is_long_clickable": False'
        in text
    )
    assert "UIElement(" not in text and "numbered box" in text
    assert images[0].image == obs.screenshot_png
    marked = Image.open(io.BytesIO(images[1].image)).convert("RGB")
    assert marked.getpixel((0, 300)) == (0, 255, 0) and marked.getpixel((540, 1800)) == (255, 255, 255)


def test_m3a_summary_call_sees_both_marked_screenshots_labelled_before_and_after():
    agent = agent_for(M3AAgent)
    agent.step(observation(), [])
    agent.step(observation(colour="lightgrey"), [ran(0)])
    summary_call = agent.llm.requests[1]
    before, after = (Image.open(io.BytesIO(p.image)).convert("RGB") for p in summary_call[0].images)
    assert SUMMARY_MARK in summary_call[0].text and '"before"' in summary_call[0].text
    for image in (before, after):  # the corner labels: black words on a white box
        assert {(0, 0, 0), (255, 255, 255)} <= {c for _, c in image.crop((930, 2370, 1080, 2400)).getcolors()}
    assert before.getpixel((540, 1800)) == (255, 255, 255) and after.getpixel((540, 1800)) != (255, 255, 255)


def test_mas_t3a_adds_only_the_shortcut_block_to_t3a():
    plain, mas = agent_for(T3AAgent), agent_for(MasT3AAgent)
    plain.step(observation(), [])
    mas.step(observation(), [])
    base, with_block = plain.llm.requests[0][0].text, mas.llm.requests[0][0].text
    start = with_block.index("Shortcuts for this task and screen.")
    end = with_block.index("Now choose the next action")
    assert with_block[:start] + with_block[end:] == base
    block = with_block[start:end]
    assert "- settings.open_display_settings(" in block
    assert '{"action_type": "shortcut", "name": "<app.shortcut_name>"' in block
    assert "prefer" not in with_block.lower()


def test_mas_t3a_calls_a_shortcut_in_the_grammar():
    reply = 'Reason: r.\nAction: {"action_type": "shortcut", "name": "settings.open_display_settings", "arguments": {}}'
    step = agent_for(MasT3AAgent, action_reply=reply).step(observation(), [])
    assert step.action.action == "shortcut" and step.action.name == "settings.open_display_settings"


@pytest.mark.parametrize("cls", [T3AAgent, M3AAgent, MasT3AAgent])
def test_nothing_leaks_from_one_task_into_the_next(cls):
    used = agent_for(cls, task="settings-02")
    obs = observation()
    used.step(obs, [])
    used.step(obs, [ran(0)])
    second = TASKS.get("cross-01")
    used.reset(second, KB)
    used.step(obs, [])
    fresh = agent_for(cls, task="cross-01")
    fresh.step(obs, [])
    assert used.llm.requests[-1] == fresh.llm.requests[-1]
    text = fresh.llm.requests[-1][0].text
    assert second.instruction.strip() in text and "Nothing has been done yet" in text
