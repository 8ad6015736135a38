"""`screenrecord`: a real, small MP4 of the screen in the phone's file system.

Commands run one at a time on the virtual phone, so a recording cannot block while the screen changes.
It starts (a `screenrecord` process `ps` shows, as `adb shell screenrecord FILE &` leaves one) and its file
is complete at once, covering the time limit; `pkill -2 screenrecord` (or -15) ends it early and rewrites
the file up to that moment with the screen as it is then, as Android's encoder emits a frame when the
screen changes; -9 kills it before it writes the index, leaving a file no player opens, as on a device.

The video is Motion JPEG (Pillow encodes it; no H.264 encoder is at hand) in ISO BMFF boxes a player or
ffprobe reads: `ftyp`, `mdat`, `moov` with one video track whose `mp4v` sample entry carries object type
0x6C (JPEG).
"""

from __future__ import annotations

import io
import posixpath
import struct
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import render
from .base import CommandError, Proc, parse_int, writable

if TYPE_CHECKING:
    from ..eventlog import Event
    from ..phone import VirtualPhone

DEFAULT_TIME_LIMIT_S = 180
UINT32_MAX = 2**32 - 1  # `--time-limit 0` means no limit
TIMESCALE = 1000  # media time in milliseconds
PID_BASE = 6100
USAGE = """Usage: screenrecord [options] <filename>

Android screenrecord v1.4.  Records the device's display to a .mp4 file.

Options:
--size WIDTHxHEIGHT
    Set the video size, e.g. "1280x720".  Default is the device's main
    display resolution (if supported), 1280x720 if not.  For best results,
    use a size supported by the AVC encoder.
--bit-rate RATE
    Set the video bit rate, in bits per second.  Value may be specified as
    bits or megabits, e.g. '4000000' is equivalent to '4M'.  Default 20Mbps.
--bugreport
    Add additional information, such as a timestamp overlay, that is helpful
    in videos captured to illustrate bugs.
--time-limit TIME
    Set the maximum recording time, in seconds.  Default is 180. Set to 0
    to remove the time limit.
--verbose
    Display interesting information on stdout.
--help
    Show this message.

Recording continues until Ctrl-C is hit or the time limit is reached.
"""
FLAGS = {"--bugreport", "--verbose", "--help", "--persistent-surface", "--monotonic-time"}
VALUED = {"--size", "--bit-rate", "--time-limit", "--rotate", "--output-format", "--codec-name", "--display-id", "--bframes"}  # fmt: skip


@dataclass
class Recording:
    """One running `screenrecord`: where it writes, when it started, its limit and the frames so far."""

    pid: int
    path: str
    command: str
    start_ms: int
    limit_ms: int
    size: tuple[int, int]
    frames: list[tuple[int, bytes]] = field(default_factory=list)  # (ms since start, JPEG)


# Per phone: (the events list the recordings belong to, the recordings). A reset makes a new events list,
# which ends every recording, as a snapshot load ends every process.
_recordings: weakref.WeakKeyDictionary[VirtualPhone, tuple[list[Event], list[Recording]]] = (
    weakref.WeakKeyDictionary()
)


def running(phone: VirtualPhone) -> list[Recording]:
    """The recordings still going (not stopped, within their time limit)."""
    events, recordings = _recordings.get(phone, (None, []))
    if events is not phone.events:
        return []
    alive = [r for r in recordings if phone.device_ms < r.start_ms + r.limit_ms]
    _recordings[phone] = (phone.events, alive)
    return alive


def stop(phone: VirtualPhone, recording: Recording, finish: bool) -> None:
    """End a recording early: SIGINT/SIGTERM finish the file at this moment, SIGKILL leaves no index."""
    events, recordings = _recordings[phone]
    _recordings[phone] = (events, [r for r in recordings if r is not recording])
    elapsed = max(1, phone.device_ms - recording.start_ms)
    if not finish:
        phone.fs.write(recording.path, _ftyp() + _box(b"mdat", b"".join(j for _, j in recording.frames)))
        return
    jpeg = _jpeg(phone, recording.size)
    if jpeg != recording.frames[-1][1] and elapsed > recording.frames[-1][0]:
        recording.frames.append((elapsed, jpeg))
    phone.fs.write(recording.path, mp4(recording.frames, elapsed, recording.size))


