"""How long delivery history is kept: EVENT_RETENTION_DAYS (default 30).

A delivery goes once it is final (succeeded, failed = given up, or skipped while its subscription
was paused) and every time on it (created, last attempt or retry, delivered) is older than that;
a pending one is never pruned, however old. An event goes once it is that old and no delivery
references it any more (deleting an event would take its deliveries with it). Both in batches of
PRUNE_BATCH rows, each its own short transaction, so pruning a large backlog neither holds long
locks nor one huge transaction; a run stops after MAX_BATCHES and the next run goes on.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, Model, OuterRef, Q, QuerySet
from django.utils import timezone

from apps.core.models import DomainEvent
from apps.webhooks.models import DeliveryStatus, WebhookDelivery

PRUNE_BATCH = 1000
MAX_BATCHES = 200  # per run and table: 200,000 rows an hour is far above the event rate


def cutoff() -> datetime:
    return timezone.now() - timedelta(days=settings.EVENT_RETENTION_DAYS)


def _in_batches(queryset: QuerySet[Model], batch_size: int, max_batches: int) -> int:
    deleted = 0
    for _ in range(max_batches):
        ids = list(queryset.order_by("pk").values_list("pk", flat=True)[:batch_size])
        if not ids:
            break
        queryset.model._default_manager.filter(pk__in=ids).delete()
        deleted += len(ids)
        if len(ids) < batch_size:
            break
    return deleted


def prune_deliveries(*, batch_size: int = PRUNE_BATCH, max_batches: int = MAX_BATCHES) -> int:
    """Final deliveries past retention, with their attempt logs; how many deliveries went."""
    before = cutoff()
    final = WebhookDelivery.objects.filter(
        status__in=[DeliveryStatus.SUCCEEDED, DeliveryStatus.FAILED, DeliveryStatus.SKIPPED],
        next_attempt_at__lt=before,
        created_at__lt=before,
    ).filter(Q(delivered_at=None) | Q(delivered_at__lt=before))
    return _in_batches(final, batch_size, max_batches)


def prune_events(*, batch_size: int = PRUNE_BATCH, max_batches: int = MAX_BATCHES) -> int:
    """Events past retention that no delivery references; how many went."""
    referenced = WebhookDelivery.objects.filter(event=OuterRef("pk"))
    unreferenced = DomainEvent.objects.filter(created_at__lt=cutoff()).filter(~Exists(referenced))
    return _in_batches(unreferenced, batch_size, max_batches)
