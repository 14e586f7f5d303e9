"""Failed-login counter per email + IP (DESIGN.md: 5 failures a minute, then 429).

Kept in the shared cache so every web process counts together. The window starts at the
first failure; Retry-After is what is left of it.
"""

import hashlib
import time

from django.conf import settings
from django.core.cache import cache

from apps.core.errors import DomainError, ErrorCode


def _key(email: str, ip: str) -> str:
    digest = hashlib.sha256(f"{email.strip().lower()}|{ip}".encode()).hexdigest()[:32]
    return f"login-failures:{digest}"


def ensure_allowed(email: str, ip: str) -> None:
    key = _key(email, ip)
    values = cache.get_many([f"{key}:count", f"{key}:started"])
    if values.get(f"{key}:count", 0) >= settings.LOGIN_FAILURE_LIMIT:
        started = values.get(f"{key}:started", time.time())
        wait = max(1, int(started + settings.LOGIN_FAILURE_WINDOW - time.time()) + 1)
        raise DomainError(
            ErrorCode.RATE_LIMITED,
            f"Too many failed sign-in attempts. Retry in {wait} seconds.",
            headers={"Retry-After": str(wait)},
        )


def record_failure(email: str, ip: str) -> None:
    """Count one failure atomically (cache.incr), so parallel guesses are all counted."""
    key = _key(email, ip)
    window = settings.LOGIN_FAILURE_WINDOW
    cache.add(f"{key}:started", time.time(), timeout=window)
    cache.add(f"{key}:count", 0, timeout=window)
    try:
        cache.incr(f"{key}:count")
    except ValueError:  # expired between add and incr: start a new window
        cache.set(f"{key}:count", 1, timeout=window)


def reset(email: str, ip: str) -> None:
    key = _key(email, ip)
    cache.delete_many([f"{key}:count", f"{key}:started"])
