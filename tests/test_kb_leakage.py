"""The knowledge base gives no answers (docs/formats.md, "Rules for knowledge-base text"), for every
shipped task and shortcut:

- no shortcut's description, parameter descriptions or example contains a value of a task's hybrid
  shortcut calls, or an id or name its check reads, unless the task's instruction states it; the same rule
  flags a generated KB that copies a task's values;
- examples use values no task uses, and no text tells how to finish a task;
- every id a hybrid reference passes is made of the instruction's words or written on a screen the agent
  can reach: one the GUI reference shows, or one a detour off it shows (DETOURS).
"""

from __future__ import annotations

import re

import pytest
from task_helpers import shipped_tasks

from masbench.actions import Action, ScrollAction, Selector, TapAction
from masbench.generation.kbfiles import write_kb
from masbench.generation.replay import task_replays
from masbench.generation.trajectories import Step, Trajectory
from masbench.shortcuts import KnowledgeBase, load_kb
from masbench.tasks import Task
from masbench.tasks.leakage import (
    example_clashes,
    findable,
    hidden_ids,
    kb_dir_leaks,
    kb_leaks,
    kb_texts,
    mentions,
    protected_values,
    screen_texts,
)

SHIPPED = shipped_tasks()
KB = load_kb()


@pytest.mark.parametrize("task", SHIPPED, ids=lambda t: t.id)
def test_no_kb_text_names_a_task_value_the_instruction_does_not_state(task):
    leaks = kb_leaks(KB, [task])
    assert not leaks, "the KB gives this task's answer away:\n" + "\n".join(map(str, leaks))


CLASHES = example_clashes(KB, SHIPPED)


@pytest.mark.parametrize("shortcut", list(KB), ids=lambda s: s.qualified_name)
def test_examples_use_values_no_task_uses(shortcut):
    clashes = [f"{value!r} (task {task})" for name, value, task in CLASHES if name == shortcut.qualified_name]
    assert not clashes, f"{shortcut.qualified_name}: field 'example' uses " + ", ".join(clashes)


# How a text gives task guidance rather than saying what a shortcut does: the sentences issue 25 removed
# ("set them on the results screen", "tap Send", "starring is done on the card") read like these.
ADVICE = re.compile(
    r"\b(tap|then|you can|should|must|make sure|set (?:it|them)|is done on|are done on)\b", re.I
)


@pytest.mark.parametrize("shortcut", list(KB), ids=lambda s: s.qualified_name)
def test_no_text_advises_how_to_finish_a_task(shortcut):
    advice = [f"{field}: {m.group(0)!r} in {text!r}" for field, text in kb_texts(shortcut)
              if (m := ADVICE.search(text))]  # fmt: skip
    assert not advice, f"{shortcut.qualified_name} advises instead of describing:\n" + "\n".join(advice)


def _task(instruction: str, call: str, check: dict) -> Task:
    return Task.model_validate({
        "id": "demo-01", "instruction": instruction, "apps": ["amazon"], "level": 1, "optimal_steps": 2,
        "solutions": {"gui": [{"action": "open_app", "name": "Amazon Shopping"}, {"action": "enter"}],
                      "hybrid": [{"action": "shortcut", "call": call}]},
        "check": check, "rubric": ["done"],
    })  # fmt: skip


def test_the_rule_exempts_what_the_instruction_states_and_reads_numbers_as_numbers():
    task = _task(
        "Find Nike shoes under $200 on Amazon.",
        'amazon.search_product(query="running shoes", brand="Nike", max_price=200, min_price=30, sort="review-rank")',
        {"items": {"app": "amazon", "path": "cart", "where": {"asin": "B0ABCDEF12", "status": "Ordered"}}},
    )
    # stated: Nike and 200 ("$200"); too common to carry an answer: 30; the sort is an enum value (a type);
    # a status is the app's vocabulary, not a name.
    assert protected_values(task, KB) == ["running shoes", "B0ABCDEF12"]
    assert mentions("a price of $200.00", 200) and not mentions("B2001", 200)
    assert mentions("e.g. Running Shoes", "running shoes") and not mentions(
        "frunning shoes2", "running shoes"
    )


def test_a_leak_names_the_shortcut_the_field_and_the_task():
    task = _task("Open a product on Amazon.", 'amazon.open_product(asin="B0ABCDEF12")',
                 {"items": {"app": "amazon", "path": "cart", "count": 1}})  # fmt: skip
    planted = KB["amazon.open_product"].model_copy(update={"description": "Open B0ABCDEF12's page."})
    assert [str(leak) for leak in kb_leaks(KnowledgeBase([planted]), [task])] == [
        "amazon.open_product: field 'description' contains 'B0ABCDEF12', a value of task demo-01 that its "
        "instruction does not state"
    ]


def test_a_generated_kb_that_copies_a_task_value_is_flagged(tmp_path):
    """A task replay of cross-33's reference types the addresses it read in Contacts: as the replay's
    example they would tell an agent whom to mail."""
    task = next(t for t in SHIPPED if t.id == "cross-33")
    steps = tuple(Step(action, "youtube") for action in task.solutions.gui)
    generated = task_replays([Trajectory("run-1", task.id, steps)], {task.id: task.instruction})
    kb_dir = write_kb(generated, tmp_path / "kb")
    leaks = kb_dir_leaks(kb_dir, SHIPPED)
    assert any(
        leak.task == "cross-33" and leak.field == "example" and leak.value == "grace.lee@stanford.edu"
        for leak in leaks
    ), leaks
    clean = [s.model_copy(update={"example": None}) for s in generated]
    assert not kb_dir_leaks(write_kb(clean, tmp_path / "clean"), [task])


# Where an id shows when no screen of the GUI reference has it: (after this many GUI steps, the detour
# that reaches the screen). A video's and a story's id are in their Share sheet's link; a product's ASIN
# is under Product information, further down its page.
SHARE: list[Action] = [TapAction(target=Selector(resource_id="share_button"))]
DOWN: list[Action] = [ScrollAction(direction="down")]
DETOURS: dict[str, tuple[int, list[Action]]] = {
    "youtube-04": (5, SHARE),
    "youtube-05": (5, SHARE),
    "cross-28": (3, SHARE),
    "cross-15": (5, DOWN),
    "cross-18": (4, DOWN),
    "cross-23": (6, DOWN),
}


@pytest.mark.parametrize("task", SHIPPED, ids=lambda t: t.id)
def test_every_id_the_hybrid_passes_is_on_a_screen_the_agent_reaches(device, task):
    wanted = hidden_ids(task, KB)
    if not wanted and task.id not in DETOURS:
        return
    screens = screen_texts(device, task)
    route_misses = [v for v in wanted if not findable(v, screens)]
    if task.id in DETOURS:
        after, detour = DETOURS[task.id]
        screens += screen_texts(device, task, [*task.solutions.gui[:after], *detour])
        assert route_misses, f"the GUI reference shows every id already; drop {task.id} from DETOURS"
    missing = [v for v in wanted if not findable(v, screens)]
    assert not missing, (
        f"the hybrid reference passes {missing}, which no screen shows: show it on one (a share link, a detail "
        "line) and list the detour that reaches it in DETOURS, or pass what the user can know"
    )
