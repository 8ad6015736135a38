"""What T3A and M3A share, as AndroidWorld publishes them: two model calls per step, its action grammar,
its reading of replies and its element list (`androidworld_screen.py`).

Each step AndroidWorld's agents (1) choose an action from the goal, a history of one-line *summaries*
and the screen, then (2) after the action ran, ask the model to summarise the step from the screens
before and after it; the summary becomes that step's history line. Here the episode loop executes the
action between two `step` calls, so the summary of step N is asked at the start of step N+1, when its
"after" screen is the observation in hand: the same inputs, the same two calls, the cost booked on the
step that makes the call. Steps that never reach the model get AndroidWorld's fixed history lines
instead (an unusable reply, an action that failed to run); a finishing step needs no summary.

The grammar is AndroidWorld's `action_type` JSON (`click`, `input_text`, `status`, ...) with elements
named by their number in AndroidWorld's list only; `input_text` taps the field, types and presses Enter, as
AndroidWorld executes it. Replies are read by AndroidWorld's rules (`androidworld_reply.py`); the
`-lenient` variants read what those rules refuse with the tolerant parser instead, and each such step is
counted as rescued.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from masbench.llm import LLMError, Message

from .androidworld_reply import OURS, parse_strict
from .androidworld_screen import ground, screen
from .base import AgentStep, PastStep
from .llm_agent import LLMAgent, Turn
from .parsing import Grammar, ParsedAction, ParseMode, parse_in_mode, parse_model_action
from .prompting import render

if TYPE_CHECKING:
    from masbench.actions import Action
    from masbench.device import Observation
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import Task, TaskView
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
        if data.get("clear"):
            out["clear_text"] = True
    return json.dumps(out, ensure_ascii=False)


AW_NAMES = {ours: theirs for theirs, ours in OURS.items()}


@dataclass
class Decision:
    """A step whose summary is still owed: what the model saw, chose (numbered as it saw the elements)
    and why."""

    index: int
    before: Observation
    action: Action
    reason: str


class AndroidWorldAgent(LLMAgent):
    """The two-call step loop; subclasses say what each call shows (text only, or with screenshots)."""

    grammar = GRAMMAR
    parse_mode: ParseMode = "strict"
    step_label = "Step {n}: "  # how a history line starts (M3A writes "Step 1- ")

    def reset(self, task: TaskView | Task, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
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
        return render("aw_actions")

    def guidance(self) -> str:
        return render("aw_guidance")

    def history_lines(self) -> str:
        lines = (self.step_label.format(n=n) + s for n, s in enumerate(self.summaries, 1))
        return "\n".join(lines) or FIRST_STEP

    def assume_history(self, past: list[PastStep]) -> None:
        """Each past step as a history line: the action in AndroidWorld's grammar, then what it did in
        words (its element number would name an element of a screen the model no longer sees)."""
        self.summaries = [
            f"Action selected: {action_json(p.action)}. Reference step: {p.description}." for p in past
        ]

    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        turn = Turn()
        try:
            self._settle(observation, history, turn)
            reply = self.ask(self.action_messages(observation, self.history_lines()), turn)
        except LLMError as exc:
            return turn.fault(exc)
        parsed = self.parse(reply)
        action, error = parsed.action, parsed.error
        if action is not None:
            action, error = ground(action, screen(observation), observation)
        if action is None:
            self.summaries.append(UNUSABLE_REPLY.format(error=error))
        elif action.action != "finish":
            assert parsed.action is not None
            self.owed = Decision(len(history), observation, parsed.action, parsed.reason)
        return turn.result(action, error, rescued=parsed.rescued)

    def parse(self, reply: str) -> ParsedAction:
        """AndroidWorld's reading of the reply; in lenient mode the tolerant parser's when that refuses."""
        return parse_in_mode(
            reply,
            self.parse_mode,
            lambda text: parse_strict(text, self.grammar),
            lambda text: parse_model_action(text, allow_shortcuts=self.uses_shortcuts, grammar=self.grammar),
        )

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


def lenient(cls: type[AndroidWorldAgent]) -> type[AndroidWorldAgent]:
    """`cls` reading replies its strict rules refuse with the tolerant parser (`<name>-lenient`)."""
    attrs = {"name": f"{cls.name}-lenient", "parse_mode": "lenient",
             "description": f"{cls.description} Lenient reply parser (rescues counted)."}  # fmt: skip
    return type(f"Lenient{cls.__name__}", (cls,), attrs)
