"""Yelp stand-in: see app.py."""

from .app import YelpApp

__all__ = ["YelpApp"]
