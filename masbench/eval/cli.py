"""`masbench run`, `masbench report` and `masbench compare`."""

from __future__ import annotations

import json
import shlex
import threading
from datetime import datetime
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def _console() -> Console:
    """A console sized for the current terminal (or $COLUMNS), created per use so tests can set it."""
    return Console()


def run_command(
    ctx: typer.Context,
    agent: str = typer.Option(..., "--agent", "-a", help="Agent name (see `masbench agents list`)."),
    tasks: str = typer.Option(
        "all",
        "--tasks",
        "-t",
        help="Subset (all, single-app, cross-app, level-1..3, an app such as amazon: its single-app tasks, "
        "uses:amazon: every task using it) or comma-separated task ids.",
    ),
    devices: list[str] = typer.Option(
        ["vphone:4"],
        "--devices",
        "-d",
        help="vphone:N to start N virtual phones, or device addresses SERIAL / HOST:PORT/SERIAL; repeatable.",
    ),
    model: str | None = typer.Option(
        None,
        "--model",
        "-m",
        help="Model for LLM agents: gemini-2.5-pro, openai:MODEL@URL, cassette:PATH, scripted:PATH.",
    ),
    out: Path | None = typer.Option(
        None, "--out", "-o", help="Run directory (default runs/<agent>-<timestamp>)."
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Continue the run in --out: finished episodes are skipped."
    ),
    repeats: int = typer.Option(1, "--repeats", min=1, help="Run every task K times (confidence intervals)."),
    max_steps: int | None = typer.Option(
        None,
        "--max-steps",
        min=1,
        help="Fixed step limit (default: 2 x the task's optimal steps, at least 10).",
    ),
    timeout: float = typer.Option(600.0, "--timeout", min=1, help="Wall-clock limit per episode, seconds."),
    kb: str = typer.Option(
        "predefined", "--kb", help="Shortcut knowledge base: predefined, none, or a PATH."
    ),
    kb_exposure: str = typer.Option(
        "retrieved",
        "--kb-exposure",
        help="What MAS agents are offered of the KB: oracle (the reference's shortcuts), retrieved (per "
        "step), full (all). A call of a KB shortcut not offered in the episode is refused as an invalid step.",
    ),
    faults: str | None = typer.Option(
        None,
        "--faults",
        help="Inject shortcut faults at seeded rates, e.g. api:0.2,removed:0.1 (kinds: removed, api, moved, "
        "slow); the report gives the recovery rate. See docs/metrics.md.",
    ),
    tasks_dir: Path | None = typer.Option(
        None, "--tasks-dir", help="Task data directory (default: shipped tasks, or $MASBENCH_TASKS_DIR)."
    ),
    vphone_mode: str = typer.Option(
        "process",
        "--vphone-mode",
        help="Serve virtual phones from a child process (uses another core) or a thread.",
    ),
    screens: bool = typer.Option(
        True, "--screens/--no-screens", help="Save a screenshot and UI dump per step."
    ),
    record: bool = typer.Option(
        True,
        "--record/--no-record",
        help="Record live model calls to RUN_DIR/llm_cassette.jsonl (replay with --model cassette:PATH).",
    ),
    judge: str | None = typer.Option(
        None,
        "--judge",
        help="LLM judge (SPA-Bench style: final screenshots + described actions against the task's rubric); "
        "same forms as --model. Required on real devices, which have no programmatic check.",
    ),
    reset: str = typer.Option(
        "seed",
        "--reset",
        help="How each episode starts: seed (virtual phones: the task's seeded state; real devices: its apps "
        "restarted) or snapshot:NAME (load that emulator snapshot through the console first).",
    ),
    executor: str = typer.Option(
        "local",
        "--executor",
        help="local: one worker thread per device in this process; ray: one Ray actor per device, placed on the "
        "nodes that declare the custom resource masbench_device (needs the ray extra).",
    ),
    learn_across_repeats: bool = typer.Option(
        False,
        "--learn-across-repeats",
        help="For agents that learn across tasks (mobileagent-e): let each repeat continue the memory of the "
        "one before (default: every repeat learns from scratch, in task order).",
    ),
    ray_address: str | None = typer.Option(
        None, "--ray-address", help="Ray cluster to join (default: start a local Ray instance)."
    ),
    grounding_model: str | None = typer.Option(
        None,
        "--grounding-model",
        help="Model that finds a dynamic shortcut's described targets on the screen at call time; same forms as "
        "--model. Default: the agent's model. Needed when the KB has dynamic shortcuts.",
    ),
    judge_mode: str | None = typer.Option(
        None,
        "--judge-mode",
        help="How success is decided: check (the task's programmatic check), llm (the judge), both (the check "
        "decides and the judge's verdict is recorded beside it, to measure the judge). Default: both with "
        "--judge, else check. On real devices the judge decides whatever the mode.",
    ),
) -> None:
    """Run an agent on a task subset, in parallel over devices; resumable; writes results.jsonl, summary.json.

    Every metric and diagnostic printed (failures by class, app and shortcut F1...): docs/metrics.md."""
    from masbench.agents import AGENTS, make_agent
    from masbench.agents.retrieval import EXPOSURES, OffersShortcuts
    from masbench.device import DeviceSpecError, check_present, open_devices, parse_specs
    from masbench.eval.faults import FaultSpecError, format_faults, parse_faults
    from masbench.eval.judge import Judge
    from masbench.eval.runner import RunConfigMismatch, Runner, load_run_kb, new_config, prepare_run_dir
    from masbench.llm import make_llm
    from masbench.llm.base import LLMConfigError
    from masbench.shortcuts.grounding import check_grounding, make_ground
    from masbench.tasks import load_tasks

    if agent not in AGENTS:
        raise typer.BadParameter(
            f"unknown agent {agent!r}; available: {', '.join(AGENTS)}", param_hint="--agent"
        )
    mode = judge_mode or ("both" if judge else "check")
    if mode not in ("check", "llm", "both"):
        raise typer.BadParameter(f"{mode!r}; use check, llm or both", param_hint="--judge-mode")
    if mode != "check" and not judge:
        raise typer.BadParameter(f"--judge-mode {mode} needs --judge MODEL", param_hint="--judge-mode")
    if resume and out is None:
        raise typer.BadParameter("--resume needs --out RUN_DIR, the run to continue", param_hint="--resume")
    if resume and not (out / "run.json").exists():
        raise typer.BadParameter(f"{out} holds no run to resume (no run.json)", param_hint="--out")
    if reset != "seed" and not (reset.startswith("snapshot:") and reset.removeprefix("snapshot:")):
        raise typer.BadParameter(f"{reset!r}; use seed or snapshot:NAME", param_hint="--reset")
    if executor not in ("local", "ray"):
        raise typer.BadParameter(f"{executor!r}; use local or ray", param_hint="--executor")
    if executor == "ray" and AGENTS[agent].learns:
        raise typer.BadParameter(
            f"{agent} learns from task to task, so its tasks run in order as chains; use --executor local",
            param_hint="--executor",
        )
    if executor == "ray":
        from masbench.eval.ray_executor import import_ray

        try:
            import_ray()
        except ImportError as exc:
            raise typer.BadParameter(str(exc), param_hint="--executor") from None
    if kb_exposure not in EXPOSURES:
        raise typer.BadParameter(f"{kb_exposure!r}; use {', '.join(EXPOSURES)}", param_hint="--kb-exposure")
    if kb_exposure != "retrieved" and executor == "ray":
        raise typer.BadParameter("Ray workers offer retrieved shortcuts only; use --executor local",
                                 param_hint="--kb-exposure")  # fmt: skip
    if faults is not None:
        try:
            faults = format_faults(parse_faults(faults))
        except FaultSpecError as exc:
            raise typer.BadParameter(str(exc), param_hint="--faults") from None
        if executor == "ray":
            raise typer.BadParameter("Ray workers inject no faults; use --executor local", param_hint="--faults")  # fmt: skip
    if agent == "oracle" and kb == "none":
        raise typer.BadParameter(
            "oracle replays the hybrid solutions' shortcut calls, which --kb none removes; use oracle-gui",
            param_hint="--kb",
        )
    try:
        check_present(parse_specs(devices)[1])  # a mistyped serial fails here, before a run directory exists
        selected = load_tasks(tasks_dir).select(tasks)
        if not selected:
            raise ValueError(f"no tasks match --tasks {tasks!r}")
        knowledge = load_run_kb(kb)
        own = model or AGENTS[agent].default_model if AGENTS[agent].needs_model else None
        grounding = grounding_model or own  # the agent's model grounds unless told otherwise
        check_grounding(make_agent(agent, model).executor_kb(knowledge), grounding, f"--kb {kb}")
        if kb_exposure != "retrieved" and not isinstance(make_agent(agent, model), OffersShortcuts):
            raise ValueError(f"--kb-exposure {kb_exposure}: {agent} is not offered retrieved shortcuts")
        for other in filter(None, (judge, grounding)):
            make_llm(other)  # fail fast on a missing key or a bad --judge / --grounding-model
    except LLMConfigError as exc:
        _console().print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    except (ValueError, OSError) as exc:  # DeviceSpecError included
        _console().print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    run_dir = out or Path("runs") / f"{agent}-{datetime.now():%Y%m%d-%H%M%S}"
    config = new_config(
        agent=agent, model=model or AGENTS[agent].default_model, tasks=tasks, task_ids=[t.id for t in selected], kb=kb,
        devices=devices, repeats=repeats, max_steps=max_steps, timeout_s=timeout, judge=judge, judge_mode=mode,
        reset_snapshot=reset.removeprefix("snapshot:") if reset != "seed" else None,
        learn_across_repeats=learn_across_repeats, kb_exposure=kb_exposure, faults=faults,
        grounding_model=grounding,
    )  # fmt: skip
    try:
        exposure = config.kb_exposure
        config = prepare_run_dir(run_dir, config, resume)
        if config.kb_exposure != exposure:
            raise RunConfigMismatch(f"{run_dir} was started with --kb-exposure {config.kb_exposure} (this "
                                    f"command: {exposure}); resume with it, or start a new run with another --out")  # fmt: skip
    except RunConfigMismatch as exc:
        _console().print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    make_judge = None
    if judge:  # live judge calls are recorded so the run can be re-judged with --judge cassette:PATH
        record = None if judge.startswith("cassette:") else run_dir / "judge_cassette.jsonl"
        make_judge = lambda: Judge(make_llm(judge, record_to=record))  # noqa: E731
    live = AGENTS[agent].needs_model and not (config.model or "").startswith(("cassette:", "scripted:"))
    record_to = run_dir / "llm_cassette.jsonl" if record and live else None
    # live grounding calls are recorded; with the agent's model into its cassette, which then replays both
    ground_to = None
    if grounding and record and not grounding.startswith(("cassette:", "scripted:")):
        shared = grounding == config.model
        ground_to = run_dir / ("llm_cassette.jsonl" if shared else "grounding_cassette.jsonl")
    runner = Runner(
        config, selected, lambda: _exposed(make_agent(agent, model, record_to=record_to), config.kb_exposure), knowledge, run_dir,
        save_screens=screens, make_judge=make_judge, learning=AGENTS[agent].learns,
        make_ground=(lambda: make_ground(grounding, record_to=ground_to)) if grounding else None,
    )  # fmt: skip
    total = len(selected) * repeats
    already = total - len(runner.pending())
    header = f"[bold]{agent}[/] on {len(selected)} tasks x {repeats} -> {run_dir}  ({already} already done)"
    try:
        if executor == "ray":
            from masbench.eval.ray_executor import ActorStartError, WorkerSpec, run_on_ray

            worker = WorkerSpec(
                device="", agent=agent, model=model, judge=judge, kb=kb, tasks_dir=str(tasks_dir) if tasks_dir else None,
                config_json=config.model_dump_json(), save_screens=screens, record=record_to is not None,
                grounding_model=grounding, grounding_cassette=ground_to.name if ground_to else None,
            )  # fmt: skip
            _console().print(header + "  [dim](Ray)[/]")
            with _progress(runner, total, already) as events:
                runner.events = events
                try:
                    run_on_ray(runner, devices, worker, address=ray_address)
                except ActorStartError as exc:
                    _console().print(f"[red]error:[/] {exc}")
                    raise typer.Exit(2) from None
        else:
            with open_devices(devices, mode=vphone_mode) as devs:
                _console().print(header)
                with _progress(runner, total, already) as events:
                    runner.events = events
                    runner.run(devs)
    except DeviceSpecError as exc:
        _console().print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        _finish(run_dir, runner, selected)
        _console().print(
            f"[yellow]interrupted[/]: {len(runner.results)}/{total} episodes recorded. Resume with:"
        )
        _print_command(resume_command(ctx, run_dir))
        raise typer.Exit(130) from None
    _finish(run_dir, runner, selected)
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
        _print_command(resume_command(ctx, run_dir))
        raise typer.Exit(1)
    if unscored:
        _console().print(
            f"[yellow]{unscored} episodes ended in errors (in no metric); run them again with:[/]"
        )
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


