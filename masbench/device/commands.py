"""Pure builders and parsers for the shell commands the device layer sends (no I/O, unit-testable).

Every command is built as an argument list and turned into one shell line with `shlex.join`, so an
argument - a URI with ``&``, a query with ``$(...)``, a quote - reaches the device's program as exactly
one argument and can never start another command.
"""

from __future__ import annotations

import base64
import re
import shlex
from collections.abc import Mapping, Sequence

from .errors import UnsupportedTextError

ExtraValue = str | int | bool | float | list[str] | list[int] | list[float] | None

_INT32 = range(-(2**31), 2**31)
_PKG_ACT = re.compile(r"([A-Za-z][\w]*(?:\.[\w]+)+)/(\.?[\w.$]+)")
_ADB_KEYBOARD = "com.android.adbkeyboard"


def join(args: Sequence[object]) -> str:
    """One shell line from an argument list; every argument is quoted (`shlex.join`)."""
    return shlex.join(str(a) for a in args)


# -- intents -----------------------------------------------------------------------------------------


def _escape_array_item(value: str) -> str:
    return value.replace(",", "\\,")  # `am` splits --esa on commas not preceded by a backslash


def extra_args(extras: Mapping[str, ExtraValue]) -> list[str]:
    """Typed `am` extras: str→--es, bool→--ez, int→--ei (--el beyond 32 bits), float→--ef,
    list[str]→--esa, list[int]→--eia (--ela), list[float]→--efa, None→--esn."""
    out: list[str] = []
    for key, value in extras.items():
        if not isinstance(key, str) or not key:
            raise ValueError(f"intent extra key must be a non-empty string, got {key!r}")
        if value is None:
            out += ["--esn", key]
        elif isinstance(value, bool):
            out += ["--ez", key, "true" if value else "false"]
        elif isinstance(value, int):
            out += ["--ei" if value in _INT32 else "--el", key, str(value)]
        elif isinstance(value, float):
            out += ["--ef", key, repr(value)]
        elif isinstance(value, str):
            out += ["--es", key, value]
        elif isinstance(value, list | tuple):
            out += _array_extra(key, list(value))
        else:
            raise ValueError(f"intent extra {key!r}: unsupported type {type(value).__name__}")
    return out


def _array_extra(key: str, values: list[object]) -> list[str]:
    if not values:
        raise ValueError(f"intent extra {key!r}: am cannot pass an empty list")
    if all(isinstance(v, str) for v in values):
        return ["--esa", key, ",".join(_escape_array_item(str(v)) for v in values)]
    if any(isinstance(v, bool) for v in values):
        raise ValueError(f"intent extra {key!r}: am has no boolean-array extra")
    if all(isinstance(v, int) for v in values):
        wide = any(v not in _INT32 for v in values)
        return ["--ela" if wide else "--eia", key, ",".join(str(v) for v in values)]
    numbers = [v for v in values if isinstance(v, int | float)]
    if len(numbers) == len(values):
        return ["--efa", key, ",".join(repr(float(v)) for v in numbers)]
    raise ValueError(f"intent extra {key!r}: a list must hold only strings, only ints or only numbers")


def am_start_args(
    action: str | None = None,
    data: str | None = None,
    component: str | None = None,
    package: str | None = None,
    categories: Sequence[str] = (),
    extras: Mapping[str, ExtraValue] | None = None,
    mime_type: str | None = None,
    wait: bool = True,
) -> list[str]:
    """`am start [-W] [-a A] [-d URI] [-t MIME] [-c C]... [-n CMP] [-p PKG] [extras]`."""
    if not (action or data or component or package):
        raise ValueError("an intent needs at least one of action, data, component or package")
    args = ["am", "start"]
    if wait:
        args.append("-W")
    args += _intent_args(action, data, component, package, categories, extras, mime_type)
    return args


def broadcast_args(
    action: str,
    extras: Mapping[str, ExtraValue] | None = None,
    package: str | None = None,
    component: str | None = None,
) -> list[str]:
    """`am broadcast -a ACTION [-n CMP] [-p PKG] [extras]`."""
    if not action:
        raise ValueError("a broadcast needs an action")
    return ["am", "broadcast", *_intent_args(action, None, component, package, (), extras, None)]


def _intent_args(
    action: str | None,
    data: str | None,
    component: str | None,
    package: str | None,
    categories: Sequence[str],
    extras: Mapping[str, ExtraValue] | None,
    mime_type: str | None,
) -> list[str]:
    args: list[str] = []
    if action:
        args += ["-a", action]
    if data:
        args += ["-d", data]
    if mime_type:
        args += ["-t", mime_type]
    for category in categories:
        args += ["-c", category]
    if component:
        if "/" not in component:
            raise ValueError(f"component {component!r} must be PACKAGE/ACTIVITY")
        args += ["-n", component]
    if package:
        args += ["-p", package]
    return args + extra_args(extras or {})


