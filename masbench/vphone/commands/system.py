"""Processes, signals and the log, and the commands a virtual phone only pretends to have: ps, pidof,
pgrep/pkill, logcat, getevent..."""

from __future__ import annotations

import json
import re
import weakref
from datetime import timedelta
from typing import TYPE_CHECKING

from ..phone import IMES
from . import screenrecord
from .base import SHELL_PID, CommandError, Proc, getopt, parse_int, pid_of, uid_of, user_name

if TYPE_CHECKING:
    from ..eventlog import Event
    from ..phone import VirtualPhone

ZYGOTE_PID = 340
SYSTEM_SERVER_PID = 601
PS_HEADER = "USER            PID   PPID        VSZ    RSS WCHAN            ADDR S NAME"
BASE_PROCESSES = (
    ("root", 1, 0, "init"),
    ("root", 2, 0, "[kthreadd]"),
    ("logd", 212, 1, "logd"),
    ("root", ZYGOTE_PID, 1, "zygote64"),
    ("shell", 412, 1, "adbd"),
    ("system", SYSTEM_SERVER_PID, ZYGOTE_PID, "system_server"),
)
LOGCAT_FORMATS = (
    "brief",
    "process",
    "tag",
    "thread",
    "raw",
    "time",
    "threadtime",
    "long",
    "epoch",
    "monotonic",
)
# The uiautomator2 server's launch line and the device port it then listens on (adb/tcp.py serves it).
U2_SERVICE = "uiautomator"
U2_JAR = "/data/local/tmp/u2.jar"
U2_MAIN_CLASSES = ("com.wetest.uia2.Main", "com.github.uiautomator.stub.Stub")
U2_DEFAULT_PORT = 9008
# Where `logcat -c` left each phone's log: (the events list it saw, how many entries were cleared).
_cleared: weakref.WeakKeyDictionary[VirtualPhone, tuple[list[Event], int]] = weakref.WeakKeyDictionary()


def _processes(phone: VirtualPhone) -> list[tuple[str, int, int, str]]:
    current_ime = phone.settings["secure"].get("default_input_method", "")
    apps = {"com.android.systemui", phone.home_package, *phone.running}
    apps |= {ime.split("/")[0] for ime in IMES if ime == current_ime}
    rows = list(BASE_PROCESSES)
    rows += [(user_name(uid_of(phone, pkg)), pid_of(phone, pkg), ZYGOTE_PID, pkg) for pkg in sorted(apps)]
    rows += [("shell", r.pid, SHELL_PID, "screenrecord") for r in screenrecord.running(phone)]
    return rows


def _row(user: str, pid: int, ppid: int, name: str) -> str:
    vsz, rss = (
        (14_000_000 + pid * 97 % 900_000, 90_000 + pid * 13 % 60_000)
        if ppid == ZYGOTE_PID
        else (10_900_000, 4_000)
    )
    wchan = "do_epoll_wait" if name not in ("ps",) else "0"
    state = "R" if name == "ps" else "S"
    return f"{user:<12} {pid:>6} {ppid:>6} {vsz:>10} {rss:>6} {wchan:<16} {0:>4} {state} {name}"


def ps(p: Proc, args: list[str]) -> int:
    opts, names = getopt("ps", args, "AaedfZlLTwnM", "opkgGtuU")
    rows = _processes(p.phone) if {"A", "e"} & opts.keys() else []
    rows += [("shell", SHELL_PID, 412, "sh"), ("shell", SHELL_PID + 3, SHELL_PID, "ps")]
    if "p" in opts:
        wanted = {pid for spec in opts["p"] for pid in re.split(r"[,\s]+", spec) if pid}
        rows = [r for r in rows if str(r[1]) in wanted]
    if names:
        rows = [r for r in rows if r[3] in names]
    p.lines([PS_HEADER, *(_row(*r) for r in rows)])
    return 0


def pidof(p: Proc, args: list[str]) -> int:
    _, names = getopt("pidof", args, "s", "o")
    pids = [str(r[1]) for name in names for r in _processes(p.phone) if r[3] == name]
    if not pids:
        return 1
    p.line(" ".join(pids))
    return 0


SYSTEM_SERVER_TIDS = {"ActivityTaskManager": 2125, "ActivityManager": 2124}  # their binder threads


SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "TERM": 15, "CONT": 18, "STOP": 19}  # fmt: skip


def _signal(spec: str, name: str) -> int:
    """`2`, `INT` or `SIGINT` (toybox's sig_to_num)."""
    if spec.isdigit():
        return int(spec)
    number = SIGNALS.get(spec.upper().removeprefix("SIG"))
    if number is None:
        raise CommandError(f"{name}: Unknown signal '{spec}'")
    return number


