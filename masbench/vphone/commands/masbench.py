"""`cmd masbench ...`: the controls only a virtual phone has (reset, state, patch, save/restore, events,
time, apps, clipboard), reached through ADB like everything else so the runner and task checks need no in-process
handle on the phone. Output is one line of JSON with sorted keys (events: one object per line)."""

from __future__ import annotations

import base64
import binascii
import copy
import json
import pickle
import weakref
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..fs import VirtualFS
from .base import CommandError, Proc, parse_int

if TYPE_CHECKING:
    from ..phone import VirtualPhone

USAGE = """usage: cmd masbench <command>
  reset [--seed N] [--clock ISO8601]   restore the initial state (defaults: seed 0, 2025-06-02T09:30:00Z)
  state [PACKAGE]                      an app's state, or the whole phone's snapshot
  state PACKAGE --stored               the app's stored state, which patch writes (not the public view)
  state [--apps P1,P2] [--digest]      the snapshot with only those apps' states (installed ones);
                                       --digest adds the SHA-1 of the whole snapshot without its clocks
  patch PACKAGE JSON | --b64 BASE64    deep-merge a JSON object into an app's stored state
        [--replace]                    with --replace, its top-level keys replace what was there
  save NAME                            remember the whole phone state (apps, stack, clock, settings) as NAME
  restore NAME                         go back to the state saved as NAME (it stays saved)
  forget NAME                          drop the state saved as NAME
  events [--since SEQ]                 the event log from SEQ (inclusive), one JSON object per line
  time                                 the virtual clock and modelled device time
  apps                                 installed apps
  clipboard [TEXT]                     read or set the clipboard"""


def _json(p: Proc, value: Any) -> None:
    p.line(json.dumps(value, sort_keys=True, ensure_ascii=False))


def deep_merge(target: dict[str, Any], patch: dict[str, Any]) -> None:
    """Dicts merge key by key; any other value (lists included) replaces what was there."""
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            deep_merge(target[key], value)
        else:
            target[key] = copy.deepcopy(value)


def _options(args: list[str], names: set[str], flags: frozenset[str] = frozenset()) -> dict[str, str]:
    """`--name value` options, and `flags` that take no value (their value is "")."""
    opts: dict[str, str] = {}
    it = iter(args)
    for arg in it:
        if arg in flags:
            opts[arg] = ""
            continue
        if arg not in names:
            raise CommandError(f"cmd masbench: unknown argument '{arg}'\n{USAGE}")
        value = next(it, None)
        if value is None:
            raise CommandError(f"cmd masbench: {arg} needs a value")
        opts[arg] = value
    return opts


def _reset(p: Proc, args: list[str]) -> None:
    opts = _options(args, {"--seed", "--clock"})
    seed = parse_int(opts.get("--seed", "0"), f"cmd masbench reset: bad seed '{opts.get('--seed')}'")
    clock = None
    if "--clock" in opts:
        try:
            clock = datetime.fromisoformat(opts["--clock"])
        except ValueError:
            raise CommandError(f"cmd masbench reset: bad clock '{opts['--clock']}' (want ISO 8601)") from None
        if clock.tzinfo is None:
            clock = clock.replace(tzinfo=UTC)
    p.phone.reset(seed, clock)
    _json(p, {"ok": True, "seed": seed, "clock": p.phone.now().isoformat()})


def _state(p: Proc, args: list[str]) -> None:
    phone = p.phone
    if args and not args[0].startswith("--") and args[1:] in ([], ["--stored"]):
        if args[0] not in phone.apps:
            raise CommandError(f"cmd masbench state: unknown package '{args[0]}'")
        _json(p, phone.app_states[args[0]] if args[1:] else phone.app_state(args[0]))
        return
    opts = _options(args, {"--apps"}, flags=frozenset({"--digest"}))
    packages = opts["--apps"].split(",") if "--apps" in opts else None
    report = phone.snapshot(packages)  # a package not installed is left out, as in the whole snapshot
    if "--digest" in opts:
        report["digest"] = phone.digest()
    _json(p, report)


def _patch(p: Proc, args: list[str]) -> None:
    phone = p.phone
    replace = args[-1:] == ["--replace"]
    if replace:
        args = args[:-1]
    if len(args) not in (2, 3) or (len(args) == 3 and args[1] != "--b64"):
        raise CommandError(f"cmd masbench patch: want PACKAGE JSON or PACKAGE --b64 BASE64\n{USAGE}")
    package, text = args[0], args[-1]
    if package not in phone.app_states:
        raise CommandError(f"cmd masbench patch: unknown package '{package}'")
    try:
        if len(args) == 3:
            text = base64.b64decode(text, validate=True).decode("utf-8")
        value = json.loads(text)
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise CommandError(f"cmd masbench patch: bad JSON: {exc}") from None
    if not isinstance(value, dict):
        raise CommandError("cmd masbench patch: the patch must be a JSON object")
    if replace:
        phone.app_states[package].update(copy.deepcopy(value))
    else:
        deep_merge(phone.app_states[package], value)
    phone.invalidate()
    _json(p, {"ok": True})


