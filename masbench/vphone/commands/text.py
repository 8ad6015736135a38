"""Text tools and small system queries: echo, printf, test, grep, head, tail, wc, base64, date, getprop..."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

from .base import CommandError, Proc, decode, getopt, parse_float, parse_int
from .kernel import proc_file
from .power import finish_boot, visible_props

ESCAPES = {
    "\\": "\\",
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
}
ID = (
    "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),"
    "1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),"
    "3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:shell:s0"
)
KERNEL = "6.6.30-android15-8-gdd3eb0c2a8c5-ab12187566"
KERNEL_VERSION = "#1 SMP PREEMPT Fri Aug  9 18:42:07 UTC 2024"


def unescape(text: str) -> tuple[str, bool]:
    """echo -e / printf escapes; the flag is False when `\\c` asked to stop output."""
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\" or i + 1 >= len(text):
            out.append(c)
            i += 1
            continue
        nxt = text[i + 1]
        i += 2
        if nxt == "c":
            return "".join(out), False
        if nxt in ESCAPES:
            out.append(ESCAPES[nxt])
        elif nxt in "01234567":
            more = re.match(r"[0-7]{0,3}" if nxt == "0" else r"[0-7]{0,2}", text[i:])
            assert more is not None  # it matches the empty string at worst
            i += more.end()
            digits = more.group() if nxt == "0" else nxt + more.group()
            out.append(chr(int(digits or "0", 8) & 0xFF))
        elif nxt == "x" and (m := re.match(r"[0-9a-fA-F]{1,2}", text[i:])):
            out.append(chr(int(m.group(), 16)))
            i += m.end()
        else:
            out.append("\\" + nxt)
    return "".join(out), True


def echo(p: Proc, args: list[str]) -> int:
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        for flag in args[0][1:]:
            newline = newline and flag != "n"
            escapes = {"e": True, "E": False}.get(flag, escapes)
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text, go_on = unescape(text)
        newline = newline and go_on
    p.out(text + ("\n" if newline else ""))
    return 0


PRINTF_SPEC = re.compile(r"%([-+ #0]*\d{0,4}(?:\.\d{0,4})?)([sdiouxXfFeEgGcb%])")  # bounded widths


def printf(p: Proc, args: list[str]) -> int:
    if not args:
        raise CommandError("printf: Needs 1 argument")
    fmt, values = args[0], args[1:]
    status = 0

    def convert(m: re.Match[str]) -> str:
        nonlocal status
        flags, conv = m.groups()
        if conv == "%":
            return "%"
        value = values.pop(0) if values else ""
        if conv in "sb":
            return ("%" + flags + "s") % (unescape(value)[0] if conv == "b" else value)
        if conv == "c":
            return value[:1]
        try:
            number: float = float(value or 0) if conv in "fFeEgG" else int(value or "0", 0)
        except ValueError:
            p.err(f"printf: invalid number '{value}'")
            status, number = 1, 0
        return ("%" + flags + ("d" if conv in "iu" else conv)) % number

    def once() -> tuple[str, bool]:
        """Escapes are read in the format's literal text only, never in the substituted values."""
        pieces, last = [], 0
        for m in PRINTF_SPEC.finditer(fmt):
            literal, go_on = unescape(fmt[last : m.start()])
            pieces.append(literal)
            if not go_on:
                return "".join(pieces), False
            pieces.append(convert(m))
            last = m.end()
        literal, go_on = unescape(fmt[last:])
        return "".join(pieces) + literal, go_on

    while True:
        before = len(values)
        text, go_on = once()
        p.out(text)
        if not go_on or not values or len(values) == before:
            return status


def true(p: Proc, args: list[str]) -> int:
    return 0


def false(p: Proc, args: list[str]) -> int:
    return 1


