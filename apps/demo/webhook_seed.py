"""seed_demo's webhook subscription: the demo burger owner subscribed to every event at the
project's own demo receiver (apps/demo/webhook_receiver.py) on the address `make run` serves, so
a demo order's webhooks are delivered and show in the panel's Webhooks page."""

from apps.accounts.models import Owner
from apps.core.events import EVENT_NAMES
from apps.demo.webhook_receiver import RECEIVER_PATH
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookSubscription


def seed_demo_webhook(*, owner: Owner, base_url: str) -> WebhookSubscription:
    """One subscription to `base_url` + the receiver path: kept when it is already there (and
    re-enabled if it was auto-paused while no server ran), replaced when the address changed."""
    url = base_url.rstrip("/") + RECEIVER_PATH
    existing = list(WebhookSubscription.objects.filter(owner=owner, url__endswith=RECEIVER_PATH))
    for subscription in existing:
        if subscription.url == url:
            if not subscription.active:
                webhook_services.subscription_reenable(subscription=subscription)
            return subscription
        webhook_services.subscription_delete(subscription=subscription)
    subscription, _secret = webhook_services.subscription_create(owner=owner, url=url, events=list(EVENT_NAMES))
    return subscription
