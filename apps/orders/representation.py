"""The order object of the spec (section 2), shared by the kiosk and agent APIs and by the
OrderUpdated broadcast, so all three always say the same thing."""

from apps.core.timefmt import iso_z
from apps.orders.models import Order, OrderLine, OrderStatus
from apps.sessions.models import Session


def line_body(line: OrderLine) -> dict:
    body = {
        "id": str(line.pk),
        "menu_item_id": str(line.menu_item_id) if line.menu_item_id else None,
        "name": line.name,
        "quantity": line.quantity,
        "unit_price_cents": line.unit_price_cents,
        "modifiers": [{"group": m["group"], "value": m["value"]} for m in line.modifiers],
    }
    if line.notes:
        body["notes"] = line.notes
    return body


def order_body(session: Session, order: Order | None) -> dict:
    """The order of `session`; before the first cart an empty order in the business currency."""
    if order is None:
        return {
            "session_id": session.public_id,
            "order_number": None,
            "status": None,
            "currency": session.business.currency,
            "subtotal_cents": 0,
            "tax_cents": 0,
            "total_cents": 0,
            "lines": [],
            "updated_at": iso_z(session.created_at),
        }
    return {
        "session_id": session.public_id,
        "order_number": order.number,
        "status": order.status,
        "currency": order.currency,
        "subtotal_cents": order.subtotal_cents,
        "tax_cents": order.tax_cents,
        "total_cents": order.total_cents,
        "lines": [line_body(line) for line in order.lines.all()],
        "updated_at": iso_z(order.updated_at),
    }


_PAYMENT_STATUS = {
    OrderStatus.DRAFT: "none",
    OrderStatus.AWAITING_PAYMENT: "pending",
    OrderStatus.FAILED: "failed",
    OrderStatus.REFUNDED: "refunded",
}


def payment_status(order: Order) -> str:
    """none, pending, failed, captured (paid and every fulfilment status after) or refunded."""
    return _PAYMENT_STATUS.get(order.status, "captured")
