"""`mobileagent-v2`: Mobile-Agent-v2 (Wang et al. 2024) as its public implementation runs, in our words.

Vision-centred: the decision agent reads the screenshot and a list of what is on it, `[x, y]; text: ...`
and `[x, y]; icon: ...` by centre coordinates - by OCR of the screenshot, as v2 does (`ocr.py`), or read
off the UI tree (`perception="tree"`: `mobileagent-v2-tree` and `mas-mobileagent-tree`, the labelled
variants for fast runs) - and acts by coordinates in v2's own grammar: `Open app (name)` (a tap just above
the app's label, found on the screen as v2 finds it, so only where the label shows: the home screen),
`Tap (x, y)`,
`Swipe (x1, y1), (x2, y2)`, `Type (text)` (offered only while the keyboard is active; the text is typed as
written), `Home`, `Stop`. v2's default hint (open apps with Open app, leave them with Home) is in the
decision, reflection and planning prompts. Each step, in v2's order:

- reflection, on the previous action, from the screenshots and lists before and after it: A (as meant)
  adds the operation to the history and runs the planning agent; B (a wrong page) and C (no change) keep
  it out of the history and flag the next decision with it; B also presses Back at once - that is this
  step's action, with no decision. It runs at the start of the next step, on the observation the episode
  loop gives then. A step that never executed needs no reflection: it is flagged like a C.
- planning (text only, after an A): rewrites the "completed contents" from the operations so far.
- decision, then memory in the same conversation: the next action, then the content of the screen worth
  keeping for later steps.

Model calls per step: decision + memory on the first step; then reflection (when the previous action ran)
+ planning (after an A) + decision + memory; a step after a B is the automatic Back alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from masbench.actions import (
    BackAction,
    FinishAction,
    HomeAction,
    LongPressAction,
    OpenAppAction,
    ShortcutAction,
    SwipeAction,
    TapAction,
    TypeAction,
    select,
)
from masbench.actions.schema import parse_call
from masbench.llm import LLMError, Message

from .history import StepNote, describe_action
from .llm_agent import LLMAgent, Turn
from .ocr import CONTAINERS, TextBox, check_available, ocr_perception, read_text
from .parsing import ParsedAction
from .prompting import render

if TYPE_CHECKING:
    from masbench.actions import Action
    from masbench.device import Observation, UIElement
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import Task, TaskView
    from masbench.trajectory import StepRecord

    from .base import AgentStep, PastStep

Perception = Literal["ocr", "tree"]
NOTHING_YET = "(nothing yet)"
MAX_SECTION = 2000
VERDICTS = {"A": "as meant", "B": "wrong page", "C": "no change"}
NONE_WORDS = {"", "none", "n/a", "na", "no", "nothing", "null", "-"}
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


def ask_as(agent: LLMAgent, role: str, messages: list[Message], turn: Turn) -> str:
    """`agent.ask`, with a failure naming the role whose call failed."""
    try:
        return agent.ask(messages, turn)
    except LLMError as exc:
        raise LLMError(f"{role}: {exc}") from exc


def judged(note: StepNote, verdict: str) -> StepNote:
    """The step's note with the reflection's verdict, so the history shows how each action turned out."""
    return StepNote(note.target, f"{note.reason} [reflection: {VERDICTS[verdict]}]".strip())


ARGUMENT = r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)"
_TAP = re.compile(rf"\btap\s*{ARGUMENT}", re.I)
_SWIPE = re.compile(rf"\bswipe\s*{ARGUMENT}\s*,?\s*(?:to\s*)?{ARGUMENT}", re.I)
_OPEN = re.compile(r"\bopen\s*app\s*\((.+)\)", re.I | re.S)
_TYPE = re.compile(r"\btype\s*\((.*)\)", re.I | re.S)
_SHORTCUT = re.compile(r"\b[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*\s*\(.*\)", re.I | re.S)
_WORD = {"home": HomeAction, "back": BackAction, "stop": FinishAction}


def heading(reply: str, label: str) -> str:
    """The text under `### Label ###` up to the next `###` heading (v2's output format), else the text
    after a `Label:` line."""
    found = re.search(rf"#+\s*{re.escape(label)}\s*#+\s*(.*?)(?=#{{3}}|\Z)", reply, re.I | re.S)
    return found.group(1).strip()[:MAX_SECTION] if found else section(reply, label)


def parse_v2_action(reply: str, *, allow_shortcuts: bool) -> ParsedAction:
    """The action of a v2 reply, read as v2 reads it, from its `### Action ###` part."""
    text = one_line(heading(reply, "Action"))
    reason = one_line(heading(reply, "Thought"))
    if allow_shortcuts and (call := _SHORTCUT.search(text)):
        try:
            name, arguments = parse_call(call.group(0))
        except ValueError as exc:
            return ParsedAction(None, f"unreadable shortcut call: {exc}", reason)
        return ParsedAction(ShortcutAction(name=name, arguments=arguments), None, reason)
    if found := _SWIPE.search(text):
        x1, y1, x2, y2 = (max(0, int(v)) for v in found.groups())
        return ParsedAction(SwipeAction(x1=x1, y1=y1, x2=x2, y2=y2), None, reason)
    if found := _TAP.search(text):
        return ParsedAction(TapAction(x=max(0, int(found[1])), y=max(0, int(found[2]))), None, reason)
    if found := _OPEN.search(text):
        return ParsedAction(OpenAppAction(name=found[1].strip(" \"'")), None, reason)
    if found := _TYPE.search(text):  # typed as written, spaces and quotes included, as v2 types it
        return ParsedAction(TypeAction(text=found[1]), None, reason)
    word = text.strip(" .*`\"'").lower()
    if word in _WORD:
        return ParsedAction(_WORD[word](), None, reason)
    offered = "Open app (name), Tap (x, y), Swipe (x1, y1), (x2, y2), Type (text), Home, Stop"
    return ParsedAction(None, f"no action found under ### Action ###: use one of {offered}", reason)


def open_by_label(parsed: ParsedAction, labels: list[TextBox]) -> ParsedAction:
    """v2's Open app: a tap one label-height above the text that reads exactly the app's name (its icon),
    so it works only where the label shows. With no such text v2 taps nothing; here the step is invalid,
    which its reflection judges as v2's would (no change)."""
    assert isinstance(parsed.action, OpenAppAction)
    name = parsed.action.name
    label = next((line for line in labels if line.text == name), None)
    if label is None:
        error = f'Open app: no label reading "{name}" on this screen (apps open from their home-screen label)'
        return ParsedAction(None, error, parsed.reason)
    x, y = label.center
    return ParsedAction(TapAction(x=x, y=max(0, y - (label.y2 - label.y1))), None, parsed.reason)


def tree_labels(observation: Observation) -> list[TextBox]:
    """The texts of the UI tree as read lines, for Open app when the screen is read off the tree."""
    return [TextBox(*el.bounds, one_line(el.text)) for el in observation.elements if el.text]


def perception_infos(observation: Observation) -> list[str]:
    """v2's screenshot information: `[x, y]; text: ...` for each piece of text, `[x, y]; icon: ...` for
    each unlabelled control, by centre; read off the UI tree (the original runs OCR and an icon detector
    with a captioning model on the pixels)."""
    lines = []
    for el in observation.elements:
        x, y = el.center
        if el.text:
            lines.append(f"[{x}, {y}]; text: {one_line(el.text)}")
        elif el.content_desc or el.hint:
            lines.append(f"[{x}, {y}]; icon: {one_line(el.content_desc or el.hint)}")
        elif (el.clickable or el.checkable) and not el.short_class.endswith(CONTAINERS):
            lines.append(f"[{x}, {y}]; icon: {el.short_class}")
    return lines


def keyboard_active(elements: list[UIElement]) -> bool:
    """Is the keyboard up? An editable field has the focus (the original looks for the ADB keyboard's bar)."""
    return any(el.editable and el.focused for el in elements)


def keyboard_status(active: bool, *, typing: bool = False) -> str:
    if active:
        return "The keyboard has been activated" + (" and you can type." if typing else ".")
    return "The keyboard has not been activated" + (" and you can't type." if typing else ".")


def v2_action_text(action: Action, before: Observation) -> str:
    """An action as v2's decision writes it (`Tap (x, y)`, `Type (text)`, `Open app (name)`...), a target
    by its centre on the screen `before` it was taken; actions v2 lacks in the same form (`Back`)."""
    if isinstance(action, ShortcutAction):
        return f"Shortcut {action.call_text()}"
    if isinstance(action, OpenAppAction):
        return f"Open app ({action.name})"
    if isinstance(action, TypeAction):
        return f"Type ({action.text})"
    if isinstance(action, SwipeAction) and action.x1 is not None:
        return f"Swipe ({action.x1}, {action.y1}), ({action.x2}, {action.y2})"
    if isinstance(action, TapAction | LongPressAction):
        if action.target is not None:
            x, y = select(action.target, before.elements).center
        elif action.index is not None:
            x, y = next(el.center for el in before.elements if el.index == action.index)
        else:
            x, y = action.x or 0, action.y or 0
        return f"{'Tap' if isinstance(action, TapAction) else 'Long press'} ({x}, {y})"
    if isinstance(action, FinishAction):
        return "Stop"
    return describe_action(action.model_dump(mode="json", exclude_none=True)).capitalize()


@dataclass(frozen=True)
class Operation:
    """One decision as v2 keeps it: the thought, the operation sentence, and the action as written."""

    thought: str
    operation: str
    action: str


@dataclass(frozen=True)
class Shown:
    """The screen a decision was made on, for the reflection that compares it with the next one."""

    index: int
    screenshot: bytes
    perception: str
    keyboard: bool
    done: Operation


class MobileAgentV2(LLMAgent):
    name = "mobileagent-v2"
    description = (
        "Mobile-Agent-v2: screenshot + OCR texts/icons by coordinates; decision with memory, reflection, "
        "planning; acts by coordinates (needs the ocr extra)."
    )
    needs_screenshot = True
    perception: Perception = "ocr"

    def __init__(
        self, model: str | None = None, *, perception: Perception | None = None, **kwargs: Any
    ) -> None:
        super().__init__(model, **kwargs)
        self.perception = perception or self.perception
        if self.perception == "ocr":
            check_available()

    def perceive(self, observation: Observation) -> tuple[str, list[TextBox]]:
        """The screenshot information list, from the pixels or from the tree, and the lines of text read
        (where Open app looks for an app's label)."""
        if self.perception == "ocr":
            lines = read_text(observation.screenshot_png)
            return "\n".join(ocr_perception(observation, lines)), lines
        return "\n".join(perception_infos(observation)), tree_labels(observation)

    def reset(self, task: TaskView | Task, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)
        self.operations: list[Operation] = []  # the history: operations the reflection judged A
        self.completed = ""
        self.memory_text = ""
        self.failed: Operation | None = None  # the last operation judged B or C (v2's error flag)
        self.shown: Shown | None = None

    def assume_history(self, past: list[PastStep]) -> None:
        """Each past step as an operation the reflection judged A (v2's history): what it did in words and
        the action in v2's grammar. The planning agent's completed contents and the memory are the agent's
        own readings, which no reference gives: they stay empty."""
        self.operations = [Operation("", p.description, v2_action_text(p.action, p.before)) for p in past]

    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        turn = Turn()
        perception, labels = self.perceive(observation)
        keyboard = keyboard_active(observation.elements)
        try:
            if self.reflect(observation, perception, keyboard, history, turn) == "B":
                self.notes[len(history)] = StepNote(reason="automatic Back after a wrong page")
                return turn.result(BackAction())
            messages = self.decision_messages(observation, perception, keyboard)
            reply = ask_as(self, "decision", messages, turn)
            memory = ask_as(
                self,
                "memory",
                [*messages, Message.model(reply), Message.user(render("mobileagent_v2_memory"))],
                turn,
            )
        except LLMError as exc:
            self.shown = None
            return turn.fault(exc)
        self.keep_content(heading(memory, "Important content"))
        parsed = parse_v2_action(reply, allow_shortcuts=self.uses_shortcuts)
        if isinstance(parsed.action, OpenAppAction):
            parsed = open_by_label(parsed, labels)
        done = Operation(
            parsed.reason, one_line(heading(reply, "Operation")), one_line(heading(reply, "Action"))
        )
        self.notes[len(history)] = StepNote(reason=done.operation or parsed.reason)
        self.shown = Shown(len(history), observation.screenshot_png, perception, keyboard, done)
        return turn.result(parsed.action, parsed.error)

    # -- the roles ---------------------------------------------------------------------------------------
    def reflect(
        self, observation: Observation, perception: str, keyboard: bool, history: list[StepRecord], turn: Turn
    ) -> str | None:
        """v2's reflection on the previous decision; returns the verdict. A step that did not execute is
        judged C without a call (nothing on the phone changed)."""
        shown, self.shown = self.shown, None
        if shown is None or not history or history[-1].index != shown.index:
            return None
        if not (history[-1].ok and history[-1].kind in ("gui", "shortcut")):
            self.failed = shown.done
            return "C"
        prompt = render(
            "mobileagent_v2_reflection", width=observation.width, height=observation.height,
            before=shown.perception, after=perception, keyboard_before=keyboard_status(shown.keyboard),
            keyboard_after=keyboard_status(keyboard), goal=self.task.instruction,
            operation=shown.done.operation.split(" to ")[0].strip(), action=shown.done.action,
            hint=render("mobileagent_v2_hint"),
        )  # fmt: skip
        reply = ask_as(
            self, "reflection", [Message.user(prompt, shown.screenshot, observation.screenshot_png)], turn
        )
        verdict = parse_verdict(heading(reply, "Answer"), label="Answer") or parse_verdict(reply)
        if verdict == "A":
            self.operations.append(shown.done)
            self.failed = None
            self.plan(turn)
        elif verdict in ("B", "C"):
            self.failed = shown.done
        if verdict is not None:
            self.notes[shown.index] = judged(self.notes.get(shown.index, StepNote()), verdict)
        return verdict

    def plan(self, turn: Turn) -> None:
        """v2's planning agent: the completed contents, from the operations judged A (text only)."""
        if len(self.operations) > 1:
            prompt = render(
                "mobileagent_v2_planning", goal=self.task.instruction, operations=self.operation_lines(),
                progress=self.completed, hint=render("mobileagent_v2_hint"),
            )  # fmt: skip
        else:
            last = self.operations[-1]
            prompt = render(
                "mobileagent_v2_planning_first", goal=self.task.instruction, thought=last.thought,
                operation=last.operation.split(" to ")[0].strip(), hint=render("mobileagent_v2_hint"),
            )  # fmt: skip
        self.completed = one_line(
            heading(ask_as(self, "planning", [Message.user(prompt)], turn), "Completed contents")
        )

    def decision_messages(self, observation: Observation, perception: str, keyboard: bool) -> list[Message]:
        blocks = {
            "shortcuts": self.shortcut_block(observation),
            "history": render("mobileagent_v2_history", operations=self.operation_lines()) + "\n\n"
            if self.operations
            else "",
            "progress": render("mobileagent_v2_progress", progress=self.completed) + "\n\n"
            if self.completed
            else "",
            "memory": render("mobileagent_v2_memory_block", memory=self.memory_text.rstrip()) + "\n\n"
            if self.memory_text
            else "",
            "last": render("mobileagent_v2_last", operation=self.failed.operation, action=self.failed.action)
            + "\n\n"
            if self.failed
            else "",
        }
        prompt = render(
            "mobileagent_v2_decision", width=observation.width, height=observation.height,
            goal=self.task.instruction, perception=perception or "(nothing)",
            keyboard=keyboard_status(keyboard, typing=True),
            type_action=render("mobileagent_v2_type" if keyboard else "mobileagent_v2_no_type"),
            extra_actions=self.extra_actions(), hint=render("mobileagent_v2_hint"), **blocks,
        )  # fmt: skip
        return [
            Message.system(render("mobileagent_v2_system")),
            Message.user(prompt, observation.screenshot_png),
        ]

    def operation_lines(self) -> str:
        return "\n".join(
            f"Step-{i}: [Operation: {op.operation.split(' to ')[0].strip()}; Action: {op.action}]"
            for i, op in enumerate(self.operations, 1)
        )

    def shortcut_block(self, observation: Observation) -> str:
        """Context after the hint: none for v2; MAS-MobileAgent's shortcut block."""
        return ""

    def extra_actions(self) -> str:
        """Actions beyond v2's six: none for v2; MAS-MobileAgent's shortcut call."""
        return ""

    def keep_content(self, content: str) -> None:
        """v2's memory unit: keep new content the memory call found on the screen."""
        content = content.split("\n\n")[0].strip()
        if content and not is_none(content) and content not in self.memory_text:
            self.memory_text += content + "\n"


class MobileAgentV2Tree(MobileAgentV2):
    name = "mobileagent-v2-tree"
    description = "Mobile-Agent-v2 perceiving from the UI tree instead of OCR (no ocr extra needed)."
    perception: Perception = "tree"
