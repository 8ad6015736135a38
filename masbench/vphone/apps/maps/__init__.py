"""Google Maps stand-in: see app.py."""

from .app import MapsApp

__all__ = ["MapsApp"]
