"""The package manager (`pm`, `cmd package`) over the phone's simulated apps and a few platform packages.

`pm install PATH` and the streamed `cmd package install -S SIZE` (what `adb install` sends, the APK on
stdin) check the APK as Android's parser does and record a new package under /data/app, where `pm list
packages`, `pm path` and `pm uninstall` find it; it has no activities to start. A simulated app cannot be
uninstalled (it would not come back on `cmd masbench reset`).
"""

from __future__ import annotations

import posixpath
import zlib
from typing import TYPE_CHECKING

from ..intents import short_component
from .am import parse_intent, shell_exception
from .apk import ApkError, package_name
from .base import (
    APP_DIR,
    PROVIDER_AUTHORITIES,
    CommandError,
    Proc,
    all_packages,
    apk_path,
    installed_apks,
    is_system,
    parse_int,
    uid_of,
    user_apk_path,
)
from .dumpsys import package_dump

if TYPE_CHECKING:
    from ..app import Activity
    from ..intents import Intent
    from ..phone import VirtualPhone

RESOLVE_OPTIONS = {"--brief": False, "--components": False, "--user": True, "--query-flags": True}
INSTALL_FLAGS = {"-r", "-t", "-g", "-d", "-f", "-l", "-s", "-R", "--instant", "--full", "--dont-kill", "--force-queryable", "--bypass-low-target-sdk-block"}  # fmt: skip
INSTALL_VALUE_FLAGS = {"-i", "--user", "--install-location", "--originating-uri", "--referrer", "-p", "--pkg", "-S", "--abi"}  # fmt: skip
STDIN = "-"  # `pm install -S SIZE -` names stdin explicitly
MATCH = "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true"


def _user_args(args: list[str]) -> list[str]:
    """Drop `--user N` wherever it appears; masbench phones have one user."""
    out, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--user":
            skip = True
        else:
            out.append(arg)
    return out


def _known(phone: VirtualPhone, command: str, package: str) -> None:
    if package not in all_packages(phone):
        raise shell_exception(command, f"java.lang.IllegalArgumentException: Unknown package: {package}")


def list_packages(p: Proc, args: list[str]) -> int:
    args = _user_args(args)
    flags = {a for a in args if a.startswith("-")}
    unknown = flags - {
        "-3",
        "-s",
        "-f",
        "-e",
        "-d",
        "-u",
        "-i",
        "-U",
        "-a",
        "--show-versioncode",
        "--apex-only",
    }
    if unknown:
        raise CommandError(f"Error: Unknown option: {sorted(unknown)[0]}", 255)
    needle = next((a for a in args if not a.startswith("-")), "")
    phone = p.phone
    out = []
    for package in all_packages(phone):
        if "-d" in flags or "--apex-only" in flags or needle not in package:
            continue
        system = is_system(phone, package)
        if ("-3" in flags and system) or ("-s" in flags and not system):
            continue
        line = "package:" + (f"{apk_path(phone, package)}=" if "-f" in flags else "") + package
        if "--show-versioncode" in flags:
            app = phone.apps.get(package)
            line += f" versionCode:{app.version_code if app else 35}"
        if "-i" in flags:
            line += " installer=com.android.vending"
        if "-U" in flags:
            line += f" uid:{uid_of(phone, package)}"
        out.append(line)
    p.lines(out)
    return 0


def _activities(phone: VirtualPhone, intent: Intent) -> list[tuple[str, Activity]]:
    """Every exported activity whose filters accept the intent (queryIntentActivities, no DEFAULT rule)."""
    if parts := intent.component_parts():
        app = phone.apps.get(parts[0])
        activity = app.activity(parts[1]) if app else None
        return [(parts[0], activity)] if activity else []
    return [
        (package, activity)
        for package, app in sorted(phone.apps.items())
        if intent.package in (None, package)
        for activity in app.activities
        if activity.exported and any(f.matches(intent) for f in activity.filters)
    ]


def resolve_activity(p: Proc, args: list[str], query: bool) -> int:
    command = "query-activities" if query else "resolve-activity"
    parsed = parse_intent(command, args, RESOLVE_OPTIONS)
    phone = p.phone
    if query:
        found = _activities(phone, parsed.intent)
    else:
        resolved = phone.resolve_activity(parsed.intent)
        found = [(resolved[0].package, resolved[1])] if resolved else []
    if not found:
        p.line("No activities found" if query else "No activity found")
        return 0
    names = [short_component(package, activity.cls) for package, activity in found]
    if "--components" in parsed.options:
        p.lines(names)
    elif query:
        out = [f"{len(names)} activities found:"]
        for n, name in enumerate(names):
            out += [f"  Activity #{n}:", f"    {MATCH}", f"    {name}"]
        p.lines(out)
    else:
        p.lines([MATCH, names[0]])
    return 0


