"""The steps of a kiosk request, each in its own place, in this order:

1. `read`: one cache round trip reads what the request needs (the device's cached credentials
   row and heartbeat marker, and the callers' extra keys: the status poll's copy), counts the
   request in its rate window and stamps it as heard (kiosks.selectors.heard_stamp). Kiosks poll
   every 2 s, so this stays one round trip (docs/scaling.md).
2. authentication: DeviceAuthentication checks the presented token against what step 1 read.
3. `record_heartbeat`: the kiosk is alive (a row write at most every 45 s; kiosks.services).
4. throttling: KioskThrottle judges the count of step 1 (429).

KioskAPIView runs them for the DRF views (`perform_authentication`: 1, 2, 3; DRF's throttle
check: 4); the kiosk hot path (apps.kiosk_app.hot_path) runs the same functions on the event loop.
"""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rest_framework.request import Request

from apps.api.throttles import KioskThrottle
from apps.core.cache import aget_many_and_increment, get_many_and_increment
from apps.kiosks import selectors, services
from apps.kiosks.api.authentication import device_presented
from apps.kiosks.models import Kiosk


@dataclass(frozen=True)
class KioskRead:
    """What step 1 found: the device and token hash presented, the cache entries found among the
    keys read, and the request's rate window with its count after this request (None: no limit)."""

    device_id: uuid.UUID
    token_hash: str
    cached: dict[str, Any]  # cache values: whatever each key's owner stored
    window_key: str | None
    count: int | None


def _keys(device_id: uuid.UUID, extra_keys: Sequence[str]) -> list[str]:
    return selectors.credentials_cache_keys(device_id) + list(extra_keys)


def read(
    device_id: uuid.UUID, token_hash: str, window: tuple[str, int] | None, extra_keys: Sequence[str] = ()
) -> KioskRead:
    """Step 1 (sync). `window`: the rate window's counter key and lifetime (KioskThrottle.window_for)."""
    from django.core.cache import cache

    keys, stamp = _keys(device_id, extra_keys), selectors.heard_stamp(device_id, token_hash)
    if window is None:
        cache.set(stamp.key, stamp.value, stamp.timeout)
        return KioskRead(device_id, token_hash, cache.get_many(keys), None, None)
    cached, count = get_many_and_increment(keys, *window, stamp=stamp)
    return KioskRead(device_id, token_hash, cached, window[0], count)


async def aread(
    device_id: uuid.UUID, token_hash: str, window: tuple[str, int], extra_keys: Sequence[str] = ()
) -> KioskRead:
    """Step 1 on the event loop (the hot path always has a rate window)."""
    stamp = selectors.heard_stamp(device_id, token_hash)
    cached, count = await aget_many_and_increment(_keys(device_id, extra_keys), *window, stamp=stamp)
    return KioskRead(device_id, token_hash, cached, window[0], count)


def read_request(request: Request) -> KioskRead | None:
    """Step 1 for a DRF request, kept on it as `request.kiosk_read` for the steps after it. None
    when the device headers are malformed (authentication refuses those)."""
    try:
        device_id, token_hash = device_presented(
            request.headers.get("X-Device-Id", ""), request.headers.get("X-Device-Token", "")
        )
    except Exception:  # noqa: BLE001 - NotAuthenticated/AuthenticationFailed, raised again by step 2
        request.kiosk_read = None  # type: ignore[attr-defined]  # read by DeviceAuthentication, step 2
        return None
    found = read(device_id, token_hash, KioskThrottle().window_for(device_id, token_hash))
    request.kiosk_read = found  # type: ignore[attr-defined]  # read by DeviceAuthentication, step 2
    return found


def record_heartbeat(kiosk: Kiosk, found: KioskRead) -> None:
    """Step 3: write the heartbeat if one is due (see kiosks.services.kiosk_record_heartbeat)."""
    if selectors.heartbeat_due(kiosk, found.cached):
        services.kiosk_record_heartbeat(kiosk=kiosk)
