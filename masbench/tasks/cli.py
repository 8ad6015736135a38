"""`masbench tasks ...`: list, show, count, verify and play the benchmark's tasks."""

from __future__ import annotations

import json
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer
import yaml
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from masbench.actions import Action

from .loader import load_tasks
from .player import VerifyReport, describe_action, summarize
from .routes import DEFAULT_BUDGET
from .schema import Task
from .stats import task_stats
from .taskset import TaskError, TaskSet

tasks_app = typer.Typer(
    help="The benchmark's tasks: list them, show one, count them, verify their reference solutions.",
    no_args_is_help=True,
)

TASKS_DIR = typer.Option(
    None, "--tasks-dir", envvar="MASBENCH_TASKS_DIR", help="Task directory (default: the checkout's tasks/)."
)
SUBSET_HELP = (
    "Subset (all, single-app, cross-app, level-1..3, generation-eval, an app such as amazon: its single-app "
    "tasks, uses:amazon: every task using it) or comma-separated task ids."
)


class Format(StrEnum):
    table = "table"
    json = "json"


def _load(tasks_dir: Path | None) -> TaskSet:
    try:
        return load_tasks(tasks_dir)
    except TaskError as exc:
        for line in exc.errors:
            Console(stderr=True).print(f"[red]error:[/red] {line}", highlight=False, markup=True)
        raise typer.Exit(2) from exc


def _select(task_set: TaskSet, subset: str) -> list[Task]:
    try:
        return task_set.select(subset)
    except TaskError as exc:
        raise typer.BadParameter(str(exc), param_hint="SUBSET") from exc


@tasks_app.command("list")
def list_command(
    subset: str = typer.Option("all", "--tasks", "-t", help=SUBSET_HELP),
    fmt: Format = typer.Option(Format.table, "--format", "-f", help="table or json."),
    tasks_dir: Path | None = TASKS_DIR,
) -> None:
    """List tasks: id, kind, apps, level, step counts and instruction."""
    console = Console()
    tasks = _select(_load(tasks_dir), subset)
    rows: list[dict[str, Any]] = [
        {
            "id": t.id,
            "kind": t.kind,
            "apps": t.apps,
            "level": t.level,
            "optimal_steps": t.optimal_steps,
            "hybrid_steps": len(t.solutions.hybrid),
            "instruction": t.instruction,
        }
        for t in tasks
    ]
    if fmt is Format.json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    table = Table(title=f"{len(rows)} tasks", title_justify="left")
    for col, kw in (("id", {"no_wrap": True}), ("kind", {}), ("apps", {}), ("level", {"justify": "right"}),
                    ("steps", {"justify": "right"}), ("hybrid", {"justify": "right"}), ("instruction", {"ratio": 1})):  # fmt: skip
        table.add_column(col, **kw)
    for r in rows:
        table.add_row(r["id"], r["kind"], ", ".join(r["apps"]), str(r["level"]), str(r["optimal_steps"]),
                      str(r["hybrid_steps"]), Text(r["instruction"]))  # fmt: skip
    console.print(table)


