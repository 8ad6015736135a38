"""T3A/M3A read and list as AndroidWorld does: strict replies by default (both "Reason:" and "Action:",
the first {...} on one line, only JSONAction's fields, each honoured or refused), lenient variants that
count what they rescue, AndroidWorld's element selection and numbering, and actions grounded on it."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from test_agents_androidworld import DATA, TASKS

from masbench.actions import FinishAction, SwipeAction, TapAction, TypeAction
from masbench.agents.androidworld import GRAMMAR, lenient
from masbench.agents.androidworld_reply import parse_strict
from masbench.agents.androidworld_screen import full_record, screen
from masbench.agents.mas_t3a import SHORTCUT_GRAMMAR
from masbench.agents.t3a import T3AAgent
from masbench.device import Observation, parse_ui_dump
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.llm import ScriptedLLM
from masbench.tasks import load_tasks

# a frame (container with an id: not listed by AndroidWorld) holding a titled row, an unlabelled icon
# (a leaf: listed), a field, a scrollable list and a row below the screen (listed, not shown)
XML = (
    '<hierarchy rotation="0"><node class="android.widget.FrameLayout" resource-id="app:id/frame" '
    'clickable="true" bounds="[0,0][1080,2400]">'
    '<node class="android.widget.TextView" text="Title" bounds="[0,100][1080,200]"/>'
    '<node class="android.widget.ImageView" bounds="[900,300][1000,400]"/>'
    '<node class="android.widget.EditText" text="old" resource-id="app:id/field" clickable="true" '
    'bounds="[0,500][1080,600]"/>'
    '<node class="androidx.recyclerview.widget.RecyclerView" scrollable="true" bounds="[0,700][1080,2300]">'
    '<node class="android.widget.TextView" text="Item" clickable="true" bounds="[0,700][1080,800]"/></node>'
    '<node class="android.widget.TextView" text="Below" bounds="[0,2500][1080,2600]"/>'
    "</node></hierarchy>"
)


def observation(xml: str = XML) -> Observation:
    buf = io.BytesIO()
    Image.new("RGB", (1080, 2400), "white").save(buf, format="PNG")
    return Observation(Image.open(io.BytesIO(buf.getvalue())), buf.getvalue(), xml,
                       parse_ui_dump(xml, screen=(1080, 2400)), "app", ".Main", 1080, 2400, 0.0, 0.0)  # fmt: skip


def strict(action: str, grammar=GRAMMAR):
    return parse_strict(f"Reason: r.\nAction: {action}", grammar)


# -- the element list ------------------------------------------------------------------------------------
def test_androidworld_lists_leaves_described_and_scrollable_nodes_numbered_in_tree_order():
    seen = screen(observation())
    listed = [(el.index, el.cls.rsplit(".", 1)[-1], el.text) for el in seen.elements]
    assert listed == [(0, "TextView", "Title"), (1, "ImageView", ""), (2, "EditText", "old"),
                      (3, "RecyclerView", ""), (4, "TextView", "Item"), (5, "TextView", "Below")]  # fmt: skip
    assert [el.index for el in seen.shown] == [0, 1, 2, 3, 4]  # "Below" keeps its number, unshown
    assert full_record(seen.elements[1]).startswith(
        "UI element 1: UIElement(text=None, content_description=None, class_name='android.widget.ImageView', "
        "bbox=None, bbox_pixels=BoundingBox(x_min=900, x_max=1000, y_min=300, y_max=400), hint_text=None, "
    )


# -- the strict reading ----------------------------------------------------------------------------------
def test_a_reply_needs_both_a_reason_and_an_action():
    assert parse_strict('Action: {"action_type": "navigate_back"}', GRAMMAR).action is None
    assert parse_strict('Reason: back.\n{"action_type": "navigate_back"}', GRAMMAR).action is None
    parsed = parse_strict('Reason: go back.\nAction: {"action_type": "navigate_back"}', GRAMMAR)
    assert parsed.action.action == "back" and parsed.reason == "go back."


def test_the_action_is_the_first_object_on_one_line_python_or_json():
    assert strict("{'action_type': 'click', 'index': 2}").action == TapAction(index=2)
    assert strict('{"action_type": "click", "index": "2"}').action == TapAction(index=2)  # int() as published
    assert strict('{\n  "action_type": "click",\n  "index": 2\n}').action is None  # not on one line
    two = strict('{"action_type": "click", "index": 2} or {"action_type": "navigate_back"}')
    assert two.action == TapAction(index=2)


@pytest.mark.parametrize(
    ("action", "error"),
    [
        ('{"action_type": "input_text", "text": "x", "clear": true}', "unknown field(s) 'clear'"),
        ('{"action_type": "click", "index": 2, "text": "x"}', "click takes no 'text'"),
        ('{"action_type": "click", "x": 5, "y": 9}', "names its element by coordinates"),
        ('{"action_type": "keyboard_enter", "keycode": "KEYCODE_ENTER"}', "takes no 'keycode'"),
        ('{"action_type": "double_tap", "index": 2}', "'double_tap' is not one of the actions listed"),
        ('{"action_type": "scroll"}', "scroll needs 'direction'"),
        ('{"action_type": "scroll", "direction": "sideways"}', "direction must be one of"),
        ('{"action_type": "input_text", "text": ""}', "the text to type is empty"),
    ],
)
def test_every_field_is_honoured_or_refused(action, error):
    parsed = strict(action)
    assert parsed.action is None and error in parsed.error


def test_clear_text_empties_the_field_and_text_is_typed_as_written():
    parsed = strict('{"action_type": "input_text", "text": "  two  words ", "index": 2, "clear_text": true}')
    assert parsed.action == TypeAction(text="  two  words ", index=2, clear=True, enter=True)
    assert strict('{"action_type": "input_text", "text": 42}').action.text == "42"  # str() as published
    assert strict('{"action_type": "status", "goal_status": "infeasible"}').action == FinishAction(
        status="infeasible"
    )


def test_mas_t3a_reads_a_shortcut_call_with_its_arguments_object():
    call = '{"action_type": "shortcut", "name": "maps.search", "arguments": {"query": "cafe"}}'
    assert strict(call).action is None  # T3A offers no shortcut
    assert strict(call, SHORTCUT_GRAMMAR).action.arguments == {"query": "cafe"}


# -- the agents --------------------------------------------------------------------------------------------
def agent(name: str, reply: str):
    cls = lenient(T3AAgent) if name.endswith("-lenient") else T3AAgent
    built = cls(llm=ScriptedLLM(lambda messages: reply))
    built.reset(TASKS.get("settings-01"), None)
    return built


def test_strict_refuses_and_lenient_rescues_and_says_so():
    reply = 'Action: {"action_type": "input_text", "text": "new", "index": 2, "clear": true}'
    refused = agent("t3a", reply).step(observation(), [])
    assert refused.action is None and not refused.rescued and "Reason:" in refused.error
    rescued = agent("t3a-lenient", reply).step(observation(), [])
    assert rescued.action == TypeAction(text="new", index=2, clear=True, enter=True) and rescued.rescued
    well_formed = 'Reason: r.\nAction: {"action_type": "input_text", "text": "new", "index": 2}'
    plain = agent("t3a-lenient", well_formed).step(observation(), [])
    assert plain.action is not None and not plain.rescued


def test_actions_on_androidworlds_numbers_reach_the_same_node_or_its_centre():
    obs = observation()
    on = {el.text: el.index for el in obs.elements}
    tapped = agent("t3a", 'Reason: r.\nAction: {"action_type": "click", "index": 4}').step(obs, [])
    assert tapped.action == TapAction(index=on["Item"])  # the same node in the observation's list
    icon = agent("t3a", 'Reason: r.\nAction: {"action_type": "long_press", "index": 1}').step(obs, [])
    assert icon.action.x == 950 and icon.action.y == 350  # an unlabelled leaf: at its centre
    below = agent("t3a", 'Reason: r.\nAction: {"action_type": "click", "index": 5}').step(obs, [])
    assert below.action is None and below.error == "element 5 is not on the screen"
    beyond = agent("t3a", 'Reason: r.\nAction: {"action_type": "click", "index": 9}').step(obs, [])
    assert beyond.action is None and "out of range 0..5" in beyond.error


def test_scrolling_follows_the_node_or_swipes_inside_one_the_observation_leaves_out():
    obs = observation()
    listed = agent("t3a", 'Reason: r.\nAction: {"action_type": "scroll", "direction": "down", "index": 3}')
    scroll = listed.step(obs, []).action
    assert scroll.action == "scroll" and obs.elements[scroll.index].cls.endswith("RecyclerView")
    icon = agent("t3a", 'Reason: r.\nAction: {"action_type": "scroll", "direction": "down", "index": 1}')
    swipe = icon.step(obs, []).action
    assert isinstance(swipe, SwipeAction) and 900 <= swipe.x1 <= 1000 and 300 <= swipe.y2 < swipe.y1 <= 400


def test_a_rescued_reply_is_counted_in_the_episode_result(device, tmp_path):
    task = load_tasks(DATA).get("settings-01")
    lenient_t3a = agent("t3a-lenient", 'Action: {"action_type": "status", "goal_status": "complete"}')
    result = run_episode(
        device, task, lenient_t3a, EpisodeSettings(Limits(3, 60.0), save_screens=False),
        kb=None, shortcuts=None, run_dir=tmp_path,
    )  # fmt: skip
    assert result.end_reason == "finished" and result.rescued_by_lenient_parser == 1
    strict_t3a = agent("t3a", 'Action: {"action_type": "status", "goal_status": "complete"}')
    result = run_episode(
        device, task, strict_t3a, EpisodeSettings(Limits(3, 60.0), save_screens=False),
        kb=None, shortcuts=None, run_dir=tmp_path / "strict",
    )  # fmt: skip
    assert (result.end_reason, result.invalid_steps, result.rescued_by_lenient_parser) == ("step_limit", 3, 0)
