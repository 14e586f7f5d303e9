"""Celery tasks for webhooks: they only call the delivery code and queries below."""

from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from apps.core import jobs
from apps.webhooks import delivery
from apps.webhooks.models import DeliveryStatus, WebhookAttempt, WebhookDelivery

ATTEMPT_LOG_RETENTION = timedelta(days=30)


@shared_task(name="webhooks.deliver", acks_late=True, ignore_result=True)
def deliver_webhook(delivery_id: int) -> None:
    retry_in = delivery.attempt_delivery(delivery_id)
    if retry_in is not None:
        jobs.enqueue_later(deliver_webhook, retry_in, delivery_id)


@shared_task(name="webhooks.dispatch_due", ignore_result=True)
def dispatch_due_webhooks(limit: int = 500) -> int:
    """Send what is due and not held by a worker: retries, and anything whose queued task was
    lost (Redis down, worker killed). Returns how many were attempted."""
    now = timezone.now()
    due = list(
        WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING, next_attempt_at__lte=now)
        .filter(Q(lease_until=None) | Q(lease_until__lt=now))
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
    for delivery_id in due:
        jobs.enqueue(deliver_webhook, delivery_id)
    return len(due)


@shared_task(name="webhooks.prune_attempts", ignore_result=True)
def prune_webhook_attempts() -> int:
    deleted, _ = WebhookAttempt.objects.filter(attempted_at__lt=timezone.now() - ATTEMPT_LOG_RETENTION).delete()
    return deleted
