import uuid

from django.utils.crypto import constant_time_compare

from apps.kiosks.models import Kiosk, hash_device_token


def kiosk_for_device_credentials(*, device_id: str, token: str) -> Kiosk | None:
    """The paired kiosk these headers authenticate, or None (unknown, wrong or revoked)."""
    try:
        device_uuid = uuid.UUID(device_id)
    except ValueError:
        return None
    kiosk = Kiosk.objects.select_related("business").filter(device_id=device_uuid, unpaired_at=None).first()
    if kiosk is None or not kiosk.token_hash:
        return None
    if not constant_time_compare(kiosk.token_hash, hash_device_token(token)):
        return None
    return kiosk
