"""Brute-force guards that count failures, not requests: a window opens at its first failure and
lasts `window` seconds; at `limit` failures it refuses (429 RATE_LIMITED, Retry-After: what is
left of it) until it ends. Kept in the shared cache (Redis in production) so every web process
counts together, and in process memory while Redis is unreachable (`security_counters`): a guard
never fails open. The sign-in counters (apps/accounts/login_throttle.py) and the pairing guesses
(apps/kiosks/pairing_guard.py) are built on it."""

import time
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings

from apps.core.cache import security_counters
from apps.core.errors import DomainError, ErrorCode


@dataclass(frozen=True)
class FailureWindow:
    key: str
    limit: int
    window: int
    refusal: str

    @property
    def count_key(self) -> str:
        return f"{self.key}:count"

    @property
    def started_key(self) -> str:
        return f"{self.key}:started"


@dataclass(frozen=True)
class Guard:
    """A kind of failure window, one per subject (an address, an account; none: the whole
    service): keyed `prefix:subject`, with the limit and length of the settings `<setting>_LIMIT`
    and `<setting>_WINDOW`, read when the window is made (tests override them)."""

    prefix: str
    setting: str
    refusal: str

    def window(self, subject: str = "") -> FailureWindow:
        key = f"{self.prefix}:{subject}" if subject else self.prefix
        limit: int = getattr(settings, f"{self.setting}_LIMIT")
        seconds: int = getattr(settings, f"{self.setting}_WINDOW")
        return FailureWindow(key, limit, seconds, self.refusal)


@dataclass(frozen=True)
class Reading:
    """A window as it stands: its failures and when it ends (epoch seconds)."""

    failures: int
    ends_at: float

    @property
    def wait(self) -> int:
        return max(1, int(self.ends_at - time.time()) + 1)


def read(windows: Iterable[FailureWindow]) -> dict[FailureWindow, Reading]:
    """Each window's failures and end, in one cache read."""
    windows = list(windows)
    values = security_counters.get_many([key for w in windows for key in (w.count_key, w.started_key)])
    now = time.time()
    return {w: Reading(values.get(w.count_key, 0), float(values.get(w.started_key, now)) + w.window) for w in windows}


def ensure_below(windows: Iterable[FailureWindow]) -> None:
    """Refuse with 429 RATE_LIMITED (and Retry-After) while any window is at its limit."""
    for window, reading in read(windows).items():
        if reading.failures >= window.limit:
            raise DomainError(
                ErrorCode.RATE_LIMITED,
                "{refusal} Retry in {wait} seconds.",
                params={"refusal": window.refusal, "wait": reading.wait},
                headers={"Retry-After": str(reading.wait)},
            )


def count(window: FailureWindow) -> int | None:
    """Count one failure, atomically (parallel failures are all counted); the new count."""
    security_counters.add(window.started_key, time.time(), window.window)
    return security_counters.increment(window.count_key, window.window)


def clear(windows: Iterable[FailureWindow]) -> None:
    security_counters.delete_many([key for w in windows for key in (w.count_key, w.started_key)])
