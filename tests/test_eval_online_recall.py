"""Online retrieval recall recorded as each step is made (`StepRecord.reference_offered`): whether the
shortcut the reference calls next was offered to the MAS agent at that step; the summary reads it from the
records, and recomputes it from the saved screens only for runs recorded without it."""

from __future__ import annotations

from pathlib import Path

from test_agents_exposure import FINISH, KB, TASK, Script, call

from masbench.agents.mas_t3a import MasT3AAgent
from masbench.agents.retrieval import ShortcutRetriever
from masbench.agents.t3a import T3AAgent
from masbench.device import Device
from masbench.eval.diagnostics import online_recall, read_steps
from masbench.eval.episode import EpisodeSettings, Limits, run_episode
from masbench.llm import ScriptedLLM
from masbench.shortcuts import ShortcutExecutor


def play(device: Device, tmp_path: Path, agent):
    result = run_episode(
        device, TASK, agent, EpisodeSettings(Limits(12, 120.0), save_screens=True),
        kb=KB, shortcuts=ShortcutExecutor(KB, device), run_dir=tmp_path,
    )  # fmt: skip
    steps = read_steps(tmp_path / result.trajectory / "steps.jsonl")
    assert steps is not None
    return tmp_path / result.trajectory, steps


def test_each_step_records_whether_the_references_next_shortcut_was_offered(device, tmp_path):
    # a wrong shortcut first (not offered: refused), then the reference: search_product, then two taps
    agent = MasT3AAgent(llm=ScriptedLLM(Script(device, [call("amazon.open_cart")])))
    episode_dir, steps = play(device, tmp_path, agent)
    assert [s.reference_offered for s in steps[:3]] == [True, True, None]  # none left after the call
    assert steps[1].kind == "shortcut" and steps[1].ok
    retriever = ShortcutRetriever(KB)
    assert online_recall(TASK, steps, episode_dir, retriever) == (2, 2)
    unrecorded = [s.model_copy(update={"reference_offered": None}) for s in steps]  # a run from before
    assert online_recall(TASK, unrecorded, episode_dir, retriever) == (2, 2)  # recomputed: the same
    assert online_recall(TASK, unrecorded, episode_dir, None) == (0, 0)


class Hiding(MasT3AAgent):
    """MAS-T3A whose retrieval never shows the reference's shortcut (its call still runs)."""

    def offered(self, observation):
        shown = [s for s in super().offered(observation) if s.qualified_name != "amazon.search_product"]
        self.offered_now = {s.qualified_name for s in shown}
        return shown


def test_a_shortcut_the_agent_was_not_offered_is_a_miss(device, tmp_path):
    episode_dir, steps = play(device, tmp_path, Hiding(llm=ScriptedLLM(Script(device, []))))
    assert [s.reference_offered for s in steps[:2]] == [False, None]
    assert online_recall(TASK, steps, episode_dir, None) == (0, 1)


def test_a_gui_only_agent_records_nothing(device, tmp_path):
    home = 'Reason: x.\nAction: {"action_type": "navigate_home"}'
    replies = iter([home, "Went home.", FINISH])
    _, steps = play(device, tmp_path, T3AAgent(llm=ScriptedLLM(lambda messages: next(replies))))
    assert steps and all(s.reference_offered is None for s in steps)
