"""A virtual phone's screens depend only on what is done to it: not on the order an observation's two
concurrent requests arrive in, not on wall time or model latency. A toast runs out after the same device
time, and a run recorded with a slow model replays from its cassette, at once, with identical screenshots: for
every model agent, each answered in its own format by a player of fitbit-02's route."""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod

import pytest
from llm_server import FakeServer, Reply, openai_ok
from test_agents_mobileagent import role_of as e_role_of
from test_agents_mobileagent_v2 import role_of as v2_role_of

from masbench.agents import AGENTS
from masbench.agents.llm_agent import LLMAgent
from masbench.agents.m3a import M3AAgent
from masbench.agents.mas_mobileagent import MasMobileAgent, MasMobileAgentTree
from masbench.agents.mas_t3a import MasT3AAgent
from masbench.agents.mobileagent_e import MobileAgentE
from masbench.agents.mobileagent_v2 import MobileAgentV2, MobileAgentV2Tree
from masbench.agents.ocr import read_text
from masbench.agents.t3a import T3AAgent
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.llm import CassetteLLM, Message, RecordingLLM, RetryPolicy
from masbench.llm.openai_compat import OpenAICompatLLM
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.tasks import load_tasks
from masbench.vphone.build import build_phone
from masbench.vphone.phone import VirtualPhone
from masbench.vphone.render import TOAST_MS


def toasted() -> VirtualPhone:
    phone = build_phone("vphone-1")
    phone.reset(seed=22)
    phone.tap(540, 1200)
    phone.toast("You joined Weekend Warrior")
    return phone


@pytest.mark.parametrize("observations", [0, 1, 2, 3])
def test_an_observations_request_order_does_not_change_its_screenshot(observations):
    shots = []
    for dump_first in (False, True):
        phone = toasted()
        for _ in range(observations):  # earlier observations' device time, unchanged screen
            phone.ui_dump_xml()
            phone.advance("screencap")
        if dump_first:
            phone.ui_dump_xml()
        shots.append(phone.screencap_png())
    assert shots[0] == shots[1]


def test_a_toast_runs_out_after_device_time_not_after_observations():
    phone = toasted()
    shown = phone.screencap_png()
    for _ in range(10):  # looking does not move the screen on
        phone.ui_dump_xml()
    assert phone.screencap_png() == shown
    phone.shell("sleep 1")  # device time passing does
    assert phone.screencap_png() != shown
    phone.shell(f"sleep {TOAST_MS / 1000}")
    gone = phone.screencap_png()
    fresh = build_phone("vphone-1")
    fresh.reset(seed=22)
    fresh.tap(540, 1200)
    fresh.shell(f"sleep {1 + TOAST_MS / 1000}")
    assert gone == fresh.screencap_png()  # no toast left, same clock: the same screen


# fitbit-02's GUI route, step by step: the label of the element to tap, or another action
ROUTE: list[tuple[str, str]] = [
    ("open", "Fitbit"),
    ("tap", "Discover"),
    ("tap", "Weekend Warrior"),
    ("tap", "Join challenge"),  # "You joined Weekend Warrior" shows from here
    ("back", ""),
    ("tap", "Workweek Hustle"),
    ("tap", "Leave challenge"),
    ("tap", "Leave"),
    ("finish", ""),
]
AW_ELEMENT = re.compile(r"UI element (\d+): (.*)")  # T3A's and MAS-T3A's UIElement(...), M3A's {...}
LABELS = ("text", "content_description")
E_ELEMENT = re.compile(r'^\[(\d+)\] \w+ "(.*)" \((\d+), (\d+)\)', re.M)  # Mobile-Agent-E's perception
V2_ELEMENT = re.compile(r"^\[(\d+), (\d+)\]; (?:text|icon): (.*)$", re.M)  # Mobile-Agent-v2's perception


def request_messages(body: dict) -> list[Message]:
    """An OpenAI-style request's messages as the agent wrote them, text only (what the players read)."""
    texts = [
        m["content"] if isinstance(m["content"], str) else "\n".join(p.get("text", "") for p in m["content"])
        for m in body["messages"]
    ]
    return [Message.user(text) for text in texts]


class SlowRoutePlayer(ABC):
    """The fake model server's replies (tests/llm_server.py), made from what it was asked: the acting
    role's calls get fitbit-02's next step in the agent's own format, the element found in the list the
    prompt shows (the phone is not looked at: that would move its clock on in the live run only), the other
    roles a line in theirs; every answer takes 50 ms."""

    def __init__(self, server: FakeServer) -> None:
        self.server, self.step = server, 0

    def __bool__(self) -> bool:
        return True

    def popleft(self) -> Reply:
        answer = self.answer(request_messages(self.server.seen[-1].body))
        return Reply(delay_s=0.05, body=openai_ok(answer).body)

    def next_step(self) -> tuple[str, str]:
        self.step += 1
        return ROUTE[self.step - 1]

    @abstractmethod
    def answer(self, messages: list[Message]) -> str:
        """The reply to one call, in the agent's format."""


class AndroidWorldPlayer(SlowRoutePlayer):
    """T3A, M3A and MAS-T3A: "Reason:/Action:" with the element's number in the prompt's list."""

    def answer(self, messages: list[Message]) -> str:
        prompt = messages[-1].text
        if "Summary of this step:" in prompt:
            return "Done as meant."
        kind, label = self.next_step()
        action = {
            "open": {"action_type": "open_app", "app_name": label},
            "back": {"action_type": "navigate_back"},
            "finish": {"action_type": "status", "goal_status": "complete"},
        }.get(kind)
        if action is None:
            shown = [
                int(m[1])
                for m in AW_ELEMENT.finditer(prompt)
                if any(f"{key}='{label}'" in m[2] or f'"{key}": "{label}"' in m[2] for key in LABELS)
            ]
            action = {"action_type": "click", "index": shown[0]}
        return f"Reason: next step.\nAction: {json.dumps(action)}"


