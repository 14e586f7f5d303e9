"""What the metrics of docs/reports.md count, shared by the exact report and the rollup."""

from datetime import timedelta

from apps.orders.models import OrderStatus

# Orders that took the customer's money (refunded ones did too: refunds are counted apart).
PAID = (
    OrderStatus.PAID,
    OrderStatus.CONFIRMED,
    OrderStatus.PREPARING,
    OrderStatus.READY,
    OrderStatus.COMPLETED,
    OrderStatus.REFUNDED,
)
ANSWER_TARGET = timedelta(seconds=30)
