"""Gmail stand-in: inbox and folders, labels, search with filter chips, threads, compose with drafts,
snooze and settings (signature, vacation responder, default reply action)."""

from .app import GmailApp

__all__ = ["GmailApp"]