@tasks_app.command("show")
def show_command(
    task_id: str = typer.Argument(..., metavar="ID", help="Task id."),
    fmt: str = typer.Option("text", "--format", "-f", help="text, yaml or json."),
    tasks_dir: Path | None = TASKS_DIR,
) -> None:
    """Everything about one task: instruction, initial state, both solutions, check, rubric, near misses."""
    console = Console()
    task_set = _load(tasks_dir)
    try:
        task = task_set.get(task_id)
    except TaskError as exc:
        raise typer.BadParameter(str(exc), param_hint="ID") from exc
    data = task.model_dump(mode="json", by_alias=True, exclude_none=True)
    if fmt == "json":
        typer.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return
    if fmt == "yaml":
        typer.echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
        return
    if fmt != "text":
        raise typer.BadParameter("use text, yaml or json", param_hint="--format")
    state = task.initial_state
    console.print(f"[bold]{task.id}[/bold]  {task.kind}, level {task.level}, apps: {', '.join(task.apps)}")
    console.print(task.instruction, highlight=False)
    console.print(
        f"\n[bold]initial state[/bold]  seed {state.seed}, clock {state.clock.isoformat() if state.clock else 'default'}",
        highlight=False,
    )
    if state.setup:
        console.print(
            yaml.safe_dump(data["initial_state"]["setup"], sort_keys=False).rstrip(), highlight=False
        )
    for name, steps in (("GUI-only", task.solutions.gui), ("hybrid", task.solutions.hybrid)):
        console.print(f"\n[bold]{name} solution[/bold] ({len(steps)} steps)")
        for i, step in enumerate(steps):
            console.print(f"  {i:>2}  {describe_action(step)}", highlight=False, markup=False)
    console.print("\n[bold]check[/bold]")
    console.print(
        yaml.safe_dump(data["check"], sort_keys=False, allow_unicode=True).rstrip(),
        highlight=False,
        markup=False,
    )
    console.print("\n[bold]rubric[/bold]")
    for line in task.rubric:
        console.print(f"  - {line}", highlight=False, markup=False)
    if task.near_misses:
        console.print("\n[bold]near misses[/bold] (must fail the check)")
        for miss in task.near_misses:
            changes = [f"step(s) {', '.join(map(str, miss.replace))} replaced"] if miss.replace else []
            changes += [f"steps inserted before {', '.join(map(str, miss.insert))}"] if miss.insert else []
            how = (
                f"{miss.from_} with {' and '.join(changes)}"
                if miss.from_
                else f"{len(miss.actions or [])} steps"
            )
            console.print(f"  - {miss.name} ({miss.kind}): {how}", highlight=False, markup=False)


@tasks_app.command("stats")
def stats_command(
    subset: str = typer.Option("all", "--tasks", "-t", help=SUBSET_HELP),
    fmt: Format = typer.Option(Format.table, "--format", "-f", help="table or json."),
    tasks_dir: Path | None = TASKS_DIR,
) -> None:
    """Counts per app and level, and mean optimal (GUI-only) steps per level and kind."""
    console = Console()
    stats = task_stats(_select(_load(tasks_dir), subset))
    if fmt is Format.json:
        typer.echo(stats.model_dump_json(indent=1))
        return
    apps = Table(
        title=f"{stats.total} tasks per app (a cross-app task counts for each of its apps)",
        title_justify="left",
    )
    for col in ("app", "single-app", "cross-app", "level 1", "level 2", "level 3"):
        apps.add_column(col, justify="left" if col == "app" else "right")
    for app, s in stats.by_app.items():
        apps.add_row(app, str(s.single_app), str(s.cross_app), *(str(s.by_level[lv]) for lv in (1, 2, 3)))
    console.print(apps)
    groups = Table(
        title="per level and kind, beside MAS-Bench's own figures",
        title_justify="left",
    )
    for col in ("group", "tasks", "share", "paper", "steps", "paper", "gap", "hybrid"):
        groups.add_column(col, justify="left" if col == "group" else "right")

    def num(value: float | None, form: str = ".1f") -> str:
        return "-" if value is None else format(value, form)

    for label, g in [*((f"level {lv}", g) for lv, g in stats.by_level.items()), *stats.by_kind.items()]:
        paper = g.paper
        paper_size = (
            "-" if paper is None else f"{paper.share:.0%}" if paper.share is not None else str(paper.tasks)
        )
        size = f"{g.share:.0%}" if paper is None or paper.share is not None else str(g.tasks)
        groups.add_row(
            label,
            str(g.tasks),
            size,
            paper_size,
            num(g.mean_optimal_steps),
            num(paper.steps if paper else None),
            num(g.steps_gap(), "+.0%"),
            num(g.mean_hybrid_steps),
        )
    console.print(groups)
    console.print(
        "share/paper: share of all tasks (levels) or task count (kinds); steps: mean optimal GUI-only steps; "
        "gap: steps against the paper's; hybrid: mean steps of the hybrid reference solutions."
    )


def _phone_count(devices: str) -> int:
    from masbench.device import parse_vphone_spec

    count = parse_vphone_spec(devices)
    if count is None or count < 1:
        raise typer.BadParameter(
            "verify replays on virtual phones (checks read their state): use vphone or vphone:N",
            param_hint="--devices",
        )
    return count


