"""BBC News stand-in: Home with section tabs, articles and live pages, My News topics, Popular, Video,
Search, Saved items and Settings (text size, notifications)."""

from .app import BbcNewsApp

__all__ = ["BbcNewsApp"]
