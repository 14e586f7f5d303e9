"""Paying on the kiosk's card reader, with the real `stripe` library against the demo processor in
this process: the intent is card_present and handed to the reader; a tapped card confirms the
order through the one confirm path, once; a declined card puts the same intent back to the
reader; cancel stops the reader; an offline reader is refused with nothing changed; a card
approved after the payment was cancelled is refunded; a lost event is confirmed once by the
sweep."""

from contextlib import contextmanager
from unittest import mock

import pytest
from django.test import Client

from apps.billing import processor, tasks
from apps.billing.models import LATE_SUCCESS_REASON, CardReader, Payment, ProcessorCall, Refund
from apps.billing.services import readers, refunds
from apps.core.errors import DomainError, ErrorCode
from apps.core.models import DomainEvent
from apps.demo_processor import processor_webhooks
from apps.demo_processor import services as demo_processor
from apps.demo_processor import terminal as demo_terminal
from apps.demo_processor.models import DemoPaymentIntent, DemoReader, DemoRefund
from apps.orders.models import Order
from tests import factories
from tests.support.auth import error_of

ACCOUNT = "acct_demo_reader_pay"
APPROVED, DECLINED, NO_FUNDS = "4242424242424242", "4000000000000002", "4000000000009995"


@pytest.fixture
def demo_billing(owner):
    demo_processor.account_open(ACCOUNT)
    return factories.OwnerBillingFactory(owner=owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)


@pytest.fixture
def reader(kiosk, demo_billing) -> CardReader:
    return readers.reader_register(kiosk=kiosk, registration_code="simulated-wpe", label="Counter")


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run after-commit work (jobs, real-time messages) as the test's transaction would commit."""

    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run


def tap(reader: CardReader, number: str):
    """The customer taps a card: the processor's test helper, through the library."""
    return processor.client().v1.test_helpers.terminal.readers.present_payment_method(
        reader.reader_id,
        params={"type": "card_present", "card_present": {"number": number}},
        options={"stripe_account": ACCOUNT},
    )


@contextmanager
def unplugged_once_read(reader: CardReader):
    """The reader goes offline just after it read the card (before the processor's events reach the
    service), so the service's hand-back cannot reach it: an offline reader reads no card."""
    send = processor_webhooks.send

    def unplug_then_send(kind, obj, account):
        demo_terminal.reader_set_status(reader.reader_id, online=False)
        return send(kind, obj, account=account)

    with mock.patch.object(processor_webhooks, "send", unplug_then_send):
        yield


def send_to_payment(agent_client, session):
    return agent_client.post(f"/api/sessions/{session.public_id}/payment")


def held_intent(reader: CardReader) -> str | None:
    action = DemoReader.objects.get(reader_id=reader.reader_id).action
    if not action or action["status"] != "in_progress":
        return None
    return action["process_payment_intent"]["payment_intent"]


def order_created_count() -> int:
    return DomainEvent.objects.filter(name="order.created").count()


@pytest.fixture
def paying(agent_client, cart_session, reader, kiosk_events, on_commit) -> Payment:
    response = on_commit(send_to_payment, agent_client, cart_session)
    assert response.status_code == 200, response.content
    return Payment.objects.get()


def test_the_intent_is_card_present_and_waits_on_the_reader(paying, reader, kiosk_client, cart_session, kiosk_events):
    assert paying.method == "card_present" and paying.reader_id == reader.pk
    intent = DemoPaymentIntent.objects.get(intent_id=paying.intent_id)
    assert (intent.payment_method_types, intent.amount, intent.account_id) == (["card_present"], 2175, ACCOUNT)
    assert held_intent(reader) == paying.intent_id
    body = kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/payment").json()
    assert body["method"] == "card_present" and body["client_secret"] == paying.client_secret
    assert body["reader"] == {
        "label": "Counter",
        "status": "online",
        "action_status": "in_progress",
        "failure_code": "",
    }
    [(_, event, data)] = [sent for sent in kiosk_events if sent[1] == "PaymentRequested"]
    assert data["method"] == "card_present" and data["reader"]["label"] == "Counter"


