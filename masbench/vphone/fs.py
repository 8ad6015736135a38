"""The phone's file store: enough of a POSIX tree for sync push/pull, `ls`, `cat` and redirections."""

from __future__ import annotations

import posixpath
import stat as st
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class FileEntry:
    data: bytes
    mode: int
    mtime: int


class VirtualFS:
    """Flat path -> file map plus a set of directories; paths are absolute and normalised."""

    DEFAULT_DIRS = (
        "/",
        "/sdcard",
        "/sdcard/Download",
        "/sdcard/Pictures",
        "/sdcard/DCIM",
        "/data",
        "/data/local",
        "/data/local/tmp",
        "/system",
        "/system/bin",
        "/storage",
        "/storage/emulated",
        "/storage/emulated/0",
    )

    def __init__(self, now: Callable[[], int] = lambda: 0) -> None:
        self._now = now
        self.files: dict[str, FileEntry] = {}
        self.dirs: set[str] = set(self.DEFAULT_DIRS)

    @staticmethod
    def norm(path: str) -> str:
        path = "/" + posixpath.normpath("/" + path.strip()).lstrip("/")  # normpath keeps a leading "//"
        if path == "/storage/emulated/0" or path.startswith("/storage/emulated/0/"):
            path = "/sdcard" + path[len("/storage/emulated/0") :]
        return path

    def exists(self, path: str) -> bool:
        path = self.norm(path)
        return path in self.files or path in self.dirs

    def is_dir(self, path: str) -> bool:
        return self.norm(path) in self.dirs

    def read(self, path: str) -> bytes:
        path = self.norm(path)
        if path in self.dirs:
            raise IsADirectoryError(path)
        try:
            return self.files[path].data
        except KeyError:
            raise FileNotFoundError(path) from None

    def write(
        self, path: str, data: bytes, mode: int = 0o644, mtime: int | None = None, append: bool = False
    ) -> None:
        path = self.norm(path)
        parent = posixpath.dirname(path)
        if parent not in self.dirs:
            raise FileNotFoundError(parent)
        if path in self.dirs:
            raise IsADirectoryError(path)
        if append and path in self.files:
            data = self.files[path].data + data
        self.files[path] = FileEntry(
            data, st.S_IFREG | (mode & 0o7777), self._now() if mtime is None else mtime
        )

    def mkdir(self, path: str, parents: bool = True) -> None:
        path = self.norm(path)
        if path in self.files:
            raise FileExistsError(path)
        parent = posixpath.dirname(path)
        if parent not in self.dirs:
            if not parents:
                raise FileNotFoundError(parent)
            self.mkdir(parent, parents=True)
        self.dirs.add(path)

    def remove(self, path: str, recursive: bool = False) -> None:
        path = self.norm(path)
        if path in self.files:
            del self.files[path]
            return
        if path in self.dirs:
            children = [p for p in (*self.files, *self.dirs) if p.startswith(path.rstrip("/") + "/")]
            if children and not recursive:
                raise IsADirectoryError(path)
            for p in children:
                self.files.pop(p, None)
                self.dirs.discard(p)
            if path != "/":
                self.dirs.discard(path)
            return
        raise FileNotFoundError(path)

    def stat(self, path: str) -> tuple[int, int, int] | None:
        """(mode, size, mtime) like sync STAT, or None when the path does not exist."""
        path = self.norm(path)
        if path in self.files:
            entry = self.files[path]
            return entry.mode, len(entry.data), entry.mtime
        if path in self.dirs:
            return st.S_IFDIR | 0o771, 4096, 0
        return None

    def listdir(self, path: str) -> list[str]:
        path = self.norm(path)
        if path not in self.dirs:
            raise FileNotFoundError(path)
        prefix = path.rstrip("/") + "/"
        names = {
            p[len(prefix) :].split("/", 1)[0]
            for p in (*self.files, *self.dirs)
            if p.startswith(prefix) and p != path
        }
        return sorted(n for n in names if n)