# Everything `VirtualPhone.reset` rebuilds: together they are the phone's state (serial, apps and props
# never change after construction; the cached frame is dropped on restore). All but the file store are
# plain data, kept pickled (unpickling is several times faster than a deep copy, and restore is hot) and
# compressed (a search may keep thousands of states; most of each is app data that compresses 3x).
PICKLED_FIELDS = (
    "seed",
    "boot_clock",
    "device_ms",
    "events",
    "settings",
    "clipboard",
    "toasts",
    "stack",
    "app_states",
    "running",
)


@dataclass(frozen=True)
class _Saved:
    packed: bytes  # PICKLED_FIELDS, pickled and compressed
    fs: VirtualFS  # holds the phone's clock as a callable, which pickle cannot carry


# Saved states live beside the phone, not in it, and go when the phone goes.
_saved: weakref.WeakKeyDictionary[VirtualPhone, dict[str, _Saved]] = weakref.WeakKeyDictionary()


def _name(args: list[str], command: str) -> str:
    if len(args) != 1 or not args[0]:
        raise CommandError(f"cmd masbench {command}: want one NAME\n{USAGE}")
    return args[0]


def _save(p: Proc, args: list[str]) -> None:
    """An in-phone copy, so a search over routes can branch from a state in a millisecond or two."""
    name = _name(args, "save")
    phone = p.phone
    with phone.lock:
        fields = {f: getattr(phone, f) for f in PICKLED_FIELDS}
        packed = zlib.compress(pickle.dumps(fields, pickle.HIGHEST_PROTOCOL), 1)
        saved = _Saved(packed, copy.deepcopy(phone.fs))
        _saved.setdefault(phone, {})[name] = saved
    _json(p, {"ok": True, "name": name})


def _restore(p: Proc, args: list[str]) -> None:
    name = _name(args, "restore")
    phone = p.phone
    saved = _saved.get(phone, {}).get(name)
    if saved is None:
        raise CommandError(f"cmd masbench restore: nothing saved as '{name}'")
    with phone.lock:
        for field, value in pickle.loads(zlib.decompress(saved.packed)).items():
            setattr(phone, field, value)
        phone.fs = copy.deepcopy(saved.fs)
        phone.invalidate()
    _json(p, {"ok": True, "name": name})


def _events(p: Proc, args: list[str]) -> None:
    opts = _options(args, {"--since"})
    since = parse_int(opts.get("--since", "0"), f"cmd masbench events: bad --since '{opts.get('--since')}'")
    for event in p.phone.events:
        if event.seq >= since:
            _json(p, event.as_json())


def _time(p: Proc, args: list[str]) -> None:
    _json(p, {"clock": p.phone.now().isoformat(), "device_ms": p.phone.device_ms})


def _apps(p: Proc, args: list[str]) -> None:
    apps = []
    for package, app in sorted(p.phone.apps.items()):
        launcher = app.launcher_activity
        apps.append(
            {
                "package": package,
                "label": app.label,
                "launcher_activity": launcher.cls if launcher else None,
                "in_launcher": app.in_launcher,
            }
        )
    _json(p, apps)


def _clipboard(p: Proc, args: list[str]) -> None:
    if args:
        p.phone.clipboard = " ".join(args)
        _json(p, {"ok": True})
    else:
        _json(p, {"text": p.phone.clipboard})


def _forget(p: Proc, args: list[str]) -> None:
    name = _name(args, "forget")
    if _saved.get(p.phone, {}).pop(name, None) is None:
        raise CommandError(f"cmd masbench forget: nothing saved as '{name}'")
    _json(p, {"ok": True, "name": name})


def saved_names(phone: VirtualPhone) -> list[str]:
    """The names of the phone's saved states, in the order they were saved."""
    return list(_saved.get(phone, {}))


SUBCOMMANDS = {
    "reset": _reset,
    "state": _state,
    "patch": _patch,
    "save": _save,
    "restore": _restore,
    "forget": _forget,
    "events": _events,
    "time": _time,
    "apps": _apps,
    "clipboard": _clipboard,
}


def cmd_masbench(p: Proc, args: list[str]) -> int:
    handler = SUBCOMMANDS.get(args[0]) if args else None
    if handler is None:
        raise CommandError((f"cmd masbench: unknown command '{args[0]}'\n" if args else "") + USAGE)
    handler(p, args[1:])
    return 0