def sleep(p: Proc, args: list[str]) -> int:
    """Advances the modelled device clock instead of blocking the ADB server."""
    if not args:
        raise CommandError("sleep: Needs 1 argument")
    total = 0.0
    for arg in args:
        unit = {"s": 1, "m": 60, "h": 3600, "d": 86400}.get(arg[-1:])
        number = arg[:-1] if unit else arg
        value = parse_float(number, f"sleep: invalid number '{arg}'")
        if value < 0:
            raise CommandError(f"sleep: invalid number '{arg}'")
        total += value * (unit or 1)
    p.phone.device_ms += int(min(total, 10**9) * 1000)
    p.phone.invalidate()  # time passed on screen: the clock moves on, toasts run out
    return 0


# -- test / [ ----------------------------------------------------------------------------------------
def test(p: Proc, args: list[str]) -> int:
    if p.name == "[":
        if not args or args[-1] != "]":
            raise CommandError("[: missing ]", 2)
        args = args[:-1]
    try:
        result, rest = _test_or(p, args)
        if rest:
            raise CommandError(f"test: extra operand '{rest[0]}'", 2)
    except IndexError:
        raise CommandError("test: missing argument", 2) from None
    return 0 if result else 1


def _test_or(p: Proc, args: list[str]) -> tuple[bool, list[str]]:
    left, args = _test_and(p, args)
    while args and args[0] == "-o":
        right, args = _test_and(p, args[1:])
        left = left or right
    return left, args


def _test_and(p: Proc, args: list[str]) -> tuple[bool, list[str]]:
    left, args = _test_not(p, args)
    while args and args[0] == "-a":
        right, args = _test_not(p, args[1:])
        left = left and right
    return left, args


def _test_not(p: Proc, args: list[str]) -> tuple[bool, list[str]]:
    negations = 0
    while len(args) > 1 and args[0] == "!":
        negations += 1
        args = args[1:]
    value, rest = _test_primary(p, args)
    return value != bool(negations % 2), rest


def _test_primary(p: Proc, args: list[str]) -> tuple[bool, list[str]]:
    if not args:
        return False, []
    if len(args) >= 3 and args[1] in STRING_TESTS:
        a, op, b = args[:3]
        return (a == b) == (op != "!="), args[3:]
    if len(args) >= 3 and args[1] in BINARY_TESTS:
        a, op, b = args[:3]
        x = parse_int(a, f"test: invalid integer '{a}'", 2)
        y = parse_int(b, f"test: invalid integer '{b}'", 2)
        return BINARY_TESTS[op](x, y), args[3:]
    if len(args) >= 2 and args[0] in UNARY_TESTS:
        return UNARY_TESTS[args[0]](p, args[1]), args[2:]
    return args[0] != "", args[1:]


STRING_TESTS = ("=", "==", "!=")
BINARY_TESTS: dict[str, Callable[[int, int], bool]] = {
    "-eq": lambda x, y: x == y,
    "-ne": lambda x, y: x != y,
    "-lt": lambda x, y: x < y,
    "-le": lambda x, y: x <= y,
    "-gt": lambda x, y: x > y,
    "-ge": lambda x, y: x >= y,
}
UNARY_TESTS: dict[str, Callable[[Proc, str], bool]] = {
    "-z": lambda p, s: s == "",
    "-n": lambda p, s: s != "",
    "-e": lambda p, s: p.phone.fs.exists(p.path(s)),
    "-f": lambda p, s: p.phone.fs.exists(p.path(s)) and not p.phone.fs.is_dir(p.path(s)),
    "-d": lambda p, s: p.phone.fs.is_dir(p.path(s)),
    "-s": lambda p, s: (p.phone.fs.stat(p.path(s)) or (0, 0, 0))[1] > 0,
    "-r": lambda p, s: p.phone.fs.exists(p.path(s)),
    "-w": lambda p, s: p.phone.fs.exists(p.path(s)),
    "-x": lambda p, s: p.phone.fs.is_dir(p.path(s)),
}


# -- filters -----------------------------------------------------------------------------------------
def inputs(p: Proc, files: list[str]) -> tuple[list[tuple[str, bytes]], int]:
    """(name, content) of each operand (`-` or none: stdin), reporting unreadable ones toybox-style."""
    if not files:
        return [("(standard input)", p.stdin)], 0
    found, status = [], 0
    for name in files:
        if name == "-":
            found.append(("(standard input)", p.stdin))
            continue
        generated = proc_file(p.phone, p.path(name))
        if generated is not None:
            found.append((name, generated))
            continue
        try:
            found.append((name, p.phone.fs.read(p.path(name))))
        except FileNotFoundError:
            p.err(f"{p.name}: {name}: No such file or directory")
            status = 1
        except IsADirectoryError:
            p.err(f"{p.name}: {name}: Is a directory")
            status = 1
    return found, status


