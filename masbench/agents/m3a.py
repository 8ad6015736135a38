"""`m3a`: AndroidWorld's multimodal agent, with this project's prompts. The model sees the screenshot
twice - plain, and with set-of-marks boxes numbered like the element list - plus the list itself, and
answers one action per step (history instead of a summary call, as in `t3a`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from masbench.llm import Message

from .marks import draw_marks, png
from .t3a import T3AAgent

if TYPE_CHECKING:
    from masbench.device import Observation
    from masbench.trajectory import StepRecord


class M3AAgent(T3AAgent):
    name = "m3a"
    description = (
        "AndroidWorld M3A: screenshot + set-of-marks screenshot + element list -> one GUI action per call."
    )
    needs_screenshot = True
    system_template = "m3a_system"
    step_template = "m3a_step"

    def messages(self, observation: Observation, history: list[StepRecord]) -> list[Message]:
        assert observation.screenshot is not None, "m3a needs observations with a screenshot"
        marked = png(draw_marks(observation.screenshot, observation.elements))
        return [
            Message.system(self.system_text()),
            Message.user(self.step_text(observation, history), observation.screenshot_png, marked),
        ]
