"""Deliver a subscription's due deliveries in one batch: one claim, POSTs back to back on one
keep-alive connection, one bookkeeping transaction.

Per delivery, a one-at-a-time worker spent about seven PostgreSQL round trips and a Celery
message; a batch spends about ten round trips and one message for up to BATCH_SIZE deliveries,
so the cost left per delivery is the signed POST itself. What each delivery gets is unchanged:
its own attempt log, retry schedule and Retry-After; the subscription's consecutive-failure count
moves as if the attempts had been recorded one by one, and a pause stops the rest of the batch.

Batches of one subscription may be sent at once (a full claim queues the next drain). Each
takes, with its claim, an allowance of consecutive failures under the subscription's row lock
and stops sending when it is used up, so their failures together cannot pass the pause
threshold: the 10th consecutive failure is the last attempt, however many workers send.

This module sends; the claim and the bookkeeping are state changes, in
apps.webhooks.delivery_services (which imports no task: tasks -> batch -> delivery_services).
"""

import time
from collections.abc import Callable
from dataclasses import dataclass

from django.utils import timezone

from apps.webhooks import delivery as rules
from apps.webhooks import delivery_services
from apps.webhooks.delivery_services import Outcome
from apps.webhooks.models import WebhookDelivery

BATCH_SIZE = 100
# Recording a batch must finish inside its lease, or the sweep could hand the same deliveries
# to another worker while this one still holds them as sent-but-unrecorded.
BOOKKEEPING_MARGIN_SECONDS = 2


@dataclass
class BatchResult:
    claimed: int = 0
    retry_in: float | None = None  # seconds until the earliest retry this batch scheduled
    more: bool = False  # claimed deliveries were handed back unsent (time budget, failure streak)


def has_due(subscription_id: int) -> bool:
    now = timezone.now()
    return WebhookDelivery.objects.filter(delivery_services.due(now), subscription_id=subscription_id).exists()


def deliver(
    subscription_id: int,
    only: list[int] | None = None,
    limit: int = BATCH_SIZE,
    when_full: Callable[[], None] | None = None,
) -> BatchResult:
    """Claim, send and record one batch of the subscription's due deliveries (or of `only`).
    `when_full` is called once a full batch is claimed, before sending: there is probably more,
    and another worker can claim the next batch meanwhile."""
    claim = delivery_services.claim(subscription_id, only, limit)
    result = BatchResult(claimed=len(claim.ids))
    if claim.allowance is None or claim.subscription is None:
        return result  # nothing claimed, or all of it skipped (paused subscription)
    if when_full is not None and len(claim.ids) == limit:
        when_full()
    batch = sorted(
        WebhookDelivery.objects.select_related("event").filter(pk__in=claim.ids),
        key=lambda d: (d.event.created_at, d.event_id, d.pk),  # event order within the batch
    )
    stop_at = time.monotonic() + rules.lease().total_seconds() - rules.receiver_timeout()
    stop_at -= BOOKKEEPING_MARGIN_SECONDS
    streak = 0  # consecutive failures this batch would add to the count if recorded now
    outcomes: list[Outcome] = []
    for item in batch:
        if streak >= claim.allowance.failures or (outcomes and time.monotonic() > stop_at):
            break  # one more failure could overshoot the pause, or out of lease time: hand the rest back
        started = time.monotonic()
        ok, status_code, error, excerpt, retry_after = rules.send(item, claim.subscription, claim.secret)
        duration_ms = int((time.monotonic() - started) * 1000)
        outcomes.append(Outcome(item, ok, status_code, error, excerpt, duration_ms, retry_after, timezone.now()))
        streak = 0 if ok else streak + 1
    unsent = [item.pk for item in batch[len(outcomes) :]]
    result.retry_in = delivery_services.record(claim, outcomes, unsent)
    result.more = bool(unsent)
    return result
