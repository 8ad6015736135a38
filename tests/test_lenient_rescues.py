"""Leniency on record: a reply only the lenient parser reads is marked, counted per episode and shown."""

from __future__ import annotations

from masbench.actions import BackAction
from masbench.agents.parsing import ParsedAction, parse_in_mode
from masbench.eval.metrics import Metrics
from masbench.eval.table import diagnostic_cells


def strict(text: str) -> ParsedAction:
    return ParsedAction(BackAction()) if text == "back" else ParsedAction(None, "not the exact form")


def lenient(text: str) -> ParsedAction:
    return ParsedAction(BackAction()) if "back" in text.lower() else ParsedAction(None, "no action")


def test_strict_mode_refuses_what_only_the_lenient_parser_reads():
    assert parse_in_mode("Go BACK", "strict", strict, lenient).action is None


def test_lenient_mode_marks_a_rescue_and_only_a_rescue():
    rescued = parse_in_mode("Go BACK", "lenient", strict, lenient)
    assert rescued.action == BackAction() and rescued.rescued
    assert not parse_in_mode("back", "lenient", strict, lenient).rescued
    unusable = parse_in_mode("forward", "lenient", strict, lenient)
    assert unusable.action is None and not unusable.rescued


def test_diagnostics_show_the_rescued_replies_of_a_model_run():
    m = Metrics(episodes=2, tasks=2, SR=0.5, MS=3, MS_success=3, MSR=1, MSRS=1, MET=1, MET_device=None, MToC=1,
                MToC_judge=0, MSC=0, SSR=None, GSAR=None, invalid_rate=0, calls_per_step=2.0,
                prompt_tokens_per_step=100, rescued_steps=3, successes_with_rescue=1)  # fmt: skip
    cells = dict(diagnostic_cells(m))
    assert cells["replies rescued by lenient parser"] == "3"
    assert cells["successes with a rescued reply"] == "1"
