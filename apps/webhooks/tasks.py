"""Celery tasks for webhooks: they only call the delivery code and queries below.

Work is queued per subscription, not per delivery: `webhooks.drain` sends a batch of the
subscription's due deliveries (apps.webhooks.batch) and queues itself again while there is more.
A short cache mark ("a drain is queued") keeps a burst of events from queueing one task each.
"""

from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Min, Q
from django.utils import timezone

from apps.core import jobs
from apps.webhooks import batch, retention
from apps.webhooks.models import DeliveryStatus, WebhookAttempt, WebhookDelivery

ATTEMPT_LOG_RETENTION = timedelta(days=30)
# The mark expires by itself, so a drain task lost with its message (worker killed, Redis
# restarted) blocks new ones for at most this long; the sweep does not wait even that long
# for work that is overdue (below).
DRAIN_MARK_SECONDS = 30
# A due delivery not claimed this long after it became due has no live task in front of it
# (or the queue is that far behind): the sweep queues a drain whatever the mark says.
OVERDUE = timedelta(seconds=10)


def _mark(subscription_id: int) -> str:
    return f"webhooks:drain-queued:{subscription_id}"


class _DrainTask(Task):  # type: ignore[misc]  # celery is untyped
    """Publishing a drain while one for the same subscription waits in the queue adds nothing:
    that one will claim everything committed before it starts. So a publish without a delay
    first sets the subscription's mark and is dropped if the mark was already there. Only the
    broker path is deduplicated: "thread" and "sync" modes run the task in-process (apply)."""

    # Celery's own signature: the options are the broker's (countdown, eta, queue, ...).
    def apply_async(
        self, args: tuple[Any, ...] | None = None, kwargs: dict[str, Any] | None = None, **options: Any
    ) -> object:
        if not options.get("countdown") and args and not cache.add(_mark(args[0]), 1, DRAIN_MARK_SECONDS):
            return None
        return super().apply_async(args, kwargs, **options)


def request_drain(subscription_id: int, *, force: bool = False) -> bool:
    """Queue a drain of the subscription unless one is already queued (or `force`: the queued
    one looks lost). True if queued. Call after commit: the drain must see the deliveries."""
    if force:
        cache.delete(_mark(subscription_id))
    elif settings.TASK_MODE == "celery" and cache.get(_mark(subscription_id)):
        return False
    jobs.enqueue(drain_subscription, subscription_id)
    return True


def _after_batch(subscription_id: int, result: batch.BatchResult) -> None:
    if result.retry_in is not None:
        # One delayed drain per batch with failures; it sends every retry then due (in "sync"
        # mode nothing is scheduled: the periodic sweep picks the retries up).
        jobs.enqueue_later(drain_subscription, result.retry_in, subscription_id)
    if result.claimed and (result.more or batch.has_due(subscription_id)):
        jobs.enqueue(drain_subscription, subscription_id)


@shared_task(base=_DrainTask, name="webhooks.drain", acks_late=True, ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def drain_subscription(subscription_id: int) -> None:
    # Cleared before the claim: an event committed from here on queues a new drain, one
    # committed before is claimed below. No wake-up is lost in between.
    if settings.TASK_MODE == "sync":  # a drain queued now would run nested, before this batch
        result = batch.deliver(subscription_id)
    else:
        cache.delete(_mark(subscription_id))
        result = batch.deliver(subscription_id, when_full=lambda: jobs.enqueue(drain_subscription, subscription_id))
    _after_batch(subscription_id, result)


@shared_task(name="webhooks.deliver", acks_late=True, ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def deliver_webhook(delivery_id: int) -> None:
    """One delivery now (the panel's resend); also runs `webhooks.deliver` messages queued by a
    version that sent one task per delivery."""
    subscription_id = WebhookDelivery.objects.filter(pk=delivery_id).values_list("subscription_id", flat=True).first()
    if subscription_id is None:
        return
    result = batch.deliver(subscription_id, only=[delivery_id])
    if result.retry_in is not None:
        jobs.enqueue_later(drain_subscription, result.retry_in, subscription_id)


@shared_task(name="webhooks.dispatch_due", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def dispatch_due_webhooks(limit: int = 500) -> int:
    """Queue a drain for each subscription with due work not held by a worker (retries, and
    anything whose task was lost: Redis down, worker killed), skipping those whose drain is
    already queued unless their work is overdue. Returns how many due deliveries those drains
    cover (in "sync" mode, how many were attempted or found taken)."""
    now = timezone.now()
    due = (
        WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING, next_attempt_at__lte=now)
        .filter(Q(lease_until=None) | Q(lease_until__lt=now))
        .values("subscription_id")
        .annotate(count=Count("id"), oldest=Min("next_attempt_at"))
        .order_by("oldest")[:limit]
    )
    queued = 0
    for row in list(due):
        if request_drain(row["subscription_id"], force=row["oldest"] < now - OVERDUE):
            queued += row["count"]
    return queued


@shared_task(name="webhooks.prune_history", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def prune_history() -> dict[str, int]:
    """Deliveries, then the events they no longer hold, past EVENT_RETENTION_DAYS (retention.py)."""
    return {"deliveries": retention.prune_deliveries(), "events": retention.prune_events()}


@shared_task(name="webhooks.prune_attempts", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def prune_webhook_attempts() -> int:
    deleted, _ = WebhookAttempt.objects.filter(attempted_at__lt=timezone.now() - ATTEMPT_LOG_RETENTION).delete()
    return deleted
