"""Order status after the cart: payment outcome, firing to the kitchen, fulfilment, refund.

Allowed moves are listed once here; each move emits `order.status_changed` (and firing also
`payment.captured` and `order.created`). Callers hold the transaction.
"""

from django.utils import timezone

from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.menu import services as menu_services
from apps.orders import receipts
from apps.orders.domain_events import OrderCreated, OrderStatusChanged, PaymentCaptured
from apps.orders.models import Order, OrderStatus

S = OrderStatus
TRANSITIONS: dict[str, set[str]] = {
    S.DRAFT: {S.AWAITING_PAYMENT},
    # Refunded unpaid: a card approved after the customer left, refunded at once
    # (billing's refunds.refund_late); the order ends there.
    S.AWAITING_PAYMENT: {S.PAID, S.FAILED, S.DRAFT, S.REFUNDED},
    S.FAILED: {S.PAID, S.FAILED, S.DRAFT, S.REFUNDED},
    S.PAID: {S.CONFIRMED},
    S.CONFIRMED: {S.PREPARING, S.READY, S.COMPLETED, S.REFUNDED},
    S.PREPARING: {S.READY, S.COMPLETED, S.REFUNDED},
    S.READY: {S.COMPLETED, S.REFUNDED},
    S.COMPLETED: {S.REFUNDED},
    S.REFUNDED: set(),
}
FULFILMENT_STATUSES = (S.PREPARING, S.READY, S.COMPLETED)
_ANNOUNCED = {S.CONFIRMED, S.PREPARING, S.READY, S.COMPLETED, S.REFUNDED}


def move(order: Order, to_status: str) -> None:
    if to_status not in TRANSITIONS[order.status]:
        raise DomainError(
            ErrorCode.INVALID_STATE,
            "An order that is {status} cannot become {to_status}.",
            params={"status": order.status, "to_status": to_status},
        )
    previous = order.status
    order.status = to_status
    order.updated_at = timezone.now()
    order.save(update_fields=["status", "updated_at"])
    if to_status in _ANNOUNCED:
        events.emit(OrderStatusChanged(order, previous=previous))


def fire(order: Order, *, intent_id: str, amount_cents: int) -> None:
    """Payment captured: paid, then confirmed (sent to the kitchen); stock falls."""
    order.paid_at = timezone.now()
    order.receipt_token_hash = order.receipt_token_hash or receipts.token_hash_for(order)
    order.save(update_fields=["paid_at", "receipt_token_hash"])
    move(order, S.PAID)
    events.emit(PaymentCaptured(order, intent_id=intent_id, amount_cents=amount_cents))
    move(order, S.CONFIRMED)
    quantities: dict[int, int] = {}
    for line in order.lines.all():
        if line.menu_item_id:
            quantities[line.menu_item_id] = quantities.get(line.menu_item_id, 0) + line.quantity
    menu_services.stock_consume(quantities=quantities, owner_id=order.owner_id)
    events.emit(OrderCreated(order))
