"""The phone's commands: one table from name to `fn(proc, args) -> exit status`, built from the modules
that implement them, plus the dispatchers that route into it (`cmd SERVICE`, `toybox X`, `which`)."""

from __future__ import annotations

from . import am, dumpsys, files, getevent, kernel, pm, power, screen, screenrecord, settings, system, text
from .base import Command, CommandError, Proc
from .masbench import cmd_masbench

BIN = "/system/bin"


def which(p: Proc, args: list[str]) -> int:
    status = 0
    for name in args:
        if name in COMMANDS:
            p.line(f"{BIN}/{name}")
        else:
            status = 1
    return status


def toybox(p: Proc, args: list[str]) -> int:
    """`toybox X ...` / `busybox X ...` run X (uiautomator2 checks its jar with `toybox md5sum`)."""
    if not args:
        p.line(" ".join(sorted(COMMANDS)))
        return 0
    func = COMMANDS.get(args[0])
    if func is None:
        raise CommandError(f"{p.name}: Unknown command {args[0]}")
    return func(Proc(p.phone, args[0], p.stdin, p.stdout, p.stderr, p.cwd, p.env, p.run), args[1:])


SERVICES: dict[str, Command] = {
    "activity": am.am,
    "package": pm.pm,
    "settings": settings.settings,
    "input": screen.input_cmd,
    "window": screen.wm,
    "input_method": settings.ime,
    "wifi": settings.cmd_wifi,
    "connectivity": settings.cmd_connectivity,
    "uimode": settings.cmd_uimode,
    "statusbar": system.silent_ok,
    "lock_settings": system.silent_ok,
    "masbench": cmd_masbench,
}


def cmd(p: Proc, args: list[str]) -> int:
    """`cmd SERVICE ...`: the binder shell commands that `am`, `pm`, `settings`... are front ends to."""
    if not args or args[0] == "-l":
        p.lines(["Currently running services:", *(f"  {name}" for name in sorted(SERVICES))])
        return 0
    service = SERVICES.get(args[0])
    if service is None:
        raise CommandError(f"cmd: Can't find service: {args[0]}", 20)
    return service(p, args[1:])


COMMANDS: dict[str, Command] = {
    **text.COMMANDS,
    **files.COMMANDS,
    **screen.COMMANDS,
    **dumpsys.COMMANDS,
    **am.COMMANDS,
    **pm.COMMANDS,
    **settings.COMMANDS,
    **system.COMMANDS,
    **screenrecord.COMMANDS,
    **kernel.COMMANDS,
    **getevent.COMMANDS,
    **power.COMMANDS,
    "which": which,
    "toybox": toybox,
    "busybox": toybox,
    "cmd": cmd,
}


def lookup(name: str) -> Command | None:
    return COMMANDS.get(name)
