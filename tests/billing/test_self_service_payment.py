"""Self-service payment: POST /api/public/sessions/{id}/payment sends a waiting customer's own cart
to payment through the agent's flow (intent on the owner's account, PaymentRequested, processor
events, order.* and payment.* webhooks); the session leaves the queue and its offers are withdrawn;
POST .../payment/cancel returns it to the queue."""

import pytest
from django.test import Client

from apps.billing.models import Payment
from apps.core.errors import DomainError
from apps.core.models import DomainEvent
from apps.orders.models import Order
from apps.routing import offers
from apps.routing.models import Offer
from apps.sessions import services as session_services
from apps.sessions.models import Session
from apps.webhooks.models import WebhookDelivery
from tests import factories
from tests.conftest import kiosk_client_for
from tests.support.payments import ACCOUNT, intent_event, post_event

WEBHOOKS = ["order.created", "order.status_changed", "payment.captured", "session.ended"]


@pytest.fixture
def alone(kiosk, kiosk_client, menu_item):
    """A waiting session whose customer put 2 burgers in the cart alone (2000 + 8.75% = 2175)."""
    session = factories.SessionFactory(kiosk=kiosk)
    line = {"menu_item_id": str(menu_item.pk), "quantity": 2, "modifier_option_ids": [], "notes": ""}
    response = kiosk_client.post(
        f"/api/public/sessions/{session.public_id}/order", {"lines": [line]}, "application/json"
    )
    assert response.status_code == 200, response.content
    return session


def pay(client, session):
    return client.post(f"/api/public/sessions/{session.public_id}/payment")


def cancel(client, session):
    return client.post(f"/api/public/sessions/{session.public_id}/payment/cancel")


def test_a_customer_alone_pays_through_the_agents_flow_and_no_agent_is_recorded(
    kiosk_client, alone, processor, billing, broadcasts, owner
):
    factories.WebhookSubscriptionFactory(owner=owner, events=WEBHOOKS)
    response = pay(kiosk_client, alone)
    assert response.status_code == 200, response.content
    body = response.json()
    payment = Payment.objects.get()
    assert body["session"] == {"id": alone.public_id, "status": "payment"}
    assert body["payment"]["client_secret"] == payment.client_secret and body["payment"]["amount_cents"] == 2175
    assert body["payment"]["processor_account"] == ACCOUNT and body["payment"]["status"] == "requires_payment_method"
    [call] = processor.calls_to("/v1/payment_intents")
    assert call.params["amount"] == "2175" and call.headers["Stripe-Account"] == ACCOUNT
    assert Order.objects.get().status == "awaiting_payment"
    kiosk_events = [b.event for b in broadcasts if b.channels == [f"private-kiosk.{alone.kiosk_id}"]]
    assert "PaymentRequested" in kiosk_events and "SessionStatusChanged" in kiosk_events

    assert post_event(Client(), intent_event("payment_intent.succeeded", payment)).status_code == 200
    session = Session.objects.get(pk=alone.pk)
    assert session.status == "completed" and session.agent_id is None and session.accepted_at is None
    assert Order.objects.get().status == "confirmed"
    names = list(DomainEvent.objects.order_by("pk").values_list("name", flat=True))
    for name in ("payment.captured", "order.created", "session.ended"):
        assert name in names
    created = DomainEvent.objects.get(name="order.created").payload
    assert created["agent_name"] == "" and created["total"] == 21.75 and created["items_count"] == 2
    assert DomainEvent.objects.get(name="session.ended").payload["agent_id"] is None
    delivered = set(WebhookDelivery.objects.values_list("event__name", flat=True))
    assert {"order.created", "payment.captured", "order.status_changed", "session.ended"} <= delivered


def test_paying_alone_leaves_the_queue_and_withdraws_the_offers(
    kiosk_client, alone, business, agent, processor, billing, broadcasts
):
    behind = factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
    offers.offers_dispatch()
    offer = Offer.objects.get(agent=agent)
    assert offer.session_id == alone.pk and offer.status == "live"
    broadcasts.clear()

    assert pay(kiosk_client, alone).status_code == 200
    offer.refresh_from_db()
    assert offer.status == "withdrawn"
    [withdrawn] = [b for b in broadcasts if b.event == "SessionWithdrawn"]
    assert withdrawn.channels == [f"private-agent.{agent.pk}"]
    assert withdrawn.data == {"session_id": alone.public_id, "status": "payment", "reason": "customer_paying"}
    moved_up = [b for b in broadcasts if b.event == "QueueUpdated"]
    assert moved_up and moved_up[-1].data["session_id"] == behind.public_id
    assert moved_up[-1].data["queue"]["position"] == 1
    status = kiosk_client.get(f"/api/public/sessions/{alone.public_id}/status").json()
    assert status["status"] == "payment" and status["queue"] is None and status["agent"] is None

    # Nobody can accept a customer who is paying; the agent is offered the next one.
    offers.offers_dispatch()
    assert Offer.objects.get(agent=agent, status="live").session_id == behind.pk
    with pytest.raises(DomainError) as refused:
        session_services.session_accept(public_id=alone.public_id, agent=agent)
    assert refused.value.code == "SESSION_ALREADY_ACCEPTED"
    assert Session.objects.get(pk=alone.pk).status == "payment"


