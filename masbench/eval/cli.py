"""`masbench run`, `masbench report` and `masbench compare`."""

from __future__ import annotations

import json
import shlex
import threading
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

if TYPE_CHECKING:
    from types import TracebackType

    from masbench.device import VPhoneMode
    from masbench.eval.metrics import Summary
    from masbench.eval.records import EpisodeResult, RunConfig
    from masbench.eval.runner import RunEvents, Runner, WorkItem
    from masbench.tasks import Task


def _console() -> Console:
    """A console sized for the current terminal (or $COLUMNS), created per use so tests can set it."""
    return Console()


AgentOption = Annotated[str, typer.Option("--agent", "-a", help="Agent name (see `masbench agents list`).")]
TasksOption = Annotated[str, typer.Option(
    "--tasks", "-t", help="Subset (all, single-app, cross-app, level-1..3, an app such as amazon: its single-app "
    "tasks, uses:amazon: every task using it) or comma-separated task ids.",
)]  # fmt: skip
DevicesOption = Annotated[list[str], typer.Option(
    "--devices", "-d", help="vphone:N to start N virtual phones, or device addresses SERIAL / HOST:PORT/SERIAL; repeatable.",
)]  # fmt: skip
ModelOption = Annotated[str | None, typer.Option(
    "--model", "-m", help="Model for LLM agents: gemini-2.5-pro, openai:MODEL@URL, cassette:PATH, scripted:PATH.",
)]  # fmt: skip
OutOption = Annotated[
    Path | None, typer.Option("--out", "-o", help="Run directory (default runs/<agent>-<timestamp>).")
]
ResumeOption = Annotated[
    bool, typer.Option("--resume", help="Continue the run in --out: finished episodes are skipped.")
]
RepeatsOption = Annotated[
    int, typer.Option("--repeats", min=1, help="Run every task K times (confidence intervals).")
]
MaxStepsOption = Annotated[int | None, typer.Option(
    "--max-steps", min=1, help="Fixed step limit (default: 2 x the task's optimal steps, at least 10).",
)]  # fmt: skip
TimeoutOption = Annotated[
    float, typer.Option("--timeout", min=1, help="Wall-clock limit per episode, seconds.")
]
KbOption = Annotated[str, typer.Option("--kb", help="Shortcut knowledge base: predefined, none, or a PATH.")]
KbExposureOption = Annotated[str, typer.Option(
    "--kb-exposure", help="What MAS agents are offered of the KB: oracle (the reference's shortcuts), retrieved (per "
    "step), full (all). A call of a KB shortcut not offered in the episode is refused as an invalid step.",
)]  # fmt: skip
FaultsOption = Annotated[str | None, typer.Option(
    "--faults", help="Inject shortcut faults at seeded rates, e.g. api:0.2,removed:0.1 (kinds: removed, api, moved, "
    "slow); the report gives the recovery rate. See docs/metrics.md.",
)]  # fmt: skip
TasksDirOption = Annotated[Path | None, typer.Option(
    "--tasks-dir", help="Task data directory (default: shipped tasks, or $MASBENCH_TASKS_DIR).",
)]  # fmt: skip
VPhoneModeOption = Annotated[str, typer.Option(
    "--vphone-mode", help="Serve virtual phones from a child process (uses another core) or a thread.",
)]  # fmt: skip
ScreensOption = Annotated[
    bool, typer.Option("--screens/--no-screens", help="Save a screenshot and UI dump per step.")
]
RecordOption = Annotated[bool, typer.Option(
    "--record/--no-record",
    help="Record live model calls to RUN_DIR/llm_cassette.jsonl (replay with --model cassette:PATH).",
)]  # fmt: skip
JudgeOption = Annotated[str | None, typer.Option(
    "--judge", help="LLM judge (SPA-Bench style: final screenshots + described actions against the task's rubric); "
    "same forms as --model. Required on real devices, which have no programmatic check.",
)]  # fmt: skip
ResetOption = Annotated[str, typer.Option(
    "--reset", help="How each episode starts: seed (virtual phones: the task's seeded state; real devices: its apps "
    "restarted) or snapshot:NAME (load that emulator snapshot through the console first).",
)]  # fmt: skip
ExecutorOption = Annotated[str, typer.Option(
    "--executor", help="local: one worker thread per device in this process; ray: one Ray actor per device, placed "
    "on the nodes that declare the custom resource masbench_device (needs the ray extra).",
)]  # fmt: skip
LearnAcrossRepeatsOption = Annotated[bool, typer.Option(
    "--learn-across-repeats", help="For agents that learn across tasks (mobileagent-e): let each repeat continue the "
    "memory of the one before (default: every repeat learns from scratch, in task order).",
)]  # fmt: skip
RayAddressOption = Annotated[str | None, typer.Option(
    "--ray-address", help="Ray cluster to join (default: start a local Ray instance).",
)]  # fmt: skip
GroundingModelOption = Annotated[str | None, typer.Option(
    "--grounding-model", help="Model that finds a dynamic shortcut's described targets on the screen at call time; "
    "same forms as --model. Default: the agent's model. Needed when the KB has dynamic shortcuts.",
)]  # fmt: skip
JudgeModeOption = Annotated[str | None, typer.Option(
    "--judge-mode", help="How success is decided: check (the task's programmatic check), llm (the judge), both (the "
    "check decides and the judge's verdict is recorded beside it, to measure the judge). Default: both with "
    "--judge, else check. On real devices the judge decides whatever the mode.",
)]  # fmt: skip


