"""The demo processor's page of a simulated reader: the page, its state (the amount it asks for
while it holds a payment, then succeeded or failed) and its demo cards, presented through the test
helper's path: approved confirms the order once, declined and insufficient funds fail the payment
and the same intent goes back to the reader, a card removed too early fails the reader's action
only (no card read, the payment untouched) and the reader asks again."""

import pytest

from apps.billing.models import CardReader
from apps.core.models import DomainEvent
from apps.demo_processor.models import DemoPaymentIntent, DemoReader
from apps.orders.models import Order


def url(reader: CardReader, tail: str = "") -> str:
    return f"/demo-processor/readers/{reader.reader_id}/{tail}"


def present(client, demo_reader, card, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return client.post(url(demo_reader, "present"), {"card": card}, headers={"Accept": "application/json"})


def held(reader: CardReader) -> str | None:
    action = DemoReader.objects.get(reader_id=reader.reader_id).action or {}
    return action["process_payment_intent"]["payment_intent"] if action.get("status") == "in_progress" else None


def test_the_page_and_the_state_of_an_idle_reader(client, demo_reader):
    page = client.get(url(demo_reader))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Counter" in html and 'data-state-url="' + url(demo_reader, "state") + '"' in html
    for card in ("approved", "declined", "insufficient_funds", "removed_too_early"):
        assert f'data-card="{card}"' in html
    state = client.get(url(demo_reader, "state"))
    assert state.status_code == 200 and state.headers["Cache-Control"] == "no-store"
    assert state.json() == {"id": demo_reader.reader_id, "label": "Counter", "status": "online", "action": None}


def test_an_unknown_reader_is_404_in_the_processors_shape(client, db):
    for path in ("/demo-processor/readers/tmr_nope/", "/demo-processor/readers/tmr_nope/state"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["error"]["code"] == "resource_missing"
    response = client.post(
        "/demo-processor/readers/tmr_nope/present", {"card": "approved"}, headers={"Accept": "application/json"}
    )
    assert response.status_code == 404


def test_a_reader_holding_a_payment_shows_its_amount(client, paying_on_reader, demo_reader):
    action = client.get(url(demo_reader, "state")).json()["action"]
    assert action == {
        "status": "in_progress",
        "payment_intent": paying_on_reader.intent_id,
        "amount": 2175,
        "currency": "usd",
        "failure_code": None,
        "failure_message": None,
    }


def test_approved_confirms_the_order_once(
    client, paying_on_reader, demo_reader, cart_session, django_capture_on_commit_callbacks
):
    response = present(client, demo_reader, "approved", django_capture_on_commit_callbacks)
    assert response.status_code == 200, response.content
    assert response.json()["action"]["status"] == "succeeded"
    assert Order.objects.get(session=cart_session).status == "confirmed"
    paying_on_reader.refresh_from_db()
    assert (paying_on_reader.status, paying_on_reader.card_last4) == ("succeeded", "4242")
    assert client.get(url(demo_reader, "state")).json()["action"]["status"] == "succeeded"
    assert DomainEvent.objects.filter(name="order.created").count() == 1
    again = present(client, demo_reader, "approved", django_capture_on_commit_callbacks)
    assert again.status_code == 400 and again.json()["error"]["code"] == "terminal_reader_invalid_action"


@pytest.mark.parametrize(
    ("card", "code"), [("declined", "generic_decline"), ("insufficient_funds", "insufficient_funds")]
)
def test_a_declined_card_fails_the_payment_and_the_reader_asks_again(
    client, paying_on_reader, demo_reader, card, code, django_capture_on_commit_callbacks
):
    response = present(client, demo_reader, card, django_capture_on_commit_callbacks)
    assert response.status_code == 200, response.content
    assert response.json()["action"]["status"] == "failed"
    paying_on_reader.refresh_from_db()
    assert (paying_on_reader.status, paying_on_reader.failure_code) == ("failed", code)
    assert held(demo_reader) == paying_on_reader.intent_id
    assert client.get(url(demo_reader, "state")).json()["action"]["status"] == "in_progress"


def test_a_card_removed_too_early_is_a_read_failure_and_the_reader_asks_again(
    client, paying_on_reader, demo_reader, cart_session, django_capture_on_commit_callbacks
):
    response = present(client, demo_reader, "removed_too_early", django_capture_on_commit_callbacks)
    assert response.status_code == 200, response.content
    action = response.json()["action"]
    assert (action["status"], action["failure_code"]) == ("failed", "card_read_failed")
    assert DemoPaymentIntent.objects.get(intent_id=paying_on_reader.intent_id).status == "requires_payment_method"
    paying_on_reader.refresh_from_db()
    assert paying_on_reader.status != "failed"  # no card was read: the payment did not fail
    stored = CardReader.objects.get(pk=demo_reader.pk)
    assert stored.failure_code in ("", "card_read_failed")  # recorded, then cleared by the hand-back
    assert held(demo_reader) == paying_on_reader.intent_id
    assert present(client, demo_reader, "approved", django_capture_on_commit_callbacks).status_code == 200
    assert Order.objects.get(session=cart_session).status == "confirmed"


def test_refusals(client, demo_reader, django_capture_on_commit_callbacks):
    idle = present(client, demo_reader, "approved", django_capture_on_commit_callbacks)
    assert idle.status_code == 400 and idle.json()["error"]["code"] == "terminal_reader_invalid_action"
    unknown = present(client, demo_reader, "gold", django_capture_on_commit_callbacks)
    assert unknown.status_code == 400 and unknown.json()["error"]["param"] == "card"
    assert client.get(url(demo_reader, "present")).status_code == 405
    assert client.post(url(demo_reader, "state")).status_code == 405


def test_a_form_without_a_script_goes_back_to_the_page(client, paying_on_reader, demo_reader, cart_session):
    response = client.post(url(demo_reader, "present"), {"card": "approved"})
    assert response.status_code == 302 and response.headers["Location"] == url(demo_reader)
    assert Order.objects.get(session=cart_session).status == "confirmed"