def test_a_tapped_card_confirms_the_order_once(paying, reader, cart_session, kiosk_events, on_commit):
    on_commit(tap, reader, APPROVED)
    order = Order.objects.get(session=cart_session)
    assert order.status == "confirmed"
    paying.refresh_from_db()
    assert (paying.status, paying.card_brand, paying.card_last4) == ("succeeded", "visa", "4242")
    assert order_created_count() == 1
    assert [event for _, event, _ in kiosk_events].count("PaymentSucceeded") == 1
    reader.refresh_from_db()
    assert (reader.action_status, reader.action_intent_id) == ("succeeded", paying.intent_id)


@pytest.mark.parametrize(("number", "code"), [(DECLINED, "generic_decline"), (NO_FUNDS, "insufficient_funds")])
def test_a_declined_card_goes_back_to_the_reader_then_a_good_card_pays(
    paying, reader, cart_session, kiosk_events, on_commit, number, code
):
    on_commit(tap, reader, number)
    paying.refresh_from_db()
    assert (paying.status, paying.failure_code) == ("failed", code)
    assert Order.objects.get(session=cart_session).status == "failed"
    assert "PaymentFailed" in [event for _, event, _ in kiosk_events]
    assert held_intent(reader) == paying.intent_id  # the same intent, back on the reader
    reader.refresh_from_db()
    assert reader.action_status == "in_progress"
    on_commit(tap, reader, APPROVED)
    assert Order.objects.get(session=cart_session).status == "confirmed"
    assert Payment.objects.count() == 1 and order_created_count() == 1


def test_cancel_stops_the_reader_and_cancels_the_intent(paying, reader, agent_client, cart_session, on_commit):
    response = on_commit(agent_client.post, f"/api/sessions/{cart_session.public_id}/payment/cancel")
    assert response.status_code == 200, response.content
    assert held_intent(reader) is None
    assert DemoPaymentIntent.objects.get(intent_id=paying.intent_id).status == "canceled"
    cart_session.refresh_from_db()
    assert cart_session.status == "active" and Order.objects.get(session=cart_session).status == "draft"
    reader.refresh_from_db()
    assert reader.action_status == "canceled"


def test_an_offline_reader_is_refused_and_nothing_changes_then_a_retry_pays(
    agent_client, cart_session, reader, on_commit
):
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    error = error_of(send_to_payment(agent_client, cart_session), 409, "READER_OFFLINE")
    assert "offline" in error["message"]
    cart_session.refresh_from_db()
    assert cart_session.status == "active" and not Payment.objects.exists() and not ProcessorCall.objects.exists()
    reader.refresh_from_db()
    assert reader.status == "offline"
    demo_terminal.reader_set_status(reader.reader_id, online=True)
    assert on_commit(send_to_payment, agent_client, cart_session).status_code == 200
    assert DemoPaymentIntent.objects.count() == 1  # the retry got the same intent
    assert held_intent(reader) == Payment.objects.get().intent_id


def test_a_card_approved_as_the_payment_is_cancelled_is_refunded_and_makes_no_order(
    paying, reader, agent_client, cart_session, on_commit, monkeypatch
):
    late = []  # the processor's events, still on their way while the agent cancels
    monkeypatch.setattr(processor_webhooks, "send", lambda kind, obj, account: late.append((kind, obj, account)))
    tap(reader, APPROVED)
    monkeypatch.undo()
    response = on_commit(agent_client.post, f"/api/sessions/{cart_session.public_id}/payment/cancel")
    assert response.status_code == 200, response.content
    cart_session.refresh_from_db()
    assert cart_session.status == "active" and Order.objects.get(session=cart_session).status == "draft"
    paying.refresh_from_db()
    assert paying.status == "canceled" and paying.late_success_at is not None
    [refund] = Refund.objects.all()
    assert (refund.amount_cents, refund.reason, refund.payment_id) == (2175, LATE_SUCCESS_REASON, paying.pk)
    assert DemoRefund.objects.get(refund_id=refund.refund_id).amount == 2175
    for kind, obj, account in late:  # the events arrive at last: nothing more happens
        on_commit(processor_webhooks.send, kind, obj, account=account)
    assert Refund.objects.count() == 1 == DemoRefund.objects.count()
    assert order_created_count() == 0
    assert Order.objects.get(session=cart_session).status == "draft"
    assert "kiosk_payments_refunded_late 1.0" in Client().get("/metrics").content.decode()


