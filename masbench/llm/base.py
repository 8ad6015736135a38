"""The one model interface agents talk to, its errors, and the retry policy every live backend shares.

Backends translate their own failures into `TransientLLMError` (worth retrying: rate limits, timeouts, 5xx,
dropped connections) or `LLMError` (retrying cannot help: bad request, bad key); `with_retries` is then the
only place that decides how long to wait and when to give up.
"""

from __future__ import annotations

import email.utils
import logging
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

from masbench.deadlines import time_left

if TYPE_CHECKING:
    from masbench.llm.types import Message, Response

DEFAULT_GEMINI_MODEL = "gemini-2.5-flash"

log = logging.getLogger(__name__)
T = TypeVar("T")


class LLMError(Exception):
    """A model call failed in a way the caller should report, not retry."""


class LLMConfigError(LLMError):
    """The model cannot be set up (missing key, bad spec or file); raised before any call is made."""


class TransientLLMError(LLMError):
    """A failure that may pass if the same request is sent again later."""

    def __init__(self, message: str, *, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class DeadlineExceeded(LLMError):
    """The caller's deadline (an episode's time limit) passed before a model answered.

    `attempts` counts the requests sent: with none, the time had run out before this call was asked (the
    agent's earlier steps used it up); with any, the model was asked and did not answer in time, which is an
    outage whatever the network timeout, never the agent's slowness."""

    def __init__(self, message: str, *, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


def attempt_timeout(timeout_s: float) -> float:
    """A backend's network timeout for one attempt: its own, cut to the time left (at least 10 ms, so a
    timeout of zero never means "wait forever")."""
    left = time_left()
    return timeout_s if left is None else max(0.01, min(timeout_s, left))


class LLM(ABC):
    """A chat model: messages with text and images in, text plus token usage and latency out."""

    name: str

    @abstractmethod
    def generate(
        self, messages: list[Message], *, temperature: float = 0.0, max_output_tokens: int | None = None
    ) -> Response: ...


def is_transient_status(code: int) -> bool:
    """HTTP statuses worth retrying: request timeout, rate limit and server-side failures."""
    return code in (408, 429) or 500 <= code < 600


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a `Retry-After` header, which is either a number of seconds or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter. `sleep` and `random` are injectable so tests neither wait nor vary.

    A server's `Retry-After` replaces the computed delay; no single wait exceeds `max_delay_s`, so a gateway
    asking for an hour cannot stall a run.
    """

    max_attempts: int = 5
    initial_delay_s: float = 1.0
    max_delay_s: float = 60.0
    multiplier: float = 2.0
    jitter: float = 0.5
    sleep: Callable[[float], None] = time.sleep
    random: Callable[[], float] = random.random

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(f"RetryPolicy.max_attempts must be at least 1, got {self.max_attempts}")

    def delay_s(self, attempt: int, retry_after_s: float | None) -> float:
        """The wait after failed attempt number `attempt` (1-based)."""
        if retry_after_s is not None:
            return min(retry_after_s, self.max_delay_s)
        base = self.initial_delay_s * self.multiplier ** (attempt - 1)
        return min(self.max_delay_s, base * (1 + self.jitter * self.random()))


def with_retries(call: Callable[[], T], policy: RetryPolicy) -> T:
    """Run `call`, retrying on `TransientLLMError`; other errors propagate at once. Under a `deadline`, no
    attempt starts and no wait runs past it: `DeadlineExceeded` says how many attempts were sent."""
    attempt = 1
    while True:
        left = time_left()
        if left is not None and left <= 0:
            asked = "answered" if attempt > 1 else "was asked"
            raise DeadlineExceeded(f"the time limit passed before the model {asked}", attempts=attempt - 1)
        try:
            return call()
        except TransientLLMError as e:
            left = time_left()
            if left is not None and left <= 0:  # this attempt was cut by the deadline
                raise DeadlineExceeded(
                    f"the time limit passed during attempt {attempt}: {e}", attempts=attempt
                ) from e
            if attempt >= policy.max_attempts:
                raise LLMError(f"gave up after {attempt} attempts: {e}") from e
            delay = policy.delay_s(attempt, e.retry_after_s)
            if left is not None and left <= delay:
                raise DeadlineExceeded(
                    f"the time limit passes before retry {attempt}: {e}", attempts=attempt
                ) from e
            log.warning("model call failed (%s); retry %d in %.1fs", e, attempt, delay)
            policy.sleep(delay)
            attempt += 1
