"""Cache invalidations of kiosk events (subscribers of config/event_subscribers.py): the
device's cached credentials row and its heartbeat marker (kiosks.selectors). Each is dropped at
emit and again at commit, so a request racing the change cannot put the old row back for the
cache's lifetime; a rollback costs one cache miss."""

from typing import Protocol

from django.core.cache import cache
from django.db import transaction

from apps.accounts.domain_events import BusinessChanged
from apps.core.models import DomainEvent
from apps.kiosks import selectors
from apps.kiosks.models import Kiosk


class _KioskChange(Protocol):
    """The kiosk events these subscribers hear (apps.kiosks.domain_events)."""

    @property
    def kiosk(self) -> Kiosk: ...


def _drop_now_and_at_commit(*keys: str) -> None:
    cache.delete_many(keys)
    transaction.on_commit(lambda: cache.delete_many(keys))


def forget_credentials(event: _KioskChange, recorded: DomainEvent | None = None) -> None:
    """The cached row no longer says what the kiosk is (token, business, name, presence)."""
    _drop_now_and_at_commit(selectors.credentials_cache_key(event.kiosk.device_id))


def forget_heartbeat(event: _KioskChange, recorded: DomainEvent | None = None) -> None:
    """The next heartbeat is written at once (the kiosk went offline or was unpaired)."""
    _drop_now_and_at_commit(selectors.heartbeat_cache_key(event.kiosk.device_id))


def forget_business_credentials(event: BusinessChanged, recorded: DomainEvent | None = None) -> None:
    """Every kiosk of the business holds the business in its cached row: its next request reads
    the settings as they are now (a new tax rate prices the very next self-service cart)."""
    devices = Kiosk.objects.filter(business_id=event.business.pk, device_id__isnull=False).values_list(
        "device_id", flat=True
    )
    keys = [selectors.credentials_cache_key(device_id) for device_id in devices]
    if keys:
        _drop_now_and_at_commit(*keys)
