"""System settings and the switches over them: `settings`, `content` (settings provider), `svc`, `ime`,
`cmd wifi|connectivity|uimode`. Every change goes through `put_setting`, which logs a `setting` event and
redraws, so the Settings app, task checks and the event log all see it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..phone import ADB_KEYBOARD_IME, IMES
from .am import shell_exception
from .base import CommandError, Proc
from .power import POWER_OFF_REFUSED, reboot_phone

if TYPE_CHECKING:
    from ..phone import VirtualPhone

NAMESPACES = ("system", "secure", "global")
SETTINGS_USAGE = "usage:  settings [--user <USER_ID> | current] get|put|delete|list namespace [key] [value]"


def put_setting(phone: VirtualPhone, namespace: str, key: str, value: str | None) -> None:
    table = phone.settings[namespace]
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value
    phone.log("setting", namespace=namespace, key=key, value=value)
    phone.invalidate()


def _settings_args(args: list[str]) -> tuple[str, str, list[str]]:
    """(verb, namespace, rest) as SettingsService's shell command reads them; its errors exit -1 (255)."""
    args = [a for i, a in enumerate(args) if a != "--user" and (i == 0 or args[i - 1] != "--user")]
    if not args:
        raise CommandError(SETTINGS_USAGE)
    verb = args[0].lower()
    if verb not in ("get", "put", "delete", "list", "reset"):
        raise CommandError(f"Invalid command: {args[0]}", 255)
    if len(args) < 2:
        raise CommandError("Bad arguments", 255)
    namespace = args[1].lower()
    if namespace not in NAMESPACES:
        raise CommandError(f"Invalid namespace '{args[1]}'", 255)
    rest = args[2:]
    needed = {"get": 1, "delete": 1, "put": 2}.get(verb, 0)
    if len(rest) < needed:
        raise CommandError("Bad arguments", 255)
    return verb, namespace, rest


def settings(p: Proc, args: list[str]) -> int:
    """`settings get|put|delete|list NAMESPACE ...` over the phone's tables; `list` sorts whole
    `name=value` lines (Collections.sort in SettingsService), so `a.b=` comes before `a=`."""
    verb, namespace, rest = _settings_args(args)
    table = p.phone.settings[namespace]
    if verb == "get":
        p.line(table.get(rest[0], "null"))
    elif verb == "put":
        put_setting(p.phone, namespace, rest[0], rest[1])  # a trailing TAG or `default` changes nothing here
    elif verb == "delete":
        existed = rest[0] in table
        put_setting(p.phone, namespace, rest[0], None)
        p.line(f"Deleted {int(existed)} rows")
    elif verb == "list":
        p.lines(sorted(f"{k}={v}" for k, v in table.items()))
    else:
        raise CommandError("settings reset is not supported on a virtual phone; use `cmd masbench reset`")
    return 0


def _where(clause: str) -> str | None:
    """The key in `name='x'` / `name="x"` / `name=x`; content query understands nothing richer here."""
    m = re.fullmatch(r"\s*name\s*=\s*(?:'([^']*)'|\"([^\"]*)\"|(\S+))\s*", clause)
    if m is None:
        return None
    return next(g for g in m.groups() if g is not None)


