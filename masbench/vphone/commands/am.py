"""The activity manager (`am`, `cmd activity`) and `monkey`: intents built from Android's own flag syntax.

Exit codes: real `am start` exits 0 even when the intent does not resolve. Here a start that fails exits 1
(and prints Android's error text), so a shortcut script can tell a dead deep link from a working one.
Argument errors that Android reports as an exception keep its exit status 255.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..intents import ACTION_MAIN, ACTION_VIEW, CATEGORY_LAUNCHER, Intent, short_component
from .base import SHELL_PID, CommandError, Proc, parse_float, parse_int, uid_of

if TYPE_CHECKING:
    from ..phone import VirtualPhone

FLAG_RECEIVER_FOREGROUND = 0x00400000  # `am broadcast` always adds it
# Intent flags that `am` spells as options; we record them, the model does not act on them.
FLAG_OPTIONS = {
    "--grant-read-uri-permission": 0x1,
    "--grant-write-uri-permission": 0x2,
    "--grant-persistable-uri-permission": 0x40,
    "--grant-prefix-uri-permission": 0x80,
    "--debug-log-resolution": 0x8,
    "--exclude-stopped-packages": 0x10,
    "--include-stopped-packages": 0x20,
    "--activity-brought-to-front": 0x400000,
    "--activity-clear-top": 0x4000000,
    "--activity-clear-when-task-reset": 0x80000,
    "--activity-exclude-from-recents": 0x800000,
    "--activity-launched-from-history": 0x100000,
    "--activity-multiple-task": 0x8000000,
    "--activity-no-animation": 0x10000,
    "--activity-no-history": 0x40000000,
    "--activity-no-user-action": 0x40000,
    "--activity-previous-is-top": 0x1000000,
    "--activity-reorder-to-front": 0x20000,
    "--activity-reset-task-if-needed": 0x200000,
    "--activity-single-top": 0x20000000,
    "--activity-clear-task": 0x8000,
    "--activity-task-on-home": 0x4000,
    "--activity-match-external": 0x800,
    "--receiver-registered-only": 0x40000000,
    "--receiver-replace-pending": 0x20000000,
    "--receiver-foreground": 0x10000000,
    "--receiver-no-abort": 0x8000000,
    "--receiver-include-background": 0x1000000,
}
START_OPTIONS = {  # option -> takes a value
    "-D": False, "-N": False, "-W": False, "-S": False, "--streaming": False, "--track-allocation": False,
    "--task-overlay": False, "--lock-task": False, "--allow-background-activity-starts": False,
    "--dismiss-keyguard": False, "-P": True, "--start-profiler": True, "--sampling": True, "--attach-agent": True,
    "--attach-agent-bind": True, "-R": True, "--user": True, "--display": True, "--windowingMode": True,
    "--activityType": True, "--task": True, "--splashscreen-show-icon": False,
}  # fmt: skip
BROADCAST_OPTIONS = {"--user": True, "--receiver-permission": True, "--async": False, "--allow-background-activity-starts": False}  # fmt: skip
STOP_OPTIONS = {"--user": True}


@dataclass
class IntentArgs:
    intent: Intent
    options: dict[str, str] = field(default_factory=dict)


def shell_exception(command: str, text: str) -> CommandError:
    """What Android's ShellCommand prints when the command throws; exit status 255 (-1)."""
    return CommandError(f"Exception occurred while executing '{command}':\n{text}", 255)


def _number_error(command: str, text: str) -> str:
    return shell_exception(command, f'java.lang.NumberFormatException: For input string: "{text}"').message


def _int(command: str, text: str) -> int:
    return parse_int(text, _number_error(command, text), 255)


def _float(command: str, text: str) -> float:
    return parse_float(text, _number_error(command, text), 255)


def _split_array(value: str) -> list[str]:
    """`--esa k a,b\\,c` → ["a", "b,c"], Android's escaped-comma split."""
    return [part.replace("\\,", ",") for part in re.split(r"(?<!\\),", value)]


def _bool(command: str, value: str) -> bool:
    low = value.lower()
    if low in ("true", "t"):
        return True
    if low in ("false", "f"):
        return False
    return _int(command, value) != 0


