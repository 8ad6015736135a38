"""Any text can be typed and drawn, as Android draws it: a mail body typed with line breaks wraps and shows
them (typed through the IME, or filled by a shortcut's body argument), a single-line field shows a line
break as a space, tabs go to Android's tab stops, and no string, however odd or long, makes a screenshot
fail (raqm refuses CR, LF and the paragraph separators: "raqm_layout() failed" used to end every later
observation of the episode)."""

from __future__ import annotations

import io
import time

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from masbench.actions import Selector, select
from masbench.device.elements import UIElement
from masbench.shortcuts import ShortcutExecutor, load_kb
from masbench.vphone import render
from masbench.vphone.ui import TAB_STOP, font, line_height, text_width, wrap

GMAIL = "com.google.android.gm"
MAIL = "Hi Maria,\nhere is the plan:\r\n\t• Zürich, 東京 and ☕\u2029done"
BODY_SIZE, BODY_TOP_PAD = 42, 30  # the compose body's text size and top padding (gmail/compose.py)


def compose(device, body: str = "") -> None:
    device.reset(0, None)
    device.open_uri("mailto:maria.lopez@acmecorp.com", GMAIL)
    if body:
        device.tap_element(field(device, "body"))
        device.type_text(body)


def field(device, rid: str) -> UIElement:
    return select(Selector(resource_id=rid), device.elements())


def screen(device) -> Image.Image:
    return Image.open(io.BytesIO(device.screenshot_png())).convert("L")


def ink_rows(image: Image.Image, box: tuple[int, int, int, int]) -> list[int]:
    """The text lines drawn in `box` of the body field, as the indices of line bands that hold dark pixels."""
    x1, y1, x2, y2 = box
    lh = line_height(BODY_SIZE)
    rows = []
    for i in range((y2 - y1 - BODY_TOP_PAD) // lh):
        top = y1 + BODY_TOP_PAD + i * lh
        band = image.crop((x1 + 40, top + 4, x2 - 40, top + lh - 4))
        if band.getextrema()[0] < 100:
            rows.append(i)
    return rows


def test_a_mail_body_typed_with_line_breaks_shows_them_and_screenshots_keep_working(device):
    compose(device, "Hi Maria,\nhere...")
    body = field(device, "body")
    assert body.text == "Hi Maria,\nhere..."  # the dump keeps the line break, as uiautomator's does
    assert ink_rows(screen(device), body.bounds) == [0, 1]  # two lines drawn
    device.type_text(MAIL)
    for _ in range(2):  # every later observation works too
        assert screen(device).size == (1080, 2400)
        assert field(device, "body").text.endswith("done")
    compose(device, "Hi Maria, here...")
    assert ink_rows(screen(device), field(device, "body").bounds) == [0]  # no break typed: one line


def test_a_shortcut_body_with_line_breaks_is_drawn(device):
    device.reset(0, None)
    record = ShortcutExecutor(load_kb(), device).call(
        "gmail.compose_email", {"to": "maria.lopez@acmecorp.com", "subject": "Plan", "body": MAIL}
    )
    assert record.success, record.reason
    body = field(device, "body")
    assert body.text == MAIL
    assert ink_rows(screen(device), body.bounds) == [0, 1]  # the first lines that fit the box, from the top


def test_a_single_line_field_shows_a_line_break_as_a_space(device):
    compose(device)
    device.tap_element(field(device, "subject"))
    device.type_text("Q2\nreport")
    subject = field(device, "subject")
    assert subject.text == "Q2\nreport"  # the value keeps what was typed
    broken = screen(device).crop(subject.bounds)
    device.clear_text()
    device.type_text("Q2 report")
    assert screen(device).crop(subject.bounds).tobytes() == broken.tobytes()


def test_a_long_text_types_and_draws_quickly(device):
    compose(device)
    started = time.monotonic()
    for rid in ("subject", "body"):
        device.tap_element(field(device, rid))
        device.type_text(("word " * 7 + "x" * 300 + "\n") * 60)  # ~40 KB: long words and many lines
        assert screen(device).size == (1080, 2400)
    assert time.monotonic() - started < 20


def test_a_tab_goes_to_the_next_tab_stop():
    stop = (font(40).getlength("ab") // TAB_STOP + 1) * TAB_STOP  # Android's stops: every 20 px
    assert text_width("ab\tc", 40) == int(stop + font(40).getlength("c")) + 1
    assert text_width("one\ntwo three", 40) == text_width("two three", 40)  # the widest line


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.integers(min_value=1, max_value=600))
def test_any_text_is_measured_wrapped_and_drawn(text, width):
    lines = wrap(text, 40, width, None)
    assert all(text_width(line, 40) <= width or len(line) <= 1 for line in lines)
    img = Image.new("L", (700, 80), 0)
    for line in (*lines, text):
        render.draw_text(ImageDraw.Draw(img), (10, 10), line, 40, 255, bold=True)
