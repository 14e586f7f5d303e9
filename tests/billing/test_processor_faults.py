"""A processor that refuses, breaks or does not answer in time: send to payment, cancel payment,
ending a session in payment and refunds each answer a clear 502 PROCESSOR_ERROR or 503
PROCESSOR_UNAVAILABLE and leave every row exactly as it was (session, agent, order, payments,
refunds, no reservation left, no event, no webhook delivery), broadcast nothing, and a retry
sends the same Idempotency-Key. Calls are bounded by PROCESSOR_TIMEOUT (short here)."""

import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from apps.accounts.actors import user_actor
from apps.billing.models import Payment, ProcessorCall, Refund
from apps.billing.services import refunds
from apps.core.errors import DomainError
from apps.orders.models import Order
from apps.sessions.models import Session
from apps.webhooks.models import WebhookDelivery
from tests import factories
from tests.support.payments import SLOW_ANSWER, intent_event, payment_rows, post_event


def send(client, session):
    return client.post(f"/api/sessions/{session.public_id}/payment")


def cancel(client, session):
    return client.post(f"/api/sessions/{session.public_id}/payment/cancel")


def end(client, session):
    return client.post(f"/api/sessions/{session.public_id}/end", {"reason": "customer_abandoned"})


def error_code(response, status: int) -> str:
    assert response.status_code == status, response.content
    return response.json()["error"]["code"]


@pytest.fixture(autouse=True)
def subscribed(owner, receiver):
    """A webhook receiver for every event: a change that emitted one would leave a delivery row."""
    from apps.core.events import EVENT_NAMES
    from apps.webhooks.services import subscription_create

    return subscription_create(owner=owner, url=receiver.url, events=list(EVENT_NAMES))[0]


@pytest.fixture
def in_payment(agent_client, cart_session, quick_processor, billing, broadcasts):
    """The cart session, sent to payment successfully; the broadcasts so far are forgotten."""
    assert send(agent_client, cart_session).status_code == 200
    broadcasts.clear()
    return cart_session


# Each agent-side operation: (name, the call, the processor path it uses, the session fixture).
OPERATIONS = {
    "send": (send, lambda payment: "/v1/payment_intents", "cart_session"),
    "cancel": (cancel, lambda payment: f"/v1/payment_intents/{payment.intent_id}/cancel", "in_payment"),
    "end": (end, lambda payment: f"/v1/payment_intents/{payment.intent_id}/cancel", "in_payment"),
}


@pytest.fixture(params=list(OPERATIONS))
def operation(request, quick_processor, billing, broadcasts):
    act, path_of, session_fixture = OPERATIONS[request.param]
    session = request.getfixturevalue(session_fixture)
    agent_client = request.getfixturevalue("agent_client")
    payment = Payment.objects.filter(order__session=session).first()
    broadcasts.clear()
    return request.param, (lambda: act(agent_client, session)), path_of(payment), session


@pytest.mark.parametrize(
    ("status", "code"),
    [(402, "PROCESSOR_ERROR"), (400, "PROCESSOR_ERROR"), (500, "PROCESSOR_UNAVAILABLE")],
)
def test_a_refusal_or_an_error_changes_nothing(operation, quick_processor, broadcasts, status, code):
    name, act, path, session = operation
    before = payment_rows(session)
    quick_processor.fail(status, times=2, message="Stand-in says no")  # 5xx is retried once
    response = act()
    assert error_code(response, 502 if code == "PROCESSOR_ERROR" else 503) == code
    if code == "PROCESSOR_ERROR":
        assert "Stand-in says no" in response.json()["error"]["message"]
    else:
        assert response["Retry-After"]
    assert payment_rows(session) == before
    assert broadcasts == []
    calls = quick_processor.calls_to(path)
    assert len(calls) == (2 if status == 500 else 1)
    assert len({call.headers["Idempotency-Key"] for call in calls}) == 1


def test_no_answer_in_time_is_503_and_changes_nothing(operation, quick_processor, broadcasts):
    name, act, path, session = operation
    before = payment_rows(session)
    quick_processor.delay_seconds = SLOW_ANSWER
    started = time.monotonic()
    response = act()
    elapsed = time.monotonic() - started
    assert error_code(response, 503) == "PROCESSOR_UNAVAILABLE"
    assert "did not answer in time" in response.json()["error"]["message"]
    # Two attempts of 0.3 s and the library's backoff, not the library's default 80 s each.
    assert elapsed < 2 * SLOW_ANSWER, elapsed
    assert payment_rows(session) == before
    assert broadcasts == []
    calls = quick_processor.calls_to(path)
    assert len(calls) == 2 and len({call.headers["Idempotency-Key"] for call in calls}) == 1


def test_the_retry_after_a_timeout_sends_the_same_key_and_gets_what_the_processor_did(
    operation, quick_processor, broadcasts
):
    """The stand-in carried out the timed-out call (only its answer was lost): the retry sends
    the same Idempotency-Key, so the processor answers with that result and nothing is doubled."""
    name, act, path, session = operation
    quick_processor.delay_seconds = SLOW_ANSWER
    assert act().status_code == 503
    quick_processor.delay_seconds = 0
    response = act()
    assert response.status_code == 200, response.content
    calls = quick_processor.calls_to(path)
    assert len(calls) == 3 and len({call.headers["Idempotency-Key"] for call in calls}) == 1
    assert not ProcessorCall.objects.exists()
    status = Session.objects.get(pk=session.pk).status
    assert status == {"send": "payment", "cancel": "active", "end": "abandoned"}[name]
    if name == "send":
        assert len(quick_processor.intents) == 1 and Payment.objects.get().intent_id in quick_processor.intents
        assert [event for _, event, _ in broadcasts if event == "PaymentRequested"] == ["PaymentRequested"]
    else:
        assert Payment.objects.get().status == "canceled"
    if name == "end":  # the subscription does listen: the successful end left its delivery
        assert WebhookDelivery.objects.filter(event__name="session.ended").exists()


