#!/usr/bin/env python
"""Write a page of screenshots of each app's main screens: the app as launched, then every screen its
predefined shortcuts open (each shortcut's example call), on a fresh virtual phone.

    python scripts/screens_gallery.py --out gallery     # gallery/index.html + gallery/<app>.png sheets
"""

from __future__ import annotations

import argparse
import html
import io
from pathlib import Path

from PIL import Image, ImageDraw

from masbench.actions.schema import parse_call
from masbench.catalog import APPS
from masbench.device import Device, start_virtual_phones
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.vphone.ui import font

THUMB_W, THUMB_H, CAPTION = 324, 720, 44


def capture(device: Device, executor: ShortcutExecutor, app: str, shortcuts) -> list[tuple[str, bytes]]:
    shots = []
    device.reset(0, None)
    device.open_app(APPS[app].label)
    shots.append(("launch", device.observe().screenshot_png))
    for shortcut in shortcuts:
        if shortcut.type == "rpa":
            continue
        device.reset(0, None)
        name, arguments = parse_call(shortcut.example)
        record = executor.call(name, arguments)
        label = shortcut.name if record.success else f"{shortcut.name} (FAILED: {record.reason})"
        shots.append((label, device.observe().screenshot_png))
    return shots


def sheet(shots: list[tuple[str, bytes]], columns: int = 5) -> Image.Image:
    rows = (len(shots) + columns - 1) // columns
    img = Image.new("RGB", (columns * (THUMB_W + 16) + 16, rows * (THUMB_H + CAPTION + 16) + 16), "#e8eaed")
    draw = ImageDraw.Draw(img)
    for i, (label, png) in enumerate(shots):
        x = 16 + (i % columns) * (THUMB_W + 16)
        y = 16 + (i // columns) * (THUMB_H + CAPTION + 16)
        with Image.open(io.BytesIO(png)) as shot:
            img.paste(shot.convert("RGB").resize((THUMB_W, THUMB_H), Image.LANCZOS), (x, y))
        draw.text((x, y + THUMB_H + 8), label[:40], fill="#202124", font=font(22))
    return img


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("gallery"))
    parser.add_argument("--app", action="append", help="Only these apps (short names); repeatable.")
    args = parser.parse_args()
    kb = load_kb()
    apps = args.app or kb.apps()
    args.out.mkdir(parents=True, exist_ok=True)
    parts = [
        "<!doctype html><meta charset=utf-8><title>masbench virtual phone apps</title><body style='font-family:sans-serif'>"
    ]
    with start_virtual_phones(1) as phones:
        device = phones.devices[0]
        executor = ShortcutExecutor(kb, device)
        for app in apps:
            shots = capture(device, executor, app, kb.by_app(app))
            path = args.out / f"{app}.png"
            sheet(shots).save(path)
            parts.append(
                f"<h2>{html.escape(APPS[app].label)}</h2><img src='{path.name}' style='max-width:100%'>"
            )
            print(f"{path}: {len(shots)} screens")
    (args.out / "index.html").write_text("".join(parts))
    print(args.out / "index.html")


if __name__ == "__main__":
    main()
