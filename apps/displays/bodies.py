"""The bodies the kitchen display and the order board read (docs/kiosk-and-agent.md "Displays"):
the ticket (GET /api/displays/kitchen/tickets and the TicketChanged message say the same thing),
the printers the kitchen must hear about (the same GET's `printers` and PrintersChanged) and the
board's number (GET /api/displays/board and BoardChanged)."""

from typing import Annotated, TypedDict

from apps.core.body_shapes import DateTimeText, Doc, serializer_for
from apps.core.timefmt import iso_z
from apps.orders.models import Order, OrderLine
from apps.printing import selectors as printing_selectors


class TicketModifierBody(TypedDict):
    group: str
    value: str


class TicketLineBody(TypedDict):
    name: str
    quantity: int
    modifiers: list[TicketModifierBody]
    notes: str


class TicketBody(TypedDict):
    id: str
    number: str
    status: Annotated[str, Doc("confirmed (new), preparing or ready; completed or refunded: gone from the display.")]
    dining: Annotated[str | None, Doc("eat_in, take_away, or null when the customer was not asked.")]
    lines: list[TicketLineBody]
    paid_at: DateTimeText
    updated_at: DateTimeText


class BoardNumberBody(TypedDict):
    order_id: str
    number: str
    status: Annotated[str, Doc("preparing (confirmed or preparing), ready, or gone (completed, refunded).")]
    changed_at: DateTimeText


class PrinterAlertBody(TypedDict):
    id: str
    name: str
    state: Annotated[str, Doc("offline, paper_out, cover_open, or online (a ticket waits too long).")]
    waiting: Annotated[int, Doc("Tickets waiting for it.")]
    oldest_waiting_at: Annotated[DateTimeText | None, Doc("When the oldest waiting ticket was made.")]


TicketOut = serializer_for(TicketBody, "KitchenTicketOut")
PrinterAlertOut = serializer_for(PrinterAlertBody, "KitchenPrinterAlertOut")
BoardNumberOut = serializer_for(BoardNumberBody, "BoardNumberOut")


def _line(line: OrderLine) -> TicketLineBody:
    return {
        "name": line.name,
        "quantity": line.quantity,
        "modifiers": [{"group": m["group"], "value": m["value"]} for m in line.modifiers],
        "notes": line.notes,
    }


def ticket_body(order: Order) -> TicketBody:
    return {
        "id": str(order.pk),
        "number": order.number,
        "status": order.status,
        "dining": order.dining or None,
        "lines": [_line(line) for line in order.lines.all()],
        "paid_at": DateTimeText(iso_z(order.paid_at or order.updated_at)),
        "updated_at": DateTimeText(iso_z(order.updated_at)),
    }


BOARD_STATUS = {"confirmed": "preparing", "preparing": "preparing", "ready": "ready"}


def board_number_body(order: Order) -> BoardNumberBody:
    return {
        "order_id": str(order.pk),
        "number": order.number,
        "status": BOARD_STATUS.get(order.status, "gone"),
        "changed_at": DateTimeText(iso_z(order.updated_at)),
    }


def printer_alerts(business_id: int) -> list[PrinterAlertBody]:
    """The business's printers that cannot print, or hold a ticket waiting too long."""
    return [
        {
            "id": str(printer.printer_id),
            "name": printer.name,
            "state": printer.state,
            "waiting": printer.waiting,
            "oldest_waiting_at": DateTimeText(iso_z(printer.oldest_waiting_at)) if printer.oldest_waiting_at else None,
        }
        for printer in printing_selectors.printers_in_trouble(business_id)
    ]
