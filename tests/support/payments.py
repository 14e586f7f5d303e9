"""Shared set-up for payment tests: the processor stand-in, a connected account, a session with
a cart, signed processor events, a recorder of the kiosk's real-time events, and for fault tests
a short processor timeout, a recorder of every real-time event and a snapshot of every row a
payment change may write."""

import json
import secrets
import time

import pytest
import stripe
from django.test import Client

from apps.accounts.models import User
from apps.billing.models import Payment, ProcessorCall, Refund
from apps.core.models import DomainEvent
from apps.orders import services as order_services
from apps.orders.models import Order
from apps.sessions import services as session_services
from apps.sessions.models import Session
from apps.webhooks.models import WebhookDelivery
from tests import factories
from tests.support.processes import ROOT
from tests.support.processor_standin import ProcessorStandIn

PLATFORM_SECRET = "whsec_platform_test"
CONNECT_SECRET = "whsec_connect_test"
ACCOUNT = "acct_demo123"


_running: list[ProcessorStandIn] = []  # the current test's stand-in (the `processor` fixture)


@pytest.fixture
def processor(settings):
    with ProcessorStandIn() as standin:
        settings.PROCESSOR_SECRET_KEY = "sk_test_standin"
        settings.PROCESSOR_API_BASE = standin.url
        settings.PROCESSOR_WEBHOOK_SECRET = PLATFORM_SECRET
        settings.PROCESSOR_CONNECT_WEBHOOK_SECRET = CONNECT_SECRET
        _running.append(standin)
        try:
            yield standin
        finally:
            _running.remove(standin)


QUICK_TIMEOUT = 0.3  # seconds: PROCESSOR_TIMEOUT under `quick_processor`
SLOW_ANSWER = 1.0  # seconds: longer than QUICK_TIMEOUT


@pytest.fixture
def quick_processor(processor, settings):
    """The stand-in, with a short PROCESSOR_TIMEOUT and one network retry, for fault tests."""
    settings.PROCESSOR_TIMEOUT = QUICK_TIMEOUT
    settings.PROCESSOR_MAX_NETWORK_RETRIES = 1
    return processor


def payment_rows(session: Session) -> dict:
    """Every row a payment change may write (session, its agent, order, payments, refunds,
    reservations, domain events and webhook deliveries), for before/after comparisons."""
    return {
        "session": Session.objects.filter(pk=session.pk).values().get(),
        "agent": list(User.objects.filter(pk=session.agent_id).values("agent_status")),
        "orders": list(Order.objects.filter(session=session).values()),
        "payments": list(Payment.objects.filter(order__session=session).order_by("pk").values()),
        "refunds": list(Refund.objects.filter(order__session=session).order_by("pk").values()),
        "reservations": list(ProcessorCall.objects.values()),
        "events": DomainEvent.objects.count(),
        "deliveries": WebhookDelivery.objects.count(),
    }


@pytest.fixture
def kiosk_events(monkeypatch):
    """What the kiosk is told in real time (PaymentRequested, PaymentFailed, ...)."""
    sent = []
    monkeypatch.setattr(
        "apps.billing.realtime_messages.broadcast", lambda channels, event, data: sent.append((channels, event, data))
    )
    return sent


@pytest.fixture
def billing(owner):
    return factories.OwnerBillingFactory(owner=owner, account_id=ACCOUNT)


@pytest.fixture
def menu_item(business):
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    return factories.MenuItemFactory(
        category=category, name="Burger", price_cents=1000, track_stock=True, stock=6, low_stock_threshold=5
    )


@pytest.fixture
def cart_session(kiosk, agent, menu_item):
    """An active session whose cart holds 2 burgers (2000 + 8.75% tax = 2175)."""
    pending = factories.SessionFactory(kiosk=kiosk)
    session = session_services.session_accept(public_id=pending.public_id, agent=agent)
    line = {"menu_item_id": str(menu_item.pk), "quantity": 2, "modifier_option_ids": [], "notes": ""}
    order_services.cart_replace(agent=agent, session_public_id=session.public_id, lines=[line])
    return session


