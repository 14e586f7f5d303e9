"""Failed sign-in counters: per email + IP (DESIGN.md: 5 failures a minute, then 429) and per IP
whatever the email (LOGIN_IP_FAILURE_LIMIT in LOGIN_IP_FAILURE_WINDOW, 20 in 10 minutes by
default), so one address can neither walk one account's passwords nor spray a password over
many accounts. Every sign-in route (agent, token API, owner panel, super-admin) counts on both.

Kept in the shared cache so every web process counts together, and counted in process memory
while Redis is unreachable (`security_counters`): a brute-force guard never fails open. A
window starts at its first failure; Retry-After is what is left of it. A successful sign-in
clears its email + IP counter, never the per-IP one (or an attacker could sign in to an account
of their own between guesses).
"""

import hashlib
import logging
import time
from dataclasses import dataclass

from django.conf import settings

from apps.core.cache import security_counters
from apps.core.errors import DomainError, ErrorCode

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Counter:
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


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _per_email(email: str, ip: str) -> _Counter:
    return _Counter(
        f"login-failures:{_digest(f'{email.strip().lower()}|{ip}')}",
        settings.LOGIN_FAILURE_LIMIT,
        settings.LOGIN_FAILURE_WINDOW,
        "Too many failed sign-in attempts.",
    )


def _per_ip(ip: str) -> _Counter:
    return _Counter(
        f"login-failures-ip:{_digest(ip)}",
        settings.LOGIN_IP_FAILURE_LIMIT,
        settings.LOGIN_IP_FAILURE_WINDOW,
        "Too many failed sign-in attempts from this address.",
    )


def ensure_allowed(email: str, ip: str) -> None:
    """Refuse with 429 RATE_LIMITED (and Retry-After) while either counter is at its limit."""
    counters = (_per_email(email, ip), _per_ip(ip))
    values = security_counters.get_many([key for c in counters for key in (c.count_key, c.started_key)])
    for counter in counters:
        if values.get(counter.count_key, 0) >= counter.limit:
            started = values.get(counter.started_key, time.time())
            wait = max(1, int(started + counter.window - time.time()) + 1)
            raise DomainError(
                ErrorCode.RATE_LIMITED,
                f"{counter.refusal} Retry in {wait} seconds.",
                headers={"Retry-After": str(wait)},
            )


def record_failure(email: str, ip: str) -> None:
    """Count one failure on both counters, atomically (parallel guesses are all counted)."""
    now = time.time()
    for counter in (_per_email(email, ip), _per_ip(ip)):
        security_counters.add(counter.started_key, now, counter.window)
        count = security_counters.increment(counter.count_key, counter.window)
        if count == counter.limit:
            logger.warning("sign-in failures from %s reached the limit (%s)", ip, counter.refusal)


def reset(email: str, ip: str) -> None:
    counter = _per_email(email, ip)
    security_counters.delete_many([counter.count_key, counter.started_key])
