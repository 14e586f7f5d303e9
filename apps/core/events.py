"""The one function every service calls when something happened that owners may hear about.

`emit` must run inside the service's transaction: the event row commits or rolls back with the
change. Delivery (webhooks, real-time) is attached here and scheduled after commit, so nothing is
sent for a change that rolled back.
"""

from typing import Any

from django.db import transaction

from apps.core.models import DomainEvent
from apps.webhooks import outbox

EVENT_NAMES = (
    "order.created",
    "order.status_changed",
    "payment.captured",
    "session.started",
    "session.accepted",
    "session.ended",
    "kiosk.online",
    "kiosk.offline",
    "inventory.low",
    "owner.suspended",
    "owner.reinstated",
)


def emit(name: str, payload: dict[str, Any], *, owner_id: int) -> DomainEvent:
    if name not in EVENT_NAMES:
        raise ValueError(f"unknown event {name!r}")
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("events.emit must be called inside the transaction of the change")
    event = DomainEvent.objects.create(name=name, owner_id=owner_id, payload=payload)
    outbox.record(event)
    return event
