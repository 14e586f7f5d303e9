"""The screens' real-time messages (docs/realtime.md): every announced order move goes to its
business's kitchen channel (the ticket) and board channel (the number); a printer that stops or
starts printing, and a paid order while one cannot print (one more ticket waits), tell the kitchen
which printers are in trouble (PrintersChanged). Subscribers of config/event_subscribers.py, sent
after commit by the broadcast API."""

from apps.core.events import Event
from apps.core.models import DomainEvent
from apps.displays.bodies import board_number_body, printer_alerts, ticket_body
from apps.orders.domain_events import OrderCreated, OrderStatusChanged
from apps.printing.domain_events import PrinterCameOnline, PrinterWentOffline
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import board_channel, kitchen_channel


def order_moved(event: OrderStatusChanged, recorded: DomainEvent | None = None) -> None:
    order = event.order
    broadcast([kitchen_channel(order.business_id)], "TicketChanged", {"ticket": dict(ticket_body(order))})
    broadcast([board_channel(order.business_id)], "BoardChanged", dict(board_number_body(order)))


def printers_changed(event: Event, recorded: DomainEvent | None = None) -> None:
    """After the printer's state is recorded: the kitchen's list of printers in trouble."""
    assert isinstance(event, PrinterWentOffline | PrinterCameOnline)
    business_id = event.printer.business_id
    broadcast([kitchen_channel(business_id)], "PrintersChanged", {"printers": list(printer_alerts(business_id))})


def order_waits_for_printing(event: Event, recorded: DomainEvent | None = None) -> None:
    """After the kitchen tickets are queued: while a printer cannot print, its count grew."""
    assert isinstance(event, OrderCreated)
    business_id = event.order.business_id
    alerts = printer_alerts(business_id)
    if alerts:
        broadcast([kitchen_channel(business_id)], "PrintersChanged", {"printers": list(alerts)})