def am_error(output: str) -> str | None:
    """Android reports many `am`/`monkey` failures with exit status 0; find the error text, if any."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        s = line.strip()
        if (
            s.startswith(("Error:", "Error type", "Exception occurred", "Security exception"))
            or (s.startswith("java.lang.") and "Exception" in s)
            or "monkey aborted" in s
            or s.startswith("No activities found")
        ):
            return "\n".join(x.strip() for x in lines[i : i + 3] if x.strip())
    return None


def parse_broadcast(output: str) -> tuple[int | None, str | None]:
    """`Broadcast completed: result=-1, data="..."` → (-1, "...")."""
    m = re.search(r"Broadcast completed: result=(-?\d+)(?:, data=\"(.*)\")?", output)
    if m is None:
        return None, None
    return int(m.group(1)), m.group(2)


# -- text entry --------------------------------------------------------------------------------------


def uses_adb_keyboard(default_input_method: str) -> bool:
    return _ADB_KEYBOARD in default_input_method


def adb_keyboard_text_args(text: str) -> list[str]:
    """ADBKeyboard's base64 broadcast: any Unicode, quotes and spaces survive byte for byte."""
    b64 = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return ["am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", b64]


def input_text_args(text: str) -> list[str]:
    """`input text` with spaces as ``%s``; only printable ASCII can be typed this way."""
    bad = sorted({ch for ch in text if not (" " <= ch <= "~")})
    if bad:
        raise UnsupportedTextError(
            f"`input text` can only type printable ASCII, and no ADBKeyboard IME is active; cannot type "
            f"{''.join(bad)!r}. Install ADBKeyboard (masbench emulator install-adbkeyboard) and set it as "
            "the default input method."
        )
    if "%s" in text:
        raise UnsupportedTextError("`input text` turns '%s' into a space; use the ADBKeyboard IME to type it")
    return ["input", "text", text.replace(" ", "%s")]


# -- gestures ----------------------------------------------------------------------------------------


def keycode(name: str | int) -> str:
    """`input keyevent`'s argument: ``back``, ``KEYCODE_BACK`` or a key code number, checked before any
    shell sees it."""
    key = str(name).strip()
    if not key or not key.replace("_", "").isalnum():
        raise ValueError(f"bad key name {name!r}")
    return key if key.isdigit() else "KEYCODE_" + key.upper().removeprefix("KEYCODE_")


def scroll_gesture(direction: str, region: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Swipe endpoints that scroll `region` so content further in `direction` comes into view.

    Scrolling "down" reveals what is below, so the finger moves up; the stroke spans 60% of the region
    (40% for the whole screen, see `Device.scroll`) around its centre and never leaves it.
    """
    x1, y1, x2, y2 = region
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    half_h, half_w = int((y2 - y1) * 0.3), int((x2 - x1) * 0.3)
    strokes = {
        "down": (cx, cy + half_h, cx, cy - half_h),
        "up": (cx, cy - half_h, cx, cy + half_h),
        "right": (cx + half_w, cy, cx - half_w, cy),
        "left": (cx - half_w, cy, cx + half_w, cy),
    }
    if direction not in strokes:
        raise ValueError(f"scroll direction must be up, down, left or right, not {direction!r}")
    return strokes[direction]


# -- dumpsys / wm parsing ----------------------------------------------------------------------------


def _pkg_act(text: str) -> tuple[str, str] | None:
    m = _PKG_ACT.search(text)
    if m is None:
        return None
    package, activity = m.groups()
    if activity.startswith("."):
        activity = package + activity
    return package, activity


def parse_focus(dumpsys: str) -> tuple[str, str] | None:
    """Foreground (package, activity) from `dumpsys window` or `dumpsys activity activities` text.

    Priority: ``mCurrentFocus`` (the focused window; skipped when it is not an activity, e.g. the status
    bar or a popup), then ``mFocusedApp``, then ``mResumedActivity``/``topResumedActivity``.
    """
    keys = ("mCurrentFocus=", "mFocusedApp=", "mResumedActivity", "topResumedActivity", "ResumedActivity:")
    lines = dumpsys.splitlines()
    for key in keys:
        for line in lines:
            if key in line:
                found = _pkg_act(line.split(key, 1)[1])
                if found:
                    return found
    return None


def parse_wm_size(text: str) -> tuple[int, int] | None:
    """`wm size` → (w, h); an ``Override size`` wins over the ``Physical size``."""
    sizes = dict(re.findall(r"(Override|Physical) size:\s*(\d+x\d+)", text))
    chosen = sizes.get("Override") or sizes.get("Physical")
    if not chosen:
        return None
    w, h = chosen.split("x")
    return int(w), int(h)


__all__ = [
    "ExtraValue",
    "adb_keyboard_text_args",
    "am_error",
    "am_start_args",
    "broadcast_args",
    "extra_args",
    "input_text_args",
    "join",
    "parse_broadcast",
    "parse_focus",
    "parse_wm_size",
    "scroll_gesture",
    "uses_adb_keyboard",
]
