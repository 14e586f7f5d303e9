"""Turn a committed-with-the-change domain event into webhook deliveries (the outbox)."""

from collections.abc import Iterable

from apps.core import jobs
from apps.core.events import Event
from apps.core.models import DomainEvent
from apps.webhooks.models import DeliveryStatus, WebhookDelivery, WebhookSubscription
from apps.webhooks.tasks import drain_subscription


def record(event: DomainEvent, subscriptions: Iterable[WebhookSubscription] | None = None) -> list[WebhookDelivery]:
    """One delivery per subscription of the owner that wants this event, in the caller's
    transaction. Paused subscriptions get a `skipped` row (resendable from the panel); active
    ones are sent after commit, by one drain per subscription (a burst of events to one
    receiver is sent as a batch, not one task per delivery)."""
    if subscriptions is None:
        subscriptions = [
            subscription
            for subscription in WebhookSubscription.objects.filter(owner_id=event.owner_id)
            if event.name in subscription.events
        ]
    deliveries = WebhookDelivery.objects.bulk_create(
        WebhookDelivery(
            subscription=subscription,
            event=event,
            status=DeliveryStatus.PENDING if subscription.active else DeliveryStatus.SKIPPED,
            next_attempt_at=event.created_at,
        )
        for subscription in subscriptions
    )
    for subscription_id in dict.fromkeys(d.subscription_id for d in deliveries if d.status == DeliveryStatus.PENDING):
        jobs.enqueue_on_commit(drain_subscription, subscription_id)
    return deliveries


def webhook_deliveries(event: Event, recorded: DomainEvent | None) -> None:
    """Subscriber of every event with a webhook name (config/event_subscribers.py): the rows of
    its deliveries, in the change's transaction, beside the DomainEvent row emit recorded (an
    event with a webhook name always has one)."""
    if recorded is not None:
        record(recorded)
