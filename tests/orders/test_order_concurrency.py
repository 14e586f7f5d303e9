"""Concurrent cart posts for one session never interleave into a mixed cart (PostgreSQL)."""

import threading

import pytest
from django.db import connection

from apps.orders import services
from apps.orders.models import Order, OrderLine
from apps.sessions import services as session_services
from tests import factories

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
    barrier = threading.Barrier(len(carts))
    errors = []

    def post(n):
        try:
            barrier.wait()
            services.cart_replace(agent=agent, session_public_id=session.public_id, lines=carts[n])
        except Exception as exc:  # collected and asserted below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(n,)) for n in carts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    order = Order.objects.get(session=session)
    quantities = set(OrderLine.objects.filter(order=order).values_list("quantity", flat=True))
    assert len(quantities) == 1, "lines of several posts were mixed"
    assert OrderLine.objects.filter(order=order).count() == len(items)
    assert order.subtotal_cents == len(items) * 1000 * quantities.pop()
