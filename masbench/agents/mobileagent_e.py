"""`mobileagent-e`: Mobile-Agent-E (Wang et al. 2025) - a hierarchy of roles over a long-term memory of tips
and its own shortcuts that grows from task to task.

Roles, each its own prompt and model call (perception is v2's texts-and-icons list, no call):
- Manager: the high-level plan and the current subgoal, from the screenshot, every step; after two
  failed actions in a row it is told about them (error escalation). Its subgoal "Finished" is the only
  way a task ends well; three failed or identical actions in a row stop it.
- Operator: the next action for the subgoal - a GUI action or one of the agent's own shortcuts (it is
  offered no finish); after a failure it retries with the reflector's error.
- Action Reflector: judges the previous action from the screens before and after it (A as meant, B a
  wrong page, C no change), with an error description and the new progress. Like v2's reflection it runs
  at the start of the next step, on the observation the episode loop gives.
- Notetaker (optional, on by default): keeps task-relevant content after an action judged A.
- Experience Reflectors, in the step that finishes a task: the Tips Reflector rewrites the tips; the
  Shortcut Reflector may turn a run of successful actions into a new shortcut.

Calls per step: Manager + Operator, plus Action Reflector (when the previous action executed)
and Notetaker (after an A); the finishing step adds the two Experience Reflectors. An episode cut off by
the step or time limit gets no experience reflection: the agent never learns that it ended.

Long-term memory (`Experience`) is the one thing that persists across tasks, by design: tips (text) and
shortcuts in the KB schema - `replay` shortcuts whose actions find their elements by selector, with
`{param}` placeholders. The agent is a learning one (`learns`): the runner hands it the memory left by the
previous task of its chain (`remember`) and keeps what it has after each task (`memory`) in the run
directory, so what it learns follows task order, not which worker ran what. Goal, plan, notes and history
are per task. Its shortcuts run through the episode's `ShortcutExecutor`, built on `executor_kb()`. The predefined KB is not offered:
MobileAgent-E is the paper's self-generated-shortcut framework.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from masbench.actions import Action, FinishAction
from masbench.actions.selectors import selector_for
from masbench.catalog import APPS
from masbench.llm import LLMError, Message
from masbench.shortcuts import KnowledgeBase, Shortcut

from .history import StepNote, note_for, render_history
from .llm_agent import LLMAgent, Turn
from .mobileagent_v2 import (
    NOTHING_YET,
    VERDICTS,
    Seen,
    ask_as,
    block,
    is_none,
    judged,
    one_line,
    parse_verdict,
    perception_lines,
    reflectable,
    section,
    seen_step,
)
from .parsing import Grammar, parse_model_action
from .prompting import app_names, render, screen_name, shortcut_lines, system_prompt

if TYPE_CHECKING:
    from masbench.device import Observation, UIElement
    from masbench.llm import LLM
    from masbench.tasks import TaskView
    from masbench.trajectory import StepRecord

    from .base import AgentStep

log = logging.getLogger(__name__)
ESCALATE_AFTER = 2  # consecutive failed actions before the Manager is told about them (error escalation)
STOP_AFTER = 3  # failed actions, or one action repeated, in a row: the task stops
FREE_REPEATS = ("scroll", "swipe", "back")  # repeating these is browsing, not being stuck
# The Operator acts; only the Manager's "Finished" ends a task, so the Operator is offered no finish.
OPERATOR_GRAMMAR = Grammar(
    actions=frozenset({"tap", "long_press", "type", "enter", "home", "back", "scroll", "swipe", "open_app",
                       "wait", "answer", "shortcut"}),
    targets=frozenset({"index", "coordinates"}),
)  # fmt: skip
MEMORY_SCHEMA = 1
# the Manager's "Finished" subgoal ("Finished.", "**Finished**"), not "Finished searching"
FINISHED = re.compile(r"^\W*finished\W*(?:$|[.:;!-])", re.I)


def operator_actions() -> str:
    """The shared GUI action list without its finish line: the Operator cannot end the task."""
    return "\n".join(
        line for line in render("gui_actions", apps=app_names()).splitlines() if '"finish"' not in line
    )


# -- long-term memory ----------------------------------------------------------------------------------
class MemoryFile(BaseModel):
    """The JSON file `Experience.save` writes."""

    schema_version: int = MEMORY_SCHEMA
    tips: str
    shortcuts: list[Shortcut]


@dataclass
class Experience:
    """Tips and shortcuts kept across tasks."""

    tips: str = field(default_factory=lambda: render("mobileagent_e_initial_tips"))
    kb: KnowledgeBase = field(default_factory=KnowledgeBase)

    def data(self) -> dict[str, Any]:
        return MemoryFile(tips=self.tips, shortcuts=list(self.kb)).model_dump(mode="json", exclude_none=True)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Experience:
        try:
            stored = MemoryFile.model_validate(data)
        except ValidationError as exc:
            raise ValueError(f"not a Mobile-Agent-E memory: {one_line(str(exc))}") from None
        return cls(tips=stored.tips, kb=KnowledgeBase(stored.shortcuts))


def grounded(action: dict[str, Any], elements: list[UIElement] | None) -> dict[str, Any]:
    """An action with its element index replaced by a selector, so it can be replayed on a new screen."""
    element = next((el for el in elements or [] if el.index == action.get("index")), None)
    if element is None:
        return action
    target = selector_for(element, elements or []).model_dump(exclude_defaults=True)
    return {**{k: v for k, v in action.items() if k != "index"}, "target": target}


def json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in a reply (fences and prose around it are fine)."""
    decoder = json.JSONDecoder()
    for brace in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, brace.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def shortcut_from(data: dict[str, Any]) -> Shortcut:
    """A `replay` shortcut from the Shortcut Reflector's JSON; ValidationError says what is wrong."""
    description = one_line(str(data.get("description") or ""))
    precondition = one_line(str(data.get("precondition") or ""))
    if not is_none(precondition):
        description = f"{description} Precondition: {precondition}".strip()
    return Shortcut.model_validate(
        {
            "app": data.get("app"),
            "name": data.get("name"),
            "type": "replay",
            "description": description,
            "parameters": data.get("parameters") or [],
            "replay": {"actions": data.get("actions")},
            "source": "mobileagent-e",
        }
    )


