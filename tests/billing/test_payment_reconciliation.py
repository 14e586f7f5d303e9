"""Zero "paid but no order" (a customer charged with no order to show for it): the reconciliation
sweep asks the processor, through the real `stripe` library against the processor stand-in, about
payments still waiting; a succeeded intent confirms its order once (the same path, webhooks and
kiosk message as the processor's event), a declined one fails it; the late event afterwards
changes nothing."""

import json
import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from apps.billing import tasks
from apps.billing.models import Payment
from apps.billing.services import reconciliation
from apps.core import jobs
from apps.core.models import DomainEvent
from apps.orders.models import Order
from apps.sessions.models import Session
from apps.webhooks import services as webhook_services
from tests import factories
from tests.support.payments import intent_event, post_event
from tests.support.processes import wait_until

AFTER = 300  # PAYMENT_RECONCILE_AFTER_SECONDS in these tests


@pytest.fixture
def reconcile_settings(settings):
    settings.PAYMENT_RECONCILE_AFTER_SECONDS = AFTER
    settings.PAYMENT_RECONCILE_WITHIN_HOURS = 48
    return settings


@pytest.fixture
def order_hooks(owner, receiver):
    """A real HTTP receiver subscribed to the order's webhooks."""
    events = ["order.created", "payment.captured", "order.status_changed"]
    return webhook_services.subscription_create(owner=owner, url=receiver.url, events=events)[0]


@pytest.fixture
def paying(agent_client, cart_session, processor, billing, kiosk_events, reconcile_settings) -> Payment:
    """A session in payment: the intent was created at the stand-in by the real flow."""
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    return Payment.objects.get()


def age(payment: Payment, seconds: int) -> None:
    Payment.objects.filter(pk=payment.pk).update(created_at=timezone.now() - timedelta(seconds=seconds))


def delivered(receiver, event_name: str) -> list[dict]:
    return [json.loads(r.body) for r in receiver.received if r.headers.get("X-Service-Event") == event_name]


def lookups(processor, payment: Payment) -> list:
    return [call for call in processor.calls if call.method == "GET" and payment.intent_id in call.path]


