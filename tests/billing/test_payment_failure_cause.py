"""The agent's side of a card not taken: a failed card's cause, as the processor gives it
(decline_code, else code), is kept on the payment and read by the agent with the session, so the
dashboard can say what happened instead of "declined" for every failure."""

import pytest
from django.test import Client

from apps.billing.models import Payment
from tests.support.payments import intent_event, post_event


@pytest.fixture
def paying(agent_client, cart_session, processor, billing, kiosk_events):
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    return Payment.objects.get()


def failed(payment, error: dict):
    event = intent_event("payment_intent.payment_failed", payment)
    event["data"]["object"]["last_payment_error"] = error
    return event


def test_before_any_card_the_agent_reads_a_payment_waiting(agent_client, paying, cart_session):
    body = agent_client.get(f"/api/sessions/{cart_session.public_id}").json()
    assert body["payment"] == {
        "status": "requires_payment_method",
        "failure_code": "",
        "failure_message": "",
        "method": "card",
        "reader": None,
    }


@pytest.mark.parametrize(
    ("error", "cause"),
    [
        (
            {
                "code": "card_declined",
                "decline_code": "insufficient_funds",
                "message": "Your card has insufficient funds.",
            },
            "insufficient_funds",
        ),
        ({"code": "processing_error", "message": "An error occurred while processing your card."}, "processing_error"),
        ({"code": "expired_card", "message": "Your card has expired."}, "expired_card"),
        ({"message": "Declined."}, ""),
    ],
)
def test_the_agent_reads_why_the_card_failed(
    agent_client, kiosk_client, paying, cart_session, kiosk_events, error, cause
):
    response = post_event(Client(), failed(paying, error))
    assert response.status_code == 200 and response.json()["outcome"] == "order failed"
    paying.refresh_from_db()
    assert (paying.status, paying.failure_code, paying.failure_message) == ("failed", cause, error["message"])
    for path in (f"/api/sessions/{cart_session.public_id}", "/api/sessions/current"):
        body = agent_client.get(path).json()
        assert body["payment"] == {
            "status": "failed",
            "failure_code": cause,
            "failure_message": error["message"],
            "method": "card",
            "reader": None,
        }
        assert body["order"]["status"] == "failed"
    # The kiosk reads the same cause: in PaymentFailed and the payment body (a field added to the card's body)
    [sent] = [data for _, name, data in kiosk_events if name == "PaymentFailed"]
    assert sent == {"session_id": cart_session.public_id, "message": error["message"], "failure_code": cause}
    kiosk_body = kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/payment").json()
    assert (kiosk_body["status"], kiosk_body["failure_code"], kiosk_body["method"]) == ("failed", cause, "card")
    assert kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/status").json()["payment"] == {
        "method": "card",
        "reader": None,
        "failure_code": cause,
    }


def test_an_oversized_or_mistyped_cause_is_refused_and_nothing_is_recorded(paying):
    response = post_event(Client(), failed(paying, {"code": "x" * 61, "message": "no"}))
    assert response.status_code == 400
    response = post_event(Client(), failed(paying, {"decline_code": 7, "message": "no"}))
    assert response.status_code == 400
    paying.refresh_from_db()
    assert (paying.status, paying.failure_code) == ("requires_payment_method", "")