# -- the agent -----------------------------------------------------------------------------------------
class MobileAgentE(LLMAgent):
    name = "mobileagent-e"
    description = (
        "Mobile-Agent-E: manager, operator, action reflector and notetaker; self-evolving tips and its own "
        "shortcuts kept across tasks."
    )
    needs_screenshot = True
    learns = True

    def __init__(
        self,
        model: str | None = None,
        *,
        llm: LLM | None = None,
        record_to: Path | None = None,
        notetaker: bool = True,
    ) -> None:
        super().__init__(model, llm=llm, record_to=record_to)
        self.experience = Experience()
        self.notetaker = notetaker

    def executor_kb(self, kb: KnowledgeBase | None = None) -> KnowledgeBase:
        """The KB the episode's ShortcutExecutor must run this agent's shortcut calls from: its own, growing
        one, whatever KB the run loaded (`kb`)."""
        return self.experience.kb

    def memory(self) -> dict[str, Any]:
        return self.experience.data()

    def remember(self, memory: dict[str, Any] | None) -> None:
        self.experience = Experience() if memory is None else Experience.from_data(memory)

    def reset(self, task: TaskView, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)
        self.plan = ""
        self.subgoal = ""
        self.progress = ""
        self.important = ""
        self.errors: list[str] = []  # what went wrong in the consecutive failed actions so far
        self.seen: Seen | None = None
        self.shown: dict[int, list[UIElement]] = {}  # step → the elements its indices refer to

    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        turn = Turn()
        index = len(history)
        perception = perception_lines(observation)
        self.shown[index] = observation.elements
        self.seen, seen = None, self.seen
        try:
            self.reflect(seen, observation, perception, history, turn)
            stuck = self.stuck(history)
            if not stuck:
                self.manage(observation, perception, history, turn)
            if stuck:
                action: Action | None = FinishAction(status="failure")
                error, self.notes[index] = None, StepNote(reason=stuck)
            elif FINISHED.match(self.subgoal):
                action = FinishAction(status="success")
                error, self.notes[index] = None, StepNote(reason="the Manager found the goal achieved")
            else:
                reply = ask_as(
                    self, "operator", self.operator_messages(observation, perception, history), turn
                )
                parsed = parse_model_action(
                    reply, allow_shortcuts=len(self.experience.kb) > 0, grammar=OPERATOR_GRAMMAR
                )
                action, error = parsed.action, parsed.error
                self.notes[index] = note_for(
                    action, observation, section(reply, "Description") or parsed.reason
                )
        except LLMError as exc:
            self.notes[index] = StepNote()
            return turn.fault(exc)
        if isinstance(action, FinishAction) and not stuck:
            self.evolve(history, turn)
        elif action is not None:
            self.seen = seen_step(index, action, self.notes[index], observation, perception)
        return turn.result(action, error)

    def stuck(self, history: list[StepRecord]) -> str:
        """Mobile-Agent-E's stopping rule: why the task stops now (the same action or a failure
        STOP_AFTER times in a row), or "" to go on."""
        last = history[-STOP_AFTER:]
        if len(last) < STOP_AFTER:
            return ""
        if all(not r.ok for r in last):
            return f"stopped: {STOP_AFTER} failed actions in a row"
        first = last[0].action
        if (
            first is not None
            and first.get("action") not in FREE_REPEATS
            and all(r.action == first for r in last)
        ):
            return f"stopped: the same action {STOP_AFTER} times in a row"
        return ""

    # -- roles during a task ---------------------------------------------------------------------------
    def reflect(
        self,
        seen: Seen | None,
        observation: Observation,
        perception: str,
        history: list[StepRecord],
        turn: Turn,
    ) -> None:
        """Action Reflector (and Notetaker): how the previous action turned out. Failures the episode
        already recorded (not executed, a failed command) need no model to be judged."""
        if not history:
            return
        last = history[-1]
        if not reflectable(seen, history):
            if last.ok:
                self.errors = []
            else:
                self.errors.append(last.error or "the action could not be carried out")
            return
        assert seen is not None
        prompt = render(
            "mobileagent_e_reflector", goal=self.task.instruction, subgoal=self.subgoal or NOTHING_YET,
            progress=self.progress or NOTHING_YET, action=seen.action, expectation=seen.operation,
            before=seen.perception, after=perception,
        )  # fmt: skip
        reply = ask_as(
            self,
            "action reflector",
            [Message.user(prompt, seen.screenshot, observation.screenshot_png)],
            turn,
        )
        verdict = parse_verdict(reply, "Outcome")
        if verdict is not None:
            self.notes[seen.index] = judged(self.notes.get(seen.index, StepNote()), verdict)
        if verdict in ("B", "C"):
            self.errors.append(section(reply, "Error description") or f"{seen.action}: {VERDICTS[verdict]}")
            return
        self.errors = []
        progress = section(reply, "Progress status")
        self.progress = progress if not is_none(progress) else self.progress
        if self.notetaker and verdict == "A":
            self.take_notes(observation, perception, turn)

    def take_notes(self, observation: Observation, perception: str, turn: Turn) -> None:
        prompt = render(
            "mobileagent_e_notetaker", goal=self.task.instruction, plan=self.plan or NOTHING_YET,
            subgoal=self.subgoal or NOTHING_YET, progress=self.progress or NOTHING_YET,
            notes=self.important or NOTHING_YET, app=screen_name(observation), perception=perception,
        )  # fmt: skip
        notes = section(
            ask_as(self, "notetaker", [Message.user(prompt, observation.screenshot_png)], turn),
            "Important notes",
        )
        if notes and not is_none(notes):
            self.important = notes

    def manage(
        self, observation: Observation, perception: str, history: list[StepRecord], turn: Turn
    ) -> None:
        escalation = ""
        if len(self.errors) >= ESCALATE_AFTER:
            errors = "\n".join(f"- {one_line(e)}" for e in self.errors)
            escalation = render("mobileagent_e_escalation", count=len(self.errors), errors=errors)
        prompt = render(
            "mobileagent_e_manager", **self.context(), history=self.history_lines(history, observation),
            escalation=block(escalation), app=screen_name(observation), perception=perception,
        )  # fmt: skip
        reply = ask_as(self, "manager", [Message.user(prompt, observation.screenshot_png)], turn)
        self.plan = section(reply, "Plan") or self.plan
        self.subgoal = one_line(section(reply, "Current subgoal")) or self.subgoal
        if len(self.errors) >= ESCALATE_AFTER:
            self.errors = []  # the Manager has taken the failures into account

    def operator_messages(
        self, observation: Observation, perception: str, history: list[StepRecord]
    ) -> list[Message]:
        error = render("mobileagent_e_error", error=one_line(self.errors[-1])) if self.errors else ""
        user = render(
            "mobileagent_e_operator", **self.context(), history=self.history_lines(history, observation),
            error=block(error), app=screen_name(observation), perception=perception,
        )  # fmt: skip
        return [
            Message.system(system_prompt("mobileagent_e_operator_system", gui_actions=operator_actions())),
            Message.user(user, observation.screenshot_png),
        ]

    def context(self) -> dict[str, str]:
        """What the Manager and the Operator both see: the goal, the plan so far and the memory."""
        return {
            "goal": self.task.instruction,
            "plan": self.plan or "(no plan yet)",
            "subgoal": self.subgoal or NOTHING_YET,
            "progress": self.progress or NOTHING_YET,
            "notes": self.important or NOTHING_YET,
            "tips": self.experience.tips,
            "shortcuts": shortcut_lines(self.experience.kb),
        }

    def history_lines(self, history: list[StepRecord], observation: Observation) -> str:
        return render_history(history, self.notes, now=f"{observation.package}/{observation.activity}")

    # -- experience reflection, when a task ends --------------------------------------------------------
    def evolve(self, history: list[StepRecord], turn: Turn) -> None:
        """Update the tips and maybe add a shortcut. A failed call here costs the new experience, not the
        finish."""
        try:
            self.reflect_tips(history, turn)
            self.reflect_shortcut(history, turn)
        except LLMError as exc:
            log.warning("mobileagent-e: experience reflection failed: %s", exc)

    def reflect_tips(self, history: list[StepRecord], turn: Turn) -> None:
        prompt = render(
            "mobileagent_e_tips", goal=self.task.instruction, plan=self.plan or NOTHING_YET,
            progress=self.progress or NOTHING_YET, history=render_history(history, self.notes),
            tips=self.experience.tips,
        )  # fmt: skip
        tips = section(ask_as(self, "tips reflector", [Message.user(prompt)], turn), "Updated tips")
        if tips and not is_none(tips):
            self.experience.tips = tips

    def reflect_shortcut(self, history: list[StepRecord], turn: Turn) -> None:
        """Ask for one new shortcut from this task's actions; keep it if it is valid and new."""
        prompt = render(
            "mobileagent_e_shortcuts", goal=self.task.instruction, history=self.grounded_history(history),
            shortcuts=shortcut_lines(self.experience.kb), apps=", ".join(a for a in APPS if a != "launcher"),
        )  # fmt: skip
        data = json_object(ask_as(self, "shortcut reflector", [Message.user(prompt)], turn))
        if data is None:
            return
        try:
            self.experience.kb.add(shortcut_from(data))
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            log.warning("mobileagent-e: shortcut not kept: %s", one_line(str(exc)))

    def grounded_history(self, history: list[StepRecord]) -> str:
        """The task's actions as replayable JSON (selectors instead of indices) with their outcomes."""
        lines = []
        for n, record in enumerate(history, 1):
            if record.action is None:
                lines.append(f"Step {n}: (no valid action) -> not executed")
                continue
            action = json.dumps(grounded(record.action, self.shown.get(record.index)), ensure_ascii=False)
            outcome = "done" if record.ok else f"failed: {record.error or 'unknown error'}"
            reason = self.notes.get(record.index, StepNote()).reason
            lines.append(f"Step {n}: {action} -> {outcome}" + (f". {reason}" if reason else ""))
        return "\n".join(lines) or "(no actions)"
