"""One table of app identity: every simulated app and every catalog entry agree with it."""

from __future__ import annotations

import pytest

from masbench import catalog
from masbench.device.apps import KNOWN_APPS
from masbench.vphone.apps import default_apps
from masbench.vphone.commands.base import PREINSTALLED
from masbench.vphone.identity import IDENTITIES

SIMULATED = {app.package: app for app in default_apps() if not app.platform}


def test_catalog_and_phone_read_the_same_table():
    assert list(catalog.APPS) == list(IDENTITIES)
    for name, info in catalog.APPS.items():
        assert (info.package, info.label, info.launcher_activity) == IDENTITIES[name][:3]
    assert len(catalog.BY_PACKAGE) == len(catalog.APPS)  # packages are unique


@pytest.mark.parametrize("package", sorted(SIMULATED))
def test_every_simulated_app_matches_its_catalog_entry(package):
    app = SIMULATED[package]
    info = catalog.BY_PACKAGE.get(package)
    assert info is not None, f"{type(app).__name__} ({package}) is not in the catalog"
    assert app.label == info.label
    launcher = app.launcher_activity
    assert (launcher.cls if launcher else None) == info.launcher_activity


def test_derived_tables_follow_the_catalog():
    assert {pkg: names[0] for pkg, names in KNOWN_APPS.items()} == {
        a.package: a.label for a in catalog.APPS.values()
    }
    assert {"com.android.chrome", "com.google.android.apps.nexuslauncher"} <= PREINSTALLED
    assert "com.amazon.mShop.android.shopping" not in PREINSTALLED