def screenrecord(p: Proc, args: list[str]) -> int:
    opts: dict[str, str] = {}
    files: list[str] = []
    it = iter(args)
    for arg in it:
        if arg in FLAGS:
            opts[arg] = ""
        elif arg in VALUED:
            value = next(it, None)
            if value is None:
                raise CommandError(f"screenrecord: option '{arg}' requires an argument", 2)
            opts[arg] = value
        elif arg.startswith("-"):
            raise CommandError(f"screenrecord: unrecognized option '{arg}'", 2)
        else:
            files.append(arg)
    if "--help" in opts:
        p.out(USAGE)
        return 0
    if len(files) != 1:
        raise CommandError("Must specify output file (see --help).", 2)
    limit = parse_int(
        opts.get("--time-limit", str(DEFAULT_TIME_LIMIT_S)), "Error parsing time limit argument", 2
    )
    if not 0 <= limit <= UINT32_MAX:
        raise CommandError(f"Time limit {limit}s outside acceptable range [0,{UINT32_MAX}] seconds", 2)
    phone = p.phone
    size = (phone.width, phone.height)
    if "--size" in opts:
        w, x, h = opts["--size"].partition("x")
        if not (x and w.isdigit() and h.isdigit() and int(w) > 0 and int(h) > 0):
            raise CommandError(f"Invalid size '{opts['--size']}', must be width x height", 2)
        size = (int(w), int(h))
    path = p.path(files[0])
    if not phone.fs.is_dir(posixpath.dirname(path)):
        raise CommandError(f"Unable to open '{files[0]}': No such file or directory")
    if phone.fs.is_dir(path):
        raise CommandError(f"Unable to open '{files[0]}': Is a directory")
    if not writable(path):
        raise CommandError(f"Unable to open '{files[0]}': Permission denied")
    if "--verbose" in opts:
        p.line(f"Display is {phone.width}x{phone.height} @60.00fps (orientation=ROTATION_0), layerStack=0")
        p.line(f"Configuring recorder for {size[0]}x{size[1]} video/avc at 20.00Mbps")
        p.line(f"Content area is {size[0]}x{size[1]} at offset x=0 y=0")
    live = running(phone)
    recording = Recording(
        pid=PID_BASE + len(phone.events),
        path=path,
        command=" ".join(["screenrecord", *args]),
        start_ms=phone.device_ms,
        limit_ms=(limit or UINT32_MAX) * 1000,
        size=size,
        frames=[(0, _jpeg(phone, size))],
    )
    # until stopped, the file covers the time limit (an unlimited recording: the default 180 s)
    phone.fs.write(path, mp4(recording.frames, (limit or DEFAULT_TIME_LIMIT_S) * 1000, size))
    _recordings[phone] = (phone.events, [*live, recording])
    phone.log("screenrecord", path=path, limit_s=limit)
    return 0


def _jpeg(phone: VirtualPhone, size: tuple[int, int]) -> bytes:
    image = render.draw(phone, phone.frame())
    if image.size != size:
        image = image.resize(size)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=60)
    return out.getvalue()


# -- ISO BMFF boxes -----------------------------------------------------------------------------------
def _box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def _full_box(kind: bytes, version: int, flags: int, payload: bytes) -> bytes:
    return _box(kind, struct.pack(">I", (version << 24) | flags) + payload)


def _ftyp() -> bytes:
    return _box(b"ftyp", b"mp42" + struct.pack(">I", 0) + b"isommp42")


MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)


def _descriptor(tag: int, payload: bytes) -> bytes:
    return bytes([tag, len(payload)]) + payload