def run_command(
    ctx: typer.Context, agent: AgentOption, tasks: TasksOption = "all", devices: DevicesOption = ["vphone:4"],  # noqa: B006
    model: ModelOption = None, out: OutOption = None, resume: ResumeOption = False, repeats: RepeatsOption = 1,
    max_steps: MaxStepsOption = None, timeout: TimeoutOption = 600.0, kb: KbOption = "predefined",
    kb_exposure: KbExposureOption = "retrieved", faults: FaultsOption = None, tasks_dir: TasksDirOption = None,
    vphone_mode: VPhoneModeOption = "process", screens: ScreensOption = True, record: RecordOption = True,
    judge: JudgeOption = None, reset: ResetOption = "seed", executor: ExecutorOption = "local",
    learn_across_repeats: LearnAcrossRepeatsOption = False, ray_address: RayAddressOption = None,
    grounding_model: GroundingModelOption = None, judge_mode: JudgeModeOption = None,
) -> None:  # fmt: skip
    """Run an agent on a task subset, in parallel over devices; resumable; writes results.jsonl, summary.json.

    Every metric and diagnostic printed (failures by class, app and shortcut F1...): docs/metrics.md."""
    from masbench.device import DeviceSpecError
    from masbench.eval.launch import Session, build_runner, cassettes, check_run, grounding_for, play
    from masbench.eval.ray_executor import ActorStartError
    from masbench.eval.records import RunOptionError
    from masbench.eval.runner import RunConfigMismatch, prepare_run_dir
    from masbench.llm.base import LLMConfigError

    _check_resume(out, resume)
    config = _config(
        agent=agent, model=model, tasks=tasks, task_ids=[], kb=kb, devices=devices, repeats=repeats,
        max_steps=max_steps, timeout_s=timeout, judge=judge, judge_mode=judge_mode, reset_snapshot=_snapshot(reset),
        learn_across_repeats=learn_across_repeats, kb_exposure=kb_exposure, faults=faults,
        grounding_model=grounding_model, executor=executor,
    )  # fmt: skip
    session = Session(
        run_dir=out or Path("runs") / f"{agent}-{datetime.now():%Y%m%d-%H%M%S}", devices=devices, resume=resume,
        tasks_dir=tasks_dir, vphone_mode=_vphone_mode(vphone_mode), save_screens=screens, record=record,
        ray_address=ray_address, grounding=grounding_for(agent, model, grounding_model),
    )  # fmt: skip
    try:
        config, selected, knowledge = check_run(config, session)
    except RunOptionError as exc:
        raise typer.BadParameter(str(exc), param_hint=exc.option) from None
    except (LLMConfigError, ValueError, OSError) as exc:  # DeviceSpecError included
        raise _error(exc) from None
    try:
        config = prepare_run_dir(session.run_dir, config, resume)
    except RunConfigMismatch as exc:
        raise _error(exc) from None
    recorded = cassettes(config, session)
    runner = build_runner(config, selected, knowledge, session, recorded)
    total = len(selected) * repeats
    already = total - len(runner.pending())

    def show(on_ray: bool) -> _progress:
        header = f"[bold]{agent}[/] on {len(selected)} tasks x {repeats} -> {session.run_dir}  ({already} already done)"
        _console().print(header + ("  [dim](Ray)[/]" if on_ray else ""))
        return _progress(runner, total, already)

    try:
        play(runner, session, recorded, show)
    except (DeviceSpecError, ActorStartError) as exc:
        raise _error(exc) from None
    except KeyboardInterrupt:
        _finish(session.run_dir, runner, selected)
        _console().print(
            f"[yellow]interrupted[/]: {len(runner.results)}/{total} episodes recorded. Resume with:"
        )
        _print_command(resume_command(ctx, session.run_dir))
        raise typer.Exit(130) from None
    _finish(session.run_dir, runner, selected)
    _report_ending(ctx, session.run_dir, runner, total)


