"""What an ended session costs the owner: agent talk time, billed per started minute at the
rate of the owner's plan. Billing keeps the plans; settings.SESSION_MINUTE_RATE names its
`rate_for_owner(owner_id) -> cents per minute` (sessions import no billing code)."""

from collections.abc import Callable
from decimal import Decimal

from django.conf import settings
from django.utils.module_loading import import_string

from apps.sessions.models import Session


def rate_for_owner(owner_id: int) -> int:
    rate: Callable[[int], int] = import_string(settings.SESSION_MINUTE_RATE)  # Any: import_string is untyped
    return rate(owner_id)


def session_cost_cents(session: Session) -> int:
    seconds = session.duration_seconds or 0
    started_minutes = -(-seconds // 60)
    return started_minutes * rate_for_owner(session.owner_id)


def cents_to_dollars(cents: int) -> str:
    return str((Decimal(cents) / 100).quantize(Decimal("0.01")))
