"""Real Android emulators, driven by the shell scripts of `emulator/` (see its README)."""
