"""A webhook event with a name and payload of the test's choosing, for tests of delivery itself
(envelope, signing, retries, batching), which care about what is sent, not which change sent it.
It goes through apps.core.events.emit like any event, with the webhook subscriber only."""

from apps.core import events
from apps.core.models import DomainEvent
from apps.webhooks.outbox import webhook_deliveries


class GivenWebhook(events.Event):
    name: str
    payload: dict
    owner_id: int

    @property
    def webhook_name(self) -> str:
        return self.name

    def webhook_payload(self) -> dict:
        return self.payload


def emit_webhook(name: str, payload: dict, *, owner_id: int) -> DomainEvent:
    """Like a service's emit, inside the caller's transaction."""
    events.subscribers().setdefault(GivenWebhook, [webhook_deliveries])  # test-only type
    return events.emit(GivenWebhook(name, payload, owner_id))