def _exposed(agent, exposure: str):
    """`agent` offered the KB at `exposure` (MAS agents; the CLI refuses another level for the rest)."""
    from masbench.agents.retrieval import OffersShortcuts

    if isinstance(agent, OffersShortcuts):
        agent.expose(exposure)
    return agent


def _print_failures(runs: list) -> None:
    """The failed episodes per failure class of each run (diagnostics from the trajectories), if any."""
    from masbench.eval.table import failures_table

    if (table := failures_table(runs)) is not None:
        _console().print(table)


class _progress:
    """A rich progress display: overall bar with done/total, running SR and ETA; one line per device with the
    episodes it has finished and what it is doing."""

    def __init__(self, runner, total: int, already: int) -> None:
        self.runner, self.total = runner, total
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[count]}"), TextColumn("{task.fields[status]}"),
            TimeElapsedColumn(), TimeRemainingColumn(), console=_console(), transient=False,
        )  # fmt: skip
        self.overall = self.progress.add_task(
            "episodes", total=total, completed=already, status=self._sr(), count=f"{already}/{total}"
        )
        self.rows: dict[
            str, int
        ] = {}  # device label -> its line, added when the device starts its first item
        self.done: dict[str, int] = {}
        self.lock = threading.Lock()

    def _sr(self) -> str:
        scored = [r for r in self.runner.results if r.scored]
        errors = len(self.runner.results) - len(scored)
        sr = f"SR {sum(r.success for r in scored) / len(scored):.2f}" if scored else "SR -"
        return sr + (f" [red]{errors} errors[/]" if errors else "")

    def __enter__(self):
        from masbench.eval.runner import RunEvents

        self.progress.__enter__()
        return RunEvents(on_start=self.start, on_result=self.result, on_device_lost=self.lost)

    def __exit__(self, *exc) -> None:
        self.progress.__exit__(*exc)

    def start(self, device: str, item) -> None:
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

    def result(self, device: str, result) -> None:
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


def _finish(run_dir: Path, runner, tasks) -> None:
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


def _load_run(run_dir: Path, tasks_dir: Path | None):
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
