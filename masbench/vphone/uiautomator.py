"""The uiautomator2 server, as the virtual phone runs it: the JSON-RPC API that `uiautomator2.connect()`
reaches over ADB (`tcp:9008` on the device), so the library and code built on it work unchanged.

On a device the client pushes `u2.jar`, starts it with `CLASSPATH=/data/local/tmp/u2.jar app_process /
com.wetest.uia2.Main -p 9008` and keeps that shell open while it talks to the server: the `app_process`
command (commands/system.py) marks the server as running on the phone (`tcp_services`) and the ADB
shell keeps the stream open until the client closes it. Requests are HTTP: `GET /ping` answers `pong`, `POST /jsonrpc/0` calls a
method below. Elements are found with UiSelector's fields (the mask-carrying dict the client sends)
against the same UI dump `uiautomator dump` gives, and actions go through the phone's own input.
"""

from __future__ import annotations

import base64
import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .phone import VirtualPhone

NOT_FOUND = -32002  # the server's UiObjectNotFoundException code
SELECTOR_BOOKKEEPING = ("mask", "childOrSibling", "childOrSiblingSelector")
KEYS = {
    "home": "HOME", "back": "BACK", "left": "DPAD_LEFT", "right": "DPAD_RIGHT", "up": "DPAD_UP",
    "down": "DPAD_DOWN", "center": "DPAD_CENTER", "menu": "MENU", "search": "SEARCH", "enter": "ENTER",
    "delete": "DEL", "del": "DEL", "recent": "APP_SWITCH", "volume_up": "VOLUME_UP",
    "volume_down": "VOLUME_DOWN", "volume_mute": "VOLUME_MUTE", "camera": "CAMERA", "power": "POWER",
}  # fmt: skip


class RpcError(Exception):
    """A JSON-RPC error the server reports (`code`, `message`, the exception's name as `data`)."""

    def __init__(self, code: int, message: str, data: str = "") -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


# -- selectors -----------------------------------------------------------------------------------------------
_TEXT_FIELDS: dict[str, tuple[str, str]] = {  # selector field -> (dump attribute, how it compares)
    "text": ("text", "eq"), "textContains": ("text", "in"), "textMatches": ("text", "re"),
    "textStartsWith": ("text", "start"), "className": ("class", "eq"), "classNameMatches": ("class", "re"),
    "description": ("content-desc", "eq"), "descriptionContains": ("content-desc", "in"),
    "descriptionMatches": ("content-desc", "re"), "descriptionStartsWith": ("content-desc", "start"),
    "packageName": ("package", "eq"), "packageNameMatches": ("package", "re"),
    "resourceId": ("resource-id", "eq"), "resourceIdMatches": ("resource-id", "re"),
}  # fmt: skip
_FLAGS = {
    "checkable": "checkable", "checked": "checked", "clickable": "clickable", "longClickable": "long-clickable",
    "scrollable": "scrollable", "enabled": "enabled", "focusable": "focusable", "focused": "focused",
    "selected": "selected",
}  # fmt: skip
_COMPARE: dict[str, Callable[[str, str], bool]] = {
    "eq": lambda have, want: have == want,
    "in": lambda have, want: want in have,
    "start": lambda have, want: have.startswith(want),
    "re": lambda have, want: re.fullmatch(want, have, re.S) is not None,
}


def _matches(node: ET.Element, selector: dict[str, Any]) -> bool:
    for field, want in selector.items():
        if field in _TEXT_FIELDS:
            attribute, how = _TEXT_FIELDS[field]
            if not _COMPARE[how](node.get(attribute, ""), str(want)):
                return False
        elif field in _FLAGS:
            if (node.get(_FLAGS[field]) == "true") != bool(want):
                return False
        elif field == "index" and node.get("index") != str(want):
            return False
    return True


def find(xml: str, selector: dict[str, Any]) -> list[ET.Element]:
    """The dump's nodes the selector picks (all of them; `instance` picks one), children and siblings
    followed as `childOrSibling` asks."""
    root = ET.fromstring(xml)
    parents = {child: parent for parent in root.iter() for child in parent}
    found = [n for n in root.iter("node") if _matches(n, selector)]
    for relation, sub in zip(
        selector.get("childOrSibling") or [], selector.get("childOrSiblingSelector") or [], strict=False
    ):
        pool = (
            [d for n in found for d in n.iter("node") if d is not n]
            if relation == "child"
            else [s for n in found for s in parents.get(n, n) if s is not n]
        )
        found = [n for n in pool if _matches(n, sub)]
        if "instance" in sub:
            found = found[sub["instance"] : sub["instance"] + 1]
    if "instance" in selector and not selector.get("childOrSibling"):
        found = found[selector["instance"] : selector["instance"] + 1]
    return found


def _bounds(node: ET.Element) -> dict[str, int]:
    x1, y1, x2, y2 = (int(v) for v in re.findall(r"-?\d+", node.get("bounds", "[0,0][0,0]"))[:4])
    return {"left": x1, "top": y1, "right": x2, "bottom": y2}