class MobileAgentEPlayer(SlowRoutePlayer):
    """Mobile-Agent-E: the Operator answers the step as JSON with the element's number in its perception
    list; the Manager says "Finished" when the route is done; the reflectors approve."""

    def answer(self, messages: list[Message]) -> str:
        role = e_role_of(messages)
        if role == "manager":
            done = ROUTE[self.step][0] == "finish"
            return "Thought: t.\nPlan: 1. Follow the route.\nCurrent subgoal: " + (
                "Finished" if done else "next"
            )
        if role != "operator":
            return {"reflector": "Outcome: A\nError description: None\nProgress status: on track",
                    "notetaker": "Important notes: None", "tips": "Updated tips:\n- None.",
                    "shortcuts": "None"}[role]  # fmt: skip
        kind, label = self.next_step()
        action = {"open": {"action": "open_app", "name": label}, "back": {"action": "back"}}.get(kind)
        if action is None:
            shown = [
                int(m[1]) for m in E_ELEMENT.finditer("\n".join(m.text for m in messages)) if m[2] == label
            ]
            action = {"action": "tap", "index": shown[-1]}
        return f"Thought: next step.\nAction: {json.dumps(action)}\nDescription: step {self.step}."


class MobileAgentV2Player(SlowRoutePlayer):
    """Mobile-Agent-v2 and MAS-MobileAgent: the decision taps the centre its perception list gives the
    label (read off the UI tree or by OCR), opens apps by name, Stop at the end; the others approve."""

    def answer(self, messages: list[Message]) -> str:
        role = v2_role_of(messages)
        if role != "decision":
            return {"memory": "### Important content ###\nNone",
                    "reflection": "### Thought ###\nt\n### Answer ###\nA",
                    "planning": f"### Completed contents ###\n{self.step} steps done."}[role]  # fmt: skip
        kind, label = self.next_step()
        action = {"open": f"Open app ({label})", "back": "Back", "finish": "Stop"}.get(kind)
        if action is None:
            shown = [(m[1], m[2]) for m in V2_ELEMENT.finditer(messages[-1].text) if m[3] == label]
            action = "Tap ({}, {})".format(*shown[0])
        return f"### Thought ###\nnext step\n### Action ###\n{action}\n### Operation ###\nstep {self.step}"


PLAYERS: dict[str, tuple[type[LLMAgent], type[SlowRoutePlayer]]] = {
    "t3a": (T3AAgent, AndroidWorldPlayer),
    "m3a": (M3AAgent, AndroidWorldPlayer),
    "mas-t3a": (MasT3AAgent, AndroidWorldPlayer),
    "mobileagent-v2": (MobileAgentV2, MobileAgentV2Player),
    "mobileagent-v2-tree": (MobileAgentV2Tree, MobileAgentV2Player),
    "mobileagent-e": (MobileAgentE, MobileAgentEPlayer),
    "mas-mobileagent": (MasMobileAgent, MobileAgentV2Player),
    "mas-mobileagent-tree": (MasMobileAgentTree, MobileAgentV2Player),
}


def test_every_model_agent_has_a_route_player():
    """The `-lenient` variants send their strict agent's prompts (they only read replies more kindly)."""
    model_agents = {
        name for name, spec in AGENTS.items() if spec.needs_model and not name.endswith("-lenient")
    }
    assert model_agents == set(PLAYERS)


OCR_AGENTS = {"mobileagent-v2", "mas-mobileagent"}  # OCR every screenshot: half a minute or more a run


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[pytest.mark.slow] if n in OCR_AGENTS else []) for n in PLAYERS]
)
def test_a_run_with_a_slow_model_replays_from_its_cassette_with_identical_screens(
    device, server, tmp_path, name
):
    cls, player = PLAYERS[name]
    task = load_tasks().get("fitbit-02")
    kb = load_kb()
    server.replies = player(server)
    cassette = tmp_path / "llm_cassette.jsonl"
    agents = {
        "live": lambda: cls(
            llm=RecordingLLM(
                OpenAICompatLLM("slow", server.url + "/v1", retry=RetryPolicy(max_attempts=1)), cassette
            )
        ),
        "replay": lambda: cls(llm=CassetteLLM(cassette)),
    }
    results, shots = [], []
    for run, agent in agents.items():
        run_dir = tmp_path / run
        shortcuts = ShortcutExecutor(kb, device) if cls.uses_shortcuts else None
        settings = EpisodeSettings(Limits(20, 60.0))
        results.append(
            run_episode(device, task, agent(), settings, kb=kb, shortcuts=shortcuts, run_dir=run_dir)
        )
        steps = sorted((run_dir / "trajectories" / task.id).glob("step_*.png"))
        shots.append([p.read_bytes() for p in steps])
    assert [(r.end_reason, r.success) for r in results] == [("finished", True)] * 2, results[0].check_details
    assert len(shots[0]) == len(ROUTE) and shots[0] == shots[1]
    assert results[1].wall_s < results[0].wall_s  # the replay did not wait for the model
    joined = shots[0][ROUTE.index(("tap", "Join challenge")) + 1]  # the screen the join left
    assert "You joined Weekend Warrior" in [box.text for box in read_text(joined)]
