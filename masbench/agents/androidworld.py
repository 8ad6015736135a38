"""What T3A and M3A share, as AndroidWorld publishes them: two model calls per step, its action grammar
and its element records.

Each step AndroidWorld's agents (1) choose an action from the goal, a history of one-line *summaries*
and the screen, then (2) after the action ran, ask the model to summarise the step from the screens
before and after it; the summary becomes that step's history line. Here the episode loop executes the
action between two `step` calls, so the summary of step N is asked at the start of step N+1, when its
"after" screen is the observation in hand: the same inputs, the same two calls, the cost booked on the
step that makes the call. Steps that never reach the model get AndroidWorld's fixed history lines
instead (an unusable reply, an action that failed to run); a finishing step needs no summary.

The grammar is AndroidWorld's `action_type` JSON (`click`, `input_text`, `status`, ...) with elements
named by index only; `input_text` taps the field, types and presses Enter, as AndroidWorld executes it.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from masbench.llm import LLMError, Message

from .base import AgentStep
from .llm_agent import LLMAgent, Turn
from .parsing import Grammar, ParsedAction, parse_model_action
from .prompting import app_names, render

if TYPE_CHECKING:
    from masbench.actions import Action
    from masbench.device import Observation, UIElement
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import TaskView
    from masbench.trajectory import StepRecord

# The actions AndroidWorld's prompt offers, by this project's names; targets are element indices.
GRAMMAR = Grammar(
    actions=frozenset(
        {
            "tap",
            "long_press",
            "type",
            "enter",
            "home",
            "back",
            "scroll",
            "open_app",
            "wait",
            "finish",
            "answer",
        }
    ),
    type_presses_enter=True,
)
FIRST_STEP = "Nothing has been done yet: this is the first step."
NO_ELEMENTS = "Not available"
UNUSABLE_REPLY = "The reply was not an action in the required format, so nothing was done: {error}."
FAILED_ACTION = "The action {action} could not be carried out: {error}."


def on_screen(element: UIElement, width: int, height: int) -> bool:
    """AndroidWorld lists only elements with an area inside the screen (what a person could touch)."""
    x1, y1, x2, y2 = element.bounds
    return x2 > x1 and y2 > y1 and x1 >= 0 and y1 >= 0 and x2 <= width and y2 <= height


def _shown(observation: Observation) -> list[UIElement]:
    return [el for el in observation.elements if on_screen(el, observation.width, observation.height)]


def full_records(observation: Observation) -> str:
    """T3A's element list: every field of each element's accessibility record."""
    lines = []
    for el in _shown(observation):
        x1, y1, x2, y2 = el.bounds
        fields = {
            "text": el.text or None,
            "content_description": el.content_desc or None,
            "class_name": el.cls or None,
            "bbox_pixels": f"[x_min={x1}, x_max={x2}, y_min={y1}, y_max={y2}]",
            "hint_text": el.hint or None,
            "is_checked": el.checked,
            "is_checkable": el.checkable,
            "is_clickable": el.clickable,
            "is_editable": el.editable,
            "is_enabled": el.enabled,
            "is_focused": el.focused,
            "is_focusable": el.focusable,
            "is_long_clickable": el.long_clickable,
            "is_scrollable": el.scrollable,
            "is_selected": el.selected,
            "is_visible": True,
            "package_name": el.package or None,
            "resource_name": el.resource_id or None,
        }
        body = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False) if isinstance(v, str) and k != 'bbox_pixels' else v}"
                         for k, v in fields.items())  # fmt: skip
        lines.append(f"UI element {el.index}: UIElement({body})")
    return "\n".join(lines) or NO_ELEMENTS


def concise_records(observation: Observation) -> str:
    """M3A's element list: the texts that are set and the interaction flags, numbered like the marks."""
    lines = []
    for el in _shown(observation):
        record: dict[str, object] = {"index": el.index}
        for key, value in (
            ("text", el.text),
            ("content_description", el.content_desc),
            ("hint_text", el.hint),
        ):
            if value:
                record[key] = value
        record |= {
            "is_clickable": el.clickable,
            "is_long_clickable": el.long_clickable,
            "is_editable": el.editable,
        }
        if el.scrollable:
            record["is_scrollable"] = True
        if el.focusable:
            record["is_focusable"] = True
        record |= {"is_selected": el.selected, "is_checked": el.checked}
        body = ", ".join(f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False) if isinstance(v, str) else v}"
                         for k, v in record.items())  # fmt: skip
        lines.append(f"UI element {el.index}: {{{body}}}")
    return "\n".join(lines) or NO_ELEMENTS


