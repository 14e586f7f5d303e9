"""Send one delivery attempt and record what happened.

A worker first takes a short lease on the delivery (a conditional UPDATE), so two workers never
send the same attempt at once; if the worker dies mid-send the lease runs out and the periodic
sweep sends it again. Receivers may therefore see a duplicate (same X-Service-Delivery), never a gap.
"""

import logging
import time
from contextlib import contextmanager
from datetime import timedelta

import requests
from django.conf import settings
from django.core.mail import send_mail
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from apps.accounts.models import PanelRole, User
from apps.core.timefmt import iso_z
from apps.webhooks import signing, targets, transport
from apps.webhooks.models import DeliveryStatus, WebhookAttempt, WebhookDelivery, WebhookSubscription

logger = logging.getLogger(__name__)

RETRY_DELAYS = [
    timedelta(seconds=10),
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=6),
    timedelta(hours=12),
    timedelta(hours=24),
]
PAUSE_AFTER_FAILURES = 10
RECEIVER_TIMEOUT_SECONDS = 5
EXCERPT_CHARS = 1000
SUBSCRIPTION_TOUCH_INTERVAL = timedelta(seconds=1)
DEFAULT_LEASE_SECONDS = 60  # well above one attempt (RECEIVER_TIMEOUT_SECONDS plus database writes)


def lease() -> timedelta:
    """How long a claimed delivery is held by its worker; after that the sweep may resend it.
    WEBHOOK_LEASE_SECONDS (Django setting) shortens it for the worker fault test."""
    return timedelta(seconds=getattr(settings, "WEBHOOK_LEASE_SECONDS", DEFAULT_LEASE_SECONDS))


