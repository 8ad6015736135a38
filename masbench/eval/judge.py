"""An LLM judge in the style of SPA-Bench: did the episode complete the task?

The judge sees what a person reviewing the run would: the instruction, the task's rubric as numbered key
requirements, a numbered textual trajectory (each action in words; shortcut calls with their name,
arguments and outcome; invalid steps marked) and the last one or two screenshots. It answers
`{"success": true|false, "reason": "..."}`. This is how success is decided on real devices, where the
programmatic check cannot read app state; on virtual phones both run, which measures the judge.

A judge never ends a run: an answer nobody can read is a `success=False` verdict with the reason recorded;
a call that fails (`LLMError`) is a verdict with `failed` set, which the episode treats as an outage, not as
the agent's failure. Its calls are accounted in a `Usage` exactly as the agents account theirs.
"""

from __future__ import annotations

import functools
import json
import re
import string
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from masbench.actions import parse_action
from masbench.catalog import BY_PACKAGE
from masbench.llm import LLMError, Message, Usage
from masbench.tasks.player import describe_action

if TYPE_CHECKING:
    from masbench.llm import LLM
    from masbench.tasks import Task
    from masbench.trajectory import StepRecord

MAX_SCREENSHOTS = 2
MAX_OUTPUT_TOKENS = 1024
SYSTEM = "You are a careful, impartial evaluator of mobile phone agents. You answer in JSON."
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
_LOOSE = re.compile(r"[\"']?success[\"']?\s*[:=]\s*[\"']?(true|false|yes|no)\b", re.IGNORECASE)
_LOOSE_REASON = re.compile(r"[\"']?reason[\"']?\s*[:=]\s*[\"']?([^\"'\n}]+)", re.IGNORECASE)


@dataclass
class Verdict:
    success: bool
    reason: str
    usage: Usage = field(default_factory=Usage)
    raw: str = ""
    failed: bool = False  # the judge could not be asked: no verdict at all


@functools.cache
def template() -> string.Template:
    path = resources.files("masbench.eval") / "prompts" / "judge.txt"
    return string.Template(path.read_text(encoding="utf-8"))


def _app(foreground: str | None) -> str:
    package = (foreground or "").split("/", 1)[0]
    info = BY_PACKAGE.get(package)
    return info.label if info is not None else package


def describe_step(record: StepRecord) -> str:
    """One step in words: `tap index=5 (in Settings) -> done`, `shortcut settings.open_wifi() -> FAILED: ...`."""
    action: dict[str, Any] | None = record.action
    where = f" (in {app})" if (app := _app(record.foreground)) else ""
    if action is None:
        return f"INVALID: the agent gave no usable action ({record.error or 'unusable output'})"
    if action.get("action") == "shortcut":
        args = ", ".join(
            f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in action.get("arguments", {}).items()
        )
        text = f"shortcut call {action.get('name')}({args}){where}"
        outcome = "succeeded" if record.ok else f"FAILED: {record.error or 'unknown reason'}"
        return f"{text} -> {outcome}"
    try:
        text = describe_action(parse_action(action))
    except Exception:  # an action this version cannot re-read is shown as it was stored
        text = json.dumps(action, ensure_ascii=False)
    if record.kind == "invalid":
        return f"INVALID (not executed): {text}{where}: {record.error or 'unknown reason'}"
    if record.kind == "finish":
        return f"{text}{where}"
    return f"{text}{where} -> " + ("done" if record.ok else f"failed: {record.error or 'unknown error'}")


def render_trajectory(steps: list[StepRecord]) -> str:
    if not steps:
        return "(the agent took no steps)"
    return "\n".join(f"{i}. {describe_step(s)}" for i, s in enumerate(steps, 1))


def parse_verdict(text: str) -> tuple[bool, str] | None:
    """`(success, reason)` from a JSON answer, tolerating code fences, prose around it and loose forms;
    None when no verdict can be read."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for chunk in candidates:
        for start in [i for i, c in enumerate(chunk) if c == "{"]:
            try:
                data, _ = decoder.raw_decode(chunk, start)
            except ValueError:
                continue
            if isinstance(data, dict) and "success" in data:
                value = _as_bool(data["success"])
                if value is not None:
                    return value, str(data.get("reason") or "").strip()
    loose = _LOOSE.search(text)
    if loose is None:
        return None
    reason = _LOOSE_REASON.search(text)
    return loose.group(1).lower() in ("true", "yes"), reason.group(1).strip() if reason else ""


def _as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "false", "no"):
        return value.strip().lower() in ("true", "yes")
    return None


class Judge:
    """Asks `llm` whether an episode met its task's rubric."""

    def __init__(self, llm: LLM) -> None:
        self.llm = llm

    @property
    def name(self) -> str:
        return self.llm.name

    def messages(
        self,
        task: Task,
        steps: list[StepRecord],
        final_screenshots: list[bytes],
        *,
        ending: str = "the agent declared it finished",
        answer: str | None = None,
    ) -> list[Message]:
        shots = [s for s in final_screenshots if s][-MAX_SCREENSHOTS:]
        if len(shots) == 2:
            screens = "two screenshots show the phone before the agent's last step and in its final state"
        elif shots:
            screens = "screenshot shows the final state of the phone"
        else:
            screens = "screenshots are missing: judge from the steps alone"
        text = template().substitute(
            instruction=task.instruction,
            rubric="\n".join(f"{i}. {r}" for i, r in enumerate(task.rubric, 1)),
            trajectory=render_trajectory(steps),
            ending=ending,
            answer=f"The agent's answer to the user: {answer}\n" if answer else "",
            screens=screens,
        )
        return [Message.system(SYSTEM), Message.user(text, *shots)]

    def judge(
        self,
        task: Task,
        steps: list[StepRecord],
        final_screenshots: list[bytes],
        *,
        ending: str = "the agent declared it finished",
        answer: str | None = None,
    ) -> Verdict:
        usage = Usage()
        try:
            messages = self.messages(task, steps, final_screenshots, ending=ending, answer=answer)
            response = self.llm.generate(messages, temperature=0.0, max_output_tokens=MAX_OUTPUT_TOKENS)
        except (LLMError, ValueError) as exc:  # ValueError: a screenshot that is neither PNG nor JPEG
            return Verdict(False, f"judge call failed: {exc}", usage, "", failed=True)
        usage.add(response)
        parsed = parse_verdict(response.text)
        if parsed is None:
            snippet = " ".join(response.text.split())[:200]
            return Verdict(False, f"unparsable judge answer: {snippet!r}", usage, response.text)
        success, reason = parsed
        return Verdict(success, reason or ("success" if success else "failure"), usage, response.text)