def test_a_late_refund_the_processor_refused_is_retried_by_the_sweep(
    paying, reader, agent_client, cart_session, on_commit, monkeypatch
):
    monkeypatch.setattr(processor_webhooks, "send", lambda kind, obj, account: None)
    tap(reader, APPROVED)

    def unavailable(payment_id):
        raise DomainError(ErrorCode.PROCESSOR_UNAVAILABLE, "down")

    monkeypatch.setattr(refunds, "refund_late", unavailable)
    with pytest.raises(DomainError):  # the job fails after the cancel committed (sync jobs raise)
        on_commit(agent_client.post, f"/api/sessions/{cart_session.public_id}/payment/cancel")
    monkeypatch.undo()
    assert Payment.objects.get().late_success_at is not None and not Refund.objects.exists()
    assert on_commit(tasks.reconcile_payments) == {}
    assert Refund.objects.get().reason == LATE_SUCCESS_REASON


def test_a_lost_event_is_confirmed_once_by_the_sweep(paying, reader, cart_session, on_commit, monkeypatch, settings):
    lost = []
    monkeypatch.setattr(processor_webhooks, "send", lambda kind, obj, account: lost.append((kind, obj, account)))
    tap(reader, APPROVED)
    monkeypatch.undo()
    settings.PAYMENT_RECONCILE_AFTER_SECONDS = 0
    assert on_commit(tasks.reconcile_payments) == {"confirmed": 1}
    assert Order.objects.get(session=cart_session).status == "confirmed"
    for kind, obj, account in lost:  # redelivered later: already confirmed
        on_commit(processor_webhooks.send, kind, obj, account=account)
    assert order_created_count() == 1
    paying.refresh_from_db()
    assert paying.reconciled_outcome == "confirmed" and paying.card_last4 == "4242"


def test_the_kiosk_status_body_says_how_the_card_is_taken(paying, reader, kiosk_client, cart_session, on_commit):
    from tests.support.schema_conformance import assert_conforms

    url = f"/api/public/sessions/{cart_session.public_id}/status"
    body = kiosk_client.get(url).json()
    assert_conforms(body, "StatusOut")
    assert body["payment"] == {
        "method": "card_present",
        "reader": {"label": "Counter", "status": "online", "action_status": "in_progress", "failure_code": ""},
        "failure_code": "",
    }
    with unplugged_once_read(reader):  # unplugged as the card is declined
        on_commit(tap, reader, DECLINED)
    body = kiosk_client.get(url).json()  # not the copy cached before the reader's report
    assert body["payment"]["reader"] == {
        "label": "Counter",
        "status": "offline",
        "action_status": "failed",
        "failure_code": "card_declined",
    }
    assert body["payment"]["failure_code"] == "generic_decline"
    assert held_intent(reader) is None  # an offline reader cannot be handed the payment again


def test_a_decline_carries_the_processors_cause_to_the_kiosk(
    paying, reader, kiosk_client, cart_session, kiosk_events, on_commit
):
    """The kiosk words the cause from the processor's code (not its English sentence): the payment
    body, the status body's payment and PaymentFailed carry it."""
    from tests.support.schema_conformance import assert_conforms

    on_commit(tap, reader, NO_FUNDS)
    paid = kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/payment").json()
    assert_conforms(paid, "KioskPaymentOut")
    assert (paid["status"], paid["failure_code"]) == ("failed", "insufficient_funds")
    status = kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/status").json()
    assert status["payment"]["failure_code"] == "insufficient_funds"
    assert status["payment"]["reader"]["action_status"] == "in_progress"  # back on the reader
    [failed] = [data for _, event, data in kiosk_events if event == "PaymentFailed"]
    assert failed == {
        "session_id": cart_session.public_id,
        "message": "Your card has insufficient funds.",
        "failure_code": "insufficient_funds",
    }


