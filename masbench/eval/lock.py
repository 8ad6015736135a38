"""One process per run directory. Two processes playing the same run would play every episode twice (twice
the model cost) and delete each other's trajectory files, so `prepare_run_dir` takes `run.lock` for the
life of the process: an advisory `flock` (the kernel drops it when its holder dies, however it dies) on a
file that names the holder (pid and host). A lock file left by a dead process is therefore stale by
construction and taken over; a live holder refuses the second process with one line naming it.
"""

from __future__ import annotations

import atexit
import fcntl
import logging
import os
import socket
from pathlib import Path

from .records import RunDirError

log = logging.getLogger(__name__)
LOCK = "run.lock"
_held: dict[Path, int] = {}  # run directory -> the open lock file this process holds


class RunDirLocked(RunDirError):
    """Another live process holds the run directory."""


def lock_run_dir(run_dir: Path) -> None:
    """Hold `run_dir` for this process until it exits; re-entrant within the process."""
    key = run_dir.resolve()
    if key in _held:
        return
    path = run_dir / LOCK
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd) or "another process"
            os.close(fd)
            raise RunDirLocked(
                f"{run_dir} is in use by {holder}; wait for it to end (or stop it) before running here"
            ) from None
        if path.exists() and os.path.samestat(os.fstat(fd), path.stat()):
            break
        os.close(fd)  # locked a file its holder removed on exit: lock the one now in its place
    stale = _holder(fd)
    if stale:
        log.warning("%s: taking over the lock of %s, which ended without releasing it", run_dir, stale)
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()}\n".encode(), 0)
    _held[key] = fd
    atexit.register(_release, key, path)


def _holder(fd: int) -> str:
    return os.pread(fd, 200, 0).decode(errors="replace").strip()


def _release(key: Path, path: Path) -> None:
    """Remove the lock file, then drop the lock (the other order could delete a successor's file)."""
    fd = _held.pop(key, None)
    if fd is not None:
        path.unlink(missing_ok=True)
        os.close(fd)
