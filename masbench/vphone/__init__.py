"""The embedded virtual phone: a deterministic Android model served over the ADB protocol."""
