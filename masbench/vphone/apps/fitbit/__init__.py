"""Fitbit stand-in: see app.py."""

from .app import FitbitApp

__all__ = ["FitbitApp"]