def content(p: Proc, args: list[str]) -> int:
    if not args:
        raise CommandError("usage: content [query|insert|delete] --uri <URI> ...")
    verb = args[0]
    opts: dict[str, list[str]] = {}
    it = iter(args[1:])
    for arg in it:
        if arg.startswith("--"):
            value = next(it, None)
            if value is None:
                raise CommandError(f"Error: missing value for {arg}")
            opts.setdefault(arg, []).append(value)
    uri = opts.get("--uri", [""])[-1]
    m = re.fullmatch(r"content://settings/(system|secure|global)", uri)
    if m is None:
        return _app_provider(p, verb, uri, opts)
    namespace = m.group(1)
    table = p.phone.settings[namespace]
    if verb == "query":
        keys = sorted(table)
        if "--where" in opts:
            wanted = _where(opts["--where"][-1])
            if wanted is None:
                raise CommandError(
                    f"Error while accessing provider:settings\njava.lang.IllegalArgumentException: unsupported selection: {opts['--where'][-1]}"
                )
            keys = [k for k in keys if k == wanted]
        columns = opts.get("--projection", ["_id:name:value"])[-1].split(":")
        if not keys:
            p.line("No result found.")
        for n, key in enumerate(keys):
            row = {"_id": str(sorted(table).index(key) + 1), "name": key, "value": table[key]}
            p.line(f"Row: {n} " + ", ".join(f"{c}={row.get(c, 'NULL')}" for c in columns))
        return 0
    if verb == "insert":
        binds = {}
        for bind in opts.get("--bind", []):
            name, _, rest = bind.partition(":")
            _, _, value = rest.partition(":")
            binds[name] = value
        if "name" not in binds or "value" not in binds:
            raise CommandError(
                "Error while accessing provider:settings\njava.lang.IllegalArgumentException: name and value are required"
            )
        put_setting(p.phone, namespace, binds["name"], binds["value"])
        return 0
    if verb == "delete":
        wanted = _where(opts.get("--where", [""])[-1])
        if wanted is not None and wanted in table:
            put_setting(p.phone, namespace, wanted, None)
        return 0
    raise CommandError(f"Unsupported operation: {verb}")


def _app_provider(p: Proc, verb: str, uri: str, opts: dict[str, list[str]]) -> int:
    """`content query` on an app's provider (calendar events, contacts...): rows printed as Android's
    `content` tool prints them, `NULL` for a missing column."""
    authority = uri.removeprefix("content://").split("/", 1)[0]
    app = next((a for a in p.phone.apps.values() if authority in a.providers), None)
    failure = f"Error while accessing provider:{authority}\njava.lang.IllegalArgumentException: "
    if app is None or verb != "query":
        raise CommandError(
            failure + (f"Unknown URI {uri}" if app is None else f"Unsupported operation: {verb}")
        )
    try:
        rows = app.query(p.phone.context(app.package), uri, opts.get("--where", [None])[-1],
                         opts.get("--sort", [None])[-1])  # fmt: skip
    except ValueError as exc:
        raise CommandError(failure + str(exc)) from None
    projection = opts["--projection"][-1].split(":") if "--projection" in opts else None
    if not rows:
        p.line("No result found.")
    for n, row in enumerate(rows):
        columns = projection or list(row)
        p.line(f"Row: {n} " + ", ".join(f"{c}={'NULL' if row.get(c) is None else row[c]}" for c in columns))
    return 0


SVC_SETTINGS = {"wifi": "wifi_on", "data": "mobile_data", "bluetooth": "bluetooth_on", "nfc": "nfc_on"}


def svc(p: Proc, args: list[str]) -> int:
    if len(args) < 2:
        raise CommandError("Available commands:\n    wifi\n    data\n    bluetooth\n    power\n    nfc")
    service, action = args[0], args[1]
    if service in SVC_SETTINGS and action in ("enable", "disable"):
        value = "1" if action == "enable" else "0"
        put_setting(p.phone, "global", SVC_SETTINGS[service], value)
        if service == "bluetooth":
            put_setting(p.phone, "secure", "bluetooth_on", value)  # the Settings app keeps both in step
        return 0
    if service == "power" and action == "stayon" and len(args) > 2:
        stay_on = {"true": "7", "false": "0", "usb": "2", "ac": "1", "wireless": "4"}.get(args[2])
        if stay_on is None:
            raise CommandError("usage: svc power stayon [true|false|usb|ac|wireless]")
        put_setting(p.phone, "global", "stay_on_while_plugged_in", stay_on)
        return 0
    if service == "power" and action == "reboot":
        reboot_phone(p.phone)
        return 0
    if service == "power" and action == "shutdown":
        raise CommandError(f"svc power shutdown: {POWER_OFF_REFUSED}")
    raise CommandError(f"svc {service}: unknown command '{action}'")