def _send(p: Proc, pid: int, user: str, signal: int) -> bool:
    """Deliver a signal as the shell user may: to its own processes only (screenrecord ends on INT,
    TERM or KILL; the shell itself carries on). False when the kernel would refuse (EPERM)."""
    if user != "shell":
        return False
    recording = next((r for r in screenrecord.running(p.phone) if r.pid == pid), None)
    if recording is not None and signal in (SIGNALS["INT"], SIGNALS["TERM"], SIGNALS["KILL"], SIGNALS["HUP"]):
        screenrecord.stop(p.phone, recording, finish=signal != SIGNALS["KILL"])
    return True


def pgrep(p: Proc, args: list[str]) -> int:
    """toybox pgrep/pkill: extended regexes matched anywhere in the name (-f: the command line, -x: whole),
    -v inverts, -n/-o newest/oldest; pkill -SIGNAL (or -l SIGNAL) signals each match and reports a refusal
    as `pkill: INT->PID: Operation not permitted`. Exit 0 if the last match went through, 1 otherwise."""
    kill = p.name == "pkill"
    signal = SIGNALS["TERM"] if kill else 0
    rest = []
    for arg in args:
        if (
            kill
            and arg[:1] == "-"
            and len(arg) > 1
            and (arg[1:].isdigit() or arg[1:].upper().removeprefix("SIG") in SIGNALS)
        ):
            signal = _signal(arg[1:], p.name)
        else:
            rest.append(arg)
    opts, patterns = getopt(p.name, rest, "fnovxc" + ("" if kill else "l"), "ld" if kill else "d")
    if kill and "l" in opts:
        signal = _signal(opts["l"][-1], p.name)
    try:
        regexes = [re.compile(pattern) for pattern in patterns]
    except re.error as exc:
        raise CommandError(f"{p.name}: bad regex: {exc}") from None
    commands = {r.pid: r.command for r in screenrecord.running(p.phone)}
    matches = []
    for user, pid, _ppid, name in [*_processes(p.phone), ("shell", SHELL_PID, 412, "sh")]:
        text = commands.get(pid, name) if "f" in opts else name
        hit = any(rx.fullmatch(text) if "x" in opts else rx.search(text) for rx in regexes)
        if not regexes or hit != ("v" in opts):
            matches.append((pid, user, text))
    matches.sort()
    if matches and ("n" in opts or "o" in opts):
        matches = [matches[-1] if "n" in opts else matches[0]]
    status = 1
    shown = []
    for pid, user, text in matches:
        status = 0
        if kill and not _send(p, pid, user, signal):
            name = next((k for k, v in SIGNALS.items() if v == signal), str(signal))
            p.err(f"{p.name}: {name}->{pid}: Operation not permitted")
            status = 1
        elif not kill:
            shown.append(f"{pid} {text}" if "l" in opts else str(pid))
    if "c" in opts:
        p.line(str(len(matches)))
    elif shown:
        p.out(opts.get("d", ["\n"])[-1].join(shown) + "\n")
    return status


def kill(p: Proc, args: list[str]) -> int:
    """mksh's kill builtin: `kill [-s NAME | -NAME | -N] PID...`, `kill -l`; the shell user may signal
    only its own processes."""
    if args[:1] == ["-l"]:
        p.line(" ".join(SIGNALS))
        return 0
    signal = SIGNALS["TERM"]
    if args[:1] == ["-s"] and len(args) > 1:
        signal, args = _signal(args[1], "/system/bin/sh: kill"), args[2:]
    elif args[:1] and args[0][:1] == "-" and len(args[0]) > 1:
        signal, args = _signal(args[0][1:], "/system/bin/sh: kill"), args[1:]
    if not args:
        raise CommandError(
            "/system/bin/sh: kill: usage: kill [-s signame | -signum | -signame] { job | pid | pgrp } ..."
        )
    users = {pid: user for user, pid, _ppid, _name in [*_processes(p.phone), ("shell", SHELL_PID, 412, "sh")]}
    status = 0
    for spec in args:
        pid = parse_int(spec, f"/system/bin/sh: kill: {spec}: arguments must be jobs or process IDs")
        if pid not in users:
            p.err(f"/system/bin/sh: kill: {pid}: No such process")
            status = 1
        elif not _send(p, pid, users[pid], signal):
            p.err(f"/system/bin/sh: kill: {pid}: Operation not permitted")
            status = 1
    return status


def _log_entry(phone: VirtualPhone, event: Event) -> tuple[int, str, str, str]:
    """(pid, level, tag, message) for an event: the platform's own line where Android logs one (starts,
    force-stops, crashes), else the event as JSON under the `masbench` tag."""
    data = event.data
    package = data.get("package", "")
    if event.kind == "start":
        intent = " ".join(
            f"{key}={value}"
            for key, value in (("act", data.get("action")), ("dat", data.get("data")))
            if value
        )
        component = f"{package}/{data.get('activity', '')}"
        return (
            SYSTEM_SERVER_PID,
            "I",
            "ActivityTaskManager",
            (
                f"START u0 {{{intent + ' ' if intent else ''}cmp={component}}} with LAUNCH_MULTIPLE "
                f"from uid 2000 (BAL_ALLOW_PERMISSION) result code=0"
            ),
        )
    if event.kind == "force_stop" and package in phone.apps:
        uid = uid_of(phone, package)
        return (
            SYSTEM_SERVER_PID,
            "I",
            "ActivityManager",
            (f"Force stopping {package} appid={uid} user=0: from pid {SHELL_PID}"),
        )
    if event.kind == "crash" and package in phone.apps:
        return (
            pid_of(phone, package),
            "E",
            "AndroidRuntime",
            (
                f"FATAL EXCEPTION: main Process: {package}, PID: {pid_of(phone, package)} {data.get('error', '')}"
            ),
        )
    return SYSTEM_SERVER_PID, "I", "masbench", json.dumps(event.as_json(), sort_keys=True, ensure_ascii=False)