def _install_args(args: list[str]) -> tuple[list[str], int | None]:
    """(APK paths, -S SIZE) of `pm install`'s arguments."""
    paths: list[str] = []
    size: int | None = None
    it = iter(args)
    for arg in it:
        if arg == "-S":
            value = next(it, "")
            size = parse_int(value, shell_exception("install", f'java.lang.NumberFormatException: For input string: "{value}"').message, 255)  # fmt: skip
        elif arg in INSTALL_VALUE_FLAGS:
            next(it, None)
        elif arg in INSTALL_FLAGS:
            continue
        elif arg.startswith("-") and arg != STDIN:
            raise CommandError(f"Error: Unknown option: {arg}", 255)
        else:
            paths.append(arg)
    return paths, size


def streamed_install_size(argv: list[str]) -> int | None:
    """SIZE of a streamed install (`pm install -S SIZE`, `cmd package install -S SIZE`, no APK path): the
    bytes of stdin the command reads, which the ADB shell service collects from the client first."""
    name = posixpath.basename(argv[0]) if argv else ""
    rest = argv[2:] if name == "cmd" and argv[1:2] == ["package"] else argv[1:] if name == "pm" else []
    if rest[:1] != ["install"]:
        return None
    try:
        paths, size = _install_args(rest[1:])
    except CommandError:
        return None
    return size if size and size > 0 and paths in ([], [STDIN]) else None


def install(p: Proc, args: list[str]) -> int:
    """`pm install [-S SIZE] [PATH|-]`: one APK from a file or, streamed, SIZE bytes of stdin."""
    paths, size = _install_args(args)
    if not paths and size is None:
        raise CommandError("Error: must either specify a package size or an APK file", 255)
    if not paths or paths == [STDIN]:
        if not size or size <= 0:
            raise CommandError("Error: must specify an APK size", 1)
        data = p.stdin[:size]  # a stream that ends early leaves a cut-off APK, which fails to parse
    else:
        data = _read_apk(p, paths[0])
    session = f"{APP_DIR}/vmdl{1_000_000_000 + zlib.crc32(data) % 900_000_000}.tmp/base.apk"
    try:
        package = package_name(data, session)
    except ApkError as exc:
        p.line(f"Failure [{exc.status}: {exc.detail}]")  # the session's result goes to stdout, exit 1
        return 1
    phone = p.phone
    if package in installed_apks(phone) or package not in all_packages(phone):  # new, or an update
        target = user_apk_path(package)
        phone.fs.mkdir(posixpath.dirname(target))
        phone.fs.write(target, data)
        phone.log("install", package=package)
    p.line("Success")
    return 0


def _read_apk(p: Proc, path: str) -> bytes:
    """The file as system_server opens it for the installer: not on /sdcard (a FUSE mount it may not
    read), and it must exist; otherwise ShellCommand.openFileForSystem's messages and the exception."""
    full = p.path(path)
    fs = p.phone.fs
    if fs.exists(full) and not fs.is_dir(full) and not full.startswith("/sdcard/"):
        return fs.read(full)
    p.err(f"Error: Unable to open file: {path}")
    if not full.startswith("/data/local/tmp/"):
        p.err("Consider using a file under /data/local/tmp/")
    p.err(f"Error: Can't open file: {path}")
    raise shell_exception("install", f"java.lang.IllegalArgumentException: Error: Can't open file: {path}")


def uninstall(p: Proc, args: list[str]) -> int:
    """Only a package installed from an APK can go; anything else fails as a missing package does."""
    names = [a for a in _user_args(args) if not a.startswith("-")]
    if not names:
        raise CommandError("Error: package name not specified", 255)
    installed = installed_apks(p.phone)
    if names[0] in p.phone.apps or names[0] not in installed:
        p.line("Failure [DELETE_FAILED_INTERNAL_ERROR]")
        return 1
    p.phone.fs.remove(posixpath.dirname(posixpath.dirname(installed[names[0]])), recursive=True)
    p.phone.log("uninstall", package=names[0])
    p.line("Success")
    return 0


