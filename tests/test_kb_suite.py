"""Every shipped shortcut, called with its example arguments on a virtual phone, succeeds and lands in
its app; the KB has the composition the issue asks for."""

from __future__ import annotations

from collections import Counter

import pytest

from masbench.actions.schema import parse_call
from masbench.shortcuts import ShortcutExecutor, load_kb

KB = load_kb()


def test_kb_composition():
    assert Counter(s.app for s in KB) == {"amazon": 10, "booking": 10, "yelp": 6, "maps": 8}
    assert Counter(s.type for s in KB) == {"deeplink": 27, "rpa": 4, "api": 3}


@pytest.mark.parametrize("shortcut", list(KB), ids=lambda s: s.qualified_name)
def test_example_call_succeeds_and_lands_in_its_app(device, shortcut):
    device.reset(0, None)
    name, arguments = parse_call(shortcut.example)
    record = ShortcutExecutor(KB, device).call(name, arguments)
    assert record.success, record.reason
    assert device.foreground()[0] == shortcut.package
