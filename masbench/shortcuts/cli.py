"""`masbench shortcuts list|show|call`: browse the knowledge base and run one call on a device."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
import yaml
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from masbench.device import open_device
from masbench.device.errors import DeviceError

from .calls import CallError, coerce_cli_arguments, validate_call
from .executor import ShortcutExecutor
from .loader import KBError, load_kb
from .records import CallRecord
from .schema import SHORTCUT_TYPES, KnowledgeBase

shortcuts_app = typer.Typer(
    help="Browse the shortcut knowledge base and run shortcut calls on a device.",
    no_args_is_help=True,
    add_completion=False,
)

KB_DIR = typer.Option(
    None, "--kb-dir", help="KB directory or file (default: $MASBENCH_KB_DIR or shortcuts_kb/)."
)
DEVICE_HELP = "SERIAL (default adb server, honours ANDROID_ADB_SERVER_PORT), HOST:PORT/SERIAL, or 'vphone'."


def _kb(kb_dir: Path | None) -> KnowledgeBase:
    try:
        return load_kb(kb_dir)
    except KBError as exc:
        Console(stderr=True).print(
            f"[red]error:[/red] invalid knowledge base:\n{escape(str(exc))}", highlight=False, soft_wrap=True
        )
        raise typer.Exit(2) from exc


def _fail(message: str, code: int = 1) -> typer.Exit:
    Console(stderr=True).print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


@shortcuts_app.command("list")
def list_command(
    app: list[str] = typer.Option([], "--app", "-a", help="Only this app (repeatable)."),
    type_: list[str] = typer.Option(
        [], "--type", "-t", help=f"Only this type (repeatable): {', '.join(SHORTCUT_TYPES)}."
    ),
    fmt: str = typer.Option("table", "--format", "-f", help="table or json."),
    kb_dir: Path | None = KB_DIR,
) -> None:
    """List shortcuts with their signatures."""
    console = Console()
    if fmt not in ("table", "json"):
        raise typer.BadParameter("must be table or json", param_hint="--format")
    unknown = [t for t in type_ if t not in SHORTCUT_TYPES]
    if unknown:
        raise typer.BadParameter(
            f"unknown type {unknown[0]!r}; one of {', '.join(SHORTCUT_TYPES)}", param_hint="--type"
        )
    kb = _kb(kb_dir).filter(apps=app or None, types=type_ or None)
    if fmt == "json":
        typer.echo(
            json.dumps(
                [s.model_dump(mode="json", by_alias=True, exclude_none=True) for s in kb],
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    counts = ", ".join(f"{n} {t}" for t, n in kb.counts().items()) or "none"
    table = Table(title=f"{len(kb)} shortcuts ({counts})", show_lines=False)
    for column in ("shortcut", "type", "verified", "signature"):
        table.add_column(column, overflow="fold")
    for s in kb:
        params = s.signature().split(" — ", 1)[0].removeprefix(s.qualified_name)
        table.add_row(
            s.qualified_name, s.type, "yes" if s.verified else "[yellow]no[/yellow]", escape(params)
        )
    console.print(table)


@shortcuts_app.command("show")
def show_command(
    name: str = typer.Argument(..., help="Qualified name, e.g. amazon.search_product."),
    fmt: str = typer.Option("text", "--format", "-f", help="text or json."),
    kb_dir: Path | None = KB_DIR,
) -> None:
    """Show one shortcut: signature, parameters, example and implementation."""
    console = Console()
    kb = _kb(kb_dir)
    shortcut = kb.get(name)
    if shortcut is None:
        raise _fail(kb.unknown_message(name))
    if fmt == "json":
        typer.echo(
            json.dumps(
                shortcut.model_dump(mode="json", by_alias=True, exclude_none=True),
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    console.print(f"[bold]{escape(shortcut.signature())}[/bold]", highlight=False)
    source = kb.sources.get(name)
    facts = [
        f"type: {shortcut.type}",
        f"package: {shortcut.package}",
        f"verified: {'yes' if shortcut.verified else 'no'}",
    ]
    if source is not None:
        facts.append(f"file: {source}")
    if shortcut.source:
        facts.append(f"source: {shortcut.source}")
    console.print("  ".join(facts), highlight=False, markup=False)
    if shortcut.parameters:
        table = Table("parameter", "type", "required", "default", "enum", "description")
        for p in shortcut.parameters:
            enum = ", ".join(json.dumps(v) for v in p.enum) if p.enum else ""
            default = json.dumps(p.default) if p.default is not None else ""
            table.add_row(
                p.name, p.type, "yes" if p.required else "no", *map(escape, (default, enum, p.description))
            )
        console.print(table)
    if shortcut.example:
        console.print(f"example: {shortcut.example}", highlight=False, markup=False)
    block: dict[str, Any] = {
        shortcut.type: shortcut.implementation.model_dump(
            mode="json", by_alias=True, exclude_none=True, exclude_defaults=True
        )
    }
    if shortcut.expect is not None:
        block["expect"] = shortcut.expect.model_dump()
    console.print(
        yaml.safe_dump(block, sort_keys=False, allow_unicode=True).rstrip(), highlight=False, markup=False
    )


@shortcuts_app.command("call")
def call_command(
    name: str = typer.Argument(..., help="Qualified name, e.g. amazon.search_product."),
    arguments: list[str] = typer.Argument(
        None, help="Arguments as NAME=VALUE, converted to the declared types."
    ),
    device: str = typer.Option(..., "--device", "-d", help=DEVICE_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the call record as JSON."),
    step_timeout: float = typer.Option(
        5.0, "--step-timeout", help="Seconds a script step waits for its element."
    ),
    grounding_model: str | None = typer.Option(
        None,
        "--grounding-model",
        "-m",
        help="Model that finds a dynamic shortcut's described targets on the screen (same forms as run --model).",
    ),
    task: str | None = typer.Option(
        None, "--task", help="Start from this task's initial state (its seed, clock and setup; home screen)."
    ),
    tasks_dir: Path | None = typer.Option(
        None, "--tasks-dir", help="Task data directory, if not the shipped one."
    ),
    kb_dir: Path | None = KB_DIR,
) -> None:
    """Validate a call (before any device is opened), run it, and print its record; exit 1 on failure."""
    from masbench.llm.base import LLMConfigError
    from masbench.tasks import load_tasks
    from masbench.tasks.player import TaskSetupError, prepare

    from .grounding import make_ground
    from .plan import build_plan

    kb = _kb(kb_dir)
    shortcut = kb.get(name)
    if shortcut is None:
        raise _fail(kb.unknown_message(name))
    chosen = load_tasks(tasks_dir).get(task) if task else None
    if task and chosen is None:
        raise typer.BadParameter(f"no task {task!r}", param_hint="--task")
    try:
        ground = make_ground(grounding_model) if grounding_model else None
        bound = validate_call(kb, name, coerce_cli_arguments(shortcut, arguments or []))
        build_plan(kb, bound, can_ground=ground is not None)  # a dynamic step without a model fails here
    except (CallError, LLMConfigError) as exc:
        raise _fail(str(exc)) from exc
    try:
        with open_device(device) as dev:
            if chosen is not None:
                prepare(dev, chosen)
            executor = ShortcutExecutor(kb, dev, ground=ground, step_timeout=step_timeout)
            record = executor.call(name, bound.arguments)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--device") from exc
    except (DeviceError, TaskSetupError) as exc:
        raise _fail(f"device {device}: {exc}") from exc
    if as_json:
        typer.echo(record.model_dump_json(indent=2))
    else:
        _print_record(record)
    if not record.success:
        raise _fail(record.reason or "the call failed")


shortcuts_app.command(
    "replay",
    help="Run a shortcut, e.g. a generated replay (--kb-dir KB): its record shows each step and the one where "
    "the screen diverged from the recording; exit 1 on failure. The same as `call`.",
)(call_command)


def _print_record(record: CallRecord) -> None:
    console = Console()
    status = "[green]success[/green]" if record.success else "[red]failed[/red]"
    console.print(f"{record.name} ({record.type}): {status} in {record.duration_s:.2f}s", highlight=False)
    for command in record.commands:
        console.print(f"  $ {command}", markup=False, highlight=False)
    if record.steps:
        table = Table("#", "step", "result", "element")
        for step in record.steps:
            result = "ok" if step.success else f"[red]{escape(step.reason or 'failed')}[/red]"
            table.add_row(str(step.number), escape(step.step), result, escape(step.element or ""))
        console.print(table)