@pytest.fixture
def confirmed_order(agent_client, cart_session, processor, billing, kiosk_events):
    """A paid order fired to the kitchen (2 burgers, 2175 cents), produced by the real flow:
    the agent sends to payment, the processor stand-in's intent succeeds."""
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    post_event(Client(), intent_event("payment_intent.succeeded", Payment.objects.get()))
    order = Order.objects.get()
    assert order.status == "confirmed"
    return order


RECORDED_EVENTS = ROOT / "tests" / "fixtures" / "processor_events"


def recorded_event(
    event_type: str, fields: dict | None = None, *, created: int | None = None, account: str | None = ACCOUNT
) -> dict:
    """A processor event as the processor delivers it: the recorded `<event_type>.json` under
    tests/fixtures/processor_events, with a fresh event id, `created` (now unless given), the
    connected `account` (None: a platform event, which carries none) and `fields` replacing
    fields of its `data.object`."""
    event = json.loads((RECORDED_EVENTS / f"{event_type}.json").read_text())
    event["id"] = "evt_" + secrets.token_hex(12)
    event["created"] = created or int(time.time())
    event.pop("account", None)
    if account is not None:
        event["account"] = account
    event["data"]["object"].update(fields or {})
    return event


def intent_event(event_type: str, payment: Payment, fields: dict | None = None, *, charged: bool = True) -> dict:
    """payment_intent.succeeded or .payment_failed for `payment`: the recorded event with the
    payment's intent id, client secret, amount, currency, account and order. The processor sends
    `succeeded` once it has charged the card, and the service checks that with it: so the test's
    stand-in (if any) then holds the intent as succeeded, for the payment's own amount, unless
    `charged` is False (an event the processor never sent)."""
    if event_type == "payment_intent.succeeded" and charged and _running:
        _running[-1].charge(payment)
    obj = recorded_event(event_type)["data"]["object"]
    order = payment.order
    intent = {
        "id": payment.intent_id,
        "client_secret": payment.client_secret,
        "amount": payment.amount_cents,
        "amount_received": payment.amount_cents if obj["amount_received"] else 0,
        "currency": payment.currency.lower(),
        "description": f"Order {order.number}",
        "metadata": {"order_id": str(order.pk), "session_id": order.session.public_id},
    }
    return recorded_event(event_type, {**intent, **(fields or {})}, account=payment.account_id)


def post_event(client, event: dict, *, connect: bool = True, secret: str | None = None, timestamp: int | None = None):
    payload = json.dumps(event)
    secret = secret or (CONNECT_SECRET if connect else PLATFORM_SECRET)
    header = stripe.WebhookSignature.generate_signature_header(payload, secret, timestamp=timestamp)
    path = "/processor/connect/webhook" if connect else "/processor/webhook"
    return client.post(path, payload, content_type="application/json", headers={"Stripe-Signature": header})


DEMO_READER_ACCOUNT = "acct_demo_reader_page"


def demo_account_for(owner, account_id: str) -> None:
    """The owner takes payments on `account_id`, an open account of the demo processor (as
    seed_demo's owners do)."""
    from apps.demo_processor import services as demo_processor

    demo_processor.account_open(account_id)
    factories.OwnerBillingFactory(owner=owner, account_id=account_id, charges_enabled=True, payouts_enabled=True)


@pytest.fixture
def demo_reader(kiosk, owner):
    """The kiosk's simulated reader ("Counter"), registered on a demo processor account."""
    from apps.billing.services import readers

    demo_account_for(owner, DEMO_READER_ACCOUNT)
    return readers.reader_register(kiosk=kiosk, registration_code="simulated-wpe", label="Counter")


@pytest.fixture
def paying_on_reader(agent_client, cart_session, demo_reader, kiosk_events, django_capture_on_commit_callbacks):
    """The cart session sent to payment: the demo reader holds its intent (2175 cents)."""
    with django_capture_on_commit_callbacks(execute=True):
        response = agent_client.post(f"/api/sessions/{cart_session.public_id}/payment")
    assert response.status_code == 200, response.content
    return Payment.objects.get()
