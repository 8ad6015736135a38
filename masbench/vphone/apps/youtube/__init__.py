"""YouTube stand-in: home feed with topic chips, search with filters, the watch page (player settings,
likes, comments, saving, sharing), channels, Shorts, subscriptions and the library."""

from .app import YouTubeApp

__all__ = ["YouTubeApp"]