def test_a_card_the_reader_could_not_read_is_said_by_the_readers_code(
    paying, reader, kiosk_client, cart_session, kiosk_events, on_commit
):
    """No card was read: the payment did not fail; the reader's action carries the cause."""
    url = f"/api/public/sessions/{cart_session.public_id}/status"
    with unplugged_once_read(reader):  # so the hand-back leaves the failure shown
        on_commit(demo_terminal.page_present, reader.reader_id, "removed_too_early")
    body = kiosk_client.get(url).json()
    assert body["payment"]["failure_code"] == ""
    assert (body["payment"]["reader"]["action_status"], body["payment"]["reader"]["failure_code"]) == (
        "failed",
        "card_read_failed",
    )
    assert "PaymentFailed" not in [event for _, event, _ in kiosk_events]


def test_a_kiosk_without_a_reader_pays_with_the_card_fields_as_before(
    agent_client, cart_session, demo_billing, kiosk_client, on_commit
):
    assert on_commit(send_to_payment, agent_client, cart_session).status_code == 200
    payment = Payment.objects.get()
    assert payment.method == "card" and payment.reader_id is None
    assert DemoPaymentIntent.objects.get().payment_method_types == ["card"]
    body = kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/status").json()
    assert body["payment"] == {"method": "card", "reader": None, "failure_code": ""}
    paid = kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/payment").json()
    assert (paid["method"], paid["reader"]) == ("card", None)


def test_ending_the_session_stops_the_reader_and_a_card_approved_meanwhile_is_refunded(
    paying, reader, agent_client, cart_session, on_commit, monkeypatch
):
    """The customer walked away as the card was approved: the session ends, nothing is ordered."""
    late = []
    monkeypatch.setattr(processor_webhooks, "send", lambda kind, obj, account: late.append((kind, obj, account)))
    tap(reader, APPROVED)
    monkeypatch.undo()
    ended = on_commit(
        agent_client.post, f"/api/sessions/{cart_session.public_id}/end", {"reason": "customer_abandoned"}
    )
    assert ended.status_code == 200, ended.content
    cart_session.refresh_from_db()
    assert cart_session.status == "abandoned"
    assert Refund.objects.get().reason == LATE_SUCCESS_REASON
    for kind, obj, account in late:
        on_commit(processor_webhooks.send, kind, obj, account=account)
    assert order_created_count() == 0 and Refund.objects.count() == 1


def test_ending_the_session_while_the_reader_waits_cancels_its_action(
    paying, reader, agent_client, cart_session, on_commit
):
    ended = on_commit(
        agent_client.post, f"/api/sessions/{cart_session.public_id}/end", {"reason": "customer_abandoned"}
    )
    assert ended.status_code == 200, ended.content
    assert held_intent(reader) is None
    assert DemoPaymentIntent.objects.get(intent_id=paying.intent_id).status == "canceled"
    assert not Refund.objects.exists()


def test_reader_events_of_an_unknown_reader_or_older_than_the_last_report_change_nothing(paying, reader, on_commit):
    from apps.billing.services import processor_events
    from tests.support.payments import recorded_event

    unknown = recorded_event("terminal.reader.action_failed", account=ACCOUNT)
    assert processor_events.handle(unknown, endpoint="connect") == "unknown reader"
    stale = recorded_event(
        "terminal.reader.action_failed",
        {"id": reader.reader_id, "status": "offline"},
        created=1_000_000_000,
        account=ACCOUNT,
    )
    assert processor_events.handle(stale, endpoint="connect") == "ignored: older than the last report"
    reader.refresh_from_db()
    assert (reader.status, reader.action_status) == ("online", "in_progress")