def parse_intent(command: str, args: list[str], options: dict[str, bool]) -> IntentArgs:
    """Android's `Intent.parseCommandArgs` plus the command's own options; the trailing operand is a
    URI (has ':'), a component (has '/') or a package, as in `am start URI`."""
    intent = Intent()
    parsed = IntentArgs(intent)
    it = iter(args)
    rest: list[str] = []

    def value(opt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise shell_exception(
                command, f'java.lang.IllegalArgumentException: Argument expected after "{opt}"'
            ) from None

    for arg in it:
        if arg == "--":
            rest.extend(it)
            break
        if not arg.startswith("-") or arg == "-":
            rest.append(arg)
            rest.extend(it)
            break
        if arg in options:
            parsed.options[arg] = value(arg) if options[arg] else ""
        elif arg == "-a":
            intent.action = value(arg)
        elif arg == "-d":
            intent.data = value(arg)
        elif arg == "-t":
            intent.mime_type = value(arg)
        elif arg == "-c":
            intent.categories.append(value(arg))
        elif arg == "-n":
            cmp = value(arg)
            if "/" not in cmp or cmp.startswith("/") or cmp.endswith("/"):
                raise shell_exception(
                    command, f"java.lang.IllegalArgumentException: Bad component name: {cmp}"
                )
            intent.component = cmp
        elif arg == "-p":
            intent.package = value(arg)
        elif arg == "-f":
            intent.flags |= _int(command, value(arg))
        elif arg == "-i":
            value(arg)
        elif arg in ("-e", "--es", "--eu", "--ecn"):
            key = value(arg)
            intent.extras[key] = value(arg)
        elif arg == "--esn":
            intent.extras[value(arg)] = None
        elif arg in ("--ei", "--el"):
            key = value(arg)
            intent.extras[key] = _int(command, value(arg))
        elif arg in ("--ef", "--ed"):
            key = value(arg)
            intent.extras[key] = _float(command, value(arg))
        elif arg == "--ez":
            key = value(arg)
            intent.extras[key] = _bool(command, value(arg))
        elif arg in ("--esa", "--esal"):
            key = value(arg)
            intent.extras[key] = _split_array(value(arg))
        elif arg in ("--eia", "--eial", "--ela", "--elal"):
            key = value(arg)
            intent.extras[key] = [_int(command, v) for v in value(arg).split(",")]
        elif arg in ("--efa", "--efal", "--eda", "--edal"):
            key = value(arg)
            intent.extras[key] = [_float(command, v) for v in value(arg).split(",")]
        elif arg in FLAG_OPTIONS:
            intent.flags |= FLAG_OPTIONS[arg]
        elif arg == "--selector":
            continue
        else:
            raise shell_exception(command, f"java.lang.IllegalArgumentException: Unknown option: {arg}")
    if rest:
        target = rest[0]
        if ":" in target:
            intent.data = intent.data or target
            intent.action = intent.action or ACTION_VIEW
        elif "/" in target:
            intent.action = intent.action or ACTION_MAIN
            intent.categories = intent.categories or [CATEGORY_LAUNCHER]
            intent.component = intent.component or target
        else:
            intent.action = intent.action or ACTION_MAIN
            intent.categories = intent.categories or [CATEGORY_LAUNCHER]
            intent.package = intent.package or target
    return parsed


def target_package(phone: VirtualPhone, intent: Intent) -> str | None:
    if parts := intent.component_parts():
        return parts[0]
    if intent.package:
        return intent.package
    resolved = phone.resolve_activity(intent)
    return resolved[0].package if resolved else None


def start(p: Proc, args: list[str], command: str = "start") -> int:
    parsed = parse_intent(command, args, START_OPTIONS)
    intent, options = parsed.intent, parsed.options
    if not (intent.action or intent.data or intent.component or intent.package or intent.categories):
        raise shell_exception(command, "java.lang.IllegalArgumentException: No intent supplied")
    phone = p.phone
    package = target_package(phone, intent)
    if "-S" in options and package in phone.apps:
        p.line(f"Stopping: {package}")
        phone.force_stop(package)
    p.line(f"Starting: {intent.short_string()}")
    if parts := intent.component_parts():
        app = phone.apps.get(parts[0])
        activity = app.activity(parts[1]) if app else None
        if activity is None:
            raise CommandError(
                f"Error type 3\nError: Activity class {{{parts[0]}/{parts[1]}}} does not exist."
            )
        if not activity.exported:
            raise shell_exception(
                command,
                f"java.lang.SecurityException: Permission Denial: starting {intent.short_string(0x10000000)} from null "
                f"(pid={SHELL_PID}, uid=2000) not exported from uid {uid_of(phone, parts[0])}",
            )
    cold = package not in phone.running
    before = phone.device_ms
    error = phone.start_activity(intent)
    if error:
        raise CommandError(error)
    if "-W" in options:
        elapsed = phone.device_ms - before
        p.lines(
            [
                "Status: ok",
                f"LaunchState: {'COLD' if cold else 'WARM'}",
                f"Activity: {short_component(*phone.current_focus())}",
                f"TotalTime: {elapsed}",
                f"WaitTime: {elapsed + 3}",
                "Complete",
            ]
        )
    return 0


def broadcast(p: Proc, args: list[str]) -> int:
    intent = parse_intent("broadcast", args, BROADCAST_OPTIONS).intent
    p.line(f"Broadcasting: {intent.short_string(FLAG_RECEIVER_FOREGROUND)}")
    code, data = p.phone.broadcast(intent)
    p.line(f"Broadcast completed: result={code}" + (f', data="{data}"' if data is not None else ""))
    return 0


def _packages_arg(command: str, args: list[str]) -> list[str]:
    names = []
    it = iter(args)
    for arg in it:
        if arg == "--user":
            next(it, None)
        elif not arg.startswith("-"):
            names.append(arg)
    if not names:
        raise shell_exception(
            command, 'java.lang.IllegalArgumentException: Argument expected after "' + command + '"'
        )
    return names


def am(p: Proc, args: list[str]) -> int:
    if not args:
        p.line(
            "Activity manager (activity) commands:\n  start [-W] [-S] [--user N] <INTENT>\n  "
            "force-stop <PACKAGE>\n  kill <PACKAGE>\n  broadcast <INTENT>\n  get-current-user"
        )
        return 0
    sub, rest = args[0], args[1:]
    phone = p.phone
    if sub in ("start", "start-activity"):
        return start(p, rest, sub)
    if sub == "broadcast":
        return broadcast(p, rest)
    if sub == "force-stop":
        for package in _packages_arg(sub, rest):
            if package in phone.apps:
                phone.force_stop(package)
        return 0
    if sub in ("kill", "kill-all"):
        background = phone.running - {phone.top.package}
        victims = background if sub == "kill-all" else set(_packages_arg(sub, rest)) & background
        for package in sorted(victims):
            phone.running.discard(package)
            phone.log("kill", package=package)
        return 0
    if sub in ("startservice", "start-service", "start-foreground-service", "stopservice", "stop-service"):
        intent = parse_intent(sub, rest, STOP_OPTIONS).intent
        p.line(f"{'Stopping' if 'stop' in sub else 'Starting'} service: {intent.short_string()}")
        raise CommandError("Error: Not found; no service started.")
    if sub == "get-current-user":
        p.line("0")
        return 0
    if sub == "stack" and rest[:1] == ["list"]:
        stack_list(p)
        return 0
    raise CommandError(f"Unknown command: {sub}", 255)


def stack_list(p: Proc) -> None:
    """`am stack list`: one root task per app on the back stack, the top one first, as Android 15 prints."""
    w, h = p.phone.width, p.phone.height
    tasks: dict[str, str] = {}
    for screen in reversed(p.phone.stack):
        tasks.setdefault(screen.package, screen.activity)
    for number, (package, activity) in enumerate(tasks.items()):
        task_id = 100 - number
        p.lines(
            [
                f"RootTask id={task_id} bounds=[0,0][{w},{h}] displayId=0 userId=0",
                f"  taskId={task_id}: {package}/{activity} bounds=[0,0][{w},{h}] userId=0 visible={str(number == 0).lower()} "
                f"topActivity=ComponentInfo{{{package}/{activity}}}",
            ]
        )


MONKEY_VALUE_OPTIONS = {
    "-p",
    "-c",
    "-s",
    "--throttle",
    "--port",
    "--pkg-blacklist-file",
    "--pkg-whitelist-file",
}


def monkey(p: Proc, args: list[str]) -> int:
    """Only the launch event: monkey's first event starts the package; random events are not simulated."""
    packages: list[str] = []
    count = None
    it = iter(args)
    for arg in it:
        if arg in MONKEY_VALUE_OPTIONS or arg.startswith("--pct-"):
            value = next(it, None)
            if value is None:
                raise CommandError(f"** Error: Missing argument for option: {arg}", 1)
            if arg == "-p":
                packages.append(value)
        elif arg.startswith("-"):
            continue
        elif count is None:
            count = parse_int(arg, f"** Error: Invalid count: {arg}")
    p.lines([f"  bash arg: {a}" for a in args])
    if count is None:
        raise CommandError("** Error: Count not specified", 1)
    phone = p.phone
    launchable = [pkg for pkg in packages if pkg in phone.apps and phone.apps[pkg].launcher_activity]
    if not launchable:
        raise CommandError("** No activities found to run, monkey aborted.", 251)
    error = phone.launch(launchable[0])
    if error:
        raise CommandError(f"** {error}", 251)
    p.lines(
        [
            "Events injected: 1",
            "## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)",
        ]
    )
    return 0


COMMANDS = {"am": am, "monkey": monkey}
