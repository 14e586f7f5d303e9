"""Failed sign-in counters: per email + IP (DESIGN.md: 5 failures a minute, then 429), per IP
whatever the email (LOGIN_IP_FAILURE_LIMIT in LOGIN_IP_FAILURE_WINDOW, 20 in 10 minutes by
default) and per account whatever the address (LOGIN_ACCOUNT_FAILURE_LIMIT in
LOGIN_ACCOUNT_FAILURE_WINDOW, 10 in 15 minutes), so one address can neither walk one account's
passwords nor spray a password over many accounts, and many addresses cannot share out the
guesses on one account. Every sign-in route (agent, token API, owner panel, super-admin) counts
on all three.

The per-account counter is a lockout: while it is at its limit the account's sign-in is refused
from every address, with the right password too, until its window ends (`lockouts_of` tells the
owner's panel, `unlock` ends it early). A successful sign-in does not clear it, or every sign-in
of the account's user would hand the guessers a fresh allowance.

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
from datetime import UTC, datetime

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


def _per_account(email: str) -> _Counter:
    return _Counter(
        f"login-failures-account:{_digest(email.strip().lower())}",
        settings.LOGIN_ACCOUNT_FAILURE_LIMIT,
        settings.LOGIN_ACCOUNT_FAILURE_WINDOW,
        "Too many failed sign-in attempts on this account: its sign-in is locked for now.",
    )


def _counters(email: str, ip: str) -> tuple[_Counter, ...]:
    return (_per_email(email, ip), _per_ip(ip), _per_account(email))


def _ends_at(counter: _Counter, values: dict) -> float:
    return float(values.get(counter.started_key, time.time())) + counter.window


def ensure_allowed(email: str, ip: str) -> None:
    """Refuse with 429 RATE_LIMITED (and Retry-After) while any counter is at its limit."""
    counters = _counters(email, ip)
    values = security_counters.get_many([key for c in counters for key in (c.count_key, c.started_key)])
    for counter in counters:
        if values.get(counter.count_key, 0) >= counter.limit:
            wait = max(1, int(_ends_at(counter, values) - time.time()) + 1)
            raise DomainError(
                ErrorCode.RATE_LIMITED,
                f"{counter.refusal} Retry in {wait} seconds.",
                headers={"Retry-After": str(wait)},
            )


def record_failure(email: str, ip: str) -> None:
    """Count one failure on every counter, atomically (parallel guesses are all counted)."""
    now = time.time()
    for counter in _counters(email, ip):
        security_counters.add(counter.started_key, now, counter.window)
        count = security_counters.increment(counter.count_key, counter.window)
        if count == counter.limit:
            logger.warning("sign-in failures from %s reached the limit (%s)", ip, counter.refusal)


@dataclass(frozen=True)
class Lockout:
    """An account whose sign-in is locked: until when, after how many failed attempts."""

    until: datetime
    failures: int


def lockouts_of(emails: list[str]) -> dict[str, Lockout]:
    """The sign-in lockouts of those accounts that are locked now, by email (one cache read)."""
    counters = {email: _per_account(email) for email in emails}
    values = security_counters.get_many([key for c in counters.values() for key in (c.count_key, c.started_key)])
    found = {}
    for email, counter in counters.items():
        failures = values.get(counter.count_key, 0)
        if failures >= counter.limit:
            found[email] = Lockout(until=datetime.fromtimestamp(_ends_at(counter, values), tz=UTC), failures=failures)
    return found


def unlock(email: str) -> None:
    """End the account's lockout now (its owner vouches for the next attempts)."""
    counter = _per_account(email)
    security_counters.delete_many([counter.count_key, counter.started_key])


def reset(email: str, ip: str) -> None:
    """A successful sign-in: its email + IP counter starts again (never the per-IP or account ones)."""
    counter = _per_email(email, ip)
    security_counters.delete_many([counter.count_key, counter.started_key])
