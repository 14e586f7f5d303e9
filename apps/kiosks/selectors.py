import uuid
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.crypto import constant_time_compare

from apps.kiosks.models import Kiosk, hash_device_token

# Kiosks poll every 2 s: their paired row is kept this long in the cache. Every service that
# changes what it holds (pair, unpair, rename, online/offline) forgets it, so revocation is immediate.
CREDENTIALS_CACHE_SECONDS = 10


def credentials_cache_key(device_id: uuid.UUID) -> str:
    return f"kiosk-credentials:{device_id}"


def heartbeat_cache_key(device_id: uuid.UUID) -> str:
    """Present while the kiosk's last heartbeat write is recent (kiosks.services sets it)."""
    return f"kiosk-heartbeat:{device_id}"


@dataclass(frozen=True)
class DeviceCredentials:
    kiosk: Kiosk
    heartbeat_recent: bool  # no heartbeat write is due yet


def kiosk_for_device_credentials(*, device_id: str, token: str) -> DeviceCredentials | None:
    """The paired kiosk these headers authenticate, or None (unknown, wrong or revoked).

    The cached row and the heartbeat marker come in one cache round trip: this runs on every
    kiosk request."""
    try:
        device_uuid = uuid.UUID(device_id)
    except ValueError:
        return None
    key, heartbeat_key = credentials_cache_key(device_uuid), heartbeat_cache_key(device_uuid)
    cached = cache.get_many([key, heartbeat_key])
    kiosk = cached.get(key)
    if kiosk is None:
        kiosk = Kiosk.objects.select_related("business").filter(device_id=device_uuid, unpaired_at=None).first()
        if kiosk is None or not kiosk.token_hash:
            return None
        cache.set(key, kiosk, timeout=CREDENTIALS_CACHE_SECONDS)
    if not constant_time_compare(kiosk.token_hash, hash_device_token(token)):
        return None
    return DeviceCredentials(kiosk=kiosk, heartbeat_recent=heartbeat_key in cached)