def _cut_ranges(spec: str, flag: str) -> list[tuple[int, int]]:
    """toybox cut's LIST: `N`, `A-B`, `A-` (to the end), `-B` (from the start), comma separated; 1-based."""
    ranges = []
    for part in spec.split(","):
        m = re.fullmatch(r"(\d*)(-?)(\d*)", part)
        if m is None or not (m.group(1) or m.group(3)) or (m.group(3) and not m.group(2)):
            raise CommandError(f"cut: bad -{flag} '{part}'")
        first = int(m.group(1) or 1)
        last = int(m.group(3)) if m.group(3) else (first if not m.group(2) else 2**31)
        if first < 1 or first > last:
            raise CommandError(f"cut: bad -{flag} '{part}'")
        ranges.append((first, last))
    return ranges


def cut(p: Proc, args: list[str]) -> int:
    """toybox cut: -b/-c positions, -f fields split on one DELIM character (TAB), -F fields split on a
    regex (runs of whitespace); -O sets the output separator, -s drops lines without a delimiter, -D keeps
    the LIST's order instead of sorting and merging it."""
    opts, files = getopt("cut", args, "sDn", "bcCfFdO")
    kinds = [k for k in "bcCfF" if k in opts]
    if "s" in opts and not {"f", "F"} & opts.keys():
        raise CommandError("cut: -s needs -Ff")
    if "d" in opts and not {"f", "F"} & opts.keys():
        raise CommandError("cut: -d needs -Ff")
    if not kinds:
        raise CommandError("cut: no selections")
    kind = kinds[-1]
    ranges = [r for k in kinds for spec in opts[k] for r in _cut_ranges(spec, k)]
    delim = opts.get("d", ["[[:space:]][[:space:]]*" if kind == "F" else "\t"])[-1]
    out_sep = opts.get("O", [" " if kind == "F" else delim])[-1]

    def pick(items: list[str]) -> list[str]:
        numbers = [n for first, last in ranges for n in range(first, min(last, len(items)) + 1)]
        return [items[n - 1] for n in (numbers if "D" in opts else sorted(set(numbers)))]

    found, status = inputs(p, files)
    for _, data in found:
        for line in decode(data).splitlines():
            if kind in "bcC":
                p.line("".join(pick(list(line))))
                continue
            if kind == "F":
                fields = re.split(delim.replace("[[:space:]]", r"\s"), line)
            else:
                fields = line.split(delim[:1])
            if len(fields) == 1:
                if "s" not in opts:
                    p.line(line)
                continue
            p.line(out_sep.join(pick(fields)))
    return status


