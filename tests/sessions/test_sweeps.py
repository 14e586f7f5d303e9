"""Periodic sweeps: kiosk presence, pending-session timeout, clean-ups. Each is idempotent."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from apps.accounts import services as account_services
from apps.accounts.models import LoginChallenge
from apps.core.models import DomainEvent
from apps.kiosks import services as kiosk_services
from apps.kiosks.models import Kiosk, PairingCode
from apps.orders.models import Order
from apps.sessions import services as session_services
from apps.sessions.models import Session
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookDelivery
from apps.webhooks.tasks import dispatch_due_webhooks
from tests import factories
from tests.support.receivers import Receiver
from tests.support.webhook_events import emit_webhook


def test_silent_kiosk_goes_offline_once_and_comes_back_with_a_heartbeat(kiosk, kiosk_client):
    Kiosk.objects.filter(pk=kiosk.pk).update(last_seen_at=timezone.now() - timedelta(seconds=91))
    fresh = factories.KioskFactory(business=kiosk.business)  # seen just now: stays online
    assert kiosk_services.kiosks_mark_offline() == 1
    assert kiosk_services.kiosks_mark_offline() == 0  # once per outage
    kiosk.refresh_from_db()
    fresh.refresh_from_db()
    assert (kiosk.online, fresh.online) == (False, True)
    [event] = DomainEvent.objects.filter(name="kiosk.offline")
    assert event.payload["kiosk_id"] == kiosk.pk and event.payload["kiosk_name"] == kiosk.name
    assert event.payload["location"] == kiosk.location and event.payload["offline_at"].endswith("Z")
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200
    kiosk.refresh_from_db()
    assert kiosk.online is True
    assert DomainEvent.objects.filter(name="kiosk.online").count() == 1


def test_a_kiosk_seen_within_90_seconds_stays_online(kiosk):
    Kiosk.objects.filter(pk=kiosk.pk).update(last_seen_at=timezone.now() - timedelta(seconds=85))
    assert kiosk_services.kiosks_mark_offline() == 0


def test_pending_sessions_past_the_timeout_are_abandoned(kiosk, settings):
    stale = factories.SessionFactory(kiosk=kiosk, created_at=timezone.now() - timedelta(seconds=181))
    fresh = factories.SessionFactory(kiosk=factories.KioskFactory(business=kiosk.business))
    assert session_services.sessions_abandon_stale(older_than_seconds=180) == 1
    assert session_services.sessions_abandon_stale(older_than_seconds=180) == 0
    stale.refresh_from_db()
    fresh.refresh_from_db()
    assert (stale.status, stale.end_reason, fresh.status) == ("abandoned", "timed_out", "pending")
    assert DomainEvent.objects.filter(name="session.ended").count() == 1


def test_a_customer_in_accessible_mode_has_twice_the_pending_time(kiosk, settings):
    business = kiosk.business

    def seconds_ago(seconds: int):
        return timezone.now() - timedelta(seconds=seconds)

    within = factories.SessionFactory(kiosk=kiosk, accessible_mode=True, created_at=seconds_ago(300))
    past = factories.SessionFactory(
        kiosk=factories.KioskFactory(business=business), accessible_mode=True, created_at=seconds_ago(361)
    )
    alone = factories.SessionFactory(
        kiosk=factories.KioskFactory(business=business), accessible_mode=True, created_at=seconds_ago(900)
    )
    cart = factories.OrderFactory(session=alone, status="draft")
    Order.objects.filter(pk=cart.pk).update(updated_at=seconds_ago(300))  # changed within twice the time
    standard = factories.SessionFactory(kiosk=factories.KioskFactory(business=business), created_at=seconds_ago(181))
    assert session_services.sessions_abandon_stale(older_than_seconds=180) == 2
    statuses = {s.pk: s.status for s in Session.objects.all()}
    assert statuses == {within.pk: "pending", past.pk: "abandoned", alone.pk: "pending", standard.pk: "abandoned"}


def test_expired_pairing_codes_and_challenges_are_cleaned(business, agent):
    _, _ = kiosk_services.pairing_code_create(business=business)
    old, _ = kiosk_services.pairing_code_create(business=business)
    PairingCode.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(days=2))
    factories.LoginChallengeFactory(public_id="c1", user=agent, expires_at=timezone.now() - timedelta(days=2))
    factories.LoginChallengeFactory(public_id="c2", user=agent, expires_at=timezone.now() + timedelta(minutes=5))
    assert kiosk_services.pairing_codes_purge() == 1
    assert account_services.login_challenges_purge() == 1
    assert PairingCode.objects.count() == 1 and LoginChallenge.objects.get() == LoginChallenge.for_id("c2").get()


@pytest.mark.postgres  # concurrent sweeps
@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_act_once():
    kiosks = factories.KioskFactory.create_batch(5, last_seen_at=timezone.now() - timedelta(minutes=5))
    for kiosk in kiosks:
        factories.SessionFactory(kiosk=kiosk, created_at=timezone.now() - timedelta(minutes=5))
    barrier = threading.Barrier(2)

    def sweep():
        barrier.wait()
        kiosk_services.kiosks_mark_offline()
        session_services.sessions_abandon_stale(older_than_seconds=180)
        connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert DomainEvent.objects.filter(name="kiosk.offline").count() == 5
    assert DomainEvent.objects.filter(name="session.ended").count() == 5
    assert Session.objects.filter(status="abandoned").count() == 5


@pytest.mark.postgres  # concurrent sweeps
@pytest.mark.django_db(transaction=True)
def test_two_webhook_sweeps_at_once_send_each_delivery_once(monkeypatch):
    """A beat running twice: both dispatch sweeps see the same due deliveries, the lease lets
    exactly one of them send each."""
    business = factories.BusinessFactory()
    with Receiver() as receiver:
        webhook_services.subscription_create(owner=business.owner, url=receiver.url, events=["kiosk.offline"])
        with monkeypatch.context() as lost_queue:  # the queued tasks are lost: only the sweep finds them
            lost_queue.setattr("apps.webhooks.outbox.jobs.enqueue_on_commit", lambda *args: None)
            for n in range(6):
                with transaction.atomic():
                    emit_webhook("kiosk.offline", {"kiosk_id": n}, owner_id=business.owner_id)
        assert WebhookDelivery.objects.filter(status="pending").count() == 6
        barrier = threading.Barrier(2)

        def sweep():
            barrier.wait()
            dispatch_due_webhooks()
            connection.close()

        threads = [threading.Thread(target=sweep) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        delivery_ids = [request.headers["X-Service-Delivery"] for request in receiver.received]
    assert sorted(delivery_ids) == sorted(str(pk) for pk in WebhookDelivery.objects.values_list("pk", flat=True))
    assert not WebhookDelivery.objects.exclude(status="succeeded").exists()
