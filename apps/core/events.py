"""The one function a service calls when something happened: `emit(event)`, inside the
transaction of the change.

A domain event is a small frozen dataclass owned by the app it happened in (its
`domain_events.py`), subclassing `Event`. One that owners hear about names its webhook
(`webhook_name`, one of EVENT_NAMES) and builds its payload; kiosk- and agent-only events have
none. `emit` records the webhook ones as a DomainEvent row (the outbox and audit trail), then
calls every subscriber `config/event_subscribers.py` lists for the event's type, in order.

Subscribers run at emit, inside the transaction, so they see the change as it was made; nothing
they cause leaves before commit: webhook deliveries are rows of this transaction drained after
commit, real-time messages are sent on commit (apps.realtime.broadcast), cache invalidations are
repeated on commit. A rollback sends nothing. (docs/decisions/payments.md "Domain events".)

core imports no other app: the registry is found through settings.EVENT_SUBSCRIBERS.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar, Self, cast, dataclass_transform, overload

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from apps.core.models import DomainEvent

# The webhook events of the spec (section 6.1), and the printers' two: what a subscription may ask for.
EVENT_NAMES = (
    "order.created",
    "order.status_changed",
    "payment.captured",
    "session.started",
    "session.accepted",
    "session.ended",
    "kiosk.online",
    "kiosk.offline",
    "inventory.low",
    "owner.suspended",
    "owner.reinstated",
    # Not in the spec's list: the owner hears when a ticket printer stops and starts printing
    # (docs/decisions/printing.md).
    "printer.offline",
    "printer.online",
)


@dataclass_transform(frozen_default=True)
class Event:
    """Base of every domain event. Each subclass is made a frozen dataclass here (so it is
    declared without the decorator) and has an `owner_id`."""

    webhook_name: ClassVar[str | None] = None  # None: no webhook (kiosk- or agent-only)

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(frozen=True)(cls)

    if TYPE_CHECKING:
        # Read-only to users of an event: a subclass has it as a frozen field or a property. Only
        # declared for mypy: a real property here would block the dataclass fields' assignment.
        @property
        def owner_id(self) -> int: ...

    def webhook_payload(self) -> Mapping[str, object]:
        """The webhook's `data` (docs/webhooks.md); only events with a webhook name have one."""
        raise NotImplementedError(f"{type(self).__name__} has no webhook")


class OwnerOf:
    """An event's `owner_id` read along its fields: `owner_id = OwnerOf("order.owner_id")` in a
    subclass is `self.order.owner_id`. A class attribute without an annotation, so the dataclass
    does not make it a field."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._read = attrgetter(path)

    @overload
    def __get__(self, event: None, cls: type[Event]) -> Self: ...
    @overload
    def __get__(self, event: Event, cls: type[Event]) -> int: ...
    def __get__(self, event: Event | None, cls: type[Event]) -> "int | Self":
        if event is None:
            return self
        return cast(int, self._read(event))


# A subscriber gets the event and the DomainEvent row emit recorded for it (None without a webhook).
Subscriber = Callable[[Event, DomainEvent | None], None]


@cache
def subscribers() -> Mapping[type[Event], Sequence[Subscriber]]:
    """The registry named by settings.EVENT_SUBSCRIBERS, read once."""
    registry = import_string(settings.EVENT_SUBSCRIBERS)  # Any: import_string is untyped
    return cast(Mapping[type[Event], Sequence[Subscriber]], registry)


def emit(event: Event) -> DomainEvent | None:
    """Record `event` and hand it to its subscribers; returns the webhook row, if it has one."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("events.emit must be called inside the transaction of the change")
    handlers = subscribers().get(type(event))
    if handlers is None:
        raise ValueError(f"{type(event).__name__} is not in the subscriber registry ({settings.EVENT_SUBSCRIBERS})")
    record = None
    if event.webhook_name is not None:
        if event.webhook_name not in EVENT_NAMES:
            raise ValueError(f"unknown webhook event {event.webhook_name!r}")
        record = DomainEvent.objects.create(
            name=event.webhook_name, owner_id=event.owner_id, payload=event.webhook_payload()
        )
    for handle in handlers:
        handle(event, record)
    return record