@contextmanager
def _bookkeeping():
    """A transaction for the worker's own records (lease, attempt log, outcome) that does not
    wait for PostgreSQL to flush its WAL at commit. Losing the last few hundred milliseconds of
    these in a database crash can only make a delivery be sent again (same id), never lost: the
    delivery rows themselves were written, durably, with the change that emitted the event."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield


def _claim(delivery_id: int) -> bool:
    now = timezone.now()
    with _bookkeeping():
        return bool(
            WebhookDelivery.objects.filter(pk=delivery_id, status=DeliveryStatus.PENDING, next_attempt_at__lte=now)
            .filter(Q(lease_until=None) | Q(lease_until__lt=now))
            .update(lease_until=now + lease())
        )


def _read_excerpt(response: requests.Response) -> str:
    """The start of the answer for the log, without reading more than that of a huge body (a
    fully read answer leaves its connection to the pool; a cut one closes it)."""
    content = b""
    for chunk in response.iter_content(chunk_size=EXCERPT_CHARS * 4):
        content += chunk
        if len(content) >= EXCERPT_CHARS * 4:
            break
    response.close()
    return content.decode(response.encoding or "utf-8", errors="replace")[:EXCERPT_CHARS]


def _send(delivery: WebhookDelivery) -> tuple[bool, int | None, str, str, float | None]:
    """POST the delivery: (succeeded, status code, error, response excerpt, retry-after seconds)."""
    subscription, event = delivery.subscription, delivery.event
    body = signing.body_bytes(event.name, event.payload, iso_z(event.created_at))
    headers = signing.headers(
        secret=subscription.secret,
        event_name=event.name,
        delivery_id=delivery.pk,
        body=body,
        now_unix=int(time.time()),
    )
    try:
        targets.check_url(subscription.url)
        with transport.deadline(RECEIVER_TIMEOUT_SECONDS):
            response = transport.session().post(
                subscription.url,
                data=body,
                headers=headers,
                timeout=RECEIVER_TIMEOUT_SECONDS,
                allow_redirects=False,
                stream=True,
            )
            excerpt = _read_excerpt(response)
    except targets.TargetRefused as exc:
        return False, None, f"refused target: {exc}", "", None
    except (requests.Timeout, transport.DeadlinePassed):
        return False, None, f"no answer within {RECEIVER_TIMEOUT_SECONDS} s", "", None
    except requests.RequestException as exc:
        return False, None, f"connection error: {exc.__class__.__name__}", "", None
    retry_after = None
    if response.status_code == 429:
        header = response.headers.get("Retry-After", "")
        retry_after = float(header) if header.isdigit() else None
    ok = 200 <= response.status_code < 300
    return ok, response.status_code, "" if ok else f"HTTP {response.status_code}", excerpt, retry_after


def attempt_delivery(delivery_id: int) -> float | None:
    """Make one attempt if the delivery is due; returns the seconds until its retry, if any."""
    if not _claim(delivery_id):
        return None  # already sent, not due, or another worker holds it
    delivery = WebhookDelivery.objects.select_related("subscription", "event").get(pk=delivery_id)
    if not delivery.subscription.active:
        with _bookkeeping():
            WebhookDelivery.objects.filter(pk=delivery_id).update(status=DeliveryStatus.SKIPPED, lease_until=None)
        return None
    started = time.monotonic()
    ok, status_code, error, excerpt, retry_after = _send(delivery)
    duration_ms = int((time.monotonic() - started) * 1000)
    return _record(
        delivery,
        ok=ok,
        status_code=status_code,
        error=error,
        excerpt=excerpt,
        duration_ms=duration_ms,
        retry_after=retry_after,
    )


def _record(delivery, *, ok, status_code, error, excerpt, duration_ms, retry_after) -> float | None:
    now = timezone.now()
    subscription = delivery.subscription
    with _bookkeeping():
        WebhookAttempt.objects.create(
            delivery=delivery,
            attempted_at=now,
            succeeded=ok,
            status_code=status_code,
            duration_ms=duration_ms,
            error=error[:300],
            response_excerpt=excerpt,
        )
        attempts = delivery.attempts + 1
        if ok:
            WebhookDelivery.objects.filter(pk=delivery.pk).update(
                status=DeliveryStatus.SUCCEEDED, attempts=attempts, delivered_at=now, lease_until=None
            )
            # Every success of a busy subscription would otherwise queue on this one row's lock:
            # write it when it changes meaning (a failure streak ends) or once a second.
            WebhookSubscription.objects.filter(pk=subscription.pk).filter(
                Q(failure_count__gt=0)
                | Q(last_delivered_at=None)
                | Q(last_delivered_at__lt=now - SUBSCRIPTION_TOUCH_INTERVAL)
            ).update(failure_count=0, last_delivered_at=now)
            return None
        if attempts > len(RETRY_DELAYS):
            status, next_at = DeliveryStatus.FAILED, now
        else:
            delay = RETRY_DELAYS[attempts - 1]
            if retry_after is not None:
                delay = max(delay, timedelta(seconds=retry_after))
            status, next_at = DeliveryStatus.PENDING, now + delay
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=status, attempts=attempts, next_attempt_at=next_at, lease_until=None
        )
        WebhookSubscription.objects.filter(pk=subscription.pk).update(
            failure_count=F("failure_count") + 1, last_failed_at=now
        )
        paused = WebhookSubscription.objects.filter(
            pk=subscription.pk, active=True, failure_count__gte=PAUSE_AFTER_FAILURES
        ).update(active=False, paused_at=now)
        if paused:
            WebhookDelivery.objects.filter(subscription=subscription, status=DeliveryStatus.PENDING).update(
                status=DeliveryStatus.SKIPPED, lease_until=None
            )
            transaction.on_commit(lambda: _tell_owner_paused(subscription))
            return None
    return (next_at - now).total_seconds() if status == DeliveryStatus.PENDING else None


def _tell_owner_paused(subscription: WebhookSubscription) -> None:
    recipients = list(
        User.objects.filter(owner_id=subscription.owner_id, panel_role=PanelRole.OWNER, is_active=True).values_list(
            "email", flat=True
        )
    )
    if not recipients:
        return
    try:
        send_mail(
            subject="A webhook was paused",
            message=(
                f"Deliveries to {subscription.url} failed {PAUSE_AFTER_FAILURES} times in a row, so the "
                "subscription was paused. Fix the receiver, then re-enable it in the owner panel; "
                "events since the pause can be resent from its delivery log."
            ),
            from_email=settings.DEFAULT_FROM_EMAIL,
            recipient_list=recipients,
        )
    except Exception:
        logger.exception("could not email the owner about paused webhook %s", subscription.pk)
