"""Concurrent cart posts for one session never interleave into a mixed cart (PostgreSQL)."""

import pytest

from apps.orders import services
from apps.orders.models import Order, OrderLine
from apps.sessions import services as session_services
from tests import factories
from tests.support.races import at_once

pytestmark = [
    pytest.mark.postgres,  # row locks
]


@pytest.mark.django_db(transaction=True)
def test_concurrent_posts_leave_exactly_one_whole_cart():
    business = factories.BusinessFactory()
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    items = factories.MenuItemFactory.create_batch(8, category=category)
    agent = factories.AgentFactory(owner=business.owner)
    kiosk = factories.KioskFactory(business=business)
    session = session_services.session_accept(public_id=factories.SessionFactory(kiosk=kiosk).public_id, agent=agent)

    carts = {
        n: [{"menu_item_id": str(item.pk), "quantity": n + 1, "modifier_option_ids": [], "notes": ""} for item in items]
        for n in range(6)
    }
    results = at_once(
        [
            lambda lines=lines: services.cart_replace(agent=agent, session_public_id=session.public_id, lines=lines)
            for lines in carts.values()
        ]
    )
    assert not [result for result in results if isinstance(result, Exception)], results
    order = Order.objects.get(session=session)
    quantities = set(OrderLine.objects.filter(order=order).values_list("quantity", flat=True))
    assert len(quantities) == 1, "lines of several posts were mixed"
    assert OrderLine.objects.filter(order=order).count() == len(items)
    assert order.subtotal_cents == len(items) * 1000 * quantities.pop()
