"""The screens' real-time messages (docs/realtime.md): every announced order move goes to its
business's kitchen channel (the ticket) and board channel (the number). A subscriber of
config/event_subscribers.py, sent after commit by the broadcast API."""

from apps.core.models import DomainEvent
from apps.displays.bodies import board_number_body, ticket_body
from apps.orders.domain_events import OrderStatusChanged
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import board_channel, kitchen_channel


def order_moved(event: OrderStatusChanged, recorded: DomainEvent | None = None) -> None:
    order = event.order
    broadcast([kitchen_channel(order.business_id)], "TicketChanged", {"ticket": dict(ticket_body(order))})
    broadcast([board_channel(order.business_id)], "BoardChanged", dict(board_number_body(order)))