def obj_info(node: ET.Element) -> dict[str, Any]:
    """An element as the server's `objInfo` describes it."""

    def flag(name: str) -> bool:
        return node.get(name) == "true"

    return {
        "bounds": _bounds(node), "visibleBounds": _bounds(node), "childCount": len(list(node)),
        "className": node.get("class", ""), "contentDescription": node.get("content-desc") or None,
        "packageName": node.get("package", ""), "resourceName": node.get("resource-id") or None,
        "text": node.get("text", ""), "checkable": flag("checkable"), "checked": flag("checked"),
        "clickable": flag("clickable"), "enabled": flag("enabled"), "focusable": flag("focusable"),
        "focused": flag("focused"), "longClickable": flag("long-clickable"), "scrollable": flag("scrollable"),
        "selected": flag("selected"),
    }  # fmt: skip


# -- the API -------------------------------------------------------------------------------------------------
class Server:
    """The JSON-RPC methods, on one phone."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone

    def call(self, method: str, params: list[Any]) -> Any:
        handler = getattr(self, f"rpc_{method}", None)
        if handler is None:
            raise RpcError(-32601, f"Method not found: {method}")
        return handler(*params)

    def one(self, selector: dict[str, Any]) -> ET.Element:
        found = find(self.phone.ui_dump_xml(), selector)
        if not found:
            fields = ", ".join(f"{k}={v}" for k, v in selector.items() if k not in SELECTOR_BOOKKEEPING)
            raise RpcError(
                NOT_FOUND, f"androidx.test.uiautomator.UiObjectNotFoundException: UiSelector[{fields}]"
            )
        return found[0]

    def tap_node(self, node: ET.Element) -> None:
        b = _bounds(node)
        self.phone.tap((b["left"] + b["right"]) // 2, (b["top"] + b["bottom"]) // 2)

    # device
    def rpc_deviceInfo(self) -> dict[str, Any]:
        width, height = self.phone.width, self.phone.height
        return {
            "currentPackageName": self.phone.current_focus()[0], "displayWidth": width, "displayHeight": height,
            "displayRotation": 0, "displaySizeDpX": width * 160 // self.phone.density,
            "displaySizeDpY": height * 160 // self.phone.density, "naturalOrientation": True,
            "productName": "sdk_gphone64_x86_64", "screenOn": True, "sdkInt": 35,
        }  # fmt: skip

    def rpc_dumpWindowHierarchy(self, compressed: bool = False, max_depth: int = 50, *_: Any) -> str:
        return self.phone.ui_dump_xml()

    def rpc_takeScreenshot(self, scale: float = 1, quality: int = 80) -> str:
        from PIL import Image

        image = Image.open(io.BytesIO(self.phone.screencap_png())).convert("RGB")
        if scale != 1:
            image = image.resize((max(1, int(image.width * scale)), max(1, int(image.height * scale))))
        out = io.BytesIO()
        image.save(out, format="JPEG", quality=int(quality))
        return base64.b64encode(out.getvalue()).decode()

    # input
    def rpc_click(self, x: int, y: int, *_: Any) -> bool:
        self.phone.tap(int(x), int(y))
        return True

    def rpc_longClick(self, x: int, y: int, *_: Any) -> bool:
        self.phone.long_press(int(x), int(y))
        return True

    def rpc_swipe(self, x1: int, y1: int, x2: int, y2: int, steps: int = 10) -> bool:
        self.phone.swipe(int(x1), int(y1), int(x2), int(y2), max(1, int(steps)) * 5)
        return True

    rpc_drag = rpc_swipe

    def rpc_pressKey(self, key: str) -> bool:
        return self.phone.keyevent(KEYS.get(str(key).lower(), str(key)))

    def rpc_pressKeyCode(self, code: int, meta: int = 0) -> bool:
        return self.phone.keyevent(str(int(code)))

    def rpc_getClipboard(self) -> str:
        return self.phone.clipboard

    def rpc_setClipboard(self, label: str | None, text: str) -> None:
        self.phone.clipboard = str(text)

    # elements
    def rpc_exist(self, selector: dict[str, Any]) -> bool:
        return bool(find(self.phone.ui_dump_xml(), selector))

    def rpc_waitForExists(self, selector: dict[str, Any], timeout_ms: int = 0) -> bool:
        return self.rpc_exist(selector)  # the virtual phone's screen changes only when told to

    def rpc_waitUntilGone(self, selector: dict[str, Any], timeout_ms: int = 0) -> bool:
        return not self.rpc_exist(selector)

    def rpc_count(self, selector: dict[str, Any]) -> int:
        return len(find(self.phone.ui_dump_xml(), {k: v for k, v in selector.items() if k != "instance"}))

    def rpc_objInfo(self, selector: dict[str, Any]) -> dict[str, Any]:
        return obj_info(self.one(selector))

    def rpc_objInfoOfAllInstances(self, selector: dict[str, Any]) -> list[dict[str, Any]]:
        return [obj_info(n) for n in find(self.phone.ui_dump_xml(), selector)]

    def rpc_getText(self, selector: dict[str, Any]) -> str:
        return self.one(selector).get("text", "")

    def rpc_setText(self, selector: dict[str, Any], text: str) -> bool:
        self.tap_node(self.one(selector))
        self.phone.clear_focused()
        self.phone.input_text(str(text))
        return True

    def rpc_clearTextField(self, selector: dict[str, Any]) -> None:
        self.tap_node(self.one(selector))
        self.phone.clear_focused()
