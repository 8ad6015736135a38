"""`m3a`: AndroidWorld's multimodal agent. The action call sees the screenshot twice - plain, and with
set-of-marks boxes numbered like the element list - plus the elements' concise records; the summary
call sees the marked screenshots before and after the step, labelled so, with both element lists."""

from __future__ import annotations

from typing import TYPE_CHECKING

from masbench.llm import Message

from .androidworld import NO_ELEMENTS, Decision
from .androidworld_screen import concise_record, screen
from .marks import draw_marks, label_corner, png
from .t3a import T3AAgent

if TYPE_CHECKING:
    from PIL import Image

    from masbench.device import Observation

M3A_INPUTS = (
    "the current screenshot, the same screenshot with a numbered box on each UI element, and details of "
    "some of those elements under the same numbers"
)


def marked(observation: Observation) -> Image.Image:
    """The set-of-marks screenshot: the elements AndroidWorld shows, boxed and numbered."""
    assert observation.screenshot is not None, "m3a needs observations with a screenshot"
    return draw_marks(observation.screenshot, screen(observation).shown)


class M3AAgent(T3AAgent):
    name = "m3a"
    description = (
        "AndroidWorld M3A: screenshot + set-of-marks screenshot + element details -> one action, then a "
        "summary call on the marked before/after screenshots."
    )
    needs_screenshot = True
    inputs = M3A_INPUTS
    action_template = "m3a_action"
    summary_template = "m3a_summary"
    step_label = "Step {n}- "

    def elements(self, observation: Observation) -> str:
        """Every element AndroidWorld shows, as its short record."""
        return "\n".join(concise_record(el) for el in screen(observation).shown) or NO_ELEMENTS

    def action_messages(self, observation: Observation, history_text: str) -> list[Message]:
        assert observation.screenshot_png, "m3a needs observations with a screenshot"
        return [
            Message.user(
                self.action_prompt(observation, history_text),
                observation.screenshot_png,
                png(marked(observation)),
            )
        ]

    def summary_messages(self, decision: Decision, after: Observation) -> list[Message]:
        before_image = png(label_corner(marked(decision.before), "before"))
        after_image = png(label_corner(marked(after), "after"))
        return [Message.user(self.summary_prompt(decision, after), before_image, after_image)]