def _error(exc: Exception) -> typer.Exit:
    """An input error printed as one line; the exit to raise (status 2: nothing was run)."""
    _console().print(f"[red]error:[/] {exc}")
    return typer.Exit(2)


def _check_resume(out: Path | None, resume: bool) -> None:
    """`--resume` continues a run that exists: it needs `--out` naming one."""
    if resume and out is None:
        raise typer.BadParameter("--resume needs --out RUN_DIR, the run to continue", param_hint="--resume")
    if resume and out is not None and not (out / "run.json").exists():
        raise typer.BadParameter(f"{out} holds no run to resume (no run.json)", param_hint="--out")


def _snapshot(reset: str) -> str | None:
    """The emulator snapshot `--reset snapshot:NAME` names; None for `--reset seed`."""
    if reset == "seed":
        return None
    if not (reset.startswith("snapshot:") and reset.removeprefix("snapshot:")):
        raise typer.BadParameter(f"{reset!r}; use seed or snapshot:NAME", param_hint="--reset")
    return reset.removeprefix("snapshot:")


def _vphone_mode(mode: str) -> VPhoneMode:
    """`--vphone-mode`: process or thread."""
    if mode not in ("process", "thread"):
        raise typer.BadParameter(f"{mode!r}; use process or thread", param_hint="--vphone-mode")
    return cast("VPhoneMode", mode)


def _config(**options: Any) -> RunConfig:
    """The run's configuration, its policy checked (`RunConfig`): a rule broken is a bad option."""
    from pydantic import ValidationError

    from masbench.eval.records import option_error
    from masbench.eval.runner import new_config

    try:
        return new_config(**options)
    except ValidationError as exc:
        if (broken := option_error(exc)) is None:
            raise
        raise typer.BadParameter(str(broken), param_hint=broken.option) from None


