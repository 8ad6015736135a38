"""File commands over the phone's VirtualFS, with toybox's messages and the shell user's write limits."""

from __future__ import annotations

import hashlib
import posixpath
import stat as st
from datetime import UTC, datetime

from .base import Command, CommandError, Proc, getopt, hash7, writable
from .text import inputs

DF = """Filesystem      1K-blocks    Used Available Use% Mounted on
/dev/block/dm-4   6082856 3975088   2091384  66% /
tmpfs             2009584    1360   2008224   1% /dev
tmpfs             2009584       0   2009584   0% /mnt
/dev/block/vde     999320   56508    926428   6% /data
/dev/fuse         5859716  142800   5716916   3% /storage/emulated
"""


def _owner(path: str) -> tuple[str, str]:
    if path == "/sdcard" or path.startswith("/sdcard/"):
        return "root", "sdcard_rw"
    if path.startswith("/data/local/tmp"):
        return "shell", "shell"
    return "root", "root"


def _time(mtime: int) -> datetime:
    return datetime.fromtimestamp(mtime, UTC)


def _long(p: Proc, path: str, name: str) -> str:
    mode, size, mtime = p.phone.fs.stat(path) or (0, 0, 0)
    user, group = _owner(path)
    links = 2 if st.S_ISDIR(mode) else 1
    return f"{st.filemode(mode)} {links} {user} {group} {size:>8} {_time(mtime):%Y-%m-%d %H:%M} {name}"


