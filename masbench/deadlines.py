"""The deadline of the work under way (an episode's time limit), visible to everything it calls.

An episode sets it once; a model call cuts its network timeout and backoff waits to it, and a shortcut call
its polling, so neither a hung model server nor a long replay holds an episode past its limit. It is a
context variable: each worker thread (one episode at a time) sees its own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_DEADLINE: ContextVar[float | None] = ContextVar("masbench_deadline", default=None)


@contextmanager
def deadline(at: float | None) -> Iterator[None]:
    """Work done inside must end by `at`, a `time.monotonic()` value (None: no deadline)."""
    token = _DEADLINE.set(at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def time_left() -> float | None:
    """Seconds until the current deadline (None without one; negative once it passed)."""
    at = _DEADLINE.get()
    return None if at is None else at - time.monotonic()
