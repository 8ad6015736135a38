"""Chrome over a small deterministic web: tabs, history, bookmarks, reading list, downloads, settings."""

from .app import ChromeApp

__all__ = ["ChromeApp"]
