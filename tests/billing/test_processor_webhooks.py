"""Inbound processor events: verified signatures, each event once, never backwards (spec 6.3)."""

import time

import pytest
import stripe
from django.test import Client

from apps.billing.models import OwnerBilling, Payment, PlatformFee, ProcessorEvent
from apps.billing.services import processor_events
from apps.core.models import DomainEvent
from apps.menu.models import MenuItem
from apps.orders.models import Order
from apps.sessions.models import Session
from tests.support.payments import RECORDED_EVENTS, intent_event, post_event, recorded_event


@pytest.fixture
def paying(agent_client, cart_session, processor, billing, kiosk_events):
    """A session in payment with its intent."""
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    return Payment.objects.get()


def succeeded(payment):
    return intent_event("payment_intent.succeeded", payment)


def declined(payment, message="Your card was declined."):
    event = intent_event("payment_intent.payment_failed", payment)
    event["data"]["object"]["last_payment_error"]["message"] = message
    return event


def test_succeeded_fires_the_order_and_completes_the_session(paying, agent, kiosk_events, menu_item):
    response = post_event(Client(), succeeded(paying))
    assert response.status_code == 200 and response.json()["outcome"] == "order confirmed"
    order = Order.objects.get()
    assert order.status == "confirmed"
    session = Session.objects.get(pk=order.session_id)
    assert session.status == "completed" and session.end_reason == "completed"
    agent.refresh_from_db()
    assert agent.agent_status == "available"
    names = list(DomainEvent.objects.order_by("pk").values_list("name", flat=True))
    assert {"payment.captured", "order.created", "session.ended", "inventory.low"} <= set(names)
    assert names.index("payment.captured") < names.index("order.created")
    statuses = [e.payload["status"] for e in DomainEvent.objects.filter(name="order.status_changed").order_by("pk")]
    assert statuses == ["confirmed"]
    created = DomainEvent.objects.get(name="order.created").payload
    assert created["order_id"] == order.pk and created["total"] == 21.75 and created["items_count"] == 2
    assert created["items"] == [{"name": "Burger", "quantity": 2, "options": []}]
    assert isinstance(created["created_at"], int) and created["kiosk_name"] == session.kiosk.name
    assert created["agent_name"] == agent.name
    menu_item.refresh_from_db()
    assert menu_item.stock == 4  # 6 - 2, crossing the threshold of 5 once
    assert DomainEvent.objects.get(name="inventory.low").payload["stock"] == 4
    assert kiosk_events[-1][1] == "PaymentSucceeded"


def test_a_redelivered_event_is_handled_once(paying):
    event = succeeded(paying)
    assert post_event(Client(), event).json()["outcome"] == "order confirmed"
    again = post_event(Client(), event)
    assert again.status_code == 200 and again.json()["outcome"] == "duplicate"
    assert DomainEvent.objects.filter(name="order.created").count() == 1
    assert ProcessorEvent.objects.count() == 1


def test_decline_keeps_the_kiosk_in_payment_and_another_card_can_succeed(paying, kiosk_events):
    response = post_event(Client(), declined(paying))
    assert response.json()["outcome"] == "order failed"
    assert Order.objects.get().status == "failed"
    assert Session.objects.get(pk=Order.objects.get().session_id).status == "payment"
    channels, event, data = kiosk_events[-1]
    assert event == "PaymentFailed" and data["message"] == "Your card was declined."
    assert post_event(Client(), succeeded(paying)).json()["outcome"] == "order confirmed"
    assert Order.objects.get().status == "confirmed"


def test_a_late_decline_never_moves_a_paid_order_back(paying):
    post_event(Client(), succeeded(paying))
    late = post_event(Client(), declined(paying))
    assert late.status_code == 200 and late.json()["outcome"].startswith("ignored")
    assert Order.objects.get().status == "confirmed"
    assert Payment.objects.get().status == "succeeded"


@pytest.mark.parametrize("tamper", ["wrong_secret", "stale", "body_changed", "missing"])
def test_bad_signatures_answer_400_and_change_nothing(paying, tamper):
    event = succeeded(paying)
    client = Client()
    if tamper == "wrong_secret":
        response = post_event(client, event, secret="whsec_someone_else")
    elif tamper == "stale":
        response = post_event(client, event, timestamp=int(time.time()) - 600)
    elif tamper == "missing":
        response = client.post("/processor/connect/webhook", "{}", content_type="application/json")
    else:
        import json

        import stripe

        header = stripe.WebhookSignature.generate_signature_header(json.dumps(event), "whsec_connect_test")
        event["data"]["object"]["id"] = "pi_other"
        response = client.post(
            "/processor/connect/webhook",
            json.dumps(event),
            content_type="application/json",
            headers={"Stripe-Signature": header},
        )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_SIGNATURE"
    assert Order.objects.get().status == "awaiting_payment" and not ProcessorEvent.objects.exists()