@pytest.fixture
def alone(kiosk, kiosk_client, menu_item):
    """A waiting session whose customer put 2 burgers in the cart alone (2175)."""
    session = factories.SessionFactory(kiosk=kiosk)
    line = {"menu_item_id": str(menu_item.pk), "quantity": 2, "modifier_option_ids": [], "notes": ""}
    response = kiosk_client.post(
        f"/api/public/sessions/{session.public_id}/order", {"lines": [line]}, "application/json"
    )
    assert response.status_code == 200, response.content
    return session


def test_a_customer_alone_pays_on_the_reader_and_may_take_the_payment_back(alone, reader, kiosk_client, on_commit):
    sent = on_commit(kiosk_client.post, f"/api/public/sessions/{alone.public_id}/payment")
    assert sent.status_code == 200, sent.content
    assert sent.json()["payment"]["method"] == "card_present"
    first = Payment.objects.get()
    assert held_intent(reader) == first.intent_id
    back = on_commit(kiosk_client.post, f"/api/public/sessions/{alone.public_id}/payment/cancel")
    assert back.status_code == 200, back.content
    assert held_intent(reader) is None
    alone.refresh_from_db()
    assert alone.status == "pending"
    again = on_commit(kiosk_client.post, f"/api/public/sessions/{alone.public_id}/payment")
    assert again.status_code == 200, again.content
    second = Payment.objects.latest("created_at")
    assert second.intent_id != first.intent_id and held_intent(reader) == second.intent_id
    on_commit(tap, reader, APPROVED)
    alone.refresh_from_db()
    assert alone.status == "completed" and order_created_count() == 1


def test_the_sweep_hands_a_declined_payment_back_to_a_reader_that_was_offline(
    paying, reader, cart_session, on_commit, settings
):
    with unplugged_once_read(reader):
        on_commit(tap, reader, DECLINED)
    assert held_intent(reader) is None  # the hand-back found the reader offline
    demo_terminal.reader_set_status(reader.reader_id, online=True)
    settings.PAYMENT_RECONCILE_AFTER_SECONDS = 0
    assert on_commit(tasks.reconcile_payments) == {"still": 1}
    assert held_intent(reader) == paying.intent_id
    on_commit(tap, reader, APPROVED)
    assert Order.objects.get(session=cart_session).status == "confirmed"


def test_a_reader_busy_with_another_payment_is_refused_and_nothing_changes(agent_client, cart_session, reader):
    api = processor.client().v1
    other = api.payment_intents.create(
        params={"amount": 500, "currency": "usd", "payment_method_types": ["card_present"]},
        options={"stripe_account": ACCOUNT},
    )
    api.terminal.readers.process_payment_intent(
        reader.reader_id, params={"payment_intent": other.id}, options={"stripe_account": ACCOUNT}
    )
    error_of(send_to_payment(agent_client, cart_session), 409, "READER_BUSY")
    cart_session.refresh_from_db()
    assert cart_session.status == "active" and not Payment.objects.exists() and not ProcessorCall.objects.exists()
    assert held_intent(reader) == other.id  # the other payment is left alone


def test_the_agent_reads_that_the_card_is_taken_on_the_reader(paying, reader, agent_client, cart_session, on_commit):
    """The dashboard's session read says the payment waits on the reader, and after a decline its
    cause (the dashboard says "Declined: ..., the customer may try another card")."""
    url = f"/api/sessions/{cart_session.public_id}"
    assert agent_client.get(url).json()["payment"] == {
        "status": "requires_payment_method",
        "failure_code": "",
        "failure_message": "",
        "method": "card_present",
        "reader": {"label": "Counter", "status": "online", "action_status": "in_progress", "failure_code": ""},
    }
    on_commit(tap, reader, NO_FUNDS)
    payment = agent_client.get(url).json()["payment"]
    assert (payment["status"], payment["failure_code"], payment["method"]) == (
        "failed",
        "insufficient_funds",
        "card_present",
    )
    assert payment["reader"]["action_status"] == "in_progress"  # the same intent back on the reader


