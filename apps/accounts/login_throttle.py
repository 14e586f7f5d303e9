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

Counted in failure windows (apps/core/failure_windows.py: the shared cache, never failing open;
a window starts at its first failure; Retry-After is what is left of it). A successful sign-in
clears its email + IP counter, never the per-IP one (or an attacker could sign in to an account
of their own between guesses).
"""

import hashlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from apps.core import failure_windows
from apps.core.failure_windows import FailureWindow, Guard

logger = logging.getLogger(__name__)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


_PER_EMAIL = Guard("login-failures", "LOGIN_FAILURE", "Too many failed sign-in attempts.")
_PER_IP = Guard("login-failures-ip", "LOGIN_IP_FAILURE", "Too many failed sign-in attempts from this address.")
_PER_ACCOUNT = Guard(
    "login-failures-account",
    "LOGIN_ACCOUNT_FAILURE",
    "Too many failed sign-in attempts on this account: its sign-in is locked for now.",
)


def _per_email(email: str, ip: str) -> FailureWindow:
    return _PER_EMAIL.window(_digest(f"{email.strip().lower()}|{ip}"))


def _per_ip(ip: str) -> FailureWindow:
    return _PER_IP.window(_digest(ip))


def _per_account(email: str) -> FailureWindow:
    return _PER_ACCOUNT.window(_digest(email.strip().lower()))


def _counters(email: str, ip: str) -> tuple[FailureWindow, ...]:
    return (_per_email(email, ip), _per_ip(ip), _per_account(email))


def ensure_allowed(email: str, ip: str) -> None:
    """Refuse with 429 RATE_LIMITED (and Retry-After) while any counter is at its limit."""
    failure_windows.ensure_below(_counters(email, ip))


def record_failure(email: str, ip: str) -> None:
    """Count one failure on every counter, atomically (parallel guesses are all counted)."""
    for counter in _counters(email, ip):
        if failure_windows.count(counter) == counter.limit:
            logger.warning("sign-in failures from %s reached the limit (%s)", ip, counter.refusal)


@dataclass(frozen=True)
class Lockout:
    """An account whose sign-in is locked: until when, after how many failed attempts."""

    until: datetime
    failures: int


def lockouts_of(emails: list[str]) -> dict[str, Lockout]:
    """The sign-in lockouts of those accounts that are locked now, by email (one cache read)."""
    counters = {email: _per_account(email) for email in emails}
    readings = failure_windows.read(counters.values())
    found = {}
    for email, counter in counters.items():
        reading = readings[counter]
        if reading.failures >= counter.limit:
            found[email] = Lockout(until=datetime.fromtimestamp(reading.ends_at, tz=UTC), failures=reading.failures)
    return found


def unlock(email: str) -> None:
    """End the account's lockout now (its owner vouches for the next attempts)."""
    failure_windows.clear([_per_account(email)])


def reset(email: str, ip: str) -> None:
    """A successful sign-in: its email + IP counter starts again (never the per-IP or account ones)."""
    failure_windows.clear([_per_email(email, ip)])
