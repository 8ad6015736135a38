"""The package manager (`pm`, `cmd package`) over the phone's simulated apps and a few platform packages.

There is no real APK: `pm install` of an existing file answers Success without adding an app, and
`pm uninstall` is refused, because an app that vanished would not come back on `cmd masbench reset`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..intents import short_component
from .am import parse_intent, shell_exception
from .base import PROVIDER_AUTHORITIES, CommandError, Proc, all_packages, apk_path, is_system, uid_of
from .dumpsys import package_dump

if TYPE_CHECKING:
    from ..app import Activity
    from ..intents import Intent
    from ..phone import VirtualPhone

RESOLVE_OPTIONS = {"--brief": False, "--components": False, "--user": True, "--query-flags": True}
INSTALL_FLAGS = {"-r", "-t", "-g", "-d", "-f", "-l", "-s", "-R", "--instant", "--full", "--dont-kill", "--force-queryable", "--bypass-low-target-sdk-block"}  # fmt: skip
INSTALL_VALUE_FLAGS = {"-i", "--user", "--install-location", "--originating-uri", "--referrer", "-p", "--pkg", "-S", "--abi"}  # fmt: skip
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


def install(p: Proc, args: list[str]) -> int:
    paths = []
    it = iter(args)
    for arg in it:
        if arg in INSTALL_VALUE_FLAGS:
            next(it, None)
        elif arg in INSTALL_FLAGS:
            continue
        elif arg.startswith("-"):
            raise CommandError(f"Error: Unknown option: {arg}", 255)
        else:
            paths.append(arg)
    if not paths:
        raise CommandError("Error: must either specify a package size or an APK file", 255)
    fs = p.phone.fs
    if not all(fs.exists(p.path(path)) and not fs.is_dir(p.path(path)) for path in paths):
        raise CommandError("Failure [INSTALL_FAILED_INVALID_APK]")
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
        raise CommandError("Failure [DELETE_FAILED_INTERNAL_ERROR]")
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