def bre_to_python(pattern: str) -> str:
    """POSIX basic regex to Python: `\\(` `\\|` `\\{` are operators, bare `( | { + ?` are literals."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(nxt if nxt in "(){}|+?" else "\\" + nxt)
            i += 2
            continue
        out.append("\\" + c if c in "(){}|+?" else c)
        i += 1
    return "".join(out)


def grep(p: Proc, args: list[str]) -> int:
    opts, operands = getopt("grep", args, "ivEFqcnwxlshHo", "e")
    patterns = opts.get("e") or (operands[:1] if operands else None)
    if patterns is None:
        raise CommandError("grep: Needs 1 argument", 2)
    files = operands if "e" in opts else operands[1:]
    sources = []
    for pat in patterns:
        for alt in pat.split("\n"):
            body = re.escape(alt) if "F" in opts else (alt if "E" in opts else bre_to_python(alt))
            if "w" in opts:
                body = rf"(?<!\w)(?:{body})(?!\w)"
            if "x" in opts:
                body = rf"(?:{body})\Z"
            sources.append(body)
    try:
        regex = re.compile("|".join(f"(?:{s})" for s in sources), re.IGNORECASE if "i" in opts else 0)
    except (re.error, OverflowError, RecursionError) as exc:
        raise CommandError(f"grep: bad regex: {exc}", 2) from None
    found, status = inputs(p, files)
    show_name = ("H" in opts or len(files) > 1) and "h" not in opts
    matched_any = False
    for name, data in found:
        count = 0
        for n, line in enumerate(decode(data).splitlines(), 1):
            m = regex.match(line) if "x" in opts else regex.search(line)
            if bool(m) == ("v" in opts):
                continue
            count += 1
            matched_any = True
            if "q" in opts:
                return 0
            if "c" in opts or "l" in opts:
                continue
            prefix = (f"{name}:" if show_name else "") + (f"{n}:" if "n" in opts else "")
            if "o" in opts and "v" not in opts:
                for hit in regex.finditer(line):
                    if hit.group():
                        p.line(prefix + hit.group())
            else:
                p.line(prefix + line)
        if "c" in opts:
            p.line((f"{name}:" if show_name else "") + str(count))
        elif "l" in opts and count:
            p.line(name)
    if status and "s" in opts:
        status = 2
    return 0 if matched_any else (2 if status else 1)


def _count_option(name: str, args: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """head/tail accept the historical `-N` form besides `-n N`."""
    args = [f"-n{a[1:]}" if re.fullmatch(r"-\d+", a) else a for a in args]
    return getopt(name, args, "qv", "nc")


def head(p: Proc, args: list[str]) -> int:
    opts, files = _count_option("head", args)
    found, status = inputs(p, files)
    for k, (name, data) in enumerate(found):
        if len(found) > 1:
            p.out(f"{chr(10) if k else ''}==> {name} <==\n")
        if "c" in opts:
            p.out(data[: max(0, parse_int(opts["c"][-1], "head: bad -c"))])
            continue
        n = parse_int(opts.get("n", ["10"])[-1], "head: bad -n")
        lines = data.splitlines(keepends=True)
        p.out(b"".join(lines[:n]))  # a negative N means "all but the last N", as in GNU head
    return status


def tail(p: Proc, args: list[str]) -> int:
    opts, files = _count_option("tail", args)
    found, status = inputs(p, files)
    for k, (name, data) in enumerate(found):
        if len(found) > 1:
            p.out(f"{chr(10) if k else ''}==> {name} <==\n")
        if "c" in opts:
            count = parse_int(opts["c"][-1], "tail: bad -c")
            p.out(data[-count:] if count > 0 else b"")
            continue
        spec = opts.get("n", ["10"])[-1]
        lines = data.splitlines(keepends=True)
        if spec.startswith("+"):
            p.out(b"".join(lines[max(0, parse_int(spec[1:], "tail: bad -n") - 1) :]))
        else:
            n = abs(parse_int(spec, "tail: bad -n"))
            p.out(b"".join(lines[-n:] if n else []))
    return status


def wc(p: Proc, args: list[str]) -> int:
    opts, files = getopt("wc", args, "lwcm")
    wanted = [f for f in "lwc" if f in opts or (f == "c" and "m" in opts)] or ["l", "w", "c"]
    found, status = inputs(p, files)
    for name, data in found:
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data)}
        numbers = " ".join(str(counts[f]) for f in wanted)
        p.line(numbers if not files else f"{numbers} {name}")
    return status


def base64_cmd(p: Proc, args: list[str]) -> int:
    opts, files = getopt("base64", args, "di", "w")
    found, status = inputs(p, files[:1])
    for _, data in found:
        if "d" in opts:
            compact = b"".join(data.split())
            try:
                p.out(base64.b64decode(compact + b"=" * (-len(compact) % 4), validate="i" not in opts))
            except (binascii.Error, ValueError):
                raise CommandError("base64: bad input") from None
            continue
        encoded = base64.b64encode(data).decode()
        width = parse_int(opts.get("w", ["76"])[-1], "base64: bad -w")
        if width > 0:
            encoded = "\n".join(encoded[i : i + width] for i in range(0, len(encoded), width))
        p.line(encoded)
    return status


# -- identity and time -------------------------------------------------------------------------------
def id_cmd(p: Proc, args: list[str]) -> int:
    opts, _ = getopt("id", args, "unGgrZ")
    if "u" in opts or "g" in opts:
        p.line("shell" if "n" in opts else "2000")
    else:
        p.line(ID)
    return 0


def whoami(p: Proc, args: list[str]) -> int:
    p.line("shell")
    return 0


def date(p: Proc, args: list[str]) -> int:
    """Device time from the phone's virtual clock (UTC); `+FORMAT` as strftime plus %s and %N."""
    opts, operands = getopt("date", args, "uR", "dsrD")
    if "s" in opts or "d" in opts or "r" in opts:
        raise CommandError("date: setting or parsing dates is not supported on a virtual phone")
    now = p.phone.now()
    fmt = next((a[1:] for a in operands if a.startswith("+")), None)
    if "R" in opts:
        fmt = "%a, %d %b %Y %H:%M:%S %z"
    elif fmt is None:
        fmt = "%a %b %e %H:%M:%S %Z %Y"
    out: list[str] = []
    i = 0
    while i < len(fmt):
        if fmt[i] == "%" and i + 1 < len(fmt):
            spec = fmt[i + 1]
            if spec == "s":
                out.append(str(int(now.timestamp())))
            elif spec == "N":
                out.append(f"{now.microsecond * 1000:09d}")
            elif spec == "%":
                out.append("%")
            else:
                try:
                    out.append(now.strftime("%" + spec))
                except ValueError:
                    out.append("%" + spec)
            i += 2
        else:
            out.append(fmt[i])
            i += 1
    p.line("".join(out))
    return 0