def test_a_late_reader_event_of_an_earlier_payment_does_not_keep_the_reader_waiting_after_take_back(
    paying, reader, agent_client, cart_session, on_commit, monkeypatch
):
    """The reader's report of the first payment's declined card arrives after the payment was
    taken back and sent again: taking the second one back still stops the reader."""
    late = []
    monkeypatch.setattr(processor_webhooks, "send", lambda kind, obj, account: late.append((kind, obj, account)))
    tap(reader, DECLINED)
    monkeypatch.undo()
    cancel_url = f"/api/sessions/{cart_session.public_id}/payment/cancel"
    assert on_commit(agent_client.post, cancel_url).status_code == 200
    assert on_commit(send_to_payment, agent_client, cart_session).status_code == 200
    second = Payment.objects.latest("created_at")
    assert held_intent(reader) == second.intent_id
    for kind, obj, account in late:
        on_commit(processor_webhooks.send, kind, obj, account=account)
    assert on_commit(agent_client.post, cancel_url).status_code == 200
    assert held_intent(reader) is None
    assert DemoPaymentIntent.objects.get(intent_id=second.intent_id).status == "canceled"


LATE_NOTE = "Charged after the customer left: refunded automatically"


def test_a_card_approved_as_the_customer_left_ends_the_order_refunded_and_tells_the_owner(
    paying, reader, agent_client, cart_session, on_commit, owner_client, monkeypatch
):
    monkeypatch.setattr(processor_webhooks, "send", lambda kind, obj, account: None)  # its events come late
    tap(reader, APPROVED)
    monkeypatch.undo()
    ended = on_commit(
        agent_client.post, f"/api/sessions/{cart_session.public_id}/end", {"reason": "customer_abandoned"}
    )
    assert ended.status_code == 200, ended.content
    order = Order.objects.get(session=cart_session)
    assert order.status == "refunded" and order.paid_at is None
    [changed] = DomainEvent.objects.filter(name="order.status_changed")
    assert set(changed.payload) == {"order_id", "order_number", "previous_status", "status", "changed_at"}
    assert (changed.payload["order_id"], changed.payload["previous_status"], changed.payload["status"]) == (
        order.pk,
        "awaiting_payment",
        "refunded",
    )
    assert order_created_count() == 0
    page = owner_client.get(f"/panel/orders/{order.pk}")
    assert page.status_code == 200 and LATE_NOTE in page.content.decode()
    assert on_commit(tasks.reconcile_payments) == {}  # nothing left: no second refund, no second change
    assert Refund.objects.count() == 1 and DomainEvent.objects.filter(name="order.status_changed").count() == 1


def test_a_card_approved_as_the_payment_was_taken_back_leaves_the_order_in_use_and_shows_the_refund(
    paying, reader, agent_client, cart_session, on_commit, owner_client, monkeypatch
):
    monkeypatch.setattr(processor_webhooks, "send", lambda kind, obj, account: None)
    tap(reader, APPROVED)
    monkeypatch.undo()
    response = on_commit(agent_client.post, f"/api/sessions/{cart_session.public_id}/payment/cancel")
    assert response.status_code == 200, response.content
    order = Order.objects.get(session=cart_session)
    assert order.status == "draft"  # the customer's cart goes on: no webhook says it was refunded
    assert not DomainEvent.objects.filter(name="order.status_changed").exists()
    page = owner_client.get(f"/panel/orders/{order.pk}").content.decode()
    assert LATE_NOTE in page and Refund.objects.get().refund_id in page


def tap_read(reader: CardReader, number: str, read_method: str):
    """A card read on the simulated reader in the given way (the demo helper's own field)."""
    return processor.client().v1.test_helpers.terminal.readers.present_payment_method(
        reader.reader_id,
        params={"type": "card_present", "card_present": {"number": number, "read_method": read_method}},  # type: ignore[typeddict-unknown-key]
        options={"stripe_account": ACCOUNT},
    )


