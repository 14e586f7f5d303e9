"""The reader refuses the payment when it is first handed to it (offline, or busy with another
payment), with the real `stripe` library against the demo processor: without the owner's leave the
send is refused in words with a retry and nothing is recorded; where the owner allows the card
fields, the same send makes a card payment instead, the reader's intent is cancelled, the kiosk is
told why, and the order is paid once."""

import pytest

from apps.billing.models import Payment, ProcessorCall
from apps.demo_processor import services as demo_processor
from apps.demo_processor import terminal as demo_terminal
from apps.demo_processor.models import DemoPaymentIntent
from apps.orders import fulfilment
from apps.orders.models import Order
from tests.billing.test_reader_payments import (
    ACCOUNT,
    APPROVED,
    allow_card_fields,
    held_intent,
    order_created_count,
    send_to_payment,
)
from tests.support.auth import error_of


def payment_body(kiosk_client, session) -> dict:
    return kiosk_client.get(f"/api/public/sessions/{session.public_id}/payment").json()


def busy_with_another_payment(reader) -> str:
    """The reader holds a payment that is not this session's (another till's, left on it)."""
    from apps.billing import processor

    other = processor.client().v1.payment_intents.create(
        params={"amount": 500, "currency": "usd", "payment_method_types": ["card_present"]},
        options={"stripe_account": ACCOUNT},
    )
    processor.client().v1.terminal.readers.process_payment_intent(
        reader.reader_id, params={"payment_intent": other.id}, options={"stripe_account": ACCOUNT}
    )
    return other.id


@pytest.mark.parametrize("refusal", ["READER_OFFLINE", "READER_BUSY"])
def test_without_the_owners_leave_the_send_is_refused_in_words_and_a_retry_pays(
    agent_client, cart_session, reader, on_commit, refusal
):
    other = None
    if refusal == "READER_OFFLINE":
        demo_terminal.reader_set_status(reader.reader_id, online=False)
    else:
        other = busy_with_another_payment(reader)
    response = send_to_payment(agent_client, cart_session)
    error = error_of(response, 409, refusal)
    assert error["message"].endswith("try again.") or error["message"].endswith("try again in a moment.")
    assert response.headers["Retry-After"] == "5"
    cart_session.refresh_from_db()
    assert cart_session.status == "active" and not Payment.objects.exists() and not ProcessorCall.objects.exists()
    assert Order.objects.get(session=cart_session).status == "draft"
    if other is None:
        demo_terminal.reader_set_status(reader.reader_id, online=True)
    else:
        demo_terminal.reader_cancel_action(account_id=ACCOUNT, reader_id=reader.reader_id)
    assert on_commit(send_to_payment, agent_client, cart_session).status_code == 200
    payment = Payment.objects.get()
    assert payment.method == "card_present" and held_intent(reader) == payment.intent_id


@pytest.mark.parametrize("refusal", ["offline", "busy"])
def test_where_the_owner_allows_it_the_first_send_pays_with_the_card_fields_once(
    agent_client, cart_session, kiosk, kiosk_client, reader, kiosk_events, on_commit, refusal
):
    allow_card_fields(kiosk)
    if refusal == "offline":
        demo_terminal.reader_set_status(reader.reader_id, online=False)
        other = None
    else:
        other = busy_with_another_payment(reader)
    response = on_commit(send_to_payment, agent_client, cart_session)
    assert response.status_code == 200, response.content
    cart_session.refresh_from_db()
    assert cart_session.status == "payment"
    card = Payment.objects.get()
    assert (card.method, card.reader_id, card.amount_cents) == ("card", None, 2175)
    # The reader's intent, never handed to anyone, is cancelled: one payable intent for the order.
    reader_intents = DemoPaymentIntent.objects.filter(payment_method_types=["card_present"]).exclude(intent_id=other)
    assert [intent.status for intent in reader_intents] == ["canceled"]
    assert DemoPaymentIntent.objects.get(intent_id=card.intent_id).payment_method_types == ["card"]
    body = payment_body(kiosk_client, cart_session)
    assert (body["method"], body["reader"], body["instead_of_reader"]) == ("card", None, True)
    [requested] = [data for _, event, data in kiosk_events if event == "PaymentRequested"]
    assert (requested["method"], requested["client_secret"]) == ("card", card.client_secret)
    if other is not None:
        assert held_intent(reader) == other  # the other payment is left alone
    status, _ = on_commit(
        demo_processor.confirm, intent_id=card.intent_id, client_secret=card.client_secret, card_number=APPROVED
    )
    assert status == 200
    assert Order.objects.get(session=cart_session).status == "confirmed"
    assert order_created_count() == 1
    # A send repeated after it went through answers the same payment.
    cart_session.refresh_from_db()
    assert cart_session.status == "completed"


def test_a_customer_alone_gets_the_card_fields_where_the_owner_allows_it(alone, kiosk, kiosk_client, reader, on_commit):
    allow_card_fields(kiosk)
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    response = on_commit(kiosk_client.post, f"/api/public/sessions/{alone.public_id}/payment")
    assert response.status_code == 200, response.content
    payment = response.json()["payment"]
    assert (payment["method"], payment["instead_of_reader"], payment["card_fields_fallback"]) == ("card", True, False)


def test_a_customer_alone_is_refused_in_words_without_the_owners_leave(alone, kiosk_client, reader, on_commit):
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    error = error_of(kiosk_client.post(f"/api/public/sessions/{alone.public_id}/payment"), 409, "READER_OFFLINE")
    assert "offline" in error["message"]
    alone.refresh_from_db()
    assert alone.status == "pending" and not Payment.objects.exists()


def test_a_reader_payment_is_not_said_to_stand_in_for_anything(
    agent_client, cart_session, kiosk, kiosk_client, reader, on_commit
):
    allow_card_fields(kiosk)
    assert on_commit(send_to_payment, agent_client, cart_session).status_code == 200
    body = payment_body(kiosk_client, cart_session)
    assert (body["method"], body["instead_of_reader"], body["card_fields_fallback"]) == ("card_present", False, True)


def test_a_fallback_cut_short_is_finished_by_the_retry_with_the_same_card_intent(
    agent_client, cart_session, kiosk, reader, on_commit, monkeypatch
):
    """The card intent was made but the send failed before recording it: the retry, with the reader
    back online, finds its reader intent cancelled and goes on to the same card intent."""
    allow_card_fields(kiosk)
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    move = fulfilment.move

    def fail_once(order, status):
        monkeypatch.setattr(fulfilment, "move", move)
        raise RuntimeError("the process died here")

    monkeypatch.setattr(fulfilment, "move", fail_once)
    assert send_to_payment(agent_client, cart_session).status_code == 500  # the crash, as the client sees it
    assert not Payment.objects.exists() and not ProcessorCall.objects.exists()
    [first_card] = DemoPaymentIntent.objects.filter(payment_method_types=["card"])
    demo_terminal.reader_set_status(reader.reader_id, online=True)
    assert on_commit(send_to_payment, agent_client, cart_session).status_code == 200
    payment = Payment.objects.get()
    assert (payment.method, payment.intent_id) == ("card", first_card.intent_id)
    assert DemoPaymentIntent.objects.count() == 2  # one reader intent (cancelled), one card intent
    assert held_intent(reader) is None
