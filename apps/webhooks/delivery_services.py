"""State changes of deliveries as the worker sends them (apps.webhooks.batch calls these):
lease due deliveries with an allowance of consecutive failures (claim), then record a batch's
outcomes in one transaction: attempt log, success, retry schedule or failure, the subscription's
failure count and its auto-pause.

The subscription-facing services are in apps.webhooks.services. This module imports no task, so
tasks -> batch -> here never loops back to tasks (services -> outbox -> tasks does).
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from apps.webhooks import delivery as rules
from apps.webhooks.models import (
    DeliveryStatus,
    WebhookAttempt,
    WebhookDelivery,
    WebhookFailureAllowance,
    WebhookSubscription,
)


@dataclass
class Outcome:
    delivery: WebhookDelivery
    ok: bool
    status_code: int | None
    error: str
    excerpt: str
    duration_ms: int
    retry_after: float | None
    at: datetime


@dataclass
class Claim:
    ids: list[int]
    subscription: WebhookSubscription | None = None
    secret: str = ""
    allowance: WebhookFailureAllowance | None = None


def claim(subscription_id: int, only: list[int] | None, limit: int) -> Claim:
    """Under the subscription's row lock: lease due deliveries and take an allowance of
    consecutive failures for sending them, so that its failure_count plus every allowance in
    flight stays within PAUSE_AFTER_FAILURES (exact auto-pause across concurrent batches).

    Each batch takes at most half of what is left (at least one), so several batches of a
    healthy subscription run in parallel; when nothing is left the drain claims nothing and
    returns, and the batches in flight queue the next drain when they finish (tasks._after_batch)."""
    now = timezone.now()
    with rules.bookkeeping():
        subscription = WebhookSubscription.objects.select_for_update().filter(pk=subscription_id).first()
        if subscription is None:
            return Claim([])  # deleted; its deliveries went with it
        if not subscription.active:
            ids = _lease_due(subscription_id, only, limit, now)
            WebhookDelivery.objects.filter(pk__in=ids).update(status=DeliveryStatus.SKIPPED, lease_until=None)
            return Claim(ids, subscription)
        left = rules.PAUSE_AFTER_FAILURES - subscription.failure_count - _allowances_held(subscription, now)
        if left <= 0:
            return Claim([])
        ids = _lease_due(subscription_id, only, limit, now)
        if not ids:
            return Claim([])
        # Raises SecretUnreadable when no listed key opens it: this transaction, and the leases
        # with it, roll back (the operator's to fix, not the receiver's failure; logged loudly).
        secret = subscription.signing_secret()
        allowance = WebhookFailureAllowance.objects.create(
            subscription=subscription, failures=min(len(ids), max(1, left // 2)), until=now + rules.lease()
        )
        return Claim(ids, subscription, secret, allowance)


def due(now: datetime) -> Q:
    """Pending, due and not held by a live lease."""
    return Q(status=DeliveryStatus.PENDING, next_attempt_at__lte=now) & (Q(lease_until=None) | Q(lease_until__lt=now))


def _lease_due(subscription_id: int, only: list[int] | None, limit: int, now: datetime) -> list[int]:
    """Lease up to `limit` due deliveries of the subscription (oldest first); their ids."""
    until = now + rules.lease()
    if connection.vendor == "postgresql":
        # One statement; SKIP LOCKED lets concurrent drains of one subscription take
        # disjoint batches instead of queueing on each other's rows.
        table = WebhookDelivery._meta.db_table
        where = "subscription_id = %s"
        params: list[int | list[int]] = [subscription_id]
        if only is not None:
            where, params = where + " AND id = ANY(%s)", params + [list(only)]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET lease_until = %s WHERE id IN ("  # noqa: S608 - no user input
                f" SELECT id FROM {table} WHERE {where} AND status = %s AND next_attempt_at <= %s"
                "  AND (lease_until IS NULL OR lease_until < %s)"
                "  ORDER BY next_attempt_at, id LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING id",
                [until, *params, DeliveryStatus.PENDING, now, now, limit],
            )
            return [row[0] for row in cursor.fetchall()]
    # SQLite (embedded mode): no UPDATE ... RETURNING through the ORM; one conditional
    # UPDATE per candidate is still race-free, and volumes there are small.
    candidates = WebhookDelivery.objects.filter(due(now), subscription_id=subscription_id)
    if only is not None:
        candidates = candidates.filter(pk__in=only)
    ids = list(candidates.order_by("next_attempt_at", "pk").values_list("pk", flat=True)[:limit])
    return [pk for pk in ids if WebhookDelivery.objects.filter(due(now), pk=pk).update(lease_until=until)]


def _allowances_held(subscription: WebhookSubscription, now: datetime) -> int:
    """Failures the other batches in flight may still add (expired allowances dropped)."""
    rows = list(
        WebhookFailureAllowance.objects.filter(subscription=subscription).values_list("pk", "failures", "until")
    )
    expired = [pk for pk, _, until in rows if until <= now]
    if expired:  # a worker died mid-batch: its lease, and with it its allowance, ran out
        WebhookFailureAllowance.objects.filter(pk__in=expired).delete()
    return sum(failures for _, failures, until in rows if until > now)


def record(claim: Claim, outcomes: list[Outcome], unsent: list[int]) -> float | None:
    """One transaction for the whole batch, which also gives its allowance back; returns the
    seconds until its earliest retry."""
    subscription, allowance = claim.subscription, claim.allowance
    if subscription is None or allowance is None:
        return None  # nothing was claimed: nothing to record
    now = timezone.now()
    failed = [o for o in outcomes if not o.ok]
    retries: list[datetime] = []
    with rules.bookkeeping():
        WebhookAttempt.objects.bulk_create(
            WebhookAttempt(
                delivery=o.delivery,
                attempted_at=o.at,
                succeeded=o.ok,
                status_code=o.status_code,
                duration_ms=o.duration_ms,
                error=o.error[:300],
                response_excerpt=o.excerpt,
            )
            for o in outcomes
        )
        succeeded = [o.delivery.pk for o in outcomes if o.ok]
        if succeeded:
            WebhookDelivery.objects.filter(pk__in=succeeded).update(
                status=DeliveryStatus.SUCCEEDED, attempts=F("attempts") + 1, delivered_at=now, lease_until=None
            )
        for o in failed:
            item = o.delivery
            item.attempts += 1
            item.lease_until = None
            if item.attempts > len(rules.RETRY_DELAYS):
                item.status, item.next_attempt_at = DeliveryStatus.FAILED, o.at
            else:
                delay = rules.RETRY_DELAYS[item.attempts - 1]
                if o.retry_after is not None:
                    delay = max(delay, timedelta(seconds=o.retry_after))
                item.next_attempt_at = o.at + delay
                retries.append(item.next_attempt_at)
        if failed:
            WebhookDelivery.objects.bulk_update(
                [o.delivery for o in failed], ["status", "attempts", "next_attempt_at", "lease_until"]
            )
        if unsent:
            WebhookDelivery.objects.filter(pk__in=unsent, status=DeliveryStatus.PENDING).update(lease_until=None)
        WebhookFailureAllowance.objects.filter(pk=allowance.pk).delete()
        if _count_failures(subscription, outcomes, now):
            transaction.on_commit(lambda: rules.tell_owner_paused(subscription))
            return None
    return (min(retries) - now).total_seconds() if retries else None


def _count_failures(subscription: WebhookSubscription, outcomes: list[Outcome], now: datetime) -> bool:
    """Move the subscription's consecutive-failure count as the attempts did in order: a success
    resets it, each failure adds one. True when this batch paused the subscription."""
    last_ok = max((i for i, o in enumerate(outcomes) if o.ok), default=None)
    failures_after = len(outcomes) - 1 - last_ok if last_ok is not None else len(outcomes)
    any_failed = any(not o.ok for o in outcomes)
    subscriptions = WebhookSubscription.objects.filter(pk=subscription.pk)
    if last_ok is not None and not any_failed:
        # Every success of a busy subscription would otherwise queue on this one row's lock:
        # write it when it changes meaning (a failure streak ends) or once a second.
        subscriptions.filter(
            Q(failure_count__gt=0)
            | Q(last_delivered_at=None)
            | Q(last_delivered_at__lt=now - rules.SUBSCRIPTION_TOUCH_INTERVAL)
        ).update(failure_count=0, last_delivered_at=now)
        return False
    if last_ok is not None:
        subscriptions.update(failure_count=failures_after, last_delivered_at=now, last_failed_at=now)
    else:
        subscriptions.update(failure_count=F("failure_count") + len(outcomes), last_failed_at=now)
    if not failures_after:
        return False
    paused = WebhookSubscription.objects.filter(
        pk=subscription.pk, active=True, failure_count__gte=rules.PAUSE_AFTER_FAILURES
    ).update(active=False, paused_at=now)
    if paused:
        # Its pending retries, and the rest of this batch, stop: skipped, as events while paused are.
        WebhookDelivery.objects.filter(subscription=subscription, status=DeliveryStatus.PENDING).update(
            status=DeliveryStatus.SKIPPED, lease_until=None
        )
    return bool(paused)
