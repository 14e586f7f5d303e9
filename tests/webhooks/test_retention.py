"""Retention of webhook history: final deliveries (succeeded, given up, skipped) past
EVENT_RETENTION_DAYS go with their attempt logs, then the events no delivery references; recent and
pending ones stay; pruning works in batches over more rows than one batch; the beat schedule (and so
the embedded in-process beat) runs it."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from apps.core import jobs
from apps.core.models import DomainEvent
from apps.webhooks import retention, services
from apps.webhooks.models import WebhookAttempt, WebhookDelivery
from apps.webhooks.tasks import prune_history
from tests import factories
from tests.support.processes import wait_until

DAY = timedelta(days=1)


@pytest.fixture
def subscription(owner):
    return services.subscription_create(owner=owner, url="https://93.184.216.34/hooks", events=["kiosk.offline"])[0]


def event(owner, age: timedelta) -> DomainEvent:
    return factories.DomainEventFactory(name="kiosk.offline", owner=owner, payload={}, created_at=timezone.now() - age)


def delivery(subscription, ev, status: str, age: timedelta, delivered_age: timedelta | None = None):
    now = timezone.now()
    row = factories.WebhookDeliveryFactory(
        subscription=subscription,
        event=ev,
        status=status,
        attempts=1,
        created_at=now - age,
        next_attempt_at=now - age,
        delivered_at=None if delivered_age is None else now - delivered_age,
    )
    factories.WebhookAttemptFactory(
        delivery=row,
        attempted_at=now - (delivered_age or age),
        succeeded=status == "succeeded",
        status_code=None,
        duration_ms=5,
    )
    return row


def exists(row) -> bool:
    return type(row).objects.filter(pk=row.pk).exists()


def test_old_final_deliveries_and_their_events_go_recent_and_pending_stay(owner, subscription):
    old = 31 * DAY
    delivered = delivery(subscription, event(owner, old), "succeeded", old, delivered_age=old)
    given_up = delivery(subscription, event(owner, old), "failed", old)
    skipped = delivery(subscription, event(owner, old), "skipped", old)
    recent = delivery(subscription, event(owner, 5 * DAY), "succeeded", 5 * DAY, delivered_age=5 * DAY)
    pending = delivery(subscription, event(owner, 40 * DAY), "pending", 40 * DAY)
    resent = delivery(subscription, event(owner, old), "succeeded", old, delivered_age=DAY)  # resent from the panel
    shared = event(owner, old)  # one subscription's delivery is final, another's still pending
    shared_done = delivery(subscription, shared, "succeeded", old, delivered_age=old)
    other = services.subscription_create(owner=owner, url="https://93.184.216.34/b", events=["kiosk.offline"])[0]
    shared_pending = delivery(other, shared, "pending", old)
    lone_old, lone_recent = event(owner, old), event(owner, 29 * DAY)  # no subscription wanted them

    assert prune_history.apply(throw=True).get() == {"deliveries": 4, "events": 4}

    for gone in (delivered, given_up, skipped, shared_done):
        assert not exists(gone) and not WebhookAttempt.objects.filter(delivery_id=gone.pk).exists()
    for gone in (delivered.event, given_up.event, skipped.event, lone_old):
        assert not exists(gone)
    for kept in (recent, pending, resent, shared_pending):
        assert exists(kept) and exists(kept.event) and WebhookAttempt.objects.filter(delivery=kept).exists()
    assert exists(shared) and exists(lone_recent)


def test_the_retention_is_a_setting(owner, subscription, settings):
    ten_days = delivery(subscription, event(owner, 10 * DAY), "succeeded", 10 * DAY, delivered_age=10 * DAY)
    assert retention.prune_deliveries() == 0 and exists(ten_days)  # the default 30 days
    settings.EVENT_RETENTION_DAYS = 7
    assert retention.prune_deliveries() == 1 and retention.prune_events() == 1
    assert not exists(ten_days) and not exists(ten_days.event)


def test_pruning_goes_in_batches_over_more_rows_than_one_batch(owner, subscription):
    rows = [delivery(subscription, event(owner, 40 * DAY), "succeeded", 40 * DAY, 40 * DAY) for _ in range(25)]
    keep = delivery(subscription, event(owner, DAY), "succeeded", DAY, DAY)

    # A run stops after max_batches; the next one goes on where it stopped.
    assert retention.prune_deliveries(batch_size=10, max_batches=2) == 20
    assert WebhookDelivery.objects.count() == 6
    assert retention.prune_deliveries(batch_size=10, max_batches=2) == 5
    assert retention.prune_events(batch_size=10) == 25
    assert list(WebhookDelivery.objects.all()) == [keep] and list(DomainEvent.objects.all()) == [keep.event]
    assert not WebhookAttempt.objects.filter(delivery_id__in=[r.pk for r in rows]).exists()


def test_the_beat_schedule_prunes_history_hourly():
    entries = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "webhooks.prune_history"]
    assert entries == [{"task": "webhooks.prune_history", "schedule": 3600.0}]


@pytest.mark.django_db(transaction=True)
def test_the_embedded_beat_runs_the_prune(owner, subscription, settings, monkeypatch):
    settings.TASK_MODE = "thread"
    settings.CELERY_BEAT_SCHEDULE = {"prune": {"task": "webhooks.prune_history", "schedule": 0.2}}
    monkeypatch.setattr(jobs.start_embedded_beat, "started", False, raising=False)
    old = delivery(subscription, event(owner, 40 * DAY), "failed", 40 * DAY)
    stop = jobs.start_embedded_beat()
    try:
        wait_until(lambda: not (exists(old) or exists(old.event)), 10, "the beat's prune", every=0.2)
    finally:
        stop.set()
    assert not exists(old) and not exists(old.event)
