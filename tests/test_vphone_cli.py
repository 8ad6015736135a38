"""`masbench vphone serve` as a user runs it: one line with the port, real clients, clean exit on signals."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import adbutils
import pytest


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_serve_prints_its_port_serves_phones_and_exits_cleanly(sig):
    proc = subprocess.Popen(
        [sys.executable, "-m", "masbench.cli", "vphone", "serve", "--count", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        line = proc.stdout.readline()
        match = re.fullmatch(r"serving vphone-1\.\.vphone-2 on 127\.0\.0\.1:(\d+)\n", line)
        assert match, line
        client = adbutils.AdbClient(host="127.0.0.1", port=int(match.group(1)))
        assert [d.serial for d in client.device_list()] == ["vphone-1", "vphone-2"]
        assert client.device("vphone-2").shell("getprop ro.build.version.sdk") == "35"
        proc.send_signal(sig)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