def get_app_links(p: Proc, args: list[str]) -> int:
    phone = p.phone
    for package in _user_args(args) or sorted(phone.apps):
        app = phone.apps.get(package)
        if app is None:
            continue
        hosts = sorted({h for a in app.activities for f in a.filters if f.auto_verify for h in f.hosts})
        p.lines(
            [
                f"  {package}:",
                f"    ID: {uid_of(phone, package):08x}-0000-4000-8000-{uid_of(phone, package):012x}",
                "    Signatures: [00:00]",
                "    Domain verification state:",
                *(f"      {h}: verified" for h in hosts),
            ]
        )
    return 0


# What a Pixel 7 AVD with Google APIs reports (a subset: the hardware and software features apps check).
FEATURES = (
    "reqGlEsVersion=0x30000", "android.hardware.audio.output", "android.hardware.bluetooth",
    "android.hardware.camera", "android.hardware.camera.any", "android.hardware.faketouch",
    "android.hardware.location", "android.hardware.location.gps", "android.hardware.location.network",
    "android.hardware.microphone", "android.hardware.screen.landscape", "android.hardware.screen.portrait",
    "android.hardware.sensor.accelerometer", "android.hardware.telephony", "android.hardware.telephony.gsm",
    "android.hardware.touchscreen", "android.hardware.touchscreen.multitouch", "android.hardware.wifi",
    "android.software.app_widgets", "android.software.home_screen", "android.software.input_methods",
    "android.software.webview", "com.google.android.feature.GOOGLE_BUILD",
)  # fmt: skip


def pm(p: Proc, args: list[str]) -> int:
    if not args:
        p.line(
            "Package manager (package) commands:\n  list packages [-3|-s|-f|-e|-d|-U|-i] [FILTER]\n  path PACKAGE\n"
            "  clear PACKAGE\n  install [-r] [-t] [-g] PATH\n  grant|revoke PACKAGE PERMISSION\n"
            "  resolve-activity [--brief] INTENT\n  query-activities [--brief] INTENT\n  dump PACKAGE"
        )
        return 0
    sub, rest = args[0], args[1:]
    phone = p.phone
    if sub == "list":
        what = rest[0] if rest else ""
        if what in ("packages", "package"):
            return list_packages(p, rest[1:])
        if what == "users":
            p.lines(["Users:", "\tUserInfo{0:Owner:c13} running"])
            return 0
        if what == "features":
            p.lines([f"feature:{name}" for name in FEATURES])
            return 0
        raise CommandError(f"Error: unknown list type '{what}'", 255)
    if sub == "path":
        names = _user_args(rest)
        if not names or names[0] not in all_packages(phone):
            return 1
        p.line(f"package:{apk_path(phone, names[0])}")
        return 0
    if sub == "clear":
        names = _user_args(rest)
        if not names:
            raise CommandError("Error: no package specified")
        if names[0] not in all_packages(phone):
            raise CommandError("Failed")
        clear_package_data(phone, names[0])
        p.line("Success")
        return 0
    if sub == "install":
        return install(p, rest)
    if sub == "uninstall":
        return uninstall(p, rest)
    if sub in ("grant", "revoke"):
        names = _user_args(rest)
        if len(names) < 2:
            raise shell_exception(sub, "java.lang.IllegalArgumentException: Argument expected")
        _known(phone, sub, names[0])
        return 0
    if sub in ("resolve-activity", "query-activities"):
        return resolve_activity(p, rest, query=sub == "query-activities")
    if sub == "dump":
        names = _user_args(rest)
        if not names:
            raise CommandError("Error: no package specified", 255)
        _known(phone, sub, names[0])
        p.lines(package_dump(phone, names[0]))
        return 0
    if sub == "get-app-links":
        return get_app_links(p, rest)
    if sub.startswith(("set-app-links", "verify-app-links", "reset-app-links")):
        return 0
    raise CommandError(f"Unknown command: {sub}", 255)


def clear_package_data(phone: VirtualPhone, package: str) -> None:
    """`pm clear`: an app's data, which includes the provider data it answers `content query` with;
    clearing a provider's own package (AndroidWorld clears `com.android.providers.contacts`) clears the
    app that holds that provider's data. Either way `content query` then answers the seeded defaults."""
    authority = PROVIDER_AUTHORITIES.get(package)
    holders = [app.package for app in phone.apps.values() if authority in app.providers] if authority else []
    for holder in holders or [package]:
        phone.clear_data(holder)


COMMANDS = {"pm": pm}
