"""Google Calendar (com.google.android.calendar) on the virtual phone."""

from .app import CalendarApp

__all__ = ["CalendarApp"]
