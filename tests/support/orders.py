"""Order test data and the token API's order list, for tests of order history and its bodies."""

from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

from django.test import Client

from apps.orders.models import Order, OrderStatus
from apps.sessions.models import SessionStatus
from tests import factories

BASE = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def make_order(business, *, created_at, status=OrderStatus.CONFIRMED, lines=1, agent=None) -> Order:
    """An order of `business` at `created_at`, with `lines` lines (ended session, a new kiosk)."""
    session = factories.SessionFactory(
        kiosk=factories.KioskFactory(business=business),
        agent=agent,
        status=SessionStatus.COMPLETED,
        created_at=created_at,
        accepted_at=created_at,
        ended_at=created_at + timedelta(minutes=3),
    )
    business.order_sequence += 1
    business.save(update_fields=["order_sequence"])
    order = factories.OrderFactory(
        session=session,
        number=str(business.order_sequence),
        status=status,
        subtotal_cents=1000 * lines,
        tax_cents=88 * lines,
        total_cents=1088 * lines,
        created_at=created_at,
        updated_at=created_at,
    )
    for position in range(lines):
        factories.OrderLineFactory(
            order=order,
            position=position,
            name=f"Item {position}",
            quantity=position + 1,
            unit_price_cents=1000,
            modifiers=[{"group": "Size", "value": "Large", "option_id": 7}],
            notes="no ice" if position == 0 else "",
        )
    return order


def list_orders(api: Client, **query):
    return api.get("/api/v1/orders" + (f"?{urlencode(query)}" if query else ""))
