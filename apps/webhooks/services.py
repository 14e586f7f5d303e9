"""State changes for webhook subscriptions (the worker's delivery bookkeeping is in
apps.webhooks.delivery_services)."""

import secrets

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import Owner
from apps.core import jobs, secret_box
from apps.core.errors import DomainError, ErrorCode
from apps.core.events import EVENT_NAMES
from apps.core.models import DomainEvent
from apps.webhooks import outbox, targets
from apps.webhooks.models import DeliveryStatus, WebhookDelivery, WebhookSubscription
from apps.webhooks.tasks import deliver_webhook

TEST_EVENT = "webhook.test"


def _invalid(field: str, message: str) -> DomainError:
    return DomainError(ErrorCode.VALIDATION_ERROR, "The subscription is invalid.", details={field: [message]})


def subscription_create(*, owner: Owner, url: str, events: list[str]) -> tuple[WebhookSubscription, str]:
    """Create a subscription; its 64-hex signing secret is returned only here (it is stored
    encrypted, apps.core.secret_box)."""
    unknown = sorted(set(events) - set(EVENT_NAMES))
    if unknown:
        raise _invalid("events", f"Unknown events: {', '.join(unknown)}. Known: {', '.join(EVENT_NAMES)}.")
    if not events:
        raise _invalid("events", "Choose at least one event.")
    try:
        targets.check_url(url)
    except targets.TargetRefused as exc:
        raise _invalid("url", str(exc)) from exc
    secret = secrets.token_hex(32)
    subscription = WebhookSubscription.objects.create(
        owner=owner, url=url, events=list(dict.fromkeys(events)), encrypted_secret=secret_box.encrypt(secret)
    )
    return subscription, secret


def subscription_delete(*, subscription: WebhookSubscription) -> None:
    subscription.delete()


def subscription_reenable(*, subscription: WebhookSubscription) -> None:
    """The owner fixed the receiver: deliver again from now on (skipped events can be resent)."""
    WebhookSubscription.objects.filter(pk=subscription.pk).update(active=True, failure_count=0, paused_at=None)


def subscription_send_test(*, subscription: WebhookSubscription) -> WebhookDelivery:
    """The panel's Test action: a synthetic `webhook.test` event to this subscription only."""
    with transaction.atomic():
        event = DomainEvent.objects.create(
            name=TEST_EVENT,
            owner_id=subscription.owner_id,
            payload={"subscription_id": subscription.pk, "message": "This is a test delivery."},
        )
        return outbox.record(event, subscriptions=[subscription])[0]


def delivery_resend(*, delivery: WebhookDelivery) -> None:
    """Send a delivery again now (same id), whatever became of it."""
    with transaction.atomic():
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=DeliveryStatus.PENDING, next_attempt_at=timezone.now(), lease_until=None
        )
        jobs.enqueue_on_commit(deliver_webhook, delivery.pk)
