"""What "paid" means is one rule (apps/orders/models.py): every order body the apps read carries it
as `paid`, for every status, so no browser app keeps its own list of statuses."""

import pytest

from apps.orders.models import CHARGED_STATUSES, PAID_STATUSES, OrderStatus
from apps.sessions import services as session_services
from tests import factories

# The agreed rule, written out: the processor captured the payment and it stands.
PAID = {"paid", "confirmed", "preparing", "ready", "completed"}


def test_the_rule_paid_and_charged_differ_only_by_a_refund():
    assert set(PAID_STATUSES) == PAID
    assert set(CHARGED_STATUSES) == PAID | {"refunded"}


@pytest.fixture
def session(kiosk, agent):
    pending = factories.SessionFactory(kiosk=kiosk)
    return session_services.session_accept(public_id=pending.public_id, agent=agent)


@pytest.mark.parametrize("status", OrderStatus.values)
def test_every_order_body_says_paid_by_the_one_rule(status, session, agent_client, kiosk_client):
    factories.OrderFactory(session=session, status=status)
    bodies = {
        "kiosk order": kiosk_client.get(f"/api/public/sessions/{session.public_id}/order").json(),
        "agent session": agent_client.get(f"/api/sessions/{session.public_id}").json()["order"],
    }
    for where, body in bodies.items():
        assert body["status"] == status, where
        assert body["paid"] is (status in PAID), where


def test_an_order_not_yet_made_is_not_paid(session, kiosk_client):
    body = kiosk_client.get(f"/api/public/sessions/{session.public_id}/order").json()
    assert body["status"] is None and body["paid"] is False
