"""The real-time message of kiosk presence (docs/realtime.md): a subscriber of
config/event_subscribers.py, sent to the owner's presence channel after commit."""

from apps.core.models import DomainEvent
from apps.core.timefmt import iso_z
from apps.kiosks.bodies import kiosk_brief
from apps.kiosks.domain_events import KioskCameOnline, KioskWentOffline
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import owner_channel


def kiosk_status_changed(event: KioskCameOnline | KioskWentOffline, recorded: DomainEvent | None = None) -> None:
    online = isinstance(event, KioskCameOnline)
    body = {"kiosk": kiosk_brief(event.kiosk), "online": online, "changed_at": iso_z(event.at)}
    broadcast([owner_channel(event.owner_id)], "KioskStatusChanged", body)