def _log_line(phone: VirtualPhone, event: Event, fmt: str) -> str:
    stamp = phone.boot_clock + timedelta(milliseconds=event.t_ms)
    when = f"{stamp:%m-%d %H:%M:%S}.{stamp.microsecond // 1000:03d}"
    pid, level, tag, message = _log_entry(phone, event)
    tid = SYSTEM_SERVER_TIDS.get(tag, pid)
    if fmt == "time":
        return f"{when} {level}/{tag}({pid:>5}): {message}"
    if fmt == "brief":
        return f"{level}/{tag}({pid:>5}): {message}"
    if fmt == "raw":
        return message
    return f"{when} {pid:>5} {tid:>5} {level} {tag}: {message}"


def clear_log(phone: VirtualPhone) -> None:
    """Empty the log buffer (`logcat -c`, a reboot); the phone's event log itself stays whole."""
    _cleared[phone] = (phone.events, len(phone.events))


def logcat(p: Proc, args: list[str]) -> int:
    """The phone's event log as logcat lines. It never streams: without -d it dumps and exits too."""
    opts, _ = getopt(
        "logcat", args, "cdDgSsBQ", "vtTbefnrmpPxu",
        longs={"--clear": "c", "--dump": "d", "--format": "v", "--buffer": "b", "--regex": "e", "--pid": "x", "--max-count": "m", "--uid": "u"},
    )  # fmt: skip
    phone = p.phone
    if "c" in opts:
        clear_log(phone)
        return 0
    if "g" in opts:
        p.line("main: ring buffer is 256 KiB (0 B consumed), max entry is 5120 B, max payload is 4068 B")
        return 0
    fmt = next((v for v in reversed(opts.get("v", [])) if v in LOGCAT_FORMATS), "threadtime")
    seen, cleared = _cleared.get(phone, (None, 0))
    events = phone.events[cleared if seen is phone.events else 0 :]
    lines = [_log_line(phone, e, fmt) for e in events]
    if "e" in opts:
        try:
            regex = re.compile(opts["e"][-1])
        except re.error as exc:
            raise CommandError(f"logcat: invalid regex: {exc}") from None
        lines = [line for line in lines if regex.search(line)]
    if "t" in opts or "T" in opts:
        count = parse_int((opts.get("t") or opts["T"])[-1], "logcat: -t needs a count")
        lines = lines[-count:] if count > 0 else lines
    if "m" in opts:
        lines = lines[: max(0, parse_int(opts["m"][-1], "logcat: -m needs a count"))]
    p.lines(["--------- beginning of main", *lines])
    return 0


def getevent(p: Proc, args: list[str]) -> int:
    raise CommandError("getevent: no input devices on a virtual phone (use `input`)")


def app_process(p: Proc, args: list[str]) -> int:
    """Only the uiautomator2 server runs here (its jar pushed first, as the client does): it starts
    listening on its device port; the ADB shell that started it keeps it alive until it is closed."""
    if not _is_u2_server(p.env, args):
        main = next((a for a in args[1:] if not a.startswith("-")), "")
        raise CommandError(f"Error: Could not find or load main class {main}")
    if not p.phone.fs.exists(U2_JAR):
        raise CommandError(f"Error: Could not find or load main class (no {U2_JAR})")
    p.phone.tcp_services[_u2_port(args)] = U2_SERVICE
    p.line("[server] INFO: [UiAutomator2Server] Starting Server")
    return 0


def _is_u2_server(env: dict[str, str], args: list[str]) -> bool:
    """Is this `app_process` line the uiautomator2 server's launch?"""
    return U2_JAR in env.get("CLASSPATH", "") and any(a in U2_MAIN_CLASSES for a in args)


def _u2_port(args: list[str]) -> int:
    """The `-p PORT` of the launch line (9008 without one)."""
    if "-p" in args and args.index("-p") + 1 < len(args):
        return int(args[args.index("-p") + 1])
    return U2_DEFAULT_PORT


def silent_ok(p: Proc, args: list[str]) -> int:
    return 0


COMMANDS = {
    "ps": ps,
    "pidof": pidof,
    "logcat": logcat,
    "getevent": getevent,
    "sendevent": getevent,
    "app_process": app_process,
    "app_process64": app_process,
    "locksettings": silent_ok,
    "pgrep": pgrep,
    "kill": kill,
    "pkill": pgrep,
}
