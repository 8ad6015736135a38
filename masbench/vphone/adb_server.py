"""The virtual phones' ADB host server, kept importable from its old path; the code lives in `adb/`."""

from .adb import FEATURES, SERVER_VERSION, AdbServer, ProtocolError, serve_phones

__all__ = ["FEATURES", "SERVER_VERSION", "AdbServer", "ProtocolError", "serve_phones"]
