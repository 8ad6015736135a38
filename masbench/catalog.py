"""The apps MAS-Bench covers: short name, real package name and launcher label. Shared by the device
layer (open an app by name on any phone), the shortcut KB and the tasks; the virtual phone's apps use the
same package names."""

from __future__ import annotations

from typing import NamedTuple


class AppInfo(NamedTuple):
    name: str
    package: str
    label: str


APPS: dict[str, AppInfo] = {
    a.name: a
    for a in (
        AppInfo("youtube", "com.google.android.youtube", "YouTube"),
        AppInfo("amazon", "com.amazon.mShop.android.shopping", "Amazon Shopping"),
        AppInfo("booking", "com.booking", "Booking.com"),
        AppInfo("calendar", "com.google.android.calendar", "Calendar"),
        AppInfo("maps", "com.google.android.apps.maps", "Maps"),
        AppInfo("bbc", "bbc.mobile.news.ww", "BBC News"),
        AppInfo("fitbit", "com.fitbit.FitbitMobile", "Fitbit"),
        AppInfo("gmail", "com.google.android.gm", "Gmail"),
        AppInfo("chrome", "com.android.chrome", "Chrome"),
        AppInfo("yelp", "com.yelp.android", "Yelp"),
        AppInfo("contacts", "com.google.android.contacts", "Contacts"),
        AppInfo("settings", "com.android.settings", "Settings"),
        AppInfo("launcher", "com.google.android.apps.nexuslauncher", "Pixel Launcher"),
    )
}
BY_PACKAGE: dict[str, AppInfo] = {a.package: a for a in APPS.values()}


def package_of(name: str) -> str:
    """Package for a short name (or a package given as is); KeyError names the known apps."""
    if name in APPS:
        return APPS[name].package
    if name in BY_PACKAGE:
        return name
    raise KeyError(f"unknown app {name!r}; known: {', '.join(APPS)}")