def test_each_endpoint_verifies_with_its_own_secret(paying):
    response = post_event(Client(), succeeded(paying), connect=True, secret="whsec_platform_test")
    assert response.status_code == 400


def test_account_updated_tracks_onboarding_and_ignores_older_news(billing, processor):
    now = int(time.time())
    restricted = {
        "id": billing.account_id,
        "object": "account",
        "charges_enabled": False,
        "payouts_enabled": False,
        "details_submitted": True,
        "requirements": {"disabled_reason": "requirements.past_due"},
    }
    complete = {
        "id": billing.account_id,
        "object": "account",
        "charges_enabled": True,
        "payouts_enabled": True,
        "details_submitted": True,
        "requirements": {},
    }
    assert post_event(Client(), recorded_event("account.updated", restricted, created=now)).status_code == 200
    billing.refresh_from_db()
    assert (billing.charges_enabled, billing.requirements_status) == (False, "restricted")
    post_event(Client(), recorded_event("account.updated", complete, created=now + 10))
    post_event(Client(), recorded_event("account.updated", restricted, created=now + 5))  # arrives late
    billing.refresh_from_db()
    assert (billing.charges_enabled, billing.payouts_enabled, billing.requirements_status) == (True, True, "complete")


def test_subscription_billing_events(billing, processor):
    billing.customer_id = "cus_123"
    billing.save()
    now = int(time.time())

    def platform(event_type, obj, at):
        return post_event(Client(), recorded_event(event_type, obj, created=at, account=None), connect=False)

    platform("invoice.payment_failed", {"id": "in_1", "customer": "cus_123"}, now)
    billing.refresh_from_db()
    assert billing.dunning is True and billing.subscription_status == "past_due"
    platform("invoice.paid", {"id": "in_2", "customer": "cus_123"}, now + 1)
    billing.refresh_from_db()
    assert billing.dunning is False and billing.subscription_status == "active"
    subscription = {
        "id": "sub_1",
        "customer": "cus_123",
        "status": "active",
        "items": {"data": [{"price": {"lookup_key": "pro"}}]},
    }
    platform("customer.subscription.updated", subscription, now + 2)
    billing.refresh_from_db()
    assert billing.plan == "pro" and billing.subscription_id == "sub_1"
    platform("customer.subscription.deleted", subscription, now + 3)
    billing.refresh_from_db()
    assert (billing.plan, billing.subscription_status) == ("free", "canceled")


def test_application_fee_is_recorded_for_audit(db, processor):
    fee = {"id": "fee_1", "object": "application_fee", "amount": 0, "currency": "usd", "account": "acct_x"}
    response = post_event(Client(), recorded_event("application_fee.created", fee, account=None), connect=False)
    assert response.status_code == 200
    assert PlatformFee.objects.get().amount_cents == 0


def test_unknown_payment_intent_is_acknowledged_without_effect(db, processor):
    event = recorded_event("payment_intent.succeeded", {"id": "pi_nobody"})
    response = post_event(Client(), event)
    assert response.status_code == 200 and response.json()["outcome"] == "unknown payment intent"


def test_session_cost_follows_the_owners_plan(agent_client, cart_session, billing):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    billing.plan = "pro"
    billing.save()
    with time_machine.travel(timezone.now() + timedelta(seconds=61)):
        agent_client.post(f"/api/sessions/{cart_session.public_id}/end", {"reason": "customer_abandoned"})
    payload = DomainEvent.objects.get(name="session.ended").payload
    assert payload["cost_cents"] == 2 * 35 and payload["cost_dollars"] == "0.70"
    assert MenuItem.objects.get().stock == 6  # nothing was sold
    assert OwnerBilling.objects.get().plan == "pro"


def test_every_handled_event_type_has_a_recorded_event_of_the_pinned_api_version():
    recorded = {path.name.removesuffix(".json") for path in RECORDED_EVENTS.glob("*.json")}
    assert recorded == set(processor_events.HANDLERS)
    for event_type in sorted(recorded):
        event = processor_events.validate_event(recorded_event(event_type))
        assert event["type"] == event_type and event["api_version"] == stripe.api_version
        assert stripe.Event.construct_from(event, "sk_test_x").data.object.object == event["data"]["object"]["object"]
