"""Reads of webhook subscriptions and deliveries, limited to one owner."""

from django.db.models import Prefetch, QuerySet

from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookSubscription


def subscriptions_of_owner(owner_id: int) -> QuerySet[WebhookSubscription]:
    return WebhookSubscription.objects.filter(owner_id=owner_id)


def deliveries_of_owner(owner_id: int) -> QuerySet[WebhookDelivery]:
    return WebhookDelivery.objects.filter(subscription__owner_id=owner_id)


def delivery_log(subscription: WebhookSubscription) -> QuerySet[WebhookDelivery]:
    """The subscription's deliveries, newest first, each with its event and attempts (oldest first)."""
    attempts = Prefetch("attempt_log", queryset=WebhookAttempt.objects.order_by("attempted_at"))
    return (
        WebhookDelivery.objects.filter(subscription=subscription)
        .select_related("event")
        .prefetch_related(attempts)
        .order_by("-created_at", "-pk")
    )
