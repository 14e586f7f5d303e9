"""What an ended session costs the owner: agent talk time, billed per started minute."""

from decimal import Decimal

from django.conf import settings

from apps.sessions.models import Session


def session_cost_cents(session: Session) -> int:
    seconds = session.duration_seconds or 0
    started_minutes = -(-seconds // 60)
    return started_minutes * settings.SESSION_RATE_CENTS_PER_MINUTE


def cents_to_dollars(cents: int) -> str:
    return str((Decimal(cents) / 100).quantize(Decimal("0.01")))