def _sample_entry(size: tuple[int, int]) -> bytes:
    """`mp4v` with an `esds` naming JPEG (object type 0x6C), the MPEG-4 systems code for Motion JPEG."""
    config = _descriptor(4, bytes([0x6C, 0x11]) + b"\x00\x00\x00" + struct.pack(">II", 20_000_000, 0))
    es = _descriptor(3, struct.pack(">HB", 1, 0) + config + _descriptor(6, b"\x02"))
    visual = (
        b"\x00" * 6
        + struct.pack(">H", 1)  # data_reference_index
        + b"\x00" * 16
        + struct.pack(">HHIIIH", size[0], size[1], 0x480000, 0x480000, 0, 1)
        + bytes([4])
        + b"MJPG".ljust(31, b"\x00")  # compressorname: a Pascal string
        + struct.pack(">Hh", 0x18, -1)
    )
    return _box(b"mp4v", visual + _full_box(b"esds", 0, 0, es))


def mp4(frames: list[tuple[int, bytes]], duration_ms: int, size: tuple[int, int]) -> bytes:
    """An MP4 of `frames` ((start ms, JPEG), ascending), the last shown until `duration_ms`."""
    starts = [t for t, _ in frames]
    deltas = [b - a for a, b in zip(starts, [*starts[1:], max(duration_ms, starts[-1] + 1)], strict=True)]
    head = _ftyp()
    data = b"".join(j for _, j in frames)
    chunk_offset = len(head) + 8  # the samples sit right after the mdat header, in one chunk
    stbl = _box(
        b"stbl",
        _full_box(b"stsd", 0, 0, struct.pack(">I", 1) + _sample_entry(size))
        + _full_box(b"stts", 0, 0, struct.pack(">I", len(deltas)) + b"".join(struct.pack(">II", 1, d) for d in deltas))
        + _full_box(b"stss", 0, 0, struct.pack(">I", len(frames)) + b"".join(struct.pack(">I", n + 1) for n in range(len(frames))))
        + _full_box(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, len(frames), 1))
        + _full_box(b"stsz", 0, 0, struct.pack(">II", 0, len(frames)) + b"".join(struct.pack(">I", len(j)) for _, j in frames))
        + _full_box(b"stco", 0, 0, struct.pack(">II", 1, chunk_offset)),
    )  # fmt: skip
    duration = sum(deltas)
    dinf = _box(b"dinf", _full_box(b"dref", 0, 0, struct.pack(">I", 1) + _full_box(b"url ", 0, 1, b"")))
    minf = _box(b"minf", _full_box(b"vmhd", 0, 1, b"\x00" * 8) + dinf + stbl)
    mdia = _box(
        b"mdia",
        _full_box(b"mdhd", 0, 0, struct.pack(">IIIIHH", 0, 0, TIMESCALE, duration, 0x55C4, 0))  # 'und'
        + _full_box(b"hdlr", 0, 0, b"\x00" * 4 + b"vide" + b"\x00" * 12 + b"VideoHandle\x00")
        + minf,
    )
    tkhd = _full_box(
        b"tkhd",
        0,
        3,  # enabled, in movie
        struct.pack(">IIIII", 0, 0, 1, 0, duration)
        + b"\x00" * 8
        + struct.pack(">hhhH", 0, 0, 0, 0)
        + MATRIX
        + struct.pack(">II", size[0] << 16, size[1] << 16),
    )
    mvhd = _full_box(
        b"mvhd",
        0,
        0,
        struct.pack(">IIII", 0, 0, TIMESCALE, duration)
        + struct.pack(">IH", 0x10000, 0x100)
        + b"\x00" * 10
        + MATRIX
        + b"\x00" * 24
        + struct.pack(">I", 2),
    )
    moov = _box(b"moov", mvhd + _box(b"trak", tkhd + mdia))
    return head + _box(b"mdat", data) + moov


COMMANDS = {"screenrecord": screenrecord}
