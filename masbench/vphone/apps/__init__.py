"""The apps installed on a virtual phone. Each module defines one `App` subclass; adding an app means
adding it to `APP_CLASSES`."""

from __future__ import annotations

from ..app import App
from .amazon import AmazonApp
from .bbc import BbcNewsApp
from .booking import BookingApp
from .calendar import CalendarApp
from .chrome import ChromeApp
from .contacts import ContactsApp
from .fitbit import FitbitApp
from .gmail import GmailApp
from .launcher import LauncherApp
from .maps import MapsApp
from .settings import SettingsApp
from .system import SystemApp
from .yelp import YelpApp
from .youtube import YouTubeApp

APP_CLASSES: tuple[type[App], ...] = (
    LauncherApp,
    SystemApp,
    SettingsApp,
    ChromeApp,
    AmazonApp,
    BookingApp,
    YelpApp,
    MapsApp,
    FitbitApp,
    BbcNewsApp,
    GmailApp,
    YouTubeApp,
    ContactsApp,
    CalendarApp,
)


def default_apps() -> list[App]:
    return [cls() for cls in APP_CLASSES]