def action_json(action: Action) -> str:
    """An action written back in AndroidWorld's grammar, for the summary prompt and the history line."""
    data = action.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    kind = data.pop("action", action.action)
    out: dict[str, object] = {"action_type": AW_NAMES.get(kind, kind)}
    if kind == "finish":
        out["goal_status"] = "complete" if data.get("status", "success") == "success" else data["status"]
    elif kind == "open_app":
        out["app_name"] = data.get("name")
    elif kind == "shortcut":
        out |= {"name": data.get("name"), "arguments": data.get("arguments", {})}
    else:
        out |= {k: v for k, v in data.items() if k in ("text", "index", "direction")}
    return json.dumps(out, ensure_ascii=False)


AW_NAMES = {"tap": "click", "type": "input_text", "enter": "keyboard_enter", "home": "navigate_home",
            "back": "navigate_back", "finish": "status"}  # fmt: skip


@dataclass
class Decision:
    """A step whose summary is still owed: what the model saw, chose and why."""

    index: int
    before: Observation
    action: Action
    reason: str


class AndroidWorldAgent(LLMAgent):
    """The two-call step loop; subclasses say what each call shows (text only, or with screenshots)."""

    grammar = GRAMMAR

    def reset(self, task: TaskView, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)
        self.summaries: list[str] = []
        self.owed: Decision | None = None

    @abstractmethod
    def action_messages(self, observation: Observation, history_text: str) -> list[Message]:
        """The action-selection call's prompt."""

    @abstractmethod
    def summary_messages(self, decision: Decision, after: Observation) -> list[Message]:
        """The summary call's prompt for `decision`, now that `after` shows what it did."""

    def preamble(self, inputs: str) -> str:
        """The role and action list every AndroidWorld prompt starts with."""
        return render("aw_preamble", inputs=inputs, actions=self.action_list())

    def action_list(self) -> str:
        return render("aw_actions", apps=app_names())

    def guidance(self) -> str:
        return render("aw_guidance")

    def history_lines(self) -> str:
        return "\n".join(f"Step {i}: {s}" for i, s in enumerate(self.summaries, 1)) or FIRST_STEP

    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        turn = Turn()
        try:
            self._settle(observation, history, turn)
            reply = self.ask(self.action_messages(observation, self.history_lines()), turn)
        except LLMError as exc:
            return turn.fault(exc)
        parsed = self.parse(reply)
        if parsed.action is None:
            self.summaries.append(UNUSABLE_REPLY.format(error=parsed.error))
        elif parsed.action.action != "finish":
            self.owed = Decision(len(history), observation, parsed.action, parsed.reason)
        return turn.result(parsed.action, parsed.error)

    def parse(self, reply: str) -> ParsedAction:
        return parse_model_action(reply, allow_shortcuts=self.uses_shortcuts, grammar=self.grammar)

    def _settle(self, observation: Observation, history: list[StepRecord], turn: Turn) -> None:
        """Write the history line the last decision is owed: a summary call, or the failure as it was."""
        decision, self.owed = self.owed, None
        if decision is None:
            return
        record = next((r for r in reversed(history) if r.index == decision.index), None)
        if record is not None and not record.ok:
            error = record.error or "unknown error"
            self.summaries.append(FAILED_ACTION.format(action=action_json(decision.action), error=error))
            return
        summary = self.ask(self.summary_messages(decision, observation), turn)
        self.summaries.append(f"Action selected: {action_json(decision.action)}. {' '.join(summary.split())}")