@pytest.mark.parametrize(
    ("read_method", "read", "application"),
    [
        ("contactless_emv", "Contactless", "Visa Credit (AID A0000000031010)"),
        ("contact_emv", "Chip", "Visa Credit (AID A0000000031010)"),
        ("magnetic_stripe_track2", "Swipe", None),  # a swipe reads no chip: no application
    ],
)
def test_the_receipt_says_how_the_card_was_read_and_the_chips_application(
    paying, reader, cart_session, kiosk_client, on_commit, read_method, read, application
):
    from django.core import mail

    from apps.orders import receipts

    on_commit(tap_read, reader, APPROVED, read_method)
    paying.refresh_from_db()
    assert (paying.card_brand, paying.card_last4, paying.card_read_method) == ("visa", "4242", read_method)
    order = Order.objects.get(session=cart_session)
    page = Client().get(receipts.receipt_path(order)).content.decode()
    assert "Paid with: Visa ending 4242" in page and f"Card read: {read}" in page
    assert (f"Card application: {application}" in page) if application else ("Card application" not in page)
    cart_session.customer_locale = "fr-FR"
    cart_session.save(update_fields=["customer_locale"])
    answer = on_commit(
        kiosk_client.post,
        f"/api/public/sessions/{cart_session.public_id}/receipt",
        {"email": "ana@example.com"},
        "application/json",
    )
    assert answer.status_code == 202, answer.content
    french = {"Contactless": "Sans contact", "Chip": "Puce", "Swipe": "Bande magnétique"}[read]
    text, html = mail.outbox[-1].body, mail.outbox[-1].alternatives[0][0]
    assert f"Lecture de la carte: {french}" in text and f"Lecture de la carte: {french}" in html
    if application:
        assert f"Application de la carte: {application}" in text


def test_the_card_of_a_reader_charge_is_read_with_its_read_method_and_application():
    charge = {
        "payment_method_details": {
            "type": "card_present",
            "card_present": {
                "brand": "mastercard",
                "last4": "4444",
                "read_method": "contact_emv",
                "receipt": {"application_preferred_name": "Mastercard", "dedicated_file_name": "A0000000041010"},
            },
        }
    }
    assert processor.card_of({"latest_charge": charge}) == {
        "brand": "mastercard",
        "last4": "4444",
        "read_method": "contact_emv",
        "application_name": "Mastercard",
        "application_id": "A0000000041010",
    }
    odd = charge["payment_method_details"]["card_present"]
    odd.update(read_method="<b>", receipt={"application_preferred_name": "x" * 41, "dedicated_file_name": "A0 <"})
    assert processor.card_of({"latest_charge": charge}) == {
        "brand": "mastercard",
        "last4": "4444",
        "read_method": "",
        "application_name": "",
        "application_id": "",
    }


def allow_card_fields(kiosk, allowed: bool = True) -> None:
    from apps.orders import services as order_services

    order_services.order_settings_update(
        business=kiosk.business, ask_dining=True, keep_receipt_email=False, card_fields_fallback=allowed
    )


def fallback(kiosk_client, session):
    return kiosk_client.post(f"/api/public/sessions/{session.public_id}/payment/card-fields")


def reader_offline_after_a_decline(reader, on_commit) -> None:
    """The reader goes offline as a card is declined: the hand-back cannot reach it."""
    with unplugged_once_read(reader):
        on_commit(tap, reader, DECLINED)


def test_the_card_fields_fallback_is_off_by_default(paying, reader, kiosk, kiosk_client, cart_session, on_commit):
    reader_offline_after_a_decline(reader, on_commit)
    body = kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/payment").json()
    assert body["card_fields_fallback"] is False
    error_of(on_commit(fallback, kiosk_client, cart_session), 403, "FORBIDDEN")
    assert Payment.objects.count() == 1 and not ProcessorCall.objects.filter(action="card_fields_fallback").exists()
    assert DemoPaymentIntent.objects.get(intent_id=paying.intent_id).status == "requires_payment_method"


def test_no_fallback_while_the_reader_holds_the_payment(paying, reader, kiosk, kiosk_client, cart_session, on_commit):
    allow_card_fields(kiosk)
    assert kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/payment").json()["card_fields_fallback"]
    error_of(on_commit(fallback, kiosk_client, cart_session), 409, "INVALID_STATE")
    assert Payment.objects.count() == 1 and held_intent(reader) == paying.intent_id


