"""Touch, keys, text, screenshots and UI dumps: `input`, `screencap`, `uiautomator`, `wm`."""

from __future__ import annotations

import io
import posixpath
import struct

from PIL import Image

from .base import CommandError, Proc, parse_float, parse_int, writable

# Android's KeyEvent codes that clients send by number (the rest are accepted by name only).
KEYCODES = {
    0: "UNKNOWN", 1: "SOFT_LEFT", 2: "SOFT_RIGHT", 3: "HOME", 4: "BACK", 5: "CALL", 6: "ENDCALL",
    **{7 + d: str(d) for d in range(10)},
    17: "STAR", 18: "POUND", 19: "DPAD_UP", 20: "DPAD_DOWN", 21: "DPAD_LEFT", 22: "DPAD_RIGHT",
    23: "DPAD_CENTER", 24: "VOLUME_UP", 25: "VOLUME_DOWN", 26: "POWER", 27: "CAMERA", 28: "CLEAR",
    **{29 + i: chr(ord("A") + i) for i in range(26)},
    55: "COMMA", 56: "PERIOD", 57: "ALT_LEFT", 58: "ALT_RIGHT", 59: "SHIFT_LEFT", 60: "SHIFT_RIGHT",
    61: "TAB", 62: "SPACE", 63: "SYM", 64: "EXPLORER", 65: "ENVELOPE", 66: "ENTER", 67: "DEL", 68: "GRAVE",
    69: "MINUS", 70: "EQUALS", 71: "LEFT_BRACKET", 72: "RIGHT_BRACKET", 73: "BACKSLASH", 74: "SEMICOLON",
    75: "APOSTROPHE", 76: "SLASH", 77: "AT", 78: "NUM", 79: "HEADSETHOOK", 80: "FOCUS", 81: "PLUS",
    82: "MENU", 83: "NOTIFICATION", 84: "SEARCH", 85: "MEDIA_PLAY_PAUSE", 86: "MEDIA_STOP",
    87: "MEDIA_NEXT", 88: "MEDIA_PREVIOUS", 89: "MEDIA_REWIND", 90: "MEDIA_FAST_FORWARD", 91: "MUTE",
    92: "PAGE_UP", 93: "PAGE_DOWN", 111: "ESCAPE", 112: "FORWARD_DEL", 113: "CTRL_LEFT", 114: "CTRL_RIGHT",
    115: "CAPS_LOCK", 122: "MOVE_HOME", 123: "MOVE_END", 124: "INSERT", 126: "MEDIA_PLAY",
    127: "MEDIA_PAUSE", 160: "NUMPAD_ENTER", 164: "VOLUME_MUTE", 187: "APP_SWITCH", 220: "BRIGHTNESS_DOWN",
    221: "BRIGHTNESS_UP", 223: "SLEEP", 224: "WAKEUP", 277: "CUT", 278: "COPY", 279: "PASTE",
}  # fmt: skip
KEY_NAMES = set(KEYCODES.values()) - {"UNKNOWN"}
INPUT_SOURCES = {"keyboard", "mouse", "touchpad", "touchscreen", "stylus", "trackball", "joystick", "touchnavigation", "gamepad", "dpad", "rotaryencoder"}  # fmt: skip
INPUT_USAGE = """Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap|--async|--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)"""
DISPLAY_ID = "4619827259835644672"  # SurfaceFlinger's physical id of display 0 on the emulator


def _coords(command: str, args: list[str], count: int) -> list[int]:
    """Android parses coordinates as floats and truncates them; anything else is a usage error."""
    if len(args) < count:
        raise CommandError(f"Error: Invalid arguments for command: {command}\n{INPUT_USAGE}")
    return [
        int(parse_float(a, f"Error: Invalid arguments for command: {command}\n{INPUT_USAGE}"))
        for a in args[:count]
    ]


def _type_text(p: Proc, text: str) -> int:
    """`input text`: `%s` is a space (Android's own escape loop) and only keyboard-mappable ASCII types."""
    chars = list(text)
    escape = False
    i = 0
    while i < len(chars):
        if escape:
            escape = False
            if chars[i] == "s":
                chars[i] = " "
                i -= 1
                del chars[i]
        if chars[i] == "%":
            escape = True
        i += 1
    typed = "".join(chars)
    if any(not (" " <= c <= "~" or c in "\n\t") for c in typed):
        # The virtual key map has no key for it; Android's `input` dies with this exception (use ADBKeyboard).
        raise CommandError(
            "Exception occurred while executing 'text':\n"
            "java.lang.NullPointerException: Attempt to get length of null array",
            255,
        )
    for n, piece in enumerate(typed.split("\n")):
        if n:
            p.phone.keyevent("ENTER")
        if piece:
            p.phone.input_text(piece)
    return 0


def key_name(arg: str) -> str | None:
    """KEYCODE_HOME / HOME / home / 3 → HOME; None when Android would not know it."""
    if arg.isascii() and arg.isdigit():
        name = KEYCODES.get(int(arg)) if len(arg) < 5 else None
        return name if name != "UNKNOWN" else None
    name = arg.upper().removeprefix("KEYCODE_")
    return name if name in KEY_NAMES else None


