"""The kiosk's real-time message of a cart change (docs/realtime.md): a subscriber of
config/event_subscribers.py, sent after commit by the broadcast API."""

from apps.core.models import DomainEvent
from apps.orders.bodies import order_body
from apps.orders.domain_events import CartReplaced
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import kiosk_channel


def order_updated(event: CartReplaced, recorded: DomainEvent | None = None) -> None:
    """To the kiosk: the order object itself (spec 6.2), the same as GET .../order answers."""
    body = dict(order_body(event.session, event.order))  # the broadcast API takes a plain dict
    broadcast([kiosk_channel(event.session.kiosk_id)], "OrderUpdated", body)
