"""The dashboard's orders and revenue count paid orders by the one rule (apps/orders/models.py
PAID_STATUSES): a just-paid order counts before the kitchen has it, a refunded one no longer counts,
and nothing unpaid ever does."""

from apps.orders.models import OrderStatus
from tests import factories


def test_dashboard_revenue_counts_paid_orders_and_leaves_out_refunded_ones(owner_client, business):
    cents = {
        OrderStatus.DRAFT: 1,
        OrderStatus.AWAITING_PAYMENT: 2,
        OrderStatus.FAILED: 4,
        OrderStatus.PAID: 100,
        OrderStatus.CONFIRMED: 200,
        OrderStatus.PREPARING: 400,
        OrderStatus.READY: 800,
        OrderStatus.COMPLETED: 1600,
        OrderStatus.REFUNDED: 3200,
    }
    for status, total in cents.items():
        session = factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
        factories.OrderFactory(session=session, status=status, currency="USD", total_cents=total)
    today = owner_client.get("/panel/").context["today"]
    assert today["orders"] == 5
    assert [(row["currency"], row["total"], row["count"]) for row in today["revenue"]] == [("USD", 3100, 5)]
