"""Booking.com stand-in: search, results with sort and filters, property pages, booking, wish lists, trips."""

from .app import BookingApp

__all__ = ["BookingApp"]
