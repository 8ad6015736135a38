"""Every shipped shortcut, called with its example arguments on a virtual phone, succeeds and lands in
its app; the KB has the composition the issue asks for."""

from __future__ import annotations

from collections import Counter

import pytest

from masbench.actions.schema import parse_call
from masbench.shortcuts import ShortcutExecutor, load_kb

KB = load_kb()


# The paper's Table 9: predefined shortcuts per app (88), and by type over the whole KB.
PAPER_SHORTCUTS = {"amazon": 10, "booking": 10, "yelp": 6, "maps": 8, "youtube": 5, "bbc": 16, "chrome": 4,
                   "gmail": 3, "calendar": 2, "contacts": 3, "fitbit": 21}  # fmt: skip
PAPER_TYPES = {"deeplink": 70, "api": 11, "rpa": 7}


def test_kb_composition():
    per_app = Counter(s.app for s in KB)
    assert per_app == {app: PAPER_SHORTCUTS[app] for app in per_app}
    if set(per_app) == set(PAPER_SHORTCUTS):
        assert Counter(s.type for s in KB) == PAPER_TYPES


@pytest.mark.parametrize("shortcut", list(KB), ids=lambda s: s.qualified_name)
def test_example_call_succeeds_and_lands_in_its_app(device, shortcut):
    device.reset(0, None)
    name, arguments = parse_call(shortcut.example)
    record = ShortcutExecutor(KB, device).call(name, arguments)
    assert record.success, record.reason
    assert device.foreground()[0] == shortcut.package