def ls(p: Proc, args: list[str]) -> int:
    opts, operands = getopt("ls", args, "laAd1hntrRsSFcu")
    fs = p.phone.fs
    status = 0
    files, dirs = [], []
    for name in operands or ["."]:
        path = p.path(name)
        if not fs.exists(path):
            p.err(f"ls: {name}: No such file or directory")
            status = 1
        elif fs.is_dir(path) and "d" not in opts:
            dirs.append((name, path))
        else:
            files.append((name, path))

    def order(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
        if "t" in opts:
            entries = sorted(entries, key=lambda e: -(fs.stat(e[1]) or (0, 0, 0))[2])
        return entries[::-1] if "r" in opts else entries

    def show(entries: list[tuple[str, str]]) -> None:
        for name, path in order(entries):
            p.line(_long(p, path, name) if "l" in opts else name)

    show(files)
    for k, (name, path) in enumerate(dirs):
        if len(dirs) + len(files) > 1:
            p.line(("\n" if files or k else "") + f"{name}:")
        entries = [(n, posixpath.join(path, n)) for n in fs.listdir(path)]
        if "a" not in opts and "A" not in opts:
            entries = [e for e in entries if not e[0].startswith(".")]
        if "a" in opts:
            entries = [(".", path), ("..", posixpath.dirname(path)), *entries]
        if "l" in opts:
            blocks = sum(((fs.stat(e[1]) or (0, 0, 0))[1] + 4095) // 4096 * 4 for e in entries)
            p.line(f"total {blocks}")
        show(entries)
    return status


def cat(p: Proc, args: list[str]) -> int:
    _, files = getopt("cat", args, "uv")
    found, status = inputs(p, files)
    for _, data in found:
        p.out(data)
    return status


def rm(p: Proc, args: list[str]) -> int:
    opts, operands = getopt("rm", args, "frRiv")
    force, recursive = "f" in opts, "r" in opts or "R" in opts
    if not operands and not force:
        raise CommandError("rm: Needs 1 argument")
    fs = p.phone.fs
    status = 0
    for name in operands:
        path = p.path(name)
        if not fs.exists(path):
            if not force:
                p.err(f"rm: {name}: No such file or directory")
                status = 1
        elif fs.is_dir(path) and not recursive:
            p.err(f"rm: {name}: Is a directory")
            status = 1
        elif not writable(path):
            p.err(f"rm: {name}: Permission denied")
            status = 1
        else:
            fs.remove(path, recursive=True)
    return status


def rmdir(p: Proc, args: list[str]) -> int:
    _, operands = getopt("rmdir", args, "p")
    fs = p.phone.fs
    status = 0
    for name in operands:
        path = p.path(name)
        if not fs.is_dir(path):
            p.err(f"rmdir: {name}: No such file or directory")
            status = 1
        elif fs.listdir(path):
            p.err(f"rmdir: {name}: Directory not empty")
            status = 1
        elif not writable(path):
            p.err(f"rmdir: {name}: Permission denied")
            status = 1
        else:
            fs.remove(path)
    return status


def mkdir(p: Proc, args: list[str]) -> int:
    opts, operands = getopt("mkdir", args, "pv", "m")
    if not operands:
        raise CommandError("mkdir: Needs 1 argument")
    fs = p.phone.fs
    status = 0
    for name in operands:
        path = p.path(name)
        if fs.exists(path):
            if "p" not in opts or not fs.is_dir(path):
                p.err(f"mkdir: {name}: File exists")
                status = 1
        elif not writable(path):
            p.err(f"mkdir: {name}: Permission denied")
            status = 1
        elif "p" not in opts and not fs.is_dir(posixpath.dirname(path)):
            p.err(f"mkdir: {name}: No such file or directory")
            status = 1
        else:
            fs.mkdir(path, parents=True)
    return status


def touch(p: Proc, args: list[str]) -> int:
    opts, operands = getopt("touch", args, "acmh", "dtr")
    fs = p.phone.fs
    status = 0
    for name in operands:
        path = p.path(name)
        if fs.is_dir(path):
            continue
        if fs.exists(path):
            fs.write(path, fs.read(path), mode=(fs.stat(path) or (0o644,))[0])
        elif "c" in opts:
            continue
        elif not fs.is_dir(posixpath.dirname(path)):
            p.err(f"touch: '{name}': No such file or directory")
            status = 1
        elif not writable(path):
            p.err(f"touch: '{name}': Permission denied")
            status = 1
        else:
            fs.write(path, b"")
    return status


def _copy_tree(p: Proc, src: str, dst: str) -> None:
    fs = p.phone.fs
    if fs.is_dir(src):
        fs.mkdir(dst, parents=True)
        for child in fs.listdir(src):
            _copy_tree(p, posixpath.join(src, child), posixpath.join(dst, child))
    else:
        mode = (fs.stat(src) or (0o644,))[0]
        fs.write(dst, fs.read(src), mode=mode)


def _transfer(p: Proc, args: list[str], move: bool) -> int:
    name = "mv" if move else "cp"
    opts, operands = getopt(name, args, "rRfpainuvFHLPd" if not move else "finvT")
    if len(operands) < 2:
        raise CommandError(f"{name}: Needs 2 arguments")
    fs = p.phone.fs
    *sources, target = operands
    target_path = p.path(target)
    into_dir = fs.is_dir(target_path)
    if len(sources) > 1 and not into_dir:
        raise CommandError(f"{name}: '{target}' not directory")
    status = 0
    for src in sources:
        src_path = p.path(src)
        dst = posixpath.join(target_path, posixpath.basename(src_path)) if into_dir else target_path
        if not fs.exists(src_path):
            p.err(f"{name}: {src}: No such file or directory")
            status = 1
        elif fs.is_dir(src_path) and not move and not ({"r", "R", "a"} & opts.keys()):
            p.err(f"cp: Skipped dir '{src}'")
            status = 1
        elif not writable(dst) or (move and not writable(src_path)):
            p.err(f"{name}: {dst}: Permission denied")
            status = 1
        elif not fs.is_dir(posixpath.dirname(dst)):
            p.err(f"{name}: {dst}: No such file or directory")
            status = 1
        elif dst == src_path or dst.startswith(src_path + "/"):
            p.err(f"{name}: '{src}' and '{dst}' are the same or nested")
            status = 1
        else:
            if fs.exists(dst) and fs.is_dir(dst) != fs.is_dir(src_path):
                p.err(f"{name}: {dst}: File exists")
                status = 1
                continue
            _copy_tree(p, src_path, dst)
            if move:
                fs.remove(src_path, recursive=True)
    return status


def cp(p: Proc, args: list[str]) -> int:
    return _transfer(p, args, move=False)


def mv(p: Proc, args: list[str]) -> int:
    return _transfer(p, args, move=True)


def _type_name(mode: int) -> str:
    return "directory" if st.S_ISDIR(mode) else "regular file" if st.S_ISREG(mode) else "file"


def stat_cmd(p: Proc, args: list[str]) -> int:
    opts, operands = getopt("stat", args, "tLf", "c")
    if not operands:
        raise CommandError("stat: Needs 1 argument")
    status = 0
    for name in operands:
        info = p.phone.fs.stat(p.path(name))
        if info is None:
            p.err(f"stat: '{name}': No such file or directory")
            status = 1
            continue
        mode, size, mtime = info
        stamp = f"{_time(mtime):%Y-%m-%d %H:%M:%S}.000000000 +0000"
        user, group = _owner(p.path(name))
        if "c" in opts:
            fields = {
                "n": name, "s": str(size), "Y": str(mtime), "X": str(mtime), "Z": str(mtime),
                "a": f"{st.S_IMODE(mode):o}", "A": st.filemode(mode), "F": _type_name(mode), "f": f"{mode:x}",
                "y": stamp, "x": stamp, "z": stamp, "U": user, "G": group, "b": str((size + 511) // 512),
                "u": "2000" if user == "shell" else "0", "g": "2000" if group == "shell" else "0", "%": "%",
            }  # fmt: skip
            fmt = opts["c"][-1]
            out, i = [], 0
            while i < len(fmt):
                if fmt[i] == "%" and i + 1 < len(fmt):
                    out.append(fields.get(fmt[i + 1], "?"))
                    i += 2
                else:
                    out.append(fmt[i])
                    i += 1
            p.line("".join(out))
            continue
        p.lines(
            [
                f"  File: {name}",
                f"  Size: {size}\t Blocks: {(size + 511) // 512}\t IO Blocks: 4096\t{_type_name(mode)}",
                f"Device: fd04h/64772d\t Inode: {int(hash7(p.path(name)), 16) & 0xFFFFF}\t Links: {2 if st.S_ISDIR(mode) else 1}",
                f"Access: ({st.S_IMODE(mode):04o}/{st.filemode(mode)})\tUid: ({'2000' if user == 'shell' else '   0'}/{user:>8})\tGid: ({'2000' if group == 'shell' else '   0'}/{group:>8})",
                f"Access: {stamp}",
                f"Modify: {stamp}",
                f"Change: {stamp}",
            ]
        )
    return status


def _digest(algorithm: str) -> Command:
    def run(p: Proc, args: list[str]) -> int:
        _, files = getopt(f"{algorithm}sum", args, "bc")
        found, status = inputs(p, files)
        for name, data in found:
            label = "-" if name == "(standard input)" else name
            p.line(f"{hashlib.new(algorithm, data).hexdigest()}  {label}")
        return status

    return run


def df(p: Proc, args: list[str]) -> int:
    p.out(DF)
    return 0


COMMANDS = {
    "ls": ls,
    "cat": cat,
    "rm": rm,
    "rmdir": rmdir,
    "mkdir": mkdir,
    "touch": touch,
    "cp": cp,
    "mv": mv,
    "stat": stat_cmd,
    "md5sum": _digest("md5"),
    "sha1sum": _digest("sha1"),
    "sha256sum": _digest("sha256"),
    "df": df,
}
