"""Google Contacts (com.google.android.contacts) on the virtual phone."""

from .app import ContactsApp

__all__ = ["ContactsApp"]
