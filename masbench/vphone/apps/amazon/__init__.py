"""Amazon Shopping stand-in: seeded catalog, search with filters, product pages, cart, lists and orders."""

from .app import AmazonApp

__all__ = ["AmazonApp"]
