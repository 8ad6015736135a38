"""What a command sees (`Proc`) and the helpers the command modules share: option parsing, text
encoding, who may write where, and the stable ids (pids, uids, hashes) that `ps` and `dumpsys` report."""

from __future__ import annotations

import base64
import hashlib
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..identity import IDENTITIES

if TYPE_CHECKING:
    from ..phone import VirtualPhone

# Packages a Pixel 7 AVD has that are not simulated apps; they exist for `pm`, `ps` and `ime` only.
PLATFORM_PACKAGES = (
    "android",
    "com.android.systemui",
    "com.android.shell",
    "com.android.providers.settings",
    "com.android.providers.contacts",
    "com.android.providers.calendar",
    "com.android.vending",
    "com.google.android.gms",
    "com.google.android.inputmethod.latin",
    "com.android.adbkeyboard",
)
# The platform packages that host an app's content provider: `pm clear` on one clears that provider's data.
PROVIDER_AUTHORITIES = {
    "com.android.providers.contacts": "com.android.contacts",
    "com.android.providers.calendar": "com.android.calendar",
}
THIRD_PARTY_PLATFORM = {"com.android.adbkeyboard"}  # installed by the harness, as on a benchmark AVD
# Simulated apps that ship in the system image of a Google APIs AVD; every other app counts as user-installed.
PREINSTALLED = {a.package for a in IDENTITIES.values() if a.system}
SHELL_PID = 5219  # the `sh` that runs every command line, as `ps` and `$$` report it
WRITABLE_ROOTS = ("/sdcard", "/data/local/tmp")  # what uid 2000 (shell) may write on a real device
APP_DIR = "/data/app"  # where installed APKs live (not writable by the shell)


