"""Send to payment: a PaymentIntent for the order total on the owner's connected account,
through the real `stripe` library (against the local stand-in), and back to the cart."""

from apps.billing.models import Payment
from apps.orders.models import Order
from apps.sessions.models import Session
from tests.support.payments import ACCOUNT


def send(agent_client, session):
    return agent_client.post(f"/api/sessions/{session.public_id}/payment")


def test_send_to_payment_creates_a_direct_charge_intent(agent_client, cart_session, processor, billing, kiosk_events):
    response = send(agent_client, cart_session)
    assert response.status_code == 200, response.content
    assert response.json() == {
        "session": {"id": cart_session.public_id, "status": "payment"},
        "payment": {"status": "requires_payment_method", "amount_cents": 2175, "currency": "USD"},
    }
    [call] = processor.calls_to("/v1/payment_intents")
    assert call.params["amount"] == "2175" and call.params["currency"] == "usd"
    assert call.headers["Stripe-Account"] == ACCOUNT  # on the owner's account: a direct charge
    assert call.headers["Idempotency-Key"].startswith("order-")
    assert call.headers["Authorization"] == "Bearer sk_test_standin"
    assert not any(key.startswith("application_fee") for key in call.params)  # no platform fee
    payment = Payment.objects.get()
    assert Session.objects.get(pk=cart_session.pk).status == "payment"
    assert Order.objects.get().status == "awaiting_payment"
    [(channels, event, data)] = kiosk_events
    assert channels == [f"private-kiosk.{cart_session.kiosk_id}"] and event == "PaymentRequested"
    assert data["client_secret"] == payment.client_secret and data["amount_cents"] == 2175


def test_kiosk_can_fetch_the_client_secret_without_websocket(
    agent_client, cart_session, processor, billing, kiosk_events, kiosk_client
):
    before = kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/payment")
    assert before.status_code == 409 and before.json()["error"]["code"] == "INVALID_STATE"
    send(agent_client, cart_session)
    body = kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/payment").json()
    assert body["client_secret"] == Payment.objects.get().client_secret
    assert body["processor_account"] == ACCOUNT and body["amount_cents"] == 2175


def test_a_retried_request_makes_no_second_intent(agent_client, cart_session, processor, billing, kiosk_events):
    first = send(agent_client, cart_session).json()
    second = send(agent_client, cart_session)
    assert second.status_code == 200 and second.json() == first
    assert len(processor.calls_to("/v1/payment_intents")) == 1
    assert Payment.objects.count() == 1


def test_cancel_returns_to_the_cart_and_a_new_attempt_gets_a_new_intent(
    agent_client, cart_session, processor, billing, kiosk_events
):
    send(agent_client, cart_session)
    response = agent_client.post(f"/api/sessions/{cart_session.public_id}/payment/cancel")
    assert response.status_code == 200 and response.json()["session"]["status"] == "active"
    intent_id = Payment.objects.get().intent_id
    [cancel] = processor.calls_to(f"/v1/payment_intents/{intent_id}/cancel")
    assert cancel.headers["Stripe-Account"] == ACCOUNT
    assert Payment.objects.get().status == "canceled" and Order.objects.get().status == "draft"
    assert [event for _, event, _ in kiosk_events] == ["PaymentRequested", "PaymentCancelled"]
    send(agent_client, cart_session)
    keys = {call.headers["Idempotency-Key"] for call in processor.calls_to("/v1/payment_intents")}
    assert len(keys) == 2 and Payment.objects.count() == 2


def test_without_processor_keys_the_answer_is_503(agent_client, cart_session, billing, settings):
    settings.PROCESSOR_SECRET_KEY = ""
    response = send(agent_client, cart_session)
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "PROCESSOR_NOT_CONFIGURED"
    assert Session.objects.get(pk=cart_session.pk).status == "active"


def test_owner_who_cannot_take_charges_gets_409(agent_client, cart_session, processor, billing):
    billing.charges_enabled = False
    billing.save()
    response = send(agent_client, cart_session)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "PROCESSOR_ACCOUNT_NOT_READY"
    assert processor.calls == []


def test_empty_cart_cannot_go_to_payment(agent_client, agent, kiosk, processor, billing):
    from apps.sessions import services as session_services
    from tests import factories

    session = session_services.session_accept(public_id=factories.SessionFactory(kiosk=kiosk).public_id, agent=agent)
    response = send(agent_client, session)
    assert response.status_code == 409 and response.json()["error"]["code"] == "ORDER_EMPTY"


def test_processor_refusal_is_a_clean_502_and_nothing_moves(agent_client, cart_session, processor, billing):
    processor.fail_next = {"type": "invalid_request_error", "message": "No such account"}
    response = send(agent_client, cart_session)
    assert response.status_code == 502
    assert response.json()["error"]["code"] == "PROCESSOR_ERROR"
    assert Session.objects.get(pk=cart_session.pk).status == "active" and not Payment.objects.exists()


def test_only_the_accepting_agent_sends_to_payment(cart_session, processor, billing, owner, other_business):
    from tests import factories
    from tests.conftest import AgentClient

    colleague, stranger = AgentClient(), AgentClient()
    colleague.sign_in(factories.AgentFactory(owner=owner).email)
    stranger.sign_in(factories.AgentFactory(owner=other_business.owner).email)
    assert send(colleague, cart_session).json()["error"]["code"] == "SESSION_NOT_OWNED"
    assert send(stranger, cart_session).status_code == 404
    assert processor.calls == []


def test_ending_a_session_in_payment_cancels_its_intent(agent_client, cart_session, processor, billing, kiosk_events):
    send(agent_client, cart_session)
    response = agent_client.post(f"/api/sessions/{cart_session.public_id}/end", {"reason": "customer_abandoned"})
    assert response.status_code == 200 and response.json()["session"]["status"] == "abandoned"
    assert Payment.objects.get().status == "canceled"
    assert len([c for c in processor.calls if c.path.endswith("/cancel")]) == 1