def ime(p: Proc, args: list[str]) -> int:
    phone = p.phone
    secure = phone.settings["secure"]
    enabled = [i for i in secure.get("enabled_input_methods", "").split(":") if i]
    sub, rest = (args[0], args[1:]) if args else ("", [])
    ids = [a for a in rest if not a.startswith("-")]
    if sub == "list":
        shown = IMES if "-a" in rest else [i for i in IMES if i in enabled]
        if "-s" in rest:
            p.lines(list(shown))
        else:
            p.lines([line for i in shown for line in (f"{i}:", f"  mId={i} mSettingsActivityName=null")])
        return 0
    if sub in ("enable", "disable", "set") and not ids:
        raise shell_exception(sub, f'java.lang.IllegalArgumentException: Argument expected after "{sub}"')
    if sub in ("enable", "disable"):
        for ime_id in ids:
            if ime_id not in IMES:
                p.line(f"Unknown input method {ime_id} cannot be {sub}d for user #0")
                continue
            was = ime_id in enabled
            if (sub == "enable") != was:
                enabled = [*enabled, ime_id] if sub == "enable" else [i for i in enabled if i != ime_id]
                put_setting(phone, "secure", "enabled_input_methods", ":".join(enabled))
            state = "already" if (sub == "enable") == was else "now"
            p.line(f"Input method {ime_id}: {state} {sub}d for user #0")
        return 0
    if sub == "set":
        ime_id = ids[0]
        if ime_id not in IMES:
            raise CommandError(f"Unknown input method {ime_id} cannot be selected for user #0")
        if ime_id not in enabled:
            put_setting(phone, "secure", "enabled_input_methods", ":".join([*enabled, ime_id]))
        put_setting(phone, "secure", "default_input_method", ime_id)
        p.line(f"Input method {ime_id} selected for user #0")
        return 0
    if sub == "reset":
        put_setting(phone, "secure", "default_input_method", ADB_KEYBOARD_IME)
        p.line(f"Reset current and enabled IMEs for user #0\n  Selected: {ADB_KEYBOARD_IME}")
        return 0
    raise CommandError("Usage: ime list [-a] [-s] | enable ID | disable ID | set ID | reset")


def cmd_wifi(p: Proc, args: list[str]) -> int:
    if args[:1] == ["set-wifi-enabled"] and len(args) > 1 and args[1] in ("enabled", "disabled"):
        put_setting(p.phone, "global", "wifi_on", "1" if args[1] == "enabled" else "0")
        return 0
    if args[:1] == ["status"]:
        on = p.phone.settings["global"].get("wifi_on", "0") != "0"
        p.line(f"Wifi is {'enabled' if on else 'disabled'}")
        return 0
    raise CommandError("Usage: cmd wifi set-wifi-enabled enabled|disabled | status", 255)


def cmd_connectivity(p: Proc, args: list[str]) -> int:
    if args[:1] != ["airplane-mode"]:
        raise CommandError("Usage: cmd connectivity airplane-mode [enable|disable]", 255)
    if len(args) == 1:
        on = p.phone.settings["global"].get("airplane_mode_on", "0") != "0"
        p.line("enabled" if on else "disabled")
    elif args[1] in ("enable", "disable"):
        put_setting(p.phone, "global", "airplane_mode_on", "1" if args[1] == "enable" else "0")
        if args[1] == "enable":  # radios go off with airplane mode, as the Settings switch does
            put_setting(p.phone, "global", "wifi_on", "0")
            put_setting(p.phone, "global", "bluetooth_on", "0")
    else:
        raise CommandError("Usage: cmd connectivity airplane-mode [enable|disable]", 255)
    return 0


def cmd_uimode(p: Proc, args: list[str]) -> int:
    if args[:1] != ["night"]:
        raise CommandError("Usage: cmd uimode night [yes|no|auto]", 255)
    secure = p.phone.settings["secure"]
    if len(args) == 1:
        p.line("Night mode: " + {"2": "yes", "1": "no"}.get(secure.get("ui_night_mode", "1"), "auto"))
        return 0
    value = {"yes": "2", "no": "1", "auto": "0"}.get(args[1])
    if value is None:
        raise CommandError("Error: mode must be 'yes', 'no', or 'auto'", 255)
    put_setting(p.phone, "secure", "ui_night_mode", value)
    p.line("Night mode: " + args[1])
    return 0


COMMANDS = {"settings": settings, "content": content, "svc": svc, "ime": ime}