def _report_ending(ctx: typer.Context, run_dir: Path, runner: Runner, total: int) -> None:
    """How the run ended, when not with every episode scored: what stopped it and how to go on (exit 3 for
    a run that stopped itself, 1 for episodes left to run)."""
    if runner.lost:
        _console().print(f"[yellow]devices lost during the run:[/] {', '.join(runner.lost)}")
    if runner.aborted:
        _console().print(f"[red]run stopped:[/] {runner.aborted}\nFix the cause, then resume with:")
        _print_command(resume_command(ctx, run_dir))
        raise typer.Exit(3)
    unscored = sum(1 for r in runner.results if not r.scored)
    missing = total - len(runner.results)
    if missing:
        _console().print(f"[yellow]{missing} episodes not run (no device left); continue with:[/]")
    elif unscored:
        _console().print(
            f"[yellow]{unscored} episodes ended in errors (in no metric); run them again with:[/]"
        )
    if missing or unscored:
        _print_command(resume_command(ctx, run_dir))
        raise typer.Exit(1)


def resume_command(ctx: typer.Context, run_dir: Path) -> str:
    """The `masbench run` command of `ctx` as the user gave it, every option repeated (model, KB, devices,
    tasks directory, limits...) with `--out RUN_DIR --resume`: a hint that works as printed."""
    words = ["masbench", "run"]
    for param in ctx.command.params:
        if param.param_type_name != "option" or param.name in (None, "out", "resume"):
            continue
        source = ctx.get_parameter_source(param.name)
        if source is None or source.name != "COMMANDLINE":
            continue  # a default: the resumed command gets the same
        value = ctx.params[param.name]
        name = max(param.opts, key=len)
        if getattr(param, "is_flag", False):
            words.append(name if value else max(param.secondary_opts, key=len))
        else:
            for item in value if param.multiple else [value]:
                words += [name, str(item)]
    return shlex.join([*words, "--out", str(run_dir), "--resume"])


def _print_command(command: str) -> None:
    """A command on a line of its own, never wrapped or read as markup, so it can be copied whole."""
    _console().print(f"  {command}", soft_wrap=True, markup=False, highlight=False)


def _print_paths(*items: tuple[str, str]) -> None:
    """Labelled paths and commands, one a line, each unbroken at any width so it can be copied whole."""
    pad = max(len(label) for label, _ in items) + 1
    for label, value in items:
        _console().print(f"{label + ':':<{pad}} {value}", soft_wrap=True, markup=False, highlight=False)


def _print_failures(runs: list[tuple[str, Summary]]) -> None:
    """The failed episodes per failure class of each run (diagnostics from the trajectories), if any."""
    from masbench.eval.table import failures_table

    if (table := failures_table(runs)) is not None:
        _console().print(table)


class _progress:
    """A rich progress display: overall bar with done/total, running SR and ETA; one line per device with the
    episodes it has finished and what it is doing."""

    def __init__(self, runner: Runner, total: int, already: int) -> None:
        self.runner, self.total = runner, total
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[count]}"), TextColumn("{task.fields[status]}"),
            TimeElapsedColumn(), TimeRemainingColumn(), console=_console(), transient=False,
        )  # fmt: skip
        self.overall = self.progress.add_task(
            "episodes", total=total, completed=already, status=self._sr(), count=f"{already}/{total}"
        )
        self.rows: dict[
            str, TaskID
        ] = {}  # device label -> its line, added when the device starts its first item
        self.done: dict[str, int] = {}
        self.lock = threading.Lock()

    def _sr(self) -> str:
        scored = [r for r in self.runner.results if r.scored]
        errors = len(self.runner.results) - len(scored)
        sr = f"SR {sum(r.success for r in scored) / len(scored):.2f}" if scored else "SR -"
        return sr + (f" [red]{errors} errors[/]" if errors else "")

    def __enter__(self) -> RunEvents:
        from masbench.eval.runner import RunEvents

        self.progress.__enter__()
        return RunEvents(on_start=self.start, on_result=self.result, on_device_lost=self.lost)

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.progress.__exit__(kind, exc, trace)

    def start(self, device: str, item: WorkItem) -> None:
        with self.lock:
            if device not in self.rows:
                name = device.rsplit("/", 1)[-1]
                self.rows[device] = self.progress.add_task(
                    f"  {name}", total=None, status="idle", count="0 done"
                )
                self.done[device] = 0
        self.progress.update(
            self.rows[device], status=f"{item.task.id}" + (f" (r{item.repeat})" if item.repeat else "")
        )

    def result(self, device: str, result: EpisodeResult) -> None:
        with self.lock:
            mark = "[green]ok[/]" if result.success else f"[red]{result.end_reason}[/]"
            if result.error_kind:
                mark += f" [red]({result.error_kind})[/]"
            self.done[device] += 1
            self.progress.update(
                self.rows[device], status=f"{result.task_id} {mark}", count=f"{self.done[device]} done"
            )
            self.progress.update(self.overall, advance=1, status=self._sr())
            completed = int(self.progress.tasks[self.overall].completed)
            self.progress.update(self.overall, count=f"{completed}/{self.total}")

    def lost(self, device: str, reason: str) -> None:
        self.progress.update(self.rows[device], status=f"[red]lost[/]: {reason[:60]}")


