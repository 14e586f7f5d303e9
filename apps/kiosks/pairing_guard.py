"""Guesses at pairing codes, beyond the per-address throttle (THROTTLE_PAIRING). A code is 6
digits, made by an owner in the panel, lives 15 minutes and names no kiosk before it is used, so
a wrong guess that matches no code cannot be laid at any owner's door. Two limits:

- every failed guess, from any address (no such code, a used or an expired one), counts in one
  window for the whole service (PAIRING_FAILURE_LIMIT in PAIRING_FAILURE_WINDOW): many addresses
  sharing out guesses all stop there, while a genuine typo or two leaves far below it;
- a guess that hits a code an owner made, used or expired (so the guesser is walking near that
  owner's codes, or replaying them), counts for that owner (PAIRING_OWNER_FAILURE_LIMIT in
  PAIRING_OWNER_FAILURE_WINDOW, a code's lifetime by default); at the limit that owner's codes
  pair nothing until the window ends, so their live codes cannot be hit meanwhile.

Both answer 429 RATE_LIMITED with Retry-After and count in failure windows
(apps/core/failure_windows.py: shared by every web process, never failing open)."""

from apps.core import failure_windows
from apps.core.failure_windows import FailureWindow, Guard

_EVERYONE = Guard("pairing-failures", "PAIRING_FAILURE", "Too many wrong pairing codes were tried; pairing is paused.")
_PER_OWNER = Guard(
    "pairing-failures-owner",
    "PAIRING_OWNER_FAILURE",
    "Too many wrong pairing codes were tried on this account; its pairing is paused.",
)


def _everyone() -> FailureWindow:
    return _EVERYONE.window()


def _owner(owner_id: int) -> FailureWindow:
    return _PER_OWNER.window(str(owner_id))


def ensure_allowed() -> None:
    """Refuse every pairing while the service-wide window is at its limit."""
    failure_windows.ensure_below([_everyone()])


def ensure_owner_allowed(owner_id: int) -> None:
    """Refuse the owner's codes while its window is at its limit."""
    failure_windows.ensure_below([_owner(owner_id)])


def record_failure(owner_id: int | None = None) -> None:
    """A wrong guess; `owner_id` when it hit that owner's used or expired code."""
    failure_windows.count(_everyone())
    if owner_id is not None:
        failure_windows.count(_owner(owner_id))
