"""`masbench shortcuts generate` (build a KB from runs) and `masbench kb eval` (measure KBs through one
baseline agent, the paper's Table 3)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import typer
import yaml
from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from masbench.generation.protocol import Protocol

kb_app = typer.Typer(
    help="Knowledge bases as a whole: evaluate generated ones against no KB and the predefined one.",
    no_args_is_help=True,
    add_completion=False,
)
METHODS = (
    "task-replay",
    "subtask-replay",
    "dynamic",
    "mobileagent-e",
    "mined-task-replay",
    "mined-subtask-replay",
)
PAPER_ROWS = (
    "replay-task",
    "replay-subtask",
    "dynamic",
    "mobileagent-e",
)  # Table 3 rows a KB may stand beside
REPLAYS = ("task-replay", "subtask-replay", "mined-task-replay", "mined-subtask-replay")
WRITTEN = ("task-replay", "subtask-replay", "dynamic")  # a model writes them from each episode (Appendix C.1)
WHICH_RUNS = (
    "Generation learns from GUI steps: use a run of oracle-gui (`masbench run --agent oracle-gui --kb none`) or "
    "of an LLM agent that acts on the GUI (t3a, m3a); oracle and MAS agents call shortcuts, which cannot be replayed"
)


def _fail(message: str, code: int = 2) -> typer.Exit:
    Console(stderr=True).print(f"[red]error:[/] {message}", highlight=False)
    return typer.Exit(code)


def _protocol(value: str) -> Protocol:
    from masbench.generation.protocol import PROTOCOLS

    for known in PROTOCOLS:
        if value == known:
            return known
    raise typer.BadParameter(f"{value!r}; use {' or '.join(PROTOCOLS)}", param_hint="--protocol")


def generate_command(
    method: str = typer.Argument(..., help=f"Generation method: {', '.join(METHODS)}."),
    runs: list[Path] = typer.Option(
        ..., "--from", help="Run directories whose successful episodes to learn from."
    ),
    out: Path = typer.Option(..., "--out", help="KB directory to write (one YAML file per app)."),
    protocol: str = typer.Option(
        "held-out",
        "--protocol",
        help="held-out (ours, stricter): learn from generation-train runs only; paper: learn from runs on the "
        "evaluated subset (generation-eval), as MAS-Bench does.",
    ),
    tasks_dir: Path | None = typer.Option(
        None, "--tasks-dir", help="Task data directory, if not the shipped one."
    ),
    model: str | None = typer.Option(
        None, "--model", "-m", help="The model that writes the shortcuts (same forms as for run)."
    ),
    targets: str = typer.Option(
        "selectors",
        "--targets",
        help="How replays find what each step touched: selectors (ours: the element, read from the step's UI "
        "dump) or coordinates (the paper's: the point touched).",
    ),
) -> None:
    """Build a shortcut KB from what agents did. As the paper, a model reads each successful episode
    (instruction, actions, the agent's reasoning) and writes task-level or subtask-level action replays, or
    dynamic shortcuts (targets described in words, grounded on the screen at call time); mined-task-replay
    and mined-subtask-replay need no model (whole episodes; step runs that recur); mobileagent-e takes the
    shortcuts a mobileagent-e run learnt (its memory after its last task)."""
    from masbench.generation import load_trajectories, subtask_replays, task_replays, write_kb
    from masbench.generation.protocol import check_generation, source_tasks
    from masbench.shortcuts import KnowledgeBase
    from masbench.tasks import load_tasks

    if method not in METHODS:
        raise _fail(f"unknown method {method!r}; available: {', '.join(METHODS)}")
    chosen = _protocol(protocol)
    if method in WRITTEN and not model:
        raise _fail(f"{method} shortcuts are written by a model: pass --model (mined-task-replay and "
                    "mined-subtask-replay need none)")  # fmt: skip
    if targets not in ("selectors", "coordinates"):
        raise typer.BadParameter(f"{targets!r}; use selectors or coordinates", param_hint="--targets")
    if targets == "coordinates" and method not in REPLAYS:
        raise _fail(f"--targets coordinates is for replays ({', '.join(REPLAYS)}), not {method}")
    tasks = load_tasks(tasks_dir)
    held_out = {t.id for t in tasks.select("generation-eval")}
    trajectories, notes = [], []
    for run in runs:
        if not (run / "results.jsonl").exists():
            raise _fail(f"{run} is not a run directory (no results.jsonl)")
        found, skipped = load_trajectories(run, "coordinates" if targets == "coordinates" else "selectors")
        trajectories += found
        notes += [f"{run.name}/{note}" for note in skipped]
    instructions = {t.id: t.instruction for t in tasks}
    try:
        if method == "mobileagent-e":  # its memory learnt from every task of its chains
            from masbench.generation.learnt import learnt_shortcuts

            shortcuts = [s for run in runs for s in learnt_shortcuts(run)]
            check_generation(chosen, source_tasks(KnowledgeBase(shortcuts)), held_out)
        else:
            check_generation(chosen, {t.task_id for t in trajectories}, held_out)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if method != "mobileagent-e" and not trajectories:
        why = "".join(f"\n  {note}" for note in notes)
        raise _fail(f"no successful, replayable episode in these runs:{why}\n{WHICH_RUNS}", 1)
    if method in WRITTEN:
        from masbench.generation.dynamic import dynamic_shortcuts
        from masbench.generation.written import written_subtask_replays, written_task_replays
        from masbench.llm import make_llm
        from masbench.llm.base import LLMConfigError

        try:
            llm = make_llm(model)
        except LLMConfigError as exc:
            raise _fail(str(exc)) from None
        write = {"task-replay": written_task_replays, "subtask-replay": written_subtask_replays,
                 "dynamic": dynamic_shortcuts}[method]  # fmt: skip
        shortcuts, problems = write(trajectories, instructions, llm)
        notes += problems
    elif method == "mined-task-replay":
        shortcuts = task_replays(trajectories, instructions)
    elif method == "mined-subtask-replay":
        shortcuts = subtask_replays(trajectories)
    if not shortcuts:
        raise _fail(f"no {method} shortcut came out of these runs", 1)
    write_kb(shortcuts, out)
    console = Console()
    console.print(f"{len(shortcuts)} {method} shortcuts from {len(trajectories)} episodes -> {out}")
    for note in notes:
        console.print(f"  skipped {note}", highlight=False)


def record_command(
    out: Path = typer.Option(..., "--out", help="Run directory to write (one episode)."),
    task: str | None = typer.Option(
        None, "--task", help="Start from this task's state and judge it at the end."
    ),
    view: int | None = typer.Option(
        8765,
        "--view",
        help="Serve the browser viewer on this port to drive the phone (0: pick one; -1: none).",
    ),
    tasks_dir: Path | None = typer.Option(
        None, "--tasks-dir", help="Task data directory, if not the shipped one."
    ),
) -> None:
    """Record what you do on a fresh virtual phone (through the browser viewer, or adb) as a run directory
    for `shortcuts generate`; Ctrl-C ends the recording."""
    import signal
    import threading

    from masbench.agents.history import describe_action
    from masbench.device import start_virtual_phones
    from masbench.device.viewer import Viewer
    from masbench.generation.record import record
    from masbench.tasks import load_tasks
    from masbench.trajectory import StepRecord

    chosen = load_tasks(tasks_dir).get(task) if task else None
    if task and chosen is None:
        raise _fail(f"no task {task!r}")
    if (out / "run.json").exists():
        raise _fail(f"{out} already holds a run; choose another --out")
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    with start_virtual_phones(1) as phones:
        device = phones.devices[0]
        viewer = Viewer.of(device, port=view) if view is not None and view >= 0 else None
        where = f"open {viewer.url}" if viewer else f"adb -P {phones.port} -s {device.serial}"
        console = Console(highlight=False)
        console.print(f"recording {device.serial} ({where}); Ctrl-C ends it")

        def show(step: StepRecord) -> None:
            console.print(f"  step {step.index + 1}: {describe_action(step.action or {})}")

        result = record(device, out, chosen, stop, on_step=show)
        if viewer:
            viewer.stop()
    verdict = "" if chosen is None else (" · task check passed" if result.success else " · task check failed")
    Console().print(f"{result.steps} steps -> {out}{verdict}")


@kb_app.command("eval")
def eval_command(
    kbs: list[str] = typer.Argument(
        ...,
        help="Generated KB directories to evaluate, each PATH or ROW=PATH to print the paper's figures for that "
        f"Table 3 row under it (ROW: {', '.join(PAPER_ROWS)}).",
    ),
    agent: str = typer.Option(
        "t3a", "--agent", help="The baseline agent (its MAS variant runs with each KB)."
    ),
    model: str | None = typer.Option(None, "--model", "-m", help="Model of the baseline agent."),
    tasks: str = typer.Option("generation-eval", "--tasks", "-t", help="Tasks to evaluate on."),
    devices: list[str] = typer.Option(["vphone:2"], "--devices", "-d", help="As for masbench run."),
    out: Path = typer.Option(Path("runs/kb-eval"), "--out", "-o", help="Directory for one run per KB."),
    tasks_dir: Path | None = typer.Option(
        None, "--tasks-dir", help="Task data directory, if not the shipped one."
    ),
    protocol: str = typer.Option(
        "held-out",
        "--protocol",
        help="held-out: refuse a KB generated from an evaluated task; paper: evaluate on the subset the KB was "
        "generated from, as MAS-Bench does.",
    ),
    grounding_model: str | None = typer.Option(
        None,
        "--grounding-model",
        help="Model that grounds dynamic shortcuts' described targets at call time (default: --model).",
    ),
) -> None:
    """Run the baseline agent with no KB, the predefined KB and each KB on the same tasks, and compare them in a
    Table-3-shaped table. Each is an ordinary run directory under --out (resumed if it exists)."""
    from masbench.eval.launch import grounding_for
    from masbench.generation.protocol import check_evaluation
    from masbench.shortcuts import load_kb
    from masbench.shortcuts.grounding import check_grounding
    from masbench.tasks import load_tasks

    if agent not in ("t3a",):
        raise _fail(f"the baseline is t3a, whose shortcut-augmented variant is mas-t3a; got {agent!r}")
    selected = {t.id for t in load_tasks(tasks_dir).select(tasks)}
    chosen = _protocol(protocol)
    grounding = grounding_for("mas-t3a", model, grounding_model)  # what `masbench run` grounds with
    rows = [Row("no KB", "t3a", "none", "baseline", None), Row("predefined", "mas-t3a", "predefined", "predefined", len(load_kb()))]  # fmt: skip
    for given in kbs:
        paper_row, _, path = given.partition("=") if given.split("=", 1)[0] in PAPER_ROWS else ("", "", given)
        kb_dir = Path(path)
        try:
            knowledge = load_kb(kb_dir)
            check_grounding(knowledge, grounding, str(kb_dir))
            check_evaluation(chosen, knowledge, str(kb_dir), selected)
        except ValueError as exc:  # KBError included
            raise _fail(str(exc)) from None
        rows.append(Row(kb_dir.name, "mas-t3a", str(kb_dir), paper_row or None, len(knowledge)))
    summaries: dict[str, dict[str, Any]] = {}
    for label, run_agent, kb, _, _ in rows:
        run_dir = out / re.sub(r"[^\w.-]+", "_", label)
        command = [sys.executable, "-m", "masbench.cli", "run", "--agent", run_agent, "--tasks", tasks, "--kb", kb,
                   "--out", str(run_dir), *[a for d in devices for a in ("--devices", d)]]  # fmt: skip
        command += ["--model", model] if model else []
        command += ["--grounding-model", grounding_model] if grounding_model else []
        command += ["--tasks-dir", str(tasks_dir)] if tasks_dir else []
        command += ["--resume"] if (run_dir / "run.json").exists() else []
        Console().print(f"[bold]{label}[/]: {run_agent} --kb {kb}")
        done = subprocess.run(command, capture_output=True, text=True)
        if not (run_dir / "summary.json").exists():
            raise _fail(f"the run for {label} failed:\n{done.stdout[-1500:]}{done.stderr[-1500:]}", 1)
        summaries[label] = json.loads((run_dir / "summary.json").read_text())
    (out / "kb_eval.json").write_text(json.dumps(summaries, indent=2))
    Console().print(table3(summaries, rows))


class Row(NamedTuple):
    """One line of the comparison: a run of `agent` with `kb`, and the paper's row it stands beside."""

    label: str
    agent: str
    kb: str
    paper: str | None  # a key of paper_table3.yaml
    shortcuts: int | None  # the KB's size (Table 8 beside it)


TABLE3 = (("SR", "SR", 3), ("SSR", "SSR", 3), ("MSRS", "MSRS", 3), ("MSC", "MSC", 2), ("MET (s)", "MET", 1),
          ("MToC (k)", "MToC", 1), ("GSAR", "GSAR", 3))  # fmt: skip


def paper_table3() -> dict[str, dict[str, float]]:
    """The paper's Table 3 rows and Table 8 counts (paper_table3.yaml says how its columns were read)."""
    rows: dict[str, dict[str, float]] = yaml.safe_load(
        (resources.files("masbench.generation") / "paper_table3.yaml").read_text("utf-8")
    )
    return rows


def _cells(m: dict[str, Any], shortcuts: object, episodes: object) -> list[str]:
    return [str(shortcuts), str(episodes)] + [
        "-" if m.get(key) is None else f"{m[key]:.{digits}f}" for _, key, digits in TABLE3
    ]


def table3(summaries: dict[str, dict[str, Any]], rows: list[Row]) -> Table:
    """One line per KB in the paper's Table 3 columns, the paper's figures under each (dim), its Human row
    first; `shortcuts` is the KB's size, beside the paper's Table 8 count."""
    paper = paper_table3()
    table = Table(title="Shortcut knowledge bases through the baseline agent", header_style="bold")
    for header in ("KB", "shortcuts", "N", *(h for h, _, _ in TABLE3)):
        table.add_column(header, justify="left" if header == "KB" else "right")
    table.add_row("Human · paper", *_cells(paper["human"], "-", "-"), style="dim")
    for row in rows:
        m = summaries[row.label].get("overall") or {}
        table.add_row(
            row.label, *_cells(m, row.shortcuts if row.shortcuts is not None else "-", m.get("episodes", 0))
        )
        if row.paper is not None:
            reference = paper[row.paper]
            table.add_row(
                f"  {row.paper} · paper",
                *_cells(reference, reference.get("shortcuts", "-"), "-"),
                style="dim",
            )
    return table