def uname(p: Proc, args: list[str]) -> int:
    opts, _ = getopt("uname", args, "asnrvmpio")
    fields = {"s": "Linux", "n": "localhost", "r": KERNEL, "v": KERNEL_VERSION, "m": "x86_64", "o": "Toybox"}
    wanted = "snrvmo" if "a" in opts else "".join(f for f in "snrvm" if f in opts) or "s"
    p.line(" ".join(fields[f] for f in wanted))
    return 0


def getprop(p: Proc, args: list[str]) -> int:
    """One property (or its default), or all as `[name]: [value]`; seeing a boot in progress ends it."""
    props = visible_props(p.phone)
    if not args:
        p.lines([f"[{k}]: [{v}]" for k, v in sorted(props.items())])
    else:
        p.line(props.get(args[0], args[1] if len(args) > 1 else ""))
    finish_boot(p.phone)
    return 0


def setprop(p: Proc, args: list[str]) -> int:
    if len(args) != 2:
        raise CommandError("usage: setprop NAME VALUE")
    name, value = args
    if name.startswith("ro.") and name in p.phone.props:
        raise CommandError(f"Failed to set property '{name}' to '{value}'.")
    p.phone.props[name] = value
    return 0


def sh(p: Proc, args: list[str]) -> int:
    """`sh -c LINE`, `sh FILE` and `sh` reading stdin, all in a child shell."""
    if args[:1] == ["-c"]:
        if len(args) < 2:
            raise CommandError("sh: -c: option requires an argument", 2)
        return p.run(args[1])
    if args:
        try:
            return p.run(decode(p.phone.fs.read(p.path(args[0]))))
        except (FileNotFoundError, IsADirectoryError):
            raise CommandError(f"sh: {args[0]}: No such file or directory", 127) from None
    return p.run(decode(p.stdin))


COMMANDS = {
    "echo": echo,
    "printf": printf,
    "true": true,
    "false": false,
    "sleep": sleep,
    "test": test,
    "[": test,
    "grep": grep,
    "egrep": lambda p, a: grep(p, ["-E", *a]),
    "fgrep": lambda p, a: grep(p, ["-F", *a]),
    "head": head,
    "tail": tail,
    "wc": wc,
    "cut": cut,
    "base64": base64_cmd,
    "id": id_cmd,
    "whoami": whoami,
    "date": date,
    "uname": uname,
    "getprop": getprop,
    "setprop": setprop,
    "sh": sh,
}
