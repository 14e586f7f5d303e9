"""What happens to a kiosk (apps.core.events): presence (online, offline, with webhooks) and the
changes that make its cached credentials stale (pairing, unpairing, renaming)."""

from datetime import datetime
from typing import TypedDict

from apps.core.events import Event, OwnerOf
from apps.core.timefmt import iso_z
from apps.kiosks.models import Kiosk


class _KioskPayload(TypedDict):
    kiosk_id: int
    kiosk_name: str
    location: str


class KioskOnlinePayload(_KioskPayload):
    online_at: str | None


class KioskOfflinePayload(_KioskPayload):
    offline_at: str | None
    last_seen_at: str | None


class _KioskEvent(Event):
    kiosk: Kiosk
    owner_id = OwnerOf("kiosk.business.owner_id")

    def _kiosk_payload(self) -> _KioskPayload:
        kiosk = self.kiosk
        return {"kiosk_id": kiosk.pk, "kiosk_name": kiosk.name, "location": kiosk.location}


class KioskCameOnline(_KioskEvent):
    """An offline kiosk sent a heartbeat."""

    at: datetime | None = None
    webhook_name = "kiosk.online"

    def webhook_payload(self) -> KioskOnlinePayload:
        return {**self._kiosk_payload(), "online_at": iso_z(self.at)}


class KioskWentOffline(_KioskEvent):
    """The presence sweep found the kiosk silent for too long; `last_seen_at` is its last sign."""

    at: datetime | None = None
    last_seen_at: datetime | None = None
    webhook_name = "kiosk.offline"

    def webhook_payload(self) -> KioskOfflinePayload:
        return {**self._kiosk_payload(), "offline_at": iso_z(self.at), "last_seen_at": iso_z(self.last_seen_at)}


class KioskPaired(_KioskEvent):
    """A device was paired (or re-paired with a new token)."""


class KioskUnpaired(_KioskEvent):
    """The device token was revoked."""


class KioskRenamed(_KioskEvent):
    """The owner changed the kiosk's name or location."""
