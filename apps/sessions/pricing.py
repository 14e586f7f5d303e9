"""What an ended session costs the owner: agent talk time, billed per started minute at the
rate of the owner's plan."""

from decimal import Decimal

from apps.billing.plans import rate_for_owner
from apps.sessions.models import Session


def session_cost_cents(session: Session) -> int:
    seconds = session.duration_seconds or 0
    started_minutes = -(-seconds // 60)
    return started_minutes * rate_for_owner(session.owner_id)


def cents_to_dollars(cents: int) -> str:
    return str((Decimal(cents) / 100).quantize(Decimal("0.01")))