def _finish(run_dir: Path, runner: Runner, tasks: list[Task]) -> None:
    from masbench.eval.metrics import outcome_counts, summarise
    from masbench.eval.records import GIVE_UP_AFTER, write_atomic
    from masbench.eval.table import diagnostics_table, legend, split_table, table2

    summary = summarise(runner.results, tasks, run=runner.config.model_dump(mode="json"), run_dir=run_dir)
    write_atomic(run_dir / "summary.json", summary.model_dump_json(indent=2))
    for (task_id, repeat), r in runner.given_up.items():
        _console().print(f"[red]given up[/]: {task_id} (r{repeat}) ended in the same harness error "
                         f"{GIVE_UP_AFTER} times in a row, so --resume no longer retries it: {r.error}")  # fmt: skip
    if summary.errors:
        kinds = ", ".join(f"{kind} {n}" for kind, n in summary.error_kinds.items())
        _console().print(
            f"[red]{summary.errors} episodes ended in errors of the infrastructure[/] ({kinds}): "
            "excluded from every metric; causes in results.jsonl"
        )
    if summary.overall is None:
        return
    console = _console()
    console.print(table2([(runner.config.agent, summary)], width=console.width))
    console.print(split_table(summary, "level", width=console.width))
    _print_failures([(runner.config.agent, summary)])
    diag = diagnostics_table(summary, outcome_counts(runner.results))
    if diag is not None:
        console.print(diag)
    console.print(legend(), style="dim", highlight=False)
    _print_paths(
        ("results", str(run_dir / "results.jsonl")),
        ("summary", str(run_dir / "summary.json")),
        ("report", shlex.join(["masbench", "report", str(run_dir)])),
    )


def _load_run(
    run_dir: Path, tasks_dir: Path | None
) -> tuple[RunConfig, list[EpisodeResult], list[Task], Summary]:
    """A run directory's config, latest results, tasks and summary (recomputed from the results)."""
    from masbench.eval.metrics import summarise
    from masbench.eval.records import read_config
    from masbench.eval.runner import CONFIG, latest, load_results
    from masbench.tasks import load_tasks

    if not (run_dir / CONFIG).exists():
        raise typer.BadParameter(f"{run_dir} is not a run directory (no {CONFIG})")
    config = read_config(run_dir / CONFIG)
    results = latest(load_results(run_dir))
    tasks = load_tasks(tasks_dir).select(",".join(config.task_ids)) if config.task_ids else []
    summary = summarise(results, tasks, run=config.model_dump(mode="json"), run_dir=run_dir)
    return config, results, tasks, summary