def input_cmd(p: Proc, args: list[str]) -> int:
    if args and args[0] in INPUT_SOURCES:
        args = args[1:]
    if args[:1] == ["-d"]:
        if len(args) < 2:
            raise CommandError(INPUT_USAGE)
        args = args[2:]
    if not args:
        raise CommandError(INPUT_USAGE)
    command, rest = args[0], args[1:]
    phone = p.phone
    if command == "tap":
        x, y = _coords(command, rest, 2)
        if 0 <= x < phone.width and 0 <= y < phone.height:  # off-screen touches reach no window
            phone.tap(x, y)
    elif command in ("swipe", "draganddrop"):
        x1, y1, x2, y2 = _coords(command, rest, 4)
        duration = 300
        if len(rest) > 4:
            duration = max(
                0, parse_int(rest[4].split(".")[0], f"Error: Invalid arguments for command: {command}")
            )
        phone.swipe(x1, y1, x2, y2, duration)
    elif command == "text":
        if not rest:
            raise CommandError(f"Error: Invalid arguments for command: text\n{INPUT_USAGE}")
        return _type_text(p, rest[0])
    elif command == "keyevent":
        return _keyevent(p, rest)
    else:
        raise CommandError(f"Error: Unknown command: {command}\n{INPUT_USAGE}")
    return 0


def _keyevent(p: Proc, args: list[str]) -> int:
    keys: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in ("--longpress", "--doubletap", "--async"):
            continue
        if arg == "--delay":
            i += 1
            continue
        name = key_name(arg)
        if name is None:
            raise CommandError(f"Error: Unknown keycode: {arg}")
        keys.append(name)
    if not keys:
        raise CommandError(f"Error: Invalid arguments for command: keyevent\n{INPUT_USAGE}")
    for name in keys:
        p.phone.keyevent(name)  # a key the model ignores (False) still was a valid injection on Android
    return 0


def _raw_screencap(png: bytes) -> bytes:
    """screencap's raw format: width, height, format (1 = RGBA_8888), dataspace, then pixels."""
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    return struct.pack("<IIII", image.width, image.height, 1, 0) + image.tobytes()


def screencap(p: Proc, args: list[str]) -> int:
    png, display, file = False, None, None
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "-p":
            png = True
        elif arg == "-d":
            if i >= len(args):
                raise CommandError("screencap: -d needs a display id")
            display = args[i]
            i += 1
        elif arg in ("-a", "-j"):
            continue
        elif arg.startswith("-"):
            raise CommandError(f"screencap: invalid option -- '{arg[1:]}'")
        else:
            file = arg
    if display not in (None, "0", DISPLAY_ID):
        raise CommandError(f"Display Id '{display}' is not valid.")
    if file is not None:
        png = png or file.endswith(".png")
    data = p.phone.screencap_png()
    if not png:
        data = _raw_screencap(data)
    if file is None:
        p.out(data)
        return 0
    path = p.path(file)
    if not p.phone.fs.is_dir(posixpath.dirname(path)) or not writable(path) or p.phone.fs.is_dir(path):
        raise CommandError(f"Error opening file: {file} (No such file or directory)")
    p.phone.fs.write(path, data)
    return 0


def uiautomator(p: Proc, args: list[str]) -> int:
    if not args:
        raise CommandError("Usage: uiautomator dump [--compressed] [FILE]")
    if args[0] != "dump":
        raise CommandError(f"uiautomator: {args[0]}: not supported on a virtual phone (only dump)")
    file = "/sdcard/window_dump.xml"
    for arg in args[1:]:
        if arg in ("--compressed", "--verbose", "-a") or arg.startswith("--"):
            continue
        file = arg
    xml = p.phone.ui_dump_xml()
    if file in ("/dev/tty", "/dev/stdout"):
        p.out(xml)
    else:
        path = p.path(file)
        if not p.phone.fs.is_dir(posixpath.dirname(path)) or not writable(path) or p.phone.fs.is_dir(path):
            raise CommandError(f"ERROR: could not write to {file}")
        p.phone.fs.write(path, xml.encode())
    p.line(f"UI hierchary dumped to: {file}")  # sic: Android's typo, which clients grep for (G16)
    return 0


def wm(p: Proc, args: list[str]) -> int:
    phone = p.phone
    sub, rest = (args[0], args[1:]) if args else ("", [])
    if sub == "size":
        if not rest:
            p.line(f"Physical size: {phone.width}x{phone.height}")
        elif rest[0] != "reset":
            raise CommandError("wm size: changing the resolution is not supported on a virtual phone")
    elif sub == "density":
        if not rest:
            p.line(f"Physical density: {phone.density}")
        elif rest[0] != "reset":
            raise CommandError("wm density: changing the density is not supported on a virtual phone")
    elif sub in (
        "dismiss-keyguard",
        "user-rotation",
        "fixed-to-user-rotation",
        "set-ignore-orientation-request",
    ):
        pass
    elif sub == "":
        p.line(
            "Window manager (window) commands:\n  size [reset|WxH]\n  density [reset|DENSITY]\n  dismiss-keyguard"
        )
    else:
        raise CommandError(f"Unknown command: {sub}", 255)
    return 0


COMMANDS = {
    "input": input_cmd,
    "screencap": screencap,
    "uiautomator": uiautomator,
    "wm": wm,
}
