"""`mobileagent-v2`: MobileAgent-v2 (Wang et al. 2024) with this project's prompts and action space.

Vision-centred: the model reads the screenshot, plus a perception summary of the texts and icons on it,
numbered and with centre coordinates - what v2's OCR and icon detector produce, taken here from the UI
tree. Three roles, each its own prompt and model call:

- reflection: compares the screenshots before and after the previous action (A: as meant, B: a wrong
  page, C: no change); B and C are fed back to the next decision. It runs at the start of the next step,
  on the observation the episode loop gives then, so the agent never observes the phone itself.
- planning: rewrites the task progress from the history (text only), from the second step on.
- decision: the next action, plus "important content" of the screen kept in memory for later steps (v2's
  memory unit, folded into the decision reply instead of a fourth call).

Model calls per step: 1 on the first step; then reflection (when the previous action executed) + planning
+ decision. v2's automatic Back after a B verdict is left to the decision agent: a step is one action.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from masbench.llm import LLMError, Message

from .history import StepNote, describe_action, note_for
from .llm_agent import LLMAgent, Turn
from .parsing import parse_model_action
from .prompting import render, screen_name, system_prompt

if TYPE_CHECKING:
    from masbench.actions import Action
    from masbench.device import Observation
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import TaskView
    from masbench.trajectory import StepRecord

    from .base import AgentStep

NOTHING_YET = "(nothing yet)"
MEMORY_LIMIT = 10  # kept contents; the oldest go first
MAX_SECTION = 2000
VERDICTS = {"A": "as meant", "B": "wrong page", "C": "no change"}
FEEDBACK = {
    "B": "it led to a wrong page (go back first if the previous page is needed)",
    "C": "it produced no change on the screen",
}
NONE_WORDS = {"", "none", "n/a", "na", "no", "nothing", "null", "-"}
CONTAINERS = ("Layout", "ScrollView", "RecyclerView", "ListView", "ViewGroup", "ViewPager", "WebView")
HEADINGS = (
    "Important content", "Thought", "Action", "Operation", "Completed contents", "Answer", "Plan",
    "Current subgoal", "Description", "Outcome", "Error description", "Progress status",
    "Important notes", "Updated tips",
)  # fmt: skip


def section(reply: str, label: str) -> str:
    """The text after a `Label:` heading (markdown marks allowed) up to the next known heading."""
    stops = "|".join(re.escape(h) for h in HEADINGS)
    found = re.search(
        rf"^[#*\s]*{re.escape(label)}[#*\s]*[:：]\s*(.*?)(?=^[#*\s]*(?:{stops})[#*\s]*[:：]|\Z)",
        reply,
        re.I | re.M | re.S,
    )
    return found.group(1).strip()[:MAX_SECTION] if found else ""


def one_line(text: str) -> str:
    return " ".join(text.split())


def is_none(text: str) -> bool:
    return one_line(text).lower().strip(" .") in NONE_WORDS


def parse_verdict(reply: str, label: str = "Answer") -> str | None:
    """A, B or C from `Answer: X` (or a bare letter reply); None when the reply gives no verdict."""
    found = re.search(rf"\b(?i:{re.escape(label)})[#*\s]*[:：][\s*#(\[\"']*([ABC])\b", reply)
    letter = found.group(1) if found else reply.strip(" .*#\n")
    return letter if letter in VERDICTS else None


def perception_lines(observation: Observation) -> str:
    """`[3] text "Display" (540, 1650)` per readable or operable element: the OCR and icon list of v2's
    perception module. Unlabelled layout containers are left out; their numbers stay valid."""
    lines = []
    for el in observation.elements:
        label = el.text or el.content_desc or el.hint
        if el.editable:
            kind = "input"
        elif el.text:
            kind = "text"
        elif label or (
            (el.clickable or el.checkable or el.long_clickable) and not el.short_class.endswith(CONTAINERS)
        ):
            kind, label = "icon", label or el.short_class
        else:
            continue
        states = (["on" if el.checked else "off"] if el.checkable else []) + (
            ["selected"] if el.selected else []
        )
        x, y = el.center
        lines.append(
            f'[{el.index}] {kind} "{one_line(label)}" ({x}, {y})' + "".join(f", {s}" for s in states)
        )
    return "\n".join(lines) or "(nothing recognised: the screen may still be loading)"


def block(text: str) -> str:
    """An optional prompt block: followed by a blank line when present, nothing when empty."""
    return f"{text}\n\n" if text else ""


@dataclass(frozen=True)
class Seen:
    """The previous step as the agent saw and meant it: what the next step's reflection compares with."""

    index: int
    screenshot: bytes
    perception: str
    action: str
    operation: str


def seen_step(index: int, action: Action, note: StepNote, observation: Observation, perception: str) -> Seen:
    shown = describe_action(action.model_dump(mode="json", exclude_none=True))
    shown = f"{shown} {note.target}" if note.target else shown
    return Seen(index, observation.screenshot_png, perception, shown, note.reason or "(not stated)")


