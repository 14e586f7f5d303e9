"""Sending one delivery attempt, and the rules around it (retry schedule, pause threshold, lease).

Deliveries are claimed, sent and recorded in batches per subscription (apps.webhooks.batch): a
worker first takes a short lease on the deliveries (a conditional UPDATE), so two workers never
send the same attempt at once; if the worker dies mid-send the lease runs out and the periodic
sweep sends them again. Receivers may therefore see a duplicate (same X-Service-Delivery), never a gap.
"""

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import requests
from django.conf import settings
from django.core.mail import send_mail
from django.db import connection, transaction
from django.utils.translation import gettext

from apps.accounts.models import PanelRole, User
from apps.core.timefmt import iso_z
from apps.webhooks import signing, targets, transport
from apps.webhooks.models import WebhookDelivery, WebhookSubscription

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
RECEIVER_TIMEOUT_SECONDS = 5  # the documented limit (docs/webhooks.md); receiver_timeout() reads it
EXCERPT_CHARS = 1000
SUBSCRIPTION_TOUCH_INTERVAL = timedelta(seconds=1)
DEFAULT_LEASE_SECONDS = 60  # well above one attempt (RECEIVER_TIMEOUT_SECONDS plus database writes)


def receiver_timeout() -> float:
    """How long one attempt may take, as a whole. WEBHOOK_RECEIVER_TIMEOUT_SECONDS (Django
    setting) shortens it for the tests of slow receivers."""
    return float(getattr(settings, "WEBHOOK_RECEIVER_TIMEOUT_SECONDS", RECEIVER_TIMEOUT_SECONDS))


def lease() -> timedelta:
    """How long a claimed delivery is held by its worker; after that the sweep may resend it.
    WEBHOOK_LEASE_SECONDS (Django setting) shortens it for the worker fault test."""
    return timedelta(seconds=getattr(settings, "WEBHOOK_LEASE_SECONDS", DEFAULT_LEASE_SECONDS))


@contextmanager
def bookkeeping() -> Iterator[None]:
    """A transaction for the worker's own records (lease, attempt log, outcome) that does not
    wait for PostgreSQL to flush its WAL at commit. Losing the last few hundred milliseconds of
    these in a database crash can only make a delivery be sent again (same id), never lost: the
    delivery rows themselves were written, durably, with the change that emitted the event."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield


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


def send(
    delivery: WebhookDelivery, subscription: WebhookSubscription, secret: str
) -> tuple[bool, int | None, str, str, float | None]:
    """POST the delivery signed with `secret` (the subscription's, decrypted once per batch):
    (succeeded, status code, error, response excerpt, retry-after seconds). Sent on the worker's
    keep-alive session, so a batch to one receiver reuses one connection."""
    event = delivery.event
    body = signing.body_bytes(event.name, event.payload, iso_z(event.created_at))
    headers = signing.headers(
        secret=secret,
        event_name=event.name,
        delivery_id=delivery.pk,
        body=body,
        now_unix=int(time.time()),
    )
    timeout = receiver_timeout()
    try:
        targets.check_url(subscription.url)
        with transport.deadline(timeout):
            response = transport.session().post(
                subscription.url,
                data=body,
                headers=headers,
                timeout=timeout,
                allow_redirects=False,
                stream=True,
            )
            excerpt = _read_excerpt(response)
    except targets.TargetRefused as exc:
        return False, None, f"refused target: {exc}", "", None
    except (requests.Timeout, transport.DeadlinePassed):
        return False, None, f"no answer within {timeout:g} s", "", None
    except requests.RequestException as exc:
        return False, None, f"connection error: {exc.__class__.__name__}", "", None
    retry_after = None
    if response.status_code == 429:
        header = response.headers.get("Retry-After", "")
        retry_after = float(header) if header.isdigit() else None
    ok = 200 <= response.status_code < 300
    return ok, response.status_code, "" if ok else f"HTTP {response.status_code}", excerpt, retry_after


def tell_owner_paused(subscription: WebhookSubscription) -> None:
    recipients = list(
        User.objects.filter(owner_id=subscription.owner_id, panel_role=PanelRole.OWNER, is_active=True).values_list(
            "email", flat=True
        )
    )
    if not recipients:
        return
    try:
        send_mail(  # the owner's words: English msgids of the panel's catalogue
            subject=gettext("A webhook was paused"),
            message=gettext(
                "Deliveries to {url} failed {count} times in a row, so the subscription was paused. Fix the "
                "receiver, then re-enable it in the owner panel; events since the pause can be resent from its "
                "delivery log."
            ).format(url=subscription.url, count=PAUSE_AFTER_FAILURES),
            from_email=settings.DEFAULT_FROM_EMAIL,
            recipient_list=recipients,
        )
    except Exception:
        logger.exception("could not email the owner about paused webhook %s", subscription.pk)
