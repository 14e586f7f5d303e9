"""What happens to an order (apps.core.events): the cart changed, the order moved, the payment
was captured, the order was confirmed. Webhook payloads are in webhook_payloads.py; the kiosk's
OrderUpdated body in realtime_messages.py."""

from apps.core.events import Event, OwnerOf
from apps.orders import webhook_payloads
from apps.orders.models import Order
from apps.sessions.models import Session


class _OrderEvent(Event):
    order: Order
    owner_id = OwnerOf("order.owner_id")


class CartReplaced(_OrderEvent):
    """The agent posted a whole cart: only the kiosk hears of it (OrderUpdated)."""

    session: Session


class OrderStatusChanged(_OrderEvent):
    """An announced move (confirmed, fulfilment, refunded); `previous` is the status before."""

    previous: str = ""
    webhook_name = "order.status_changed"

    def webhook_payload(self) -> webhook_payloads.OrderStatusChangedPayload:
        return webhook_payloads.order_status_changed(self.order, self.previous)


class PaymentCaptured(_OrderEvent):
    """The processor captured the order's payment (the order is paid)."""

    intent_id: str = ""
    amount_cents: int = 0
    webhook_name = "payment.captured"

    def webhook_payload(self) -> webhook_payloads.PaymentCapturedPayload:
        return webhook_payloads.payment_captured(self.order, intent_id=self.intent_id, amount_cents=self.amount_cents)


class OrderCreated(_OrderEvent):
    """A paid order was confirmed and sent to the kitchen (the spec's `order.created`)."""

    webhook_name = "order.created"

    def webhook_payload(self) -> webhook_payloads.OrderCreatedPayload:
        return webhook_payloads.order_created(self.order)