class CommandError(Exception):
    """Ends a command: `message` goes to stderr (if any), `code` becomes its exit status."""

    def __init__(self, message: str = "", code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class Sink(Protocol):
    def write(self, data: bytes) -> None: ...


class Buffer:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    def getvalue(self) -> bytes:
        return bytes(self.data)


class NullSink:
    def write(self, data: bytes) -> None:
        pass


def encode(text: str | bytes) -> bytes:
    if isinstance(text, bytes):
        return text
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace")


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


@dataclass
class Proc:
    """One running command: its phone, streams, working directory and environment."""

    phone: VirtualPhone
    name: str
    stdin: bytes
    stdout: Sink
    stderr: Sink
    cwd: str
    env: dict[str, str]
    run: Callable[[str], int]  # run a command line in a child shell on this command's streams

    def out(self, text: str | bytes) -> None:
        self.stdout.write(encode(text))

    def line(self, text: str = "") -> None:
        self.stdout.write(encode(text + "\n"))

    def lines(self, lines: list[str]) -> None:
        if lines:
            self.out("\n".join(lines) + "\n")

    def err(self, text: str) -> None:
        self.stderr.write(encode(text + "\n"))

    def path(self, path: str) -> str:
        return resolve(self.phone, self.cwd, path)


Command = Callable[[Proc, list[str]], int]


def resolve(phone: VirtualPhone, cwd: str, path: str) -> str:
    """Absolute, normalised path as the FS keys it, with exactly one leading slash."""
    return "/" + phone.fs.norm(posixpath.join(cwd, path)).lstrip("/")


def parse_int(text: str, message: str, code: int = 1) -> int:
    """int(text) or CommandError(message); accepts 0x.. like Java's Integer.decode."""
    try:
        return int(text, 0) if text.lower().lstrip("+-").startswith("0x") else int(text)
    except ValueError:
        raise CommandError(message, code) from None


def parse_float(text: str, message: str, code: int = 1) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CommandError(message, code) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise CommandError(message, code)
    return value


def getopt(
    name: str, args: list[str], flags: str, valued: str = "", longs: dict[str, str] | None = None
) -> tuple[dict[str, list[str]], list[str]]:
    """toybox-style options: `-la`, `-n 5`/`-n5`, `--` ends options, options may follow operands.

    Returns ({flag: [values...]}, operands); a plain flag maps to [""] per occurrence.
    """
    opts: dict[str, list[str]] = {}
    operands: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if longs is not None and arg.startswith("--"):
            key, eq, value = arg.partition("=")
            if key not in longs:
                raise CommandError(f"{name}: Unknown option '{arg}'")
            flag = longs[key]
            if flag in valued and not eq:
                if i >= len(args):
                    raise CommandError(f"{name}: Missing argument to '{key}'")
                value = args[i]
                i += 1
            opts.setdefault(flag, []).append(value if flag in valued else "")
            continue
        if len(arg) < 2 or not arg.startswith("-"):
            operands.append(arg)
            continue
        j = 1
        while j < len(arg):
            c = arg[j]
            if c in valued:
                value = arg[j + 1 :]
                if not value:
                    if i >= len(args):
                        raise CommandError(f"{name}: Missing argument to '-{c}'")
                    value = args[i]
                    i += 1
                opts.setdefault(c, []).append(value)
                break
            if c not in flags:
                raise CommandError(f"{name}: Unknown option '{c}'")
            opts.setdefault(c, []).append("")
            j += 1
    return opts, operands


def writable(path: str) -> bool:
    """May the shell user create or delete `path`? Its parent must lie inside a writable root."""
    parent = posixpath.dirname(path)
    return any(parent == root or parent.startswith(root + "/") for root in WRITABLE_ROOTS)


def hash7(*parts: str) -> str:
    """A stable stand-in for Java's identity hash, so dumpsys output is reproducible."""
    return hashlib.md5("/".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:7]


def installed_apks(phone: VirtualPhone) -> dict[str, str]:
    """Packages installed from an APK (`pm install`, `adb install`) -> their base.apk, which the installer
    keeps in the phone's file store under /data/app/~~X==/PKG-Y==/, so they survive a reboot, not a reset."""
    return {
        posixpath.basename(posixpath.dirname(path)).split("-", 1)[0]: path
        for path in phone.fs.files
        if path.startswith(APP_DIR + "/") and path.endswith("/base.apk")
    }


def _image_packages(phone: VirtualPhone) -> list[str]:
    return sorted({*phone.apps, *PLATFORM_PACKAGES})


def all_packages(phone: VirtualPhone) -> list[str]:
    return sorted({*_image_packages(phone), *installed_apks(phone)})


def is_system(phone: VirtualPhone, package: str) -> bool:
    if package in phone.apps:
        return package in PREINSTALLED or package == phone.home_package or phone.apps[package].platform
    return package not in THIRD_PARTY_PLATFORM and package not in installed_apks(phone)


def _package_index(phone: VirtualPhone, package: str) -> int:
    """A package's place for its uid and pid: an install takes the next one, as Android assigns a new
    app the next free uid, so the packages there before keep theirs."""
    image = _image_packages(phone)
    if package in image:
        return image.index(package)
    return len(image) + sorted(set(installed_apks(phone)) - set(image)).index(package)


def uid_of(phone: VirtualPhone, package: str) -> int:
    if package in ("android", "com.android.providers.settings"):
        return 1000
    if package == "com.android.shell":
        return 2000
    return 10100 + _package_index(phone, package)


def pid_of(phone: VirtualPhone, package: str) -> int:
    return 3100 + 37 * _package_index(phone, package)


def task_id(phone: VirtualPhone, package: str) -> int:
    apps = sorted(p for p, app in phone.apps.items() if not app.platform)
    return 7 + apps.index(package) if package in apps else 1


def user_name(uid: int) -> str:
    return {0: "root", 1000: "system", 2000: "shell"}.get(uid, f"u0_a{uid - 10000}")


def apk_path(phone: VirtualPhone, package: str) -> str:
    """Where `pm path` says the APK lives: /data/app for user apps, the system image for the rest."""
    if package == "android":
        return "/system/framework/framework-res.apk"
    if is_system(phone, package):
        app = phone.apps.get(package)
        name = app.label.replace(" ", "") if app else package.rsplit(".", 1)[-1].capitalize()
        return f"/product/app/{name}/{name}.apk"
    return user_apk_path(package)


def user_apk_path(package: str) -> str:
    """/data/app/~~RANDOM==/PKG-RANDOM==/base.apk, Android 11+'s layout, with stable stand-ins for the
    random parts."""
    salt = hashlib.md5(package.encode()).digest()
    code = base64.urlsafe_b64encode(salt).decode()[:22]
    inner = base64.urlsafe_b64encode(salt[::-1]).decode()[:22]
    return f"{APP_DIR}/~~{code}==/{package}-{inner}==/base.apk"
