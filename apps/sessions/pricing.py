"""What an ended session costs the owner: agent talk time, billed per started minute at the
rate of the owner's plan. Billing keeps the plans and registers its `rate_for_owner(owner_id) ->
cents per minute` here when the app is ready (apps/billing/apps.py): sessions import no billing
code."""

from collections.abc import Callable
from decimal import Decimal

from apps.sessions.models import Session

MinuteRate = Callable[[int], int]

_minute_rate: list[MinuteRate] = []  # at most one: the last registered


def register_minute_rate(rate: MinuteRate) -> None:
    _minute_rate[:] = [rate]


def rate_for_owner(owner_id: int) -> int:
    if not _minute_rate:
        raise RuntimeError("No minute rate is registered (apps.billing is not ready).")
    return _minute_rate[0](owner_id)


def session_cost_cents(session: Session) -> int:
    seconds = session.duration_seconds or 0
    started_minutes = -(-seconds // 60)
    return started_minutes * rate_for_owner(session.owner_id)


def cents_to_dollars(cents: int) -> str:
    return str((Decimal(cents) / 100).quantize(Decimal("0.01")))
