"""`payment_intent.succeeded` is checked against the payment before an order is confirmed: the
event's account, amount and currency must be the payment's, and the processor itself (the real
`stripe` library against the stand-in) must say the intent succeeded for that amount. A signed event
dated in the future beyond a small tolerance is refused."""

import time

import pytest
from django.test import Client

from apps.billing.models import Payment, ProcessorEvent
from apps.core.models import DomainEvent
from apps.orders.models import Order
from tests.support.payments import intent_event, post_event


@pytest.fixture
def paying(agent_client, cart_session, processor, billing, kiosk_events) -> Payment:
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    return Payment.objects.get()


def nothing_confirmed() -> bool:
    return (
        Order.objects.get().status == "awaiting_payment"
        and not DomainEvent.objects.filter(name="order.created").exists()
    )


def test_a_signed_event_with_another_amount_and_currency_for_an_unpaid_intent_confirms_nothing(paying, processor):
    # The audit: an order of 2175 cents confirmed by a signed event for 1 cent, the intent unpaid.
    forged = intent_event("payment_intent.succeeded", paying, {"amount": 1, "currency": "eur"}, charged=False)
    response = post_event(Client(), forged)
    assert response.status_code == 200
    assert response.json()["outcome"].startswith("refused: the intent is for 1 cents")
    assert nothing_confirmed()
    assert ProcessorEvent.objects.get().outcome.startswith("refused")
    paying.refresh_from_db()
    assert paying.status == "requires_payment_method"


def test_an_event_in_another_currency_is_refused(paying, processor):
    response = post_event(Client(), intent_event("payment_intent.succeeded", paying, {"currency": "eur"}))
    assert response.json()["outcome"] == "refused: the intent is in 'eur', the payment in 'usd'"
    assert nothing_confirmed()


def test_an_event_from_another_connected_account_is_refused(paying, processor):
    event = intent_event("payment_intent.succeeded", paying)
    event["account"] = "acct_someone_else"
    response = post_event(Client(), event)
    assert response.json()["outcome"].startswith("refused: the intent is on account 'acct_someone_else'")
    assert nothing_confirmed()


def test_a_matching_event_for_an_intent_the_processor_says_is_unpaid_is_refused(paying, processor):
    response = post_event(Client(), intent_event("payment_intent.succeeded", paying, charged=False))
    assert response.json()["outcome"] == "refused: the processor says the intent is requires_payment_method"
    assert nothing_confirmed()
    [lookup] = [call for call in processor.calls if call.method == "GET"]
    assert lookup.path == f"/v1/payment_intents/{paying.intent_id}"
    assert lookup.headers["Stripe-Account"] == paying.account_id


def test_an_intent_the_processor_holds_for_another_amount_is_refused(paying, processor):
    processor.succeed(paying.intent_id)
    processor.intents[paying.intent_id]["amount"] = 1
    response = post_event(Client(), intent_event("payment_intent.succeeded", paying, charged=False))
    assert response.json()["outcome"] == "refused: the intent is for 1 cents, the payment for 2175"
    assert nothing_confirmed()


def test_an_intent_the_processor_does_not_know_is_refused(db, processor, billing):
    from tests import factories

    payment = factories.PaymentFactory(account_id=billing.account_id, order__status="awaiting_payment")
    response = post_event(Client(), intent_event("payment_intent.succeeded", payment, charged=False))
    assert response.status_code == 200
    assert response.json()["outcome"].startswith("refused: the processor does not confirm it")
    payment.refresh_from_db()
    assert payment.status == "requires_payment_method"


def test_a_processor_that_does_not_answer_gets_503_and_the_redelivery_confirms(paying, processor):
    event = intent_event("payment_intent.succeeded", paying)
    processor.fail(503, times=5)
    response = post_event(Client(), event)
    assert response.status_code == 503 and response.json()["error"]["code"] == "PROCESSOR_UNAVAILABLE"
    assert not ProcessorEvent.objects.exists()  # not recorded: the processor redelivers it
    assert nothing_confirmed()
    processor.failures.clear()
    assert post_event(Client(), event).json()["outcome"] == "order confirmed"
    assert Order.objects.get().status == "confirmed"


def test_the_genuine_event_confirms_after_a_forged_one_was_refused(paying, processor):
    post_event(Client(), intent_event("payment_intent.succeeded", paying, {"amount": 1}, charged=False))
    assert post_event(Client(), intent_event("payment_intent.succeeded", paying)).json()["outcome"] == (
        "order confirmed"
    )
    assert DomainEvent.objects.filter(name="order.created").count() == 1


def test_a_redelivered_event_is_answered_without_asking_the_processor_again(paying, processor):
    event = intent_event("payment_intent.succeeded", paying)
    assert post_event(Client(), event).json()["outcome"] == "order confirmed"
    asked = len(processor.calls)
    assert post_event(Client(), event).json()["outcome"] == "duplicate"
    assert len(processor.calls) == asked


def test_signatures_dated_in_the_future_beyond_the_tolerance_are_refused(paying, processor, settings):
    settings.PROCESSOR_WEBHOOK_FUTURE_TOLERANCE = 30
    event = intent_event("payment_intent.succeeded", paying)
    response = post_event(Client(), event, timestamp=int(time.time()) + 3600)
    assert response.status_code == 400 and response.json()["error"]["code"] == "INVALID_SIGNATURE"
    assert not ProcessorEvent.objects.exists() and nothing_confirmed()
    # A clock a few seconds ahead is tolerated.
    assert post_event(Client(), event, timestamp=int(time.time()) + 10).json()["outcome"] == "order confirmed"