@tasks_app.command("verify")
def verify_command(
    subset: str = typer.Argument("all", metavar="[SUBSET]", help=SUBSET_HELP),
    devices: str = typer.Option(
        "vphone:1", "--devices", "-d", help="vphone:N - N virtual phones, one worker each."
    ),
    kb_dir: Path | None = typer.Option(
        None,
        "--kb-dir",
        envvar="MASBENCH_KB_DIR",
        help="Shortcut KB directory (default: the checkout's shortcuts_kb/).",
    ),
    tasks_dir: Path | None = TASKS_DIR,
    show_all: bool = typer.Option(False, "--all", help="List passing tasks too, not only failures."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Print every failed rule in full."),
) -> None:
    """Replay both reference solutions of each task on virtual phones; check that they pass and that
    doing nothing and every near miss fail. Exit status 1 if any task fails."""
    console = Console()
    from masbench.device import start_virtual_phones
    from masbench.shortcuts import load_kb

    from .verify import verify_tasks

    count = _phone_count(devices)
    tasks = _select(_load(tasks_dir), subset)
    try:
        kb = load_kb(kb_dir)
    except ValueError as exc:  # the KB loader's errors name the file, entry and field
        Console(stderr=True).print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc
    if not tasks:
        console.print("no tasks selected")
        return
    progress = Progress(
        TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("{task.description}"),
        console=console, transient=True,
    )  # fmt: skip
    with start_virtual_phones(min(count, len(tasks))) as phones, progress:
        bar = progress.add_task("", total=len(tasks))

        def advance(report: VerifyReport) -> None:
            progress.update(
                bar, advance=1, description=f"{report.task_id} {'ok' if report.passed else 'FAIL'}"
            )

        reports = verify_tasks(tasks, phones.devices, kb, on_report=advance)
    _print_reports(reports, show_all, verbose)
    if any(not r.passed for r in reports):
        raise typer.Exit(1)


def _print_reports(reports: list[VerifyReport], show_all: bool, verbose: bool) -> None:
    console = Console()
    failed = [r for r in reports if not r.passed]
    shown = reports if show_all else failed
    if shown:
        table = Table(title_justify="left")
        table.add_column("task", no_wrap=True)
        table.add_column("result")
        table.add_column("seconds", justify="right")
        table.add_column("reason", ratio=1)
        for r in shown:
            verdict = "[green]pass[/green]" if r.passed else "[red]FAIL[/red]"
            table.add_row(
                r.task_id, verdict, f"{r.duration_s:.2f}", Text(summarize(r) if not r.passed else "")
            )
        console.print(table)
    for report in failed if verbose else []:
        console.print(f"[bold]{report.task_id}[/bold]")
        for line in report.failures:
            console.print(Text(f"  - {line}"))
    colour = "red" if failed else "green"
    console.print(f"[{colour}]{len(reports) - len(failed)}/{len(reports)} tasks verified[/{colour}]")


@tasks_app.command("routes")
def routes_command(
    task_ids: list[str] = typer.Argument(None, metavar="[TASK]...", help="Task ids (or --all)."),
    every: bool = typer.Option(False, "--all", help="Search every task."),
    max_depth: int | None = typer.Option(
        None,
        "--max-depth",
        min=0,
        help="Longest route tried (default: optimal_steps - 1, which proves it minimal).",
    ),
    budget: int = typer.Option(
        DEFAULT_BUDGET, "--budget", min=1, help="Moves tried per task before giving up."
    ),
    splice: int = typer.Option(
        0,
        "--splice",
        min=0,
        help="Also try routes of up to N moves from each state of the reference, spliced in where they "
        "reach a later state sooner (finds shorter routes in tasks too long to search whole).",
    ),
    over_adb: bool = typer.Option(
        False,
        "--over-adb",
        help="Drive a virtual phone served over ADB, a round trip per move, instead of one in this process "
        "(the same search and verdicts, tens of times slower: the cross-check of the in-process path).",
    ),
    tasks_dir: Path | None = TASKS_DIR,
) -> None:
    """Breadth-first search over distinct screens for the shortest GUI route that passes each task's check,
    typing only strings from the instruction. Prints any route found as a `solutions.gui` list; exit
    status 1 if one is shorter than the task's optimal_steps."""
    from masbench.device import Device, InProcessPhone, open_in_process_phone, start_virtual_phones

    from .routes import route_yaml, search_routes, shorten_reference

    console = Console()
    task_set = _load(tasks_dir)
    if every == bool(task_ids):
        raise typer.BadParameter("give task ids or --all (not both)", param_hint="TASK")
    try:
        tasks = list(task_set) if every else [task_set.get(t) for t in task_ids]
    except TaskError as exc:
        raise typer.BadParameter(str(exc), param_hint="TASK") from exc
    shorter = False
    with ExitStack() as running:
        phone: Device | InProcessPhone = (
            running.enter_context(start_virtual_phones(1)).devices[0] if over_adb else open_in_process_phone()
        )
        for task in tasks:
            found = search_routes(phone, task, max_depth, budget)
            shorter |= found.route is not None and len(found.route) < task.optimal_steps
            console.print(
                f"[bold]{task.id}[/bold] {found.verdict}  ({found.states} states, {found.observed} moves, "
                f"{found.seconds:.1f} s)",
                highlight=False,
                soft_wrap=True,
            )
            if found.route is not None:  # unwrapped, so it can be pasted into the task
                console.print(route_yaml(found.route), highlight=False, markup=False, soft_wrap=True)
            if not splice:
                continue
            spliced = shorten_reference(phone, task, splice, budget)
            if spliced.route is not None:
                shorter = True
                console.print(
                    f"[bold]{task.id}[/bold] spliced route of {len(spliced.route)} steps", highlight=False
                )
                console.print(route_yaml(spliced.route), highlight=False, markup=False, soft_wrap=True)
            else:
                outcome = (
                    "no detour" if spliced.complete else "budget spent before every detour was tried; none"
                )
                console.print(
                    f"[bold]{task.id}[/bold] {outcome} of up to {splice} moves shortens the reference "
                    f"({spliced.observed} moves)",
                    highlight=False,
                    soft_wrap=True,
                )
    if shorter:
        raise typer.Exit(1)


@tasks_app.command("play")
def play_command(
    task_id: str = typer.Argument(..., metavar="TASK", help="Task id."),
    actions_file: Path = typer.Argument(
        ..., metavar="ACTIONS.yaml", help="A YAML list of actions, as in a task's solutions."
    ),
    devices: str = typer.Option(
        "vphone", "--devices", "-d", help="vphone (a virtual phone, started for the run) or a device serial."
    ),
    kb_dir: Path | None = typer.Option(
        None, "--kb-dir", envvar="MASBENCH_KB_DIR", help="Shortcut KB directory (default: shortcuts_kb/)."
    ),
    tasks_dir: Path | None = TASKS_DIR,
) -> None:
    """Reset to TASK's initial state, play the actions, print each step and the check's details, to try
    another route through a task. Exit status 0 if the check passes, 1 if it fails, 2 on bad input."""
    from masbench.device import DeviceError, open_device
    from masbench.shortcuts import ShortcutExecutor, load_kb

    from .loader import load_actions
    from .player import TaskSetupError, play

    console = Console()

    def bad_input(message: str) -> typer.Exit:
        Console(stderr=True).print(f"[red]error:[/red] {message}", highlight=False, markup=True)
        return typer.Exit(2)

    try:
        task = _load(tasks_dir).get(task_id)
    except TaskError as exc:
        raise bad_input(str(exc)) from exc
    try:
        actions = load_actions(actions_file)
        kb = load_kb(kb_dir)
    except ValueError as exc:  # both loaders name the file, the entry and the field
        raise bad_input(str(exc)) from exc

    def show_step(index: int, action: Action, error: str | None) -> None:
        verdict = "ok" if error is None else f"FAILED: {error}"
        console.print(f"  {index:>2}  {describe_action(action)}  {verdict}", highlight=False, markup=False)

    console.print(f"[bold]{task.id}[/bold] {len(actions)} steps from {actions_file}", highlight=False)
    try:
        with open_device(devices) as device:
            result = play(device, task, actions, ShortcutExecutor(kb, device), on_step=show_step)
    except (TaskSetupError, DeviceError) as exc:
        raise bad_input(str(exc)) from exc
    console.print("\n[bold]check[/bold]")
    for line in result.details:
        console.print(f"  {line}", highlight=False, markup=False)
    passed = result.check_passed
    console.print(f"[{'green' if passed else 'red'}]check {'passes' if passed else 'fails'}[/]")
    if not passed:
        raise typer.Exit(1)