def test_a_retry_answers_the_same_payment(kiosk_client, alone, processor, billing):
    first = pay(kiosk_client, alone).json()
    second = pay(kiosk_client, alone)
    assert second.status_code == 200 and second.json() == first
    assert len(processor.calls_to("/v1/payment_intents")) == 1


def test_a_declined_card_stays_in_payment_and_cancel_returns_to_the_queue(
    kiosk_client, alone, processor, billing, broadcasts
):
    pay(kiosk_client, alone)
    payment = Payment.objects.get()
    post_event(Client(), intent_event("payment_intent.payment_failed", payment))
    assert Session.objects.get(pk=alone.pk).status == "payment" and Order.objects.get().status == "failed"

    response = cancel(kiosk_client, alone)
    assert response.status_code == 200, response.content
    assert response.json() == {"session": {"id": alone.public_id, "status": "pending"}}
    assert processor.calls_to(f"/v1/payment_intents/{payment.intent_id}/cancel")
    assert Payment.objects.get().status == "canceled" and Order.objects.get().status == "draft"
    assert "PaymentCancelled" in [b.event for b in broadcasts]
    status = kiosk_client.get(f"/api/public/sessions/{alone.public_id}/status").json()
    assert status["status"] == "pending" and status["queue"]["position"] == 1
    # The cart can be changed again, and a new payment is a new intent.
    line = {"menu_item_id": str(Order.objects.get().lines.get().menu_item_id), "quantity": 1}
    changed = kiosk_client.post(f"/api/public/sessions/{alone.public_id}/order", {"lines": [line]}, "application/json")
    assert changed.status_code == 200 and changed.json()["total_cents"] == 1088
    assert pay(kiosk_client, alone).status_code == 200 and Payment.objects.count() == 2


def test_the_cart_is_locked_while_the_customer_pays(kiosk_client, alone, processor, billing):
    pay(kiosk_client, alone)
    line = {"menu_item_id": str(Order.objects.get().lines.get().menu_item_id), "quantity": 1}
    response = kiosk_client.post(f"/api/public/sessions/{alone.public_id}/order", {"lines": [line]}, "application/json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "ORDER_LOCKED"


def test_once_an_agent_holds_the_session_the_kiosk_cannot_pay_or_cancel(
    kiosk_client, alone, agent, agent_client, processor, billing
):
    session_services.session_accept(public_id=alone.public_id, agent=agent)
    refused = pay(kiosk_client, alone)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "SESSION_ALREADY_ACCEPTED"
    assert not processor.calls_to("/v1/payment_intents")
    assert agent_client.post(f"/api/sessions/{alone.public_id}/payment").status_code == 200  # the agent's now
    refused = cancel(kiosk_client, alone)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "SESSION_ALREADY_ACCEPTED"
    assert Session.objects.get(pk=alone.pk).status == "payment"


def test_refusals(kiosk, kiosk_client, alone, business, other_business, processor, billing):
    empty = factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
    response = pay(kiosk_client_for(empty.kiosk), empty)
    assert response.status_code == 409 and response.json()["error"]["code"] == "ORDER_EMPTY"
    for stranger in (factories.KioskFactory(business=business), factories.KioskFactory(business=other_business)):
        for act in (pay, cancel):
            response = act(kiosk_client_for(stranger), alone)
            assert response.status_code == 404 and response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    response = pay(Client(), alone)
    assert response.status_code == 401 and response.json()["error"]["code"] == "DEVICE_TOKEN_INVALID"
    response = cancel(kiosk_client, alone)
    assert response.status_code == 409 and response.json()["error"]["code"] == "INVALID_STATE"
    assert not processor.calls_to("/v1/payment_intents") and Session.objects.get(pk=alone.pk).status == "pending"


def test_an_owner_who_cannot_take_charges_gets_409(kiosk_client, alone, processor, billing):
    billing.charges_enabled = False
    billing.save()
    response = pay(kiosk_client, alone)
    assert response.status_code == 409 and response.json()["error"]["code"] == "PROCESSOR_ACCOUNT_NOT_READY"
    assert Session.objects.get(pk=alone.pk).status == "pending"