def report_command(
    run_dir: Path = typer.Argument(..., metavar="RUN_DIR", help="A run directory written by `masbench run`."),
    out: Path | None = typer.Option(None, "--out", help="HTML file (default RUN_DIR/report.html)."),
    tasks_dir: Path | None = typer.Option(
        None, "--tasks-dir", help="Task data directory, if not the shipped one."
    ),
) -> None:
    """Write an HTML report (tables, plots, trajectory viewer with screenshots read from the run directory) and print the tables.

    Every metric and diagnostic, with the paper it follows: docs/metrics.md."""
    from masbench.eval.html import write_report
    from masbench.eval.records import write_atomic
    from masbench.eval.table import split_table, table2

    config, results, tasks, summary = _load_run(run_dir, tasks_dir)
    write_atomic(run_dir / "summary.json", summary.model_dump_json(indent=2))
    columns = (
        TextColumn("writing the report"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} episodes"),
    )
    with Progress(*columns, TimeElapsedColumn(), console=_console(), transient=True) as progress:
        bar = progress.add_task("report", total=len(results))
        path = write_report(run_dir, config, results, tasks, summary, out, lambda: progress.advance(bar))
    console = _console()
    console.print(table2([(config.agent, summary)], width=console.width))
    console.print(split_table(summary, "app", width=console.width))
    _print_failures([(config.agent, summary)])
    _console().print(f"report: {path}")


def metrics_command() -> None:
    """Print what every metric and table column means (the same text as the reports' definitions)."""
    from masbench.eval.metrics import __doc__ as metrics_doc
    from masbench.eval.table import COLUMNS, LEGEND

    console = _console()
    console.print("[bold]Table columns[/]")
    for header, attr, _ in COLUMNS:
        short = header.split(" (")[0]
        field = f" (summary.json: {attr})" if attr != short else ""
        console.print(f"  {header:<10} {LEGEND[short]}{field}", highlight=False)
    console.print()
    console.print(metrics_doc or "", soft_wrap=True, markup=False, highlight=False)


def compare_command(
    run_dirs: list[Path] = typer.Argument(..., metavar="RUN_DIR", help="Two or more run directories."),
    tasks_dir: Path | None = typer.Option(
        None, "--tasks-dir", help="Task data directory, if not the shipped one."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the summaries as JSON instead of a table."),
    html_out: Path | None = typer.Option(
        None,
        "--html",
        help="Also write an HTML comparison (metrics, outcomes, per-task matrix) to this file.",
    ),
) -> None:
    """Put runs side by side: a Table-2-shaped table, then each task's outcome in each run. Runs are
    numbered in the tables and named once above them, so any names fit 80 columns."""
    from masbench.eval.html import write_comparison
    from masbench.eval.table import legend, matrix_table, table2

    configs, named = [], []  # named: (run name, summary, latest results)
    for d in run_dirs:
        config, results, _, summary = _load_run(d, tasks_dir)
        configs.append(config)
        named.append((f"{d.name} ({config.agent})", summary, results))
    task_sets = [frozenset(c.task_ids) for c in configs]
    warning = None
    if len(set(task_sets)) > 1:
        warning = (
            f"these runs cover different tasks ({', '.join(str(len(s)) for s in task_sets)} tasks; "
            f"{len(frozenset.intersection(*task_sets))} in common): their figures are not directly comparable"
        )
        _console().print(f"[yellow]warning:[/] {warning}")
    if as_json:
        typer.echo(json.dumps({name: s.model_dump(mode="json") for name, s, _ in named}, indent=2))
        return
    console = _console()
    console.print("Runs:")
    for n, ((name, _, _), d) in enumerate(zip(named, run_dirs, strict=True), 1):
        console.print(f"  {n}  {name}  {d}", soft_wrap=True, markup=False, highlight=False)
    numbered = [(str(n), s, results) for n, (_, s, results) in enumerate(named, 1)]
    console.print(table2([(n, s) for n, s, _ in numbered], title="Comparison", width=console.width))
    console.print(matrix_table([(n, results) for n, _, results in numbered]))
    _print_failures([(n, s) for n, s, _ in numbered])
    console.print(legend(), style="dim", highlight=False)
    if html_out is not None:
        path = write_comparison(html_out, named, run_dirs, warning)
        console.print(f"comparison: {path}", soft_wrap=True, markup=False, highlight=False)
