import uuid

from django.core.cache import cache
from django.utils.crypto import constant_time_compare

from apps.kiosks.models import Kiosk, hash_device_token

# Kiosks poll every 2 s: their paired row is kept this long in the cache. Every service that
# changes what it holds (pair, unpair, rename, online/offline) forgets it, so revocation is immediate.
CREDENTIALS_CACHE_SECONDS = 10


def credentials_cache_key(device_id: uuid.UUID) -> str:
    return f"kiosk-credentials:{device_id}"


def kiosk_for_device_credentials(*, device_id: str, token: str) -> Kiosk | None:
    """The paired kiosk these headers authenticate, or None (unknown, wrong or revoked)."""
    try:
        device_uuid = uuid.UUID(device_id)
    except ValueError:
        return None
    key = credentials_cache_key(device_uuid)
    kiosk = cache.get(key)
    if kiosk is None:
        kiosk = Kiosk.objects.select_related("business").filter(device_id=device_uuid, unpaired_at=None).first()
        if kiosk is None or not kiosk.token_hash:
            return None
        cache.set(key, kiosk, timeout=CREDENTIALS_CACHE_SECONDS)
    if not constant_time_compare(kiosk.token_hash, hash_device_token(token)):
        return None
    return kiosk
