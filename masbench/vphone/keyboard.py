"""The soft keyboard (drawn when a field is focused, tappable key by key) and the ADBKeyboard IME's
broadcast protocol (`am broadcast -a ADB_INPUT_TEXT --es msg ...`), which agents use to type any Unicode."""

from __future__ import annotations

import base64
import binascii

from .intents import Intent

HEIGHT = 780
ROWS: tuple[tuple[str, ...], ...] = (
    tuple("1234567890"),
    tuple("qwertyuiop"),
    tuple("asdfghjkl"),
    (*"zxcvbnm", "⌫"),
    (",", "space", ".", "⏎"),
)
ROW_H = HEIGHT // len(ROWS)
WIDE_KEYS = {"space": 5, "⌫": 1.5, "⏎": 2}

# Numeric and alias key names `input keyevent` accepts, mapped to the names the phone acts on.
KEYCODE_NAMES = {"DPAD_CENTER": "ENTER", "NUMPAD_ENTER": "ENTER"}
KNOWN_KEYS = {
    "MENU", "APP_SWITCH", "POWER", "WAKEUP", "SLEEP", "VOLUME_UP", "VOLUME_DOWN", "VOLUME_MUTE", "CAMERA",
    "MOVE_HOME", "MOVE_END", "ESCAPE", "DPAD_UP", "DPAD_DOWN", "DPAD_LEFT", "DPAD_RIGHT", "NOTIFICATION",
    "MEDIA_PLAY_PAUSE", "MEDIA_PLAY", "MEDIA_PAUSE", "PAGE_UP", "PAGE_DOWN", "CTRL_LEFT", "SHIFT_LEFT",
}  # fmt: skip


def key_boxes(width: int = 1080) -> list[tuple[str, tuple[int, int, int, int]]]:
    """(label, box) of every key, relative to the keyboard's top-left corner."""
    boxes = []
    for r, row in enumerate(ROWS):
        units = [WIDE_KEYS.get(k, 1.0) for k in row]
        unit = width / max(10, sum(units))
        x = (width - unit * sum(units)) / 2
        for key, u in zip(row, units, strict=True):
            boxes.append((key, (int(x), r * ROW_H, int(x + unit * u), (r + 1) * ROW_H)))
            x += unit * u
    return boxes


def key_at(x: int, y: int) -> str | None:
    for key, (x1, y1, x2, y2) in key_boxes():
        if x1 <= x < x2 and y1 <= y < y2:
            return key
    return None


def ime_command(intent: Intent) -> tuple[str, str] | None:
    """What an ADBKeyboard broadcast asks for: ("text", s), ("clear", "") or ("key", code); None otherwise."""
    action = (intent.action or "").upper()
    extras = intent.extras
    if action == "ADB_INPUT_TEXT":
        return "text", str(extras.get("msg", ""))
    if action in ("ADB_INPUT_B64", "ADB_KEYBOARD_INPUT_TEXT"):
        raw = str(extras.get("msg", extras.get("text", "")))
        try:
            return "text", base64.b64decode(raw, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return "text", ""
    if action in ("ADB_CLEAR_TEXT", "ADB_KEYBOARD_CLEAR_TEXT"):
        return "clear", ""
    if action in ("ADB_INPUT_CODE", "ADB_EDITOR_CODE"):
        return "key", str(extras.get("code", ""))
    return None
