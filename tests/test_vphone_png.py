"""Screen frames are valid PNGs with the exact pixels drawn, whichever deflate encoded them."""

from __future__ import annotations

import io
import zlib

from PIL import Image, ImageChops

from masbench.vphone import render
from masbench.vphone.build import build_phone


def test_a_frame_decodes_to_exactly_the_pixels_drawn():
    phone = build_phone("png")
    phone.launch("com.yelp.android")
    drawn = render.draw(phone, phone.frame())
    png = phone.screencap_png()
    decoded = Image.open(io.BytesIO(png))
    decoded.load()  # Pillow checks every chunk's CRC and the zlib stream while loading
    assert decoded.mode == "RGB" and decoded.size == (1080, 2400)
    assert ImageChops.difference(decoded, drawn).getbbox() is None


def test_the_idat_stream_is_plain_zlib_any_client_can_inflate():
    png = render.encode_png(Image.new("RGB", (7, 3), (10, 20, 30)))
    length = int.from_bytes(png[33:37], "big")
    assert png[37:41] == b"IDAT"
    rows = zlib.decompress(png[41 : 41 + length])
    assert rows == (b"\x00" + bytes((10, 20, 30)) * 7) * 3