def test_a_retry_after_a_refusal_sends_the_same_key(operation, quick_processor, broadcasts):
    name, act, path, session = operation
    quick_processor.fail(402)
    assert act().status_code == 502
    assert act().status_code == 200
    calls = quick_processor.calls_to(path)
    assert len(calls) == 2 and calls[0].headers["Idempotency-Key"] == calls[1].headers["Idempotency-Key"]


def test_a_cart_changed_after_a_failed_send_gets_its_own_key(agent_client, cart_session, quick_processor, billing):
    """The key names the amount: a retry for a different total is a different request (it would
    otherwise be refused by the processor as a key reused with other parameters)."""
    from apps.orders import services as order_services

    quick_processor.fail(402)
    assert send(agent_client, cart_session).status_code == 502
    line = Order.objects.get().lines.get()
    order_services.cart_replace(
        agent=cart_session.agent,
        session_public_id=cart_session.public_id,
        lines=[{"menu_item_id": str(line.menu_item_id), "quantity": 1, "modifier_option_ids": [], "notes": ""}],
    )
    assert send(agent_client, cart_session).status_code == 200
    first, second = quick_processor.calls_to("/v1/payment_intents")
    assert first.headers["Idempotency-Key"] != second.headers["Idempotency-Key"]
    assert second.params["amount"] == str(Payment.objects.get().amount_cents) == "1088"


def test_a_reservation_left_by_a_crashed_process_expires(agent_client, cart_session, quick_processor, billing):
    """A live reservation answers 409 PROCESSOR_CALL_IN_PROGRESS with Retry-After; once past its
    expiry (the longest a call can take) the next attempt goes ahead."""
    order = Order.objects.get(session=cart_session)
    crashed = factories.ProcessorCallFactory(
        order=order, action="send_to_payment", idempotency_key="k", expires_at=timezone.now() + timedelta(seconds=9)
    )
    response = send(agent_client, cart_session)
    assert error_code(response, 409) == "PROCESSOR_CALL_IN_PROGRESS"
    assert int(response["Retry-After"]) >= 1 and response.json()["error"]["details"]["action"] == "send_to_payment"
    assert quick_processor.calls == []
    crashed.expires_at = timezone.now() - timedelta(seconds=1)
    crashed.save()
    assert send(agent_client, cart_session).status_code == 200
    assert not ProcessorCall.objects.exists()


# Refunds: the owner panel's page and the service (the owner API's path: tests/owner_api).


@pytest.fixture
def paid_session(agent_client, cart_session, quick_processor, billing, broadcasts):
    send(agent_client, cart_session)
    post_event(Client(), intent_event("payment_intent.succeeded", Payment.objects.get()))
    assert Order.objects.get().status == "confirmed"
    broadcasts.clear()
    return cart_session


@pytest.fixture
def manager_client(owner):
    client = Client()
    client.force_login(factories.PanelUserFactory(owner=owner, panel_role="manager"))
    return client


def panel_refund(client, order_id: int, **fields):
    return client.post(f"/panel/orders/{order_id}/refund", {"confirm": "on", **fields}, follow=True)


@pytest.mark.parametrize(
    ("fault", "message"),
    [("402", "The payment processor refused"), ("500", "did not answer in time"), ("slow", "did not answer in time")],
)
def test_a_failed_refund_from_the_panel_changes_nothing(
    paid_session, manager_client, quick_processor, broadcasts, fault, message
):
    order = Order.objects.get()
    before = payment_rows(paid_session)
    if fault == "slow":
        quick_processor.delay_seconds = SLOW_ANSWER
    else:
        quick_processor.fail(int(fault), times=2 if fault == "500" else 1)  # 5xx is retried once
    response = panel_refund(manager_client, order.pk, reason="cold fries")
    assert response.status_code == 200
    assert any(message in str(m) for m in response.context["messages"]), list(response.context["messages"])
    assert payment_rows(paid_session) == before and broadcasts == []
    quick_processor.delay_seconds = 0
    response = panel_refund(manager_client, order.pk, reason="cold fries")
    assert Order.objects.get().status == "refunded" and Refund.objects.get().amount_cents == 2175
    assert WebhookDelivery.objects.count() > before["deliveries"]  # order.status_changed: refunded
    keys = {call.headers["Idempotency-Key"] for call in quick_processor.calls_to("/v1/refunds")}
    assert keys == {f"refund-{order.pk}-1"}
    assert len({call.params["amount"] for call in quick_processor.calls_to("/v1/refunds")}) == 1


def test_a_refund_while_another_is_with_the_processor_is_409(paid_session, quick_processor, owner):
    order = Order.objects.get()
    factories.ProcessorCallFactory(
        order=order, action="refund", idempotency_key="k", expires_at=timezone.now() + timedelta(seconds=30)
    )
    with pytest.raises(DomainError) as busy:
        refunds.refund_order(
            order_id=order.pk, actor=user_actor(factories.PanelUserFactory(owner=owner)), amount_cents=100
        )
    assert busy.value.code == "PROCESSOR_CALL_IN_PROGRESS" and busy.value.status == 409
    assert quick_processor.calls_to("/v1/refunds") == [] and not Refund.objects.exists()
