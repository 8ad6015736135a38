"""masbench: a testbed for GUI-shortcut hybrid mobile agents (MAS-Bench)."""

__version__ = "0.1.0"
