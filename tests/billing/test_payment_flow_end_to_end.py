"""The whole paid flow over the HTTP stack: kiosk start -> agent accept -> cart -> send to payment
(the real `stripe` library against the local processor stand-in) -> a signed
payment_intent.succeeded -> session completed, order confirmed, the kiosk told, and both
`payment.captured` and `order.created` delivered, signed, to a real HTTP receiver."""

import hashlib
import hmac
import json

from django.test import Client

from apps.billing.models import Payment
from apps.webhooks import services as webhook_services
from tests.support.payments import ACCOUNT, intent_event, post_event
from tests.support.receivers import Receiver


def _deliveries(receiver: Receiver, secret: str) -> dict[str, dict]:
    """Event name -> envelope of each delivery, after checking its signature over the raw body."""
    by_event = {}
    for request in receiver.received:
        expected = hmac.new(secret.encode(), request.body, hashlib.sha256).hexdigest()
        assert request.headers["X-Service-Signature"] == expected
        envelope = json.loads(request.body)
        assert request.headers["X-Service-Event"] == envelope["event"]
        by_event[envelope["event"]] = envelope
    return by_event


def test_kiosk_to_paid_order_over_http(
    owner,
    kiosk,
    kiosk_client,
    agent,
    agent_client,
    menu_item,
    processor,
    billing,
    kiosk_events,
    receiver,
    django_capture_on_commit_callbacks,
):
    _, secret = webhook_services.subscription_create(
        owner=owner, url=receiver.url, events=["payment.captured", "order.created", "session.ended"]
    )

    with django_capture_on_commit_callbacks(execute=True):
        started = kiosk_client.post(
            "/api/public/sessions/start",
            {"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
            content_type="application/json",
        )
        assert started.status_code == 201, started.content
        session_id = started.json()["session_id"]

        assert agent_client.post(f"/api/sessions/{session_id}/accept").status_code == 200
        line = {"menu_item_id": str(menu_item.pk), "quantity": 2, "modifier_option_ids": [], "notes": "no onions"}
        cart = agent_client.post("/api/orders", {"session_id": session_id, "lines": [line]})
        assert cart.status_code == 200, cart.content
        assert cart.json()["total_cents"] == 2175  # 2 x 10.00 + 8.75 % tax

        sent = agent_client.post(f"/api/sessions/{session_id}/payment")
        assert sent.status_code == 200, sent.content
        assert sent.json()["payment"] == {"status": "requires_payment_method", "amount_cents": 2175, "currency": "USD"}

    [intent_call] = processor.calls_to("/v1/payment_intents")
    assert intent_call.headers["Stripe-Account"] == ACCOUNT and intent_call.params["amount"] == "2175"
    assert not any(key.startswith("application_fee") for key in intent_call.params)
    payment = Payment.objects.get()
    assert kiosk_events[0][1] == "PaymentRequested" and kiosk_events[0][2]["client_secret"] == payment.client_secret
    poll = kiosk_client.get(f"/api/public/sessions/{session_id}/status").json()
    assert poll["status"] == "payment"

    succeeded = intent_event("payment_intent.succeeded", payment)
    with django_capture_on_commit_callbacks(execute=True):
        answer = post_event(Client(), succeeded)
    assert answer.status_code == 200, answer.content

    poll = kiosk_client.get(f"/api/public/sessions/{session_id}/status").json()
    assert poll["status"] == "completed"
    order = kiosk_client.get(f"/api/public/sessions/{session_id}/order").json()
    assert order["status"] == "confirmed" and order["total_cents"] == 2175
    assert [event for _, event, _ in kiosk_events] == ["PaymentRequested", "PaymentSucceeded"]

    delivered = _deliveries(receiver, secret)
    assert set(delivered) == {"payment.captured", "order.created", "session.ended"}
    created = delivered["order.created"]["data"]
    assert created["total"] == 21.75 and created["items_count"] == 2 and created["status"] == "confirmed"
    assert created["items"] == [{"name": "Burger", "quantity": 2, "options": []}]
    assert created["agent_name"] == agent.name and created["kiosk_name"] == kiosk.name
    captured = delivered["payment.captured"]["data"]
    assert captured["order_id"] == created["order_id"]
    ended = delivered["session.ended"]["data"]
    assert ended["agent_id"] == agent.pk and ended["session_public_id"] == session_id
