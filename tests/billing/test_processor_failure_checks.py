"""`payment_intent.payment_failed` is checked as `succeeded` is (apps/billing/services/
processor_events.py): an event naming another connected account, amount or currency fails a
payment only if the processor's own record (the real `stripe` library against the stand-in) says
the card failed, and then with the processor's error, never the event's text. The audit: a signed
event from another account marked the victim's payment failed and put the attacker's text on the
victim's kiosk."""

import pytest
from django.test import Client

from apps.billing.models import Payment, ProcessorEvent
from apps.orders.models import Order
from tests.support.payments import intent_event, post_event

ATTACKER_TEXT = "Card blocked: call +1 555 0100 to pay by phone"


@pytest.fixture
def paying(agent_client, cart_session, processor, billing, kiosk_events) -> Payment:
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    return Payment.objects.get()


def failed_event(payment: Payment, fields: dict | None = None, *, account: str | None = None) -> dict:
    event = intent_event("payment_intent.payment_failed", payment, fields)
    event["data"]["object"]["last_payment_error"] = {"code": "card_declined", "message": ATTACKER_TEXT}
    if account is not None:
        event["account"] = account
    return event


def failures_told(kiosk_events) -> list[dict]:
    return [data for _channels, name, data in kiosk_events if name == "PaymentFailed"]


def unchanged(payment: Payment) -> bool:
    payment.refresh_from_db()
    return payment.status == "requires_payment_method" and Order.objects.get().status == "awaiting_payment"


def test_an_event_from_another_account_for_an_intent_nobody_tried_fails_nothing(paying, processor, kiosk_events):
    response = post_event(Client(), failed_event(paying, account="acct_attacker"))
    assert response.status_code == 200
    assert response.json()["outcome"] == (
        "refused: the intent is on account 'acct_attacker', the payment on 'acct_demo123', "
        "and the processor says the intent is requires_payment_method with no card error"
    )
    assert ProcessorEvent.objects.get().outcome.startswith("refused")
    assert unchanged(paying) and failures_told(kiosk_events) == []
    [lookup] = [call for call in processor.calls if call.method == "GET"]
    assert lookup.path == f"/v1/payment_intents/{paying.intent_id}"
    assert lookup.headers["Stripe-Account"] == paying.account_id  # the payment's account, not the event's


@pytest.mark.parametrize("fields", [{"amount": 1}, {"currency": "eur"}])
def test_an_event_for_another_amount_or_currency_fails_nothing(paying, processor, kiosk_events, fields):
    response = post_event(Client(), failed_event(paying, fields))
    assert response.json()["outcome"].startswith("refused: the intent is ")
    assert unchanged(paying) and failures_told(kiosk_events) == []


def test_a_platform_event_for_an_intent_the_processor_says_succeeded_fails_nothing(paying, processor, kiosk_events):
    processor.succeed(paying.intent_id)
    event = failed_event(paying)
    event.pop("account")
    response = post_event(Client(), event, connect=False)
    assert response.json()["outcome"].endswith("and the processor says the intent is succeeded with no card error")
    assert unchanged(paying) and failures_told(kiosk_events) == []


def test_an_intent_the_processor_does_not_know_fails_nothing(paying, processor, kiosk_events):
    processor.intents.pop(paying.intent_id)
    response = post_event(Client(), failed_event(paying, account="acct_attacker"))
    assert response.status_code == 200
    assert "the processor does not confirm it" in response.json()["outcome"]
    assert unchanged(paying) and failures_told(kiosk_events) == []


def test_a_mismatched_event_for_a_card_the_processor_says_failed_shows_the_processors_error(
    paying, processor, kiosk_events, agent_client, cart_session
):
    processor.decline(paying.intent_id, "Your card was declined.")
    response = post_event(Client(), failed_event(paying, account="acct_attacker"))
    assert response.json()["outcome"] == "order failed"
    paying.refresh_from_db()
    assert (paying.status, paying.failure_code, paying.failure_message) == (
        "failed",
        "card_declined",
        "Your card was declined.",
    )
    assert [told["message"] for told in failures_told(kiosk_events)] == ["Your card was declined."]
    body = agent_client.get(f"/api/sessions/{cart_session.public_id}").json()
    assert ATTACKER_TEXT not in str(body) and body["payment"]["failure_message"] == "Your card was declined."


def test_the_payments_own_event_is_applied_as_it_says_without_asking_the_processor(paying, processor, kiosk_events):
    asked = len(processor.calls)
    response = post_event(Client(), failed_event(paying))
    assert response.json()["outcome"] == "order failed"
    paying.refresh_from_db()
    assert paying.status == "failed" and paying.failure_message == ATTACKER_TEXT  # its own account's words
    assert len(processor.calls) == asked
    assert [told["message"] for told in failures_told(kiosk_events)] == [ATTACKER_TEXT]
