"""Helpers for driving an in-process VirtualPhone from the app tests: build a phone, find and tap elements
by selector, type, read the foreground and an app's state, and open deep links.

Tests bind the package they exercise once, e.g. ``view = partial(phone_helpers.view, package=PKG)``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from masbench.actions.selectors import Selector, select
from masbench.device.elements import UIElement, parse_ui_dump
from masbench.vphone.app import App
from masbench.vphone.apps import default_apps
from masbench.vphone.build import build_phone
from masbench.vphone.intents import ACTION_VIEW, Intent
from masbench.vphone.phone import VirtualPhone


def phone_with(
    *apps: App, seed: int = 0, clock: datetime | None = None, without: Iterable[str] = ()
) -> VirtualPhone:
    """`vphone-1` with the default apps, `apps` appended in place of same-package defaults, minus `without`."""
    dropped = {app.package for app in apps} | set(without)
    kept = [app for app in default_apps() if app.package not in dropped]
    return build_phone("vphone-1", apps=[*kept, *apps], seed=seed, clock=clock)


def seeded_dumps(
    make_phone: Callable[[int], VirtualPhone], seeds: Iterable[int], *steps: Callable[[VirtualPhone], object]
) -> list[str]:
    """The UI dump of a fresh `make_phone(seed)` for each seed after running `steps` on it in order."""
    dumps = []
    for seed in seeds:
        phone = make_phone(seed)
        for step in steps:
            step(phone)
        dumps.append(phone.ui_dump_xml())
    return dumps


def elements(phone: VirtualPhone) -> list[UIElement]:
    """The current screen's elements, parsed from the UI dump as an agent sees them."""
    return parse_ui_dump(phone.ui_dump_xml(), screen=(phone.width, phone.height))


def find(phone: VirtualPhone, **selector: object) -> UIElement:
    """The element the selector fields designate on the current screen (SelectorError if none)."""
    return select(Selector(**selector), elements(phone))


def present(phone: VirtualPhone, **selector: object) -> bool:
    """Whether any element on the current screen matches the selector fields."""
    return any(Selector(**selector).matches(e) for e in elements(phone))


def tap(phone: VirtualPhone, **selector: object) -> None:
    """Tap the centre of the element the selector fields designate."""
    phone.tap(*find(phone, **selector).center)


def type_into(phone: VirtualPhone, text: str, clear: bool = False, **selector: object) -> None:
    """Tap the field the selector designates, optionally clear it, type `text` and press ENTER."""
    tap(phone, **selector)
    if clear:
        phone.clear_focused()
    phone.input_text(text)
    phone.keyevent("ENTER")


def front(phone: VirtualPhone) -> dict:
    """The foreground entry of the phone's snapshot (package, activity, screen, args)."""
    return phone.snapshot()["foreground"]


def state(phone: VirtualPhone, package: str) -> dict:
    """The public state of the app `package`."""
    return phone.app_state(package)


def view(phone: VirtualPhone, uri: str, package: str | None, via_shell: bool = True) -> None:
    """Open `uri` with ACTION_VIEW (package None: let the phone resolve it) via `am start` or start_activity."""
    if not via_shell:
        assert phone.start_activity(Intent(ACTION_VIEW, data=uri, package=package)) is None
        return
    flag = f" -p {package}" if package else ""
    result = phone.shell(f"am start -a android.intent.action.VIEW -d '{uri}'{flag}")
    assert result.exit_code == 0, result