def test_a_lost_succeeded_event_is_repaired_once_and_the_late_event_changes_nothing(
    paying, processor, order_hooks, receiver, kiosk_events, django_capture_on_commit_callbacks, owner
):
    processor.succeed(paying.intent_id)  # the card is charged; the processor's event is lost
    age(paying, AFTER + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.reconcile_payments() == {"confirmed": 1}

    [lookup] = lookups(processor, paying)
    assert lookup.headers["Stripe-Account"] == paying.account_id  # asked on the owner's account
    paying.refresh_from_db()
    assert (paying.status, paying.reconciled_outcome) == ("succeeded", "confirmed")
    assert paying.reconciled_at is not None
    order = Order.objects.get()
    assert order.status == "confirmed"
    assert Session.objects.get(pk=order.session_id).status == "completed"
    assert kiosk_events[-1][1] == "PaymentSucceeded"
    assert [body["data"]["order_id"] for body in delivered(receiver, "order.created")] == [order.pk]
    assert len(delivered(receiver, "payment.captured")) == 1

    # The processor's late event (a redelivery of the lost one) changes nothing.
    events_before = DomainEvent.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        late = post_event(Client(), intent_event("payment_intent.succeeded", paying))
    assert late.status_code == 200 and late.json()["outcome"] == "already succeeded"
    assert DomainEvent.objects.count() == events_before
    assert len(delivered(receiver, "order.created")) == 1
    assert DomainEvent.objects.filter(name="order.created").count() == 1
    # Nor does the next sweep: the payment is no longer waiting.
    assert tasks.reconcile_payments() == {}
    assert len(lookups(processor, paying)) == 1


def test_a_repair_is_counted_in_metrics_and_shown_on_the_owners_order_page(paying, processor, owner):
    processor.succeed(paying.intent_id)
    age(paying, AFTER + 1)
    reconciliation.payments_reconcile()

    metrics = Client().get("/metrics").content.decode()
    assert 'kiosk_payments_reconciled{outcome="confirmed"} 1.0' in metrics
    assert 'kiosk_payments_reconciled{outcome="failed"} 0.0' in metrics

    panel = Client()
    panel.force_login(factories.PanelUserFactory(owner=owner, panel_role="owner"))
    page = panel.get(f"/panel/orders/{paying.order_id}").content.decode()
    assert "repaired by reconciliation" in page
    assert "the order was confirmed" in page


def test_an_unrepaired_order_page_says_nothing_of_reconciliation(paying, processor, owner):
    panel = Client()
    panel.force_login(factories.PanelUserFactory(owner=owner, panel_role="owner"))
    assert "reconciliation" not in panel.get(f"/panel/orders/{paying.order_id}").content.decode()


def test_a_declined_intent_whose_event_was_lost_fails_the_order(paying, processor, kiosk_events):
    processor.decline(paying.intent_id, "Your card has insufficient funds.")
    age(paying, AFTER + 1)
    assert reconciliation.payments_reconcile() == {"failed": 1}
    paying.refresh_from_db()
    assert (paying.status, paying.reconciled_outcome) == ("failed", "failed")
    assert paying.failure_message == "Your card has insufficient funds."
    assert Order.objects.get().status == "failed"
    assert Session.objects.get(pk=Order.objects.get().session_id).status == "payment"  # another card may pay
    assert kiosk_events[-1][1] == "PaymentFailed"
    # Still waiting for another card: the next sweep asks again, and repairs a later success.
    processor.succeed(paying.intent_id)
    assert reconciliation.payments_reconcile() == {"confirmed": 1}
    assert Order.objects.get().status == "confirmed"


def test_a_payment_still_waiting_for_the_card_is_left_alone(paying, processor):
    age(paying, AFTER + 1)
    assert reconciliation.payments_reconcile() == {"still": 1}
    paying.refresh_from_db()
    assert (paying.status, paying.reconciled_outcome) == ("requires_payment_method", "")
    assert Order.objects.get().status == "awaiting_payment"


def test_a_fresh_payment_is_not_looked_up(paying, processor):
    processor.succeed(paying.intent_id)
    age(paying, AFTER - 30)  # the customer may still be paying: the event has time to come
    assert reconciliation.payments_reconcile() == {}
    assert lookups(processor, paying) == []
    assert Order.objects.get().status == "awaiting_payment"


def test_a_payment_older_than_the_window_is_not_looked_up(paying, processor, reconcile_settings):
    reconcile_settings.PAYMENT_RECONCILE_WITHIN_HOURS = 1
    age(paying, 2 * 3600)
    assert reconciliation.payments_reconcile() == {}
    assert lookups(processor, paying) == []


def test_a_processor_that_does_not_answer_changes_nothing_and_the_next_sweep_repairs(paying, processor):
    processor.succeed(paying.intent_id)
    age(paying, AFTER + 1)
    processor.fail(500, times=5)
    assert reconciliation.payments_reconcile() == {"unchecked": 1}
    assert Order.objects.get().status == "awaiting_payment"
    processor.failures.clear()
    assert reconciliation.payments_reconcile() == {"confirmed": 1}
    assert Order.objects.get().status == "confirmed"


def test_a_succeeded_intent_for_another_amount_is_not_confirmed(paying, processor):
    processor.succeed(paying.intent_id)
    processor.intents[paying.intent_id]["amount"] = 1
    age(paying, AFTER + 1)
    assert reconciliation.payments_reconcile() == {"refused": 1}
    paying.refresh_from_db()
    assert (paying.status, paying.reconciled_outcome) == ("requires_payment_method", "")
    assert Order.objects.get().status == "awaiting_payment"


def test_an_event_that_arrived_first_leaves_the_sweep_nothing_to_do(paying, processor):
    processor.succeed(paying.intent_id)
    assert post_event(Client(), intent_event("payment_intent.succeeded", paying)).json()["outcome"] == (
        "order confirmed"
    )
    age(paying, AFTER + 1)
    assert reconciliation.payments_reconcile() == {}
    paying.refresh_from_db()
    assert paying.reconciled_outcome == ""


def test_the_beat_schedules_the_sweep_every_few_minutes(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["billing-reconcile-payments"]
    assert entry["task"] == "billing.reconcile_payments"
    assert entry["schedule"] == settings.PAYMENT_RECONCILE_EVERY_SECONDS == 180


@pytest.mark.django_db(transaction=True)
def test_the_embedded_beat_runs_the_sweep_in_process(
    settings, monkeypatch, agent_client, cart_session, processor, billing, kiosk_events
):
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    payment = Payment.objects.get()
    processor.succeed(payment.intent_id)
    age(payment, AFTER + 1)
    settings.PAYMENT_RECONCILE_AFTER_SECONDS = AFTER
    settings.TASK_MODE = "thread"
    settings.CELERY_BEAT_SCHEDULE = {"reconcile": {"task": "billing.reconcile_payments", "schedule": 0.2}}
    monkeypatch.setattr(jobs.start_embedded_beat, "started", False, raising=False)
    stop = jobs.start_embedded_beat()
    try:
        wait_until(lambda: Order.objects.get().status == "confirmed", 10, "the beat's reconciliation", every=0.2)
    finally:
        stop.set()
    assert Payment.objects.get().reconciled_outcome == "confirmed"


def sessions_waiting_on_a_lock() -> int:
    """Other connections to this test database now waiting for a lock (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


@pytest.mark.postgres  # row locks
@pytest.mark.django_db(transaction=True)
def test_the_sweep_and_the_late_event_at_the_same_moment_confirm_the_order_once(
    agent_client, cart_session, processor, billing, kiosk_events, settings
):
    settings.PAYMENT_RECONCILE_AFTER_SECONDS = AFTER
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    payment = Payment.objects.get()
    processor.succeed(payment.intent_id)
    age(payment, AFTER + 1)
    event = intent_event("payment_intent.succeeded", payment)
    results = {}

    def sweep():
        try:
            results["sweep"] = reconciliation.payments_reconcile()
        finally:
            connection.close()

    def deliver():
        try:
            results["event"] = post_event(Client(), event).json()["outcome"]
        finally:
            connection.close()

    with transaction.atomic():
        Payment.objects.select_for_update().get(pk=payment.pk)  # both wait on the payment's row lock
        threads = [threading.Thread(target=sweep), threading.Thread(target=deliver)]
        for thread in threads:
            thread.start()
        wait_until(lambda: len(lookups(processor, payment)) >= 2, 10, "both asked the processor", every=0.05)
        wait_until(lambda: sessions_waiting_on_a_lock() >= 2, 10, "both waiting on the row lock", every=0.05)
    for thread in threads:
        thread.join(20)

    outcomes = {results["event"], next(iter(results["sweep"]))}
    assert outcomes in ({"order confirmed", "already"}, {"already succeeded", "confirmed"}), results
    assert DomainEvent.objects.filter(name="order.created").count() == 1
    assert DomainEvent.objects.filter(name="payment.captured").count() == 1
    assert Order.objects.get().status == "confirmed"
