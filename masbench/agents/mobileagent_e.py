"""`mobileagent-e`: Mobile-Agent-E (Wang et al. 2025) - a hierarchy of roles over a long-term memory of tips
and its own shortcuts that grows from task to task, run as its published code runs it.

Roles, each its own prompt and model call (perception is the tree's texts-and-icons list, no call):
- Manager: the high-level plan and the current subgoal, from the screenshot, every step. It sees the plan,
  its previous subgoal, the progress, the notes and the shortcuts; after two actions in a row judged
  failed, also their log (error escalation). Its subgoal "Finished" is the only way a task ends well.
- Operator: the next action for the subgoal - an atomic action or a shortcut - from the screen list, the
  keyboard status (typing is offered only while the keyboard is up), the tips, the notes and its last five
  actions with their outcomes and the reflector's feedback. A reply it cannot run, or a stop, ends the task.
- Action Reflector: judges the previous action from the screens before and after it (A as meant, B a
  wrong page, C no change), with an error description and the new progress. Like v2's reflection it runs
  at the start of the next step, on the observation the episode loop gives. An action that never ran is
  judged C without a call.
- Notetaker: keeps task-relevant content after an action judged A.
- Experience Reflectors, in the step whose Manager says "Finished" after at least one action: the Shortcut
  Reflector may turn a run of successful actions into a new shortcut; the Tips Reflector rewrites the tips.

Three actions in a row judged B or C, or the same action three times in a row (swipes and Back aside),
stop the task. Calls per step: Manager + Operator, plus Action Reflector (when the previous action ran)
and Notetaker (after an A); the finishing step adds the two Experience Reflectors. An episode cut off by
the step or time limit gets no experience reflection: the agent never learns that it ended.

Long-term memory (`Experience`) is the one thing that persists across tasks, by design: tips (text) and
shortcuts in the KB schema - `replay` shortcuts whose actions find their elements by selector, with
`{param}` placeholders - besides the built-in `Tap_Type_and_Enter` the published agent starts with. The
agent is a learning one (`learns`): the runner hands it the memory left by the previous task of its chain
(`remember`) and keeps what it has after each task (`memory`) in the run directory, so what it learns
follows task order, not which worker ran what. Goal, plan, notes and history are per task. Its shortcuts
run through the episode's `ShortcutExecutor`, built on `executor_kb()`. The predefined KB is not offered:
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

from masbench.actions import FinishAction, OpenAppAction, ShortcutAction, TypeAction, parse_action
from masbench.actions.selectors import selector_for
from masbench.catalog import APPS
from masbench.llm import LLMError, Message
from masbench.shortcuts import KnowledgeBase, Shortcut

from .history import StepNote, note_for
from .llm_agent import LLMAgent, Turn
from .mobileagent_v2 import (
    NOTHING_YET,
    ask_as,
    block,
    is_none,
    judged,
    keyboard_active,
    keyboard_status,
    one_line,
    open_by_label,
    parse_verdict,
    perception_lines,
    section,
    tree_labels,
)
from .parsing import Grammar, ParsedAction, ParseMode, parse_in_mode, parse_model_action
from .prompting import render, shortcut_lines

if TYPE_CHECKING:
    from masbench.device import Observation, UIElement
    from masbench.llm import LLM
    from masbench.tasks import Task, TaskView
    from masbench.trajectory import StepRecord

    from .base import AgentStep, PastStep

log = logging.getLogger(__name__)
ESCALATE_AFTER = 2  # actions in a row judged failed before the Manager sees their log (error escalation)
STOP_AFTER = 3  # actions judged failed, or one action repeated, in a row: the task stops
FREE_REPEATS = ("swipe", "back")  # repeating these is browsing, not being stuck (as published)
LATEST = 5  # past actions the Operator sees
TAP_TYPE_ENTER = "Tap_Type_and_Enter"  # the shortcut the published agent starts with
NO_PROGRESS = "No progress yet."
NO_NOTES = "No important notes recorded."
# The published Operator's atomic actions, in this project's JSON. "finish" is read only to end the task
# (the prompt offers none); "answer" gives a question's answer, which this benchmark checks.
OPERATOR_GRAMMAR = Grammar(
    actions=frozenset({"tap", "type", "enter", "home", "back", "swipe", "open_app", "wait", "answer",
                       "shortcut", "finish"}),
    targets=frozenset({"index", "coordinates"}),
)  # fmt: skip
MEMORY_SCHEMA = 1


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
@dataclass(frozen=True)
class Attempt:
    """One action and how it turned out, as the published agent logs it for the Operator, the Manager and
    the Experience Reflectors."""

    index: int  # its step
    action: dict[str, Any]
    description: str
    outcome: str  # A, B or C
    feedback: str
    progress: str

    def line(self, action: dict[str, Any] | None = None, *, with_progress: bool = False) -> str:
        shown = json.dumps(action or self.action, ensure_ascii=False)
        line = f"Action: {shown} | Description: {self.description or '(none)'} | Outcome: "
        if self.outcome != "A":
            return line + f"Failed | Feedback: {self.feedback or '(none)'}"
        return line + "Successful" + (f" | Progress: {self.progress}" if with_progress else "")


@dataclass(frozen=True)
class Acted:
    """The screen an Operator action was chosen on, for the reflection that compares it with the next."""

    index: int
    screenshot: bytes
    perception: str
    keyboard: bool
    action: dict[str, Any]
    description: str


def read_operator(reply: str) -> ParsedAction:
    """The published Operator's rule: the JSON object of the Action part, taken as written, must be one of
    the offered actions (no aliases or repairs)."""
    reason = one_line(section(reply, "Thought"))
    data = json_object(section(reply, "Action"))
    if data is None:
        return ParsedAction(None, "no JSON object in the Action part", reason)
    if data.get("action") not in OPERATOR_GRAMMAR.actions:
        return ParsedAction(None, f"{data.get('action')!r} is not one of the offered actions", reason)
    try:
        return ParsedAction(parse_action(data), None, reason)
    except ValidationError as exc:
        return ParsedAction(None, f"not a valid action: {one_line(str(exc))}", reason)


def tap_type_enter(parsed: ParsedAction) -> ParsedAction:
    """The built-in Tap_Type_and_Enter shortcut: one type action that taps its box first and presses Enter."""
    assert isinstance(parsed.action, ShortcutAction)
    arguments = parsed.action.arguments
    try:
        action = TypeAction.model_validate({**arguments, "enter": True})
    except ValidationError as exc:
        error = f"{TAP_TYPE_ENTER}(index, text): {one_line(str(exc))}"
        return ParsedAction(None, error, parsed.reason, parsed.rescued)
    return ParsedAction(action, None, parsed.reason, parsed.rescued)


class MobileAgentE(LLMAgent):
    name = "mobileagent-e"
    description = (
        "Mobile-Agent-E: manager, operator, action reflector and notetaker; self-evolving tips and its own "
        "shortcuts kept across tasks."
    )
    needs_screenshot = True
    learns = True
    parse_mode: ParseMode = (
        "strict"  # "lenient": the project's forgiving reader rescues what the rule refuses
    )

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

    def reset(self, task: TaskView | Task, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)
        self.plan = ""
        self.subgoal = ""
        self.progress = ""
        self.important = ""
        self.attempts: list[Attempt] = []  # every action that ran or was tried, with its outcome
        self.acted: Acted | None = None
        self.shown: dict[int, list[UIElement]] = {}  # step → the elements its indices refer to

    def assume_history(self, past: list[PastStep]) -> None:
        raise NotImplementedError(
            f"{self.name}: its Operator acts on the Manager's plan and subgoal, which the Manager writes step "
            "by step and no reference gives, and the Manager itself may end the task; one action cannot be "
            "asked of it on a reference's history"
        )

    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        turn = Turn()
        index = len(history)
        perception = perception_lines(observation)
        keyboard = keyboard_active(observation.elements)
        self.shown[index] = observation.elements
        self.acted, acted = None, self.acted
        try:
            self.reflect(acted, observation, perception, keyboard, history, turn)
            if stop := self.stop_reason():
                self.notes[index] = StepNote(reason=stop)
                return turn.result(FinishAction(status="failure"))
            self.manage(observation, turn)
            if "Finished" in self.subgoal:  # as published: the word anywhere in the subgoal
                if self.attempts:
                    self.evolve(turn)
                self.notes[index] = StepNote(reason="the Manager found the goal achieved")
                return turn.result(FinishAction(status="success"))
            reply = ask_as(self, "operator", self.operator_messages(observation, perception, keyboard), turn)
        except LLMError as exc:
            self.notes[index] = StepNote()
            return turn.fault(exc)
        parsed = self.operate(reply, observation)
        description = section(reply, "Description")
        if parsed.action is None or isinstance(parsed.action, FinishAction):
            # the published agent ends the task on an Operator reply it cannot run, and on a stop
            why = parsed.error or "the Operator chose to stop"
            self.notes[index] = StepNote(reason=f"task ended by the Operator's reply: {why}")
            return turn.result(FinishAction(status="failure"))
        dump = parsed.action.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
        action = {"action": parsed.action.action, **dump}
        self.notes[index] = note_for(parsed.action, observation, description or parsed.reason)
        self.acted = Acted(index, observation.screenshot_png, perception, keyboard, action, description)
        return turn.result(parsed.action, rescued=parsed.rescued)

    def operate(self, reply: str, observation: Observation) -> ParsedAction:
        """The Operator's action, read in its grammar; the built-in shortcut and Open app become the GUI
        actions they stand for."""
        parsed = parse_in_mode(
            reply,
            self.parse_mode,
            read_operator,
            lambda text: parse_model_action(text, allow_shortcuts=True, grammar=OPERATOR_GRAMMAR),
        )
        if isinstance(parsed.action, ShortcutAction) and parsed.action.name == TAP_TYPE_ENTER:
            return tap_type_enter(parsed)
        if isinstance(parsed.action, OpenAppAction):
            return open_by_label(parsed, tree_labels(observation))
        return parsed

    def stop_reason(self) -> str:
        """Mobile-Agent-E's stopping rules: why the task stops now, or "" to go on."""
        last = self.attempts[-STOP_AFTER:]
        if len(last) < STOP_AFTER:
            return ""
        if all(a.outcome in ("B", "C") for a in last):
            return f"stopped: {STOP_AFTER} actions in a row judged failed"
        first = last[0].action
        if first.get("action") not in FREE_REPEATS and all(a.action == first for a in last):
            return f"stopped: the same action {STOP_AFTER} times in a row"
        return ""

    # -- roles during a task ---------------------------------------------------------------------------
    def reflect(
        self,
        acted: Acted | None,
        observation: Observation,
        perception: str,
        keyboard: bool,
        history: list[StepRecord],
        turn: Turn,
    ) -> None:
        """Action Reflector (and Notetaker): how the previous action turned out. An action the episode
        could not run is judged C with its error, without a call (nothing on the phone changed)."""
        if acted is None or not history or history[-1].index != acted.index:
            return
        record = history[-1]
        if record.kind == "answer":  # nothing on the screen to compare; the answer is given
            self.attempts.append(
                Attempt(acted.index, acted.action, acted.description, "A", "", self.progress)
            )
            return
        if not (record.kind == "shortcut" or (record.kind == "gui" and record.ok)):
            error = record.error or "the action could not be carried out"
            self.attempts.append(
                Attempt(acted.index, acted.action, acted.description, "C", error, self.progress)
            )
            self.notes[acted.index] = judged(self.notes.get(acted.index, StepNote()), "C")
            return
        prompt = render(
            "mobileagent_e_reflector", goal=self.task.instruction, subgoal=self.subgoal,
            progress=self.progress or NO_PROGRESS, width=observation.width, height=observation.height,
            before=acted.perception, after=perception, keyboard_before=keyboard_status(acted.keyboard, typing=True),
            keyboard_after=keyboard_status(keyboard, typing=True), action=json.dumps(acted.action, ensure_ascii=False),
            expectation=acted.description or "(not stated)",
        )  # fmt: skip
        reply = ask_as(
            self,
            "action reflector",
            [Message.user(prompt, acted.screenshot, observation.screenshot_png)],
            turn,
        )
        verdict = parse_verdict(reply, "Outcome") or "C"  # no verdict: nothing shows the action worked
        feedback = one_line(section(reply, "Error description"))
        if record.kind == "shortcut" and not record.ok:
            feedback += f"; the shortcut failed: {record.error or 'unknown error'}"
        progress = one_line(section(reply, "Progress status"))
        if progress and not is_none(progress):
            self.progress = progress
        self.attempts.append(
            Attempt(acted.index, acted.action, acted.description, verdict, feedback, self.progress)
        )
        self.notes[acted.index] = judged(self.notes.get(acted.index, StepNote()), verdict)
        if self.notetaker and verdict == "A":
            self.take_notes(observation, perception, turn)

    def take_notes(self, observation: Observation, perception: str, turn: Turn) -> None:
        prompt = render(
            "mobileagent_e_notetaker", goal=self.task.instruction, plan=self.plan, subgoal=self.subgoal,
            progress=self.progress or NO_PROGRESS, notes=self.important or NO_NOTES, width=observation.width,
            height=observation.height, perception=perception,
        )  # fmt: skip
        notes = section(
            ask_as(self, "notetaker", [Message.user(prompt, observation.screenshot_png)], turn),
            "Important notes",
        )
        if notes and not is_none(notes):
            self.important = notes

    def manage(self, observation: Observation, turn: Turn) -> None:
        """The Manager: a first plan from the starting screen, then the plan revised every step."""
        if not self.plan:
            prompt = render(
                "mobileagent_e_manager_first", goal=self.task.instruction, shortcuts=self.shortcut_list()
            )
        else:
            last = self.attempts[-ESCALATE_AFTER:]
            stuck = ""
            if len(last) == ESCALATE_AFTER and all(a.outcome in ("B", "C") for a in last):
                stuck = render(
                    "mobileagent_e_escalation", attempts="\n".join(f"- Attempt: {a.line()}" for a in last)
                )
            prompt = render(
                "mobileagent_e_manager", goal=self.task.instruction, plan=self.plan, subgoal=self.subgoal,
                progress=self.progress or NO_PROGRESS, notes=self.important or NO_NOTES, stuck=block(stuck),
                shortcuts=self.shortcut_list(),
            )  # fmt: skip
        reply = ask_as(self, "manager", [Message.user(prompt, observation.screenshot_png)], turn)
        self.plan = section(reply, "Plan") or self.plan
        self.subgoal = one_line(section(reply, "Current subgoal")) or self.subgoal

    def operator_messages(self, observation: Observation, perception: str, keyboard: bool) -> list[Message]:
        w, h = observation.width, observation.height
        actions = render(
            "mobileagent_e_actions", cx=w // 2, cy=h // 2, top=h // 10, half=w // 2,
            type=render("mobileagent_e_type" if keyboard else "mobileagent_e_no_type"),
        )  # fmt: skip
        user = render(
            "mobileagent_e_operator", goal=self.task.instruction, plan=self.plan, progress=self.progress or NO_PROGRESS,
            subgoal=self.subgoal, width=w, height=h, perception=perception,
            keyboard=keyboard_status(keyboard, typing=True), tips=self.experience.tips or "(none)",
            notes=self.important or NO_NOTES, actions=actions, shortcuts=self.shortcut_list(),
            history=self.latest_actions(),
        )  # fmt: skip
        return [
            Message.system(render("mobileagent_e_operator_system")),
            Message.user(user, observation.screenshot_png),
        ]

    def latest_actions(self) -> str:
        """The Operator's last five actions with their outcomes, and the published hint after taps that
        changed nothing."""
        if not self.attempts:
            return "No actions have been taken yet."
        last = self.attempts[-LATEST:]
        lines = [a.line() for a in last]
        taps = [a.action.get("action") == "tap" for a in last[-2:]]
        if last[-1].outcome == "C" and len(taps) == 2 and all(taps):
            lines.append(render("mobileagent_e_tap_hint"))
        return "\n".join(lines)

    def shortcut_list(self) -> str:
        """The built-in Tap_Type_and_Enter, then the shortcuts learnt so far."""
        learnt = shortcut_lines(self.experience.kb) if len(self.experience.kb) else ""
        return "\n".join(filter(None, [render("mobileagent_e_tap_type_enter"), learnt]))

    # -- experience reflection, when a task ends --------------------------------------------------------
    def evolve(self, turn: Turn) -> None:
        """Maybe add a shortcut, then update the tips (the published order). A failed call here costs the
        new experience, not the finish."""
        try:
            self.reflect_shortcut(turn)
            self.reflect_tips(turn)
        except LLMError as exc:
            log.warning("mobileagent-e: experience reflection failed: %s", exc)

    def reflect_tips(self, turn: Turn) -> None:
        full = "\n".join(f"- {a.line(with_progress=True)}" for a in self.attempts)
        prompt = render(
            "mobileagent_e_tips", goal=self.task.instruction, plan=self.plan or NOTHING_YET,
            progress=self.progress or NO_PROGRESS, history=full, tips=self.experience.tips or "(none)",
        )  # fmt: skip
        tips = section(ask_as(self, "tips reflector", [Message.user(prompt)], turn), "Updated tips")
        if tips and not is_none(tips):
            self.experience.tips = tips

    def reflect_shortcut(self, turn: Turn) -> None:
        """Ask for one new shortcut from this task's actions; keep it if it is valid and new."""
        prompt = render(
            "mobileagent_e_shortcuts", goal=self.task.instruction, history=self.grounded_history(),
            shortcuts=self.shortcut_list(), apps=", ".join(a for a in APPS if a != "launcher"),
        )  # fmt: skip
        data = json_object(ask_as(self, "shortcut reflector", [Message.user(prompt)], turn))
        if data is None:
            return
        try:
            self.experience.kb.add(shortcut_from(data))
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            log.warning("mobileagent-e: shortcut not kept: %s", one_line(str(exc)))

    def grounded_history(self) -> str:
        """The task's actions as replayable JSON (selectors instead of indices) with their outcomes."""
        lines = [
            f"- {a.line(grounded(a.action, self.shown.get(a.index)), with_progress=True)}"
            for a in self.attempts
        ]
        return "\n".join(lines) or "(no actions)"