def ask_as(agent: LLMAgent, role: str, messages: list[Message], turn: Turn) -> str:
    """`agent.ask`, with a failure naming the role whose call failed."""
    try:
        return agent.ask(messages, turn)
    except LLMError as exc:
        raise LLMError(f"{role}: {exc}") from exc


def judged(note: StepNote, verdict: str) -> StepNote:
    """The step's note with the reflection's verdict, so the history shows how each action turned out."""
    return StepNote(note.target, f"{note.reason} [reflection: {VERDICTS[verdict]}]".strip())


def reflectable(seen: Seen | None, history: list[StepRecord]) -> bool:
    """Did the agent's previous action execute (so the screens before and after are worth comparing)?"""
    if seen is None or not history or history[-1].index != seen.index:
        return False
    return history[-1].kind in ("gui", "shortcut") and history[-1].ok


class MobileAgentV2(LLMAgent):
    name = "mobileagent-v2"
    description = "MobileAgent-v2: screenshot + recognised texts/icons; planning, decision and reflection agents, memory."
    system_template = "mobileagent_v2_system"
    needs_screenshot = True

    def reset(self, task: TaskView, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)
        self.progress = ""
        self.memory: list[str] = []
        self.feedback = ""
        self.seen: Seen | None = None

    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        turn = Turn()
        index = len(history)
        perception = perception_lines(observation)
        try:
            self.reflect(observation, perception, history, turn)
            if history:
                self.plan(observation, history, turn)
            reply = ask_as(self, "decision", self.decision_messages(observation, perception, history), turn)
        except LLMError as exc:
            self.notes[index], self.seen = StepNote(), None
            return turn.fault(exc)
        parsed = parse_model_action(reply, allow_shortcuts=self.uses_shortcuts)
        self.remember(section(reply, "Important content"))
        self.notes[index] = note_for(parsed.action, observation, section(reply, "Operation") or parsed.reason)
        self.seen = None
        if parsed.action is not None:
            self.seen = seen_step(index, parsed.action, self.notes[index], observation, perception)
        return turn.result(parsed.action, parsed.error)

    # -- the roles ---------------------------------------------------------------------------------------
    def reflect(
        self, observation: Observation, perception: str, history: list[StepRecord], turn: Turn
    ) -> None:
        """Judge the previous action from the screens before and after it; B or C becomes feedback."""
        seen, self.feedback = self.seen, ""
        if not reflectable(seen, history):
            return
        assert seen is not None
        prompt = render(
            "mobileagent_v2_reflection", goal=self.task.instruction, operation=seen.operation,
            action=seen.action, before=seen.perception, after=perception,
        )  # fmt: skip
        shots = Message.user(prompt, seen.screenshot, observation.screenshot_png)
        verdict = parse_verdict(ask_as(self, "reflection", [shots], turn))
        if verdict is None:
            return
        self.notes[seen.index] = judged(self.notes.get(seen.index, StepNote()), verdict)
        if verdict in FEEDBACK:
            self.feedback = render(
                "mobileagent_v2_feedback",
                operation=seen.operation,
                action=seen.action,
                verdict=FEEDBACK[verdict],
            )

    def plan(self, observation: Observation, history: list[StepRecord], turn: Turn) -> None:
        """Rewrite the task progress from the history (v2's planning agent reads no screenshot)."""
        prompt = render(
            "mobileagent_v2_planning", goal=self.task.instruction, progress=self.progress or NOTHING_YET,
            history=self.history_text(history, observation), memory=self.memory_text(),
        )  # fmt: skip
        reply = ask_as(self, "planning", [Message.user(prompt)], turn)
        self.progress = section(reply, "Completed contents") or reply.strip()[:MAX_SECTION]

    def decision_messages(
        self, observation: Observation, perception: str, history: list[StepRecord]
    ) -> list[Message]:
        system = system_prompt(self.system_template, output=render("mobileagent_v2_output"))
        user = render(
            "mobileagent_v2_decision", goal=self.task.instruction, progress=self.progress or NOTHING_YET,
            memory=self.memory_text(), history=self.history_text(history, observation),
            feedback=block(self.feedback), shortcuts=block(self.shortcut_text(observation)),
            app=screen_name(observation), perception=perception,
        )  # fmt: skip
        return [Message.system(system), Message.user(user, observation.screenshot_png)]

    def shortcut_text(self, observation: Observation) -> str:
        """The offered-shortcuts block of the decision prompt: none for the GUI-only agent."""
        return ""

    # -- memory ------------------------------------------------------------------------------------------
    def remember(self, content: str) -> None:
        content = one_line(content)
        if not is_none(content) and content not in self.memory:
            self.memory = [*self.memory, content][-MEMORY_LIMIT:]

    def memory_text(self) -> str:
        return "\n".join(f"- {m}" for m in self.memory) or NOTHING_YET