def test_an_offline_reader_falls_back_to_the_card_fields_and_the_order_is_paid_once(
    paying, reader, kiosk, kiosk_client, cart_session, kiosk_events, on_commit
):
    allow_card_fields(kiosk)
    reader_offline_after_a_decline(reader, on_commit)
    response = on_commit(fallback, kiosk_client, cart_session)
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["method"], body["reader"], body["amount_cents"], body["card_fields_fallback"]) == (
        "card",
        None,
        2175,
        False,
    )
    assert body["client_secret"] != paying.client_secret
    paying.refresh_from_db()
    assert paying.status == "canceled"
    assert DemoPaymentIntent.objects.get(intent_id=paying.intent_id).status == "canceled"
    card = Payment.objects.get(method="card")
    intent = DemoPaymentIntent.objects.get(intent_id=card.intent_id)
    assert (intent.payment_method_types, intent.amount) == (["card"], 2175)
    requested = [data for _, event, data in kiosk_events if event == "PaymentRequested"]
    assert requested[-1]["method"] == "card" and requested[-1]["client_secret"] == card.client_secret
    cart_session.refresh_from_db()
    assert cart_session.status == "payment"
    # a retry answers the same card payment
    assert on_commit(fallback, kiosk_client, cart_session).json()["client_secret"] == card.client_secret
    assert Payment.objects.count() == 2
    status, _ = on_commit(
        demo_processor.confirm, intent_id=card.intent_id, client_secret=card.client_secret, card_number=APPROVED
    )
    assert status == 200
    assert Order.objects.get(session=cart_session).status == "confirmed"
    assert order_created_count() == 1 and not Refund.objects.exists()
    assert DemoPaymentIntent.objects.get(intent_id=paying.intent_id).status == "canceled"  # never charged


def test_the_owner_allows_the_card_fields_fallback_on_the_panel(owner, kiosk, kiosk_client, paying, reader, on_commit):
    from apps.orders.models import OrderSettings

    panel = Client()
    panel.force_login(factories.PanelUserFactory(owner=owner, panel_role="manager"))
    assert 'name="card_fields_fallback"' in panel.get("/panel/displays").content.decode()
    form = {"business": kiosk.business.pk, "ask_dining": "on", "card_fields_fallback": "on"}
    assert panel.post("/panel/displays/dining", form).status_code == 302
    assert OrderSettings.objects.get(business=kiosk.business).card_fields_fallback is True
    url = f"/api/public/sessions/{paying.order.session.public_id}/payment"
    assert kiosk_client.get(url).json()["card_fields_fallback"] is True
    assert panel.post("/panel/displays/dining", {"business": kiosk.business.pk}).status_code == 302
    assert OrderSettings.objects.get(business=kiosk.business).card_fields_fallback is False
    assert kiosk_client.get(url).json()["card_fields_fallback"] is False


def test_a_card_approved_on_the_reader_as_the_fallback_is_asked_stands_and_nothing_is_charged_twice(
    paying, reader, kiosk, kiosk_client, cart_session, on_commit, monkeypatch
):
    allow_card_fields(kiosk)
    late = []  # the approval's events, not here yet when the kiosk asks for the card fields
    monkeypatch.setattr(processor_webhooks, "send", lambda kind, obj, account: late.append((kind, obj, account)))
    tap(reader, APPROVED)
    monkeypatch.undo()
    CardReader.objects.filter(pk=reader.pk).update(status="offline")  # as the kiosk last heard of it
    refused = error_of(on_commit(fallback, kiosk_client, cart_session), 409, "INVALID_STATE")
    assert refused["message"] == "The card was just approved on the reader."
    paying.refresh_from_db()
    assert paying.status == "requires_payment_method" and Payment.objects.count() == 1  # no card intent made
    assert not ProcessorCall.objects.exists()  # the reservation released
    for kind, obj, account in late:
        on_commit(processor_webhooks.send, kind, obj, account=account)
    assert Order.objects.get(session=cart_session).status == "confirmed"
    assert order_created_count() == 1 and not Refund.objects.exists()
