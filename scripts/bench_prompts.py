"""What one step of each model agent costs: model calls and prompt tokens, on real task screens.

For each task, a virtual phone is put in the task's initial state and half of the GUI reference is
played, so the screen is a typical mid-task one; then each agent takes two steps there (the second with
the first recorded as done), answered by a canned reply every role can parse. The first step shows the
opening cost, the second the steady state (summaries, reflections, planning). Tokens are estimates: text
at 4 characters a token, images by Gemini 2.x's tile rule (the paper's model: 258 tokens per 768-px tile,
2,064 for a 1080x2400 screenshot) and, in the last column, by the common OpenAI tile rule (85 + 170 per
512-px tile) for an OpenAI-compatible server (`masbench.llm.image_tokens`).

    python scripts/bench_prompts.py [--tasks all] [--limit 12]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

import yaml

from masbench.agents import AGENTS, make_agent
from masbench.device import start_virtual_phones
from masbench.llm.scripted import estimate_input_tokens
from masbench.tasks import load_tasks
from masbench.tasks.player import play
from masbench.trajectory import StepRecord

# one reply in every agent's format: AndroidWorld's Action line, v2's headings, Mobile-Agent-E's fields
CANNED = """### Thought ###
Looking at the screen.
### Action ###
Tap (540, 1200)
### Operation ###
tap the middle of the screen
### Answer ###
A
### Completed contents ###
part of the task
### Important content ###
None
Reason: waiting for the screen.
Plan: 1. continue
Current subgoal: continue with the task
Outcome: A
Progress status: on track
Important notes: None
Action: {"action_type": "wait"}"""
# Mobile-Agent-E reads "Label:" parts, its Operator the JSON of "Action:": a reply of its own, every role's
CANNED_FOR = {
    "mobileagent-e": """### Thought: Looking at the screen.
### Plan: 1. continue
### Current subgoal: continue with the task
### Action: {"action": "wait", "seconds": 1}
### Description: wait for the screen
### Outcome: A
### Error description: None
### Progress status: on track
### Important notes: None"""
}
# AndroidWorld's published per-step prompt sizes on its own screens (action call, summary call)
ANDROIDWORLD_T3A = "~7k + ~12k"


def measure(agent_name: str, tasks, device, kb, script: Path) -> tuple[float, float, float, float]:
    """(calls per steady step, prompt tokens of the first step, of a steady step, of a steady step under
    OpenAI's image rule), means over tasks."""
    first, steady, steady_openai, calls = [], [], [], []
    for task in tasks:
        play(device, task, task.solutions.gui[: len(task.solutions.gui) // 2])  # prepares, then plays
        agent = make_agent(agent_name, f"scripted:{script}")
        llm = agent.llm
        agent.reset(task.view(), kb)
        obs = device.observe()
        one = agent.step(obs, [])
        sent_first = sum(estimate_input_tokens(r) for r in llm.requests)
        llm.requests.clear()
        done = StepRecord(
            index=0, action=one.action.model_dump() if one.action else None, kind="gui", ok=True
        )
        agent.step(device.observe(), [done])
        first.append(sent_first)
        steady.append(sum(estimate_input_tokens(r) for r in llm.requests))
        steady_openai.append(sum(estimate_input_tokens(r, "openai") for r in llm.requests))
        calls.append(len(llm.requests))
    return (
        statistics.mean(calls),
        statistics.mean(first),
        statistics.mean(steady),
        statistics.mean(steady_openai),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="single-app")
    parser.add_argument("--limit", type=int, default=12, help="tasks measured (spread over the subset)")
    args = parser.parse_args()
    from masbench.shortcuts import load_kb

    tasks = load_tasks().select(args.tasks)
    tasks = tasks[:: max(1, len(tasks) // args.limit)][: args.limit]
    kb = load_kb()
    # a -lenient variant sends the same prompts as its agent
    names = [n for n, spec in AGENTS.items() if spec.needs_model and not n.endswith("-lenient")]
    print(f"{len(tasks)} tasks; prompt tokens per step (estimated; images by Gemini's tiles, last: OpenAI's)")
    print(f"{'agent':22} {'calls/step':>10} {'first step':>11} {'steady step':>12} {'steady, OpenAI':>15}")
    with start_virtual_phones(1) as phones, tempfile.TemporaryDirectory() as scratch:
        device = phones.devices[0]
        for name in names:
            script = Path(scratch) / f"{name}.yaml"
            script.write_text(yaml.safe_dump([CANNED_FOR.get(name, CANNED)] * 20))
            try:
                calls, first, steady, steady_openai = measure(name, tasks, device, kb, script)
            except ValueError as exc:  # e.g. the ocr extra missing
                print(f"{name:22} skipped: {exc}")
                continue
            print(f"{name:22} {calls:>10.1f} {first:>11,.0f} {steady:>12,.0f} {steady_openai:>15,.0f}")
    print(f"AndroidWorld T3A, published: 2 calls/step, {ANDROIDWORLD_T3A} tokens")


if __name__ == "__main__":
    main()
