"""The virtual phone's `/system/bin/sh`: enough POSIX shell for what adb clients send.

Clients shlex-quote every argument and append `; echo X4EXIT:$?` to learn the exit status (adbutils'
`shell2` and uiautomator2 do), and agents write small pipelines (`dumpsys window | grep mCurrentFocus`), so this is a real
tokenizer and parser rather than `str.split()`: quoting, `;` `&&` `||` `|` `!`, `$VAR` `${VAR}` `$?` `$(...)`,
`VAR=val cmd`, redirections (`>` `>>` `<` `2>&1` `>&2` `&>` `N>&-`) and globbing over the phone's file store.
Control flow (`if`, `for`, subshells, here-documents) is refused with a syntax error: nothing we drive needs
it. Whatever the input, `run_shell` returns a `ShellResult`; it never raises.
"""

from __future__ import annotations

import fnmatch
import glob
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .commands import lookup
from .commands.base import (
    SHELL_PID,
    Buffer,
    CommandError,
    NullSink,
    Proc,
    Sink,
    decode,
    encode,
    parse_int,
    resolve,
    writable,
)

if TYPE_CHECKING:
    from .phone import ShellResult, VirtualPhone

SH = "/system/bin/sh"
MAX_DEPTH = 16  # nested `sh -c` / `$(...)`
BIN_DIRS = ("/system/bin", "/system/xbin", "/bin", "/vendor/bin", "/product/bin", "/apex/com.android.runtime/bin")  # fmt: skip
DEFAULT_ENV = {
    "HOME": "/",
    "PATH": "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin",
    "SHELL": "/bin/sh",
    "USER": "shell",
    "LOGNAME": "shell",
    "HOSTNAME": "emu64xa",
    "TMPDIR": "/data/local/tmp",
    "ANDROID_DATA": "/data",
    "ANDROID_ROOT": "/system",
    "EXTERNAL_STORAGE": "/sdcard",
    "ANDROID_STORAGE": "/storage",
    "TERM": "dumb",
}
RESERVED = {"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "function", "select", "{", "}", "[["}  # fmt: skip
OPERATORS = ("&&", "||", ";;", ">>", ">&", ">|", "<<", "<&", "<>", "&>", ";", "&", "|", ">", "<", "(", ")", "\n")  # fmt: skip
REDIRECTS = {">", ">>", ">|", "<", ">&", "<&", "<>", "&>", "<<"}
SEPARATORS = {";", "&", "\n"}
META = " \t\n;&|<>()"
SPECIAL_VARS = "?$#!-@*0123456789"
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
ASSIGN_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")


class ShellSyntaxError(Exception):
    """A line the parser rejects; reported as `/system/bin/sh: syntax error: ...`, exit 1 (mksh's status)."""


class ShellExit(Exception):
    """`exit N`: unwinds to the shell that runs the line."""

    def __init__(self, code: int) -> None:
        self.code = code


# -- tokens and syntax tree --------------------------------------------------------------------------
@dataclass
class Seg:
    """One piece of a word: literal text, a variable (`text` is its name) or a command substitution."""

    kind: str  # "lit" | "var" | "sub"
    text: str
    quoted: bool


Word = list[Seg]


@dataclass
class Op:
    text: str


@dataclass
class IoNumber:
    fd: int


@dataclass
class Redirect:
    fd: int | None  # None: the operator's default (0 for <, 1 for >)
    op: str
    target: Word


@dataclass
class Command:
    assignments: list[tuple[str, Word]] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)


@dataclass
class Pipeline:
    commands: list[Command]
    negate: bool = False


@dataclass
class AndOr:
    first: Pipeline
    rest: list[tuple[str, Pipeline]] = field(default_factory=list)


# -- lexer -------------------------------------------------------------------------------------------
class Lexer:
    """Turns a command line into words (lists of `Seg`), operators and IO numbers."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def tokens(self) -> list[Word | Op | IoNumber]:
        out: list[Word | Op | IoNumber] = []
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c in " \t":
                self.i += 1
            elif s.startswith("\\\n", self.i):
                self.i += 2
            elif c == "#":
                end = s.find("\n", self.i)
                self.i = len(s) if end < 0 else end
            elif op := next((o for o in OPERATORS if s.startswith(o, self.i)), None):
                out.append(Op(op))
                self.i += len(op)
            else:
                word = self.word()
                if (
                    len(word) == 1
                    and word[0].kind == "lit"
                    and not word[0].quoted
                    and len(word[0].text) == 1
                    and word[0].text.isascii()
                    and word[0].text.isdigit()
                    and self.i < len(s)
                    and s[self.i] in "<>"
                ):
                    out.append(IoNumber(int(word[0].text)))
                else:
                    out.append(word)
        return out

    def word(self) -> Word:
        segs: Word = []
        s = self.s
        while self.i < len(s) and s[self.i] not in META:
            c = s[self.i]
            if c == "\\":
                if s.startswith("\\\n", self.i):
                    self.i += 2
                elif self.i + 1 < len(s):
                    _add(segs, Seg("lit", s[self.i + 1], True))
                    self.i += 2
                else:
                    _add(segs, Seg("lit", "\\", False))
                    self.i += 1
            elif c == "'":
                end = s.find("'", self.i + 1)
                if end < 0:
                    raise ShellSyntaxError("unterminated quoted string")
                _add(segs, Seg("lit", s[self.i + 1 : end], True))
                self.i = end + 1
            elif c == '"':
                self.i += 1
                self.double_quoted(segs)
            elif c == "$":
                _add(segs, self.dollar(quoted=False))
            elif c == "`":
                _add(segs, self.backtick(quoted=False))
            else:
                _add(segs, Seg("lit", c, False))
                self.i += 1
        return segs

    def double_quoted(self, segs: Word) -> None:
        _add(segs, Seg("lit", "", True))  # "" is still an (empty) argument
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c == '"':
                self.i += 1
                return
            if c == "\\" and self.i + 1 < len(s) and s[self.i + 1] in '$`"\\\n':
                if s[self.i + 1] != "\n":
                    _add(segs, Seg("lit", s[self.i + 1], True))
                self.i += 2
            elif c == "$":
                _add(segs, self.dollar(quoted=True))
            elif c == "`":
                _add(segs, self.backtick(quoted=True))
            else:
                _add(segs, Seg("lit", c, True))
                self.i += 1
        raise ShellSyntaxError("unterminated quoted string")

    def dollar(self, quoted: bool) -> Seg:
        s, i = self.s, self.i
        nxt = s[i + 1 : i + 2]
        if nxt == "{":
            end = s.find("}", i + 2)
            if end < 0:
                raise ShellSyntaxError("missing '}'")
            name = s[i + 2 : end]
            if not (NAME_RE.fullmatch(name) or (len(name) == 1 and name in SPECIAL_VARS)):
                raise ShellSyntaxError(f"${{{name}}}: bad substitution")
            self.i = end + 1
            return Seg("var", name, quoted)
        if nxt == "(":
            if s.startswith("((", i + 1):
                raise ShellSyntaxError("arithmetic expansion $((...)) is not supported")
            end = _matching_paren(s, i + 2)
            self.i = end + 1
            return Seg("sub", s[i + 2 : end], quoted)
        if nxt and nxt in SPECIAL_VARS:
            self.i = i + 2
            return Seg("var", nxt, quoted)
        m = NAME_RE.match(s, i + 1)
        if m:
            self.i = m.end()
            return Seg("var", m.group(), quoted)
        self.i = i + 1
        return Seg("lit", "$", quoted)

    def backtick(self, quoted: bool) -> Seg:
        s = self.s
        j = self.i + 1
        body: list[str] = []
        while j < len(s) and s[j] != "`":
            if s[j] == "\\" and j + 1 < len(s) and s[j + 1] in "`$\\":
                body.append(s[j + 1])
                j += 2
            else:
                body.append(s[j])
                j += 1
        if j >= len(s):
            raise ShellSyntaxError("unterminated `...`")
        self.i = j + 1
        return Seg("sub", "".join(body), quoted)


def _add(segs: Word, seg: Seg) -> None:
    """Append, merging adjacent literals of the same quoting so words stay short."""
    if segs and seg.kind == "lit" and segs[-1].kind == "lit" and segs[-1].quoted == seg.quoted:
        segs[-1] = Seg("lit", segs[-1].text + seg.text, seg.quoted)
    else:
        segs.append(seg)


def _matching_paren(s: str, start: int) -> int:
    """Index of the `)` closing a `$(` whose body starts at `start`, skipping quotes and nested parens."""
    depth, i = 1, start
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            end = s.find("'", i + 1)
            if end < 0:
                break
            i = end
        elif c == '"':
            i += 1
            while i < len(s) and s[i] != '"':
                i += 2 if s[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ShellSyntaxError("missing ')'")


# -- parser ------------------------------------------------------------------------------------------
class Parser:
    """`list := and_or (sep and_or)*`, `and_or := pipeline ((&& | ||) pipeline)*`, `pipeline := [!] cmd (| cmd)*`."""

    def __init__(self, tokens: list[Word | Op | IoNumber]) -> None:
        self.toks = tokens
        self.i = 0

    def peek(self) -> Word | Op | IoNumber | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def peek_op(self) -> str | None:
        tok = self.peek()
        return tok.text if isinstance(tok, Op) else None

    def skip_newlines(self) -> None:
        while self.peek_op() == "\n":
            self.i += 1

    def unexpected(self) -> ShellSyntaxError:
        tok = self.peek()
        if tok is None:
            return ShellSyntaxError("unexpected end of input")
        if isinstance(tok, Op):
            return ShellSyntaxError(f"unexpected {'newline' if tok.text == chr(10) else repr(tok.text)}")
        if isinstance(tok, IoNumber):
            return ShellSyntaxError(f"unexpected '{tok.fd}'")
        return ShellSyntaxError(f"unexpected {_literal(tok)!r}")

    def parse(self) -> list[AndOr]:
        items: list[AndOr] = []
        self.skip_newlines()
        while self.peek() is not None:
            items.append(self.and_or())
            if self.peek() is None:
                break
            if self.peek_op() not in SEPARATORS:
                raise self.unexpected()
            self.i += 1
            self.skip_newlines()
        return items

    def and_or(self) -> AndOr:
        node = AndOr(self.pipeline())
        while (op := self.peek_op()) in ("&&", "||"):
            self.i += 1
            self.skip_newlines()
            node.rest.append((op, self.pipeline()))
        return node

    def pipeline(self) -> Pipeline:
        negate = False
        tok = self.peek()
        if isinstance(tok, list) and len(tok) == 1 and tok[0] == Seg("lit", "!", False):
            negate = True
            self.i += 1
        commands = [self.command()]
        while self.peek_op() == "|":
            self.i += 1
            self.skip_newlines()
            commands.append(self.command())
        return Pipeline(commands, negate)

    def command(self) -> Command:
        cmd = Command()
        while True:
            tok = self.peek()
            if isinstance(tok, list):
                self.i += 1
                if not cmd.words:
                    head = tok[0]
                    if head.kind == "lit" and not head.quoted and (m := ASSIGN_RE.match(head.text)):
                        rest = [Seg("lit", head.text[m.end() :], False), *tok[1:]]
                        cmd.assignments.append((m.group(1), rest))
                        continue
                    if len(tok) == 1 and head.kind == "lit" and not head.quoted and head.text in RESERVED:
                        raise ShellSyntaxError(f"'{head.text}' is not supported by the virtual phone's shell")
                cmd.words.append(tok)
            elif isinstance(tok, IoNumber) or (isinstance(tok, Op) and tok.text in REDIRECTS):
                cmd.redirects.append(self.redirect())
            else:
                break
        if not (cmd.words or cmd.assignments or cmd.redirects):
            raise self.unexpected()
        return cmd

    def redirect(self) -> Redirect:
        fd = None
        tok = self.peek()
        if isinstance(tok, IoNumber):
            fd = tok.fd
            self.i += 1
        op = self.peek_op()
        if op is None or op not in REDIRECTS:
            raise self.unexpected()
        if op == "<<":
            raise ShellSyntaxError("here-documents are not supported by the virtual phone's shell")
        self.i += 1
        target = self.peek()
        if not isinstance(target, list):
            raise self.unexpected()
        self.i += 1
        return Redirect(fd, op, target)


def _literal(word: Word) -> str:
    return "".join(s.text if s.kind == "lit" else f"${s.text}" for s in word)


def parse(text: str) -> list[AndOr]:
    return Parser(Lexer(text).tokens()).parse()


# -- execution ---------------------------------------------------------------------------------------
class FileSink:
    """A `>`/`>>` target: created (or truncated) when opened, written to the phone's FS when closed."""

    def __init__(self, phone: VirtualPhone, path: str, append: bool) -> None:
        self.phone, self.path, self.buf = phone, path, bytearray()
        if not append or not phone.fs.exists(path):
            phone.fs.write(path, b"")

    def write(self, data: bytes) -> None:
        self.buf += data

    def close(self) -> None:
        if self.buf:
            self.phone.fs.write(self.path, bytes(self.buf), append=True)


class Shell:
    """One `sh` process: variables, working directory, `$?`, and the streams it writes to."""

    def __init__(
        self,
        phone: VirtualPhone,
        stdout: Sink,
        stderr: Sink,
        env: dict[str, str] | None = None,
        cwd: str = "/",
        depth: int = 0,
        stdin: bytes = b"",
    ) -> None:
        self.phone = phone
        self.stdout, self.stderr = stdout, stderr
        self.vars = dict(DEFAULT_ENV if env is None else env)
        self.cwd = cwd
        self.depth = depth
        self.stdin = stdin  # what the client sent (a streamed APK...): the first command to run reads it
        self.status = 0

    def child(
        self, stdout: Sink, stderr: Sink, env: dict[str, str] | None = None, stdin: bytes = b""
    ) -> Shell:
        if self.depth >= MAX_DEPTH:
            raise CommandError(f"{SH}: too many nested shells")
        return Shell(
            self.phone, stdout, stderr, self.vars if env is None else env, self.cwd, self.depth + 1, stdin
        )

    def run(self, text: str) -> int:
        """Parse and run a whole command line; a syntax error runs nothing, as in a real shell."""
        try:
            program = parse(text)
        except ShellSyntaxError as exc:
            self.stderr.write(encode(f"{SH}: syntax error: {exc}\n"))
            self.status = 1
            return 1
        try:
            for item in program:
                self.run_and_or(item)
        except ShellExit as exc:
            self.status = exc.code
        return self.status

    def run_and_or(self, item: AndOr) -> None:
        self.status = self.run_pipeline(item.first)
        for op, pipeline in item.rest:
            if (op == "&&") == (self.status == 0):
                self.status = self.run_pipeline(pipeline)

    def run_pipeline(self, pipeline: Pipeline) -> int:
        stdin, status = self.stdin, 0
        self.stdin = b""
        last = len(pipeline.commands) - 1
        for n, cmd in enumerate(pipeline.commands):
            pipe = Buffer()
            try:
                status = self.run_command(cmd, stdin, self.stdout if n == last else pipe)
            except ShellExit as exc:
                if last == 0:
                    raise
                status = exc.code  # `exit` in a pipeline stage ends only that stage's subshell
            stdin = pipe.getvalue()
        if pipeline.negate:
            status = int(status == 0)
        return status

    def run_command(self, cmd: Command, stdin: bytes, stdout: Sink) -> int:
        try:
            argv = [f for w in cmd.words for f in self.expand(w)]
            assigned = {name: self.expand_one(value) for name, value in cmd.assignments}
        except CommandError as exc:
            self.stderr.write(encode(exc.message + "\n"))
            return exc.code
        fds: dict[int, Sink] = {1: stdout, 2: self.stderr}
        files: list[FileSink] = []
        try:
            try:
                for r in cmd.redirects:
                    stdin = self.redirect(r, fds, files, stdin)
            except CommandError as exc:
                self.stderr.write(encode(exc.message + "\n"))
                return exc.code
            if not argv:
                self.vars.update(assigned)
                return 0
            return self.dispatch(argv, stdin, fds[1], fds[2], {**self.vars, **assigned})
        finally:
            for f in files:
                f.close()

    def redirect(self, r: Redirect, fds: dict[int, Sink], files: list[FileSink], stdin: bytes) -> bytes:
        """Apply one redirection to the fd table; returns the (possibly new) stdin."""
        fields = self.expand(r.target)
        if len(fields) != 1:
            raise CommandError(f"{SH}: {_literal(r.target)}: ambiguous redirect")
        target = fields[0]
        if r.op in (">&", "<&"):
            fd = r.fd if r.fd is not None else (1 if r.op == ">&" else 0)
            if target == "-":
                fds[fd] = NullSink()
            elif target in ("0", "1", "2") and int(target) in fds:
                fds[fd] = fds[int(target)]
            elif target.isascii() and target.isdigit():
                raise CommandError(f"{SH}: {target}: bad file descriptor")
            elif r.op == ">&" and r.fd is None:
                fds[1] = fds[2] = self.open_output(target, False, fds, files)
            else:
                raise CommandError(f"{SH}: {target}: illegal file descriptor name")
            return stdin
        if r.op in ("<", "<>"):
            data = self.read_input(target)
            if (r.fd or 0) == 0:
                return data
            return stdin
        sink = self.open_output(target, r.op == ">>", fds, files)
        if r.op == "&>":
            fds[1] = fds[2] = sink
        else:
            fds[r.fd if r.fd is not None else 1] = sink
        return stdin

    def open_output(self, target: str, append: bool, fds: dict[int, Sink], files: list[FileSink]) -> Sink:
        special = {
            "/dev/null": NullSink(),
            "/dev/stdout": fds[1],
            "/dev/stderr": fds[2],
            "/dev/tty": self.stdout,
        }
        if target in special:
            return special[target]
        path = self.path(target)
        fs = self.phone.fs
        if fs.is_dir(path):
            raise CommandError(f"{SH}: can't create {target}: Is a directory")
        if not fs.is_dir(posixpath.dirname(path)):
            raise CommandError(f"{SH}: can't create {target}: No such file or directory")
        if not writable(path):
            raise CommandError(f"{SH}: can't create {target}: Permission denied")
        sink = FileSink(self.phone, path, append)
        files.append(sink)
        return sink

    def read_input(self, target: str) -> bytes:
        if target in ("/dev/null", "/dev/zero", "/dev/tty"):
            return b""
        try:
            return self.phone.fs.read(self.path(target))
        except FileNotFoundError:
            raise CommandError(f"{SH}: can't open {target}: No such file or directory") from None
        except IsADirectoryError:
            raise CommandError(f"{SH}: can't open {target}: Is a directory") from None

    def path(self, p: str) -> str:
        return resolve(self.phone, self.cwd, p)

    # -- expansion -----------------------------------------------------------------------------------
    def value(self, seg: Seg) -> str:
        if seg.kind == "sub":
            out = Buffer()
            try:
                self.child(out, self.stderr).run(seg.text)
            except CommandError as exc:
                self.stderr.write(encode(exc.message + "\n"))
            return decode(out.getvalue()).rstrip("\n")
        name = seg.text
        specials = {"?": str(self.status), "$": str(SHELL_PID), "#": "0", "0": SH, "-": "hB"}
        if name in specials:
            return specials[name]
        return self.vars.get(name, "")

    def expand_one(self, word: Word) -> str:
        """Expand without field splitting or globbing (assignment values)."""
        return "".join(seg.text if seg.kind == "lit" else self.value(seg) for seg in word)

    def expand(self, word: Word) -> list[str]:
        """Expand a word into fields: parameter and command substitution, field splitting, globbing."""
        fields: list[tuple[str, list[bool]]] = []
        text: list[str] = []
        magic: list[bool] = []  # per character: may it act as a glob metacharacter?
        started = False

        def flush() -> None:
            nonlocal text, magic, started
            if started:
                fields.append(("".join(text), magic))
            text, magic, started = [], [], False

        for seg in word:
            if seg.kind == "lit":
                text.append(seg.text)
                magic.extend([not seg.quoted] * len(seg.text))
                started = True
                continue
            value = self.value(seg)
            if seg.quoted:
                text.append(value)
                magic.extend([False] * len(value))
                started = True
                continue
            pieces = value.split()
            if value[:1].isspace() and pieces:
                flush()
            for n, piece in enumerate(pieces):
                if n:
                    flush()
                text.append(piece)
                magic.extend([False] * len(piece))
                started = True
            if value[-1:].isspace():
                flush()
        flush()
        out: list[str] = []
        for text_, magic_ in fields:
            matches = (
                self.glob(text_, magic_)
                if any(m and c in "*?[" for c, m in zip(text_, magic_, strict=True))
                else []
            )
            out.extend(matches or [text_])
        return out

    def glob(self, text: str, magic: list[bool]) -> list[str]:
        """Pathname expansion over the phone's FS; no match leaves the word as it is (POSIX)."""
        parts: list[tuple[str, bool]] = []  # (fnmatch pattern or literal name, is pattern)
        start = 0
        for i, c in enumerate([*text, "/"]):
            if c == "/":
                comp, comp_magic = text[start:i], magic[start:i]
                is_pattern = any(m and ch in "*?[" for ch, m in zip(comp, comp_magic, strict=True))
                pattern = "".join(
                    ch if m else glob.escape(ch) for ch, m in zip(comp, comp_magic, strict=True)
                )
                parts.append((pattern if is_pattern else comp, is_pattern))
                start = i + 1
        absolute = text.startswith("/")
        found = ["/" if absolute else ""]
        fs = self.phone.fs
        for comp, is_pattern in parts:
            if comp == "" and not is_pattern:
                continue
            nxt: list[str] = []
            for prefix in found:
                base = self.path(prefix or ".")
                if is_pattern:
                    if not fs.is_dir(base):
                        continue
                    names = [n for n in fs.listdir(base) if fnmatch.fnmatchcase(n, comp)]
                    nxt.extend(
                        posixpath.join(prefix, n)
                        for n in names
                        if comp.startswith(".") or not n.startswith(".")
                    )
                elif fs.exists(posixpath.join(base, comp)):
                    nxt.append(posixpath.join(prefix, comp))
            found = nxt
        return sorted(found)

    # -- commands ------------------------------------------------------------------------------------
    def dispatch(self, argv: list[str], stdin: bytes, out: Sink, err: Sink, env: dict[str, str]) -> int:
        name = argv[0]
        if name == "exec":
            # `exec CMD`: CMD replaces the shell, so nothing after it runs (the adb CLI's `logcat` sends
            # `export ANDROID_LOG_TAGS=""; exec logcat ...`); without CMD there is nothing to replace.
            if len(argv) == 1:
                return 0
            raise ShellExit(self.dispatch(argv[1:], stdin, out, err, env))
        builtin = BUILTINS.get(name)
        if builtin is not None:
            try:
                return builtin(self, argv[1:], out, err)
            except CommandError as exc:
                err.write(encode(exc.message + "\n"))
                return exc.code
        func = lookup(posixpath.basename(name)) if posixpath.dirname(name) in ("", *BIN_DIRS) else None
        if func is None:
            if "/" in name and self.phone.fs.stat(self.path(name)) is not None:
                err.write(encode(f"{SH}: {name}: can't execute: Permission denied\n"))
                return 126
            err.write(encode(f"{SH}: {name}: inaccessible or not found\n"))
            return 127

        def run(line: str) -> int:
            return self.child(out, err, env, stdin).run(line)

        proc = Proc(self.phone, posixpath.basename(name), stdin, out, err, self.cwd, env, run)
        try:
            return func(proc, argv[1:])
        except CommandError as exc:
            if exc.message:
                err.write(encode(exc.message + "\n"))
            return exc.code
        except Exception as exc:  # a bug in a command or an app must not take the shell down
            err.write(encode(f"{proc.name}: internal error: {type(exc).__name__}: {exc}\n"))
            return 1


# -- builtins that change the shell itself -------------------------------------------------------------
def _cd(sh: Shell, args: list[str], out: Sink, err: Sink) -> int:
    target = args[0] if args else sh.vars.get("HOME", "/")
    path = sh.path(target)
    if not sh.phone.fs.is_dir(path):
        raise CommandError(f"{SH}: cd: {path}: No such file or directory", 2)
    sh.cwd = path
    return 0


def _pwd(sh: Shell, args: list[str], out: Sink, err: Sink) -> int:
    out.write(encode(sh.cwd + "\n"))
    return 0


def _exit(sh: Shell, args: list[str], out: Sink, err: Sink) -> int:
    if not args:
        raise ShellExit(sh.status)
    raise ShellExit(parse_int(args[0], f"{SH}: exit: {args[0]}: bad number", 2) & 0xFF)


def _export(sh: Shell, args: list[str], out: Sink, err: Sink) -> int:
    for arg in args:
        name, eq, value = arg.partition("=")
        if eq:
            sh.vars[name] = value
    return 0


def _unset(sh: Shell, args: list[str], out: Sink, err: Sink) -> int:
    for name in args:
        sh.vars.pop(name, None)
    return 0


def _colon(sh: Shell, args: list[str], out: Sink, err: Sink) -> int:
    return 0


BUILTINS: dict[str, Callable[[Shell, list[str], Sink, Sink], int]] = {
    "cd": _cd,
    "pwd": _pwd,
    "exit": _exit,
    "export": _export,
    "unset": _unset,
    ":": _colon,
}


def run_shell(phone: VirtualPhone, command: str, stdin: bytes = b"") -> ShellResult:
    """Run one `adb shell` command line on `phone` (whose lock the caller holds), `stdin` being what the
    client sent it."""
    from .phone import ShellResult

    out, err = Buffer(), Buffer()
    try:
        status = Shell(phone, out, err, stdin=stdin).run(command)
    except Exception as exc:  # last line of defence: the server must always get an answer
        err.write(encode(f"{SH}: internal error: {type(exc).__name__}: {exc}\n"))
        status = 1
    return ShellResult(out.getvalue(), err.getvalue(), status)
