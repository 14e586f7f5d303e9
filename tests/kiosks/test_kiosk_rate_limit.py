"""The kiosk rate limit is counted in the credentials' Redis round trip (DeviceAuthentication)
and judged by KioskThrottle: per paired device, untouched by wrong tokens, and counted once
even when the request crosses into a new window between the two."""

import pytest
from django.core.cache import cache
from django.test import Client

from apps.api.throttles import KioskThrottle

HEARTBEAT = "/api/public/kiosks/heartbeat"


@pytest.fixture
def two_a_minute(monkeypatch, one_rate_window):
    monkeypatch.setitem(KioskThrottle.THROTTLE_RATES, KioskThrottle.scope, "2/min")


def test_wrong_tokens_do_not_use_up_the_kiosks_limit(two_a_minute, kiosk, kiosk_client):
    intruder = Client(headers={"X-Device-Id": str(kiosk.device_id), "X-Device-Token": "guessed"})
    assert [intruder.post(HEARTBEAT).status_code for _ in range(3)] == [401, 401, 401]
    assert [kiosk_client.post(HEARTBEAT).status_code for _ in range(3)] == [200, 200, 429]


def test_a_request_is_counted_once_when_the_window_turns_between_authentication_and_throttle(
    two_a_minute, kiosk, kiosk_client, monkeypatch
):
    clock = iter([59.9, 60.1])  # the credentials' round trip, then the throttle's judgement
    monkeypatch.setattr(KioskThrottle, "timer", lambda self: next(clock))
    assert kiosk_client.post(HEARTBEAT).status_code == 200

    def window_key(at: float) -> str:
        monkeypatch.setattr(KioskThrottle, "timer", lambda self: at)
        return KioskThrottle().window_for(kiosk.device_id, kiosk.token_hash)[0]

    counted_by_authentication, judged = window_key(59.9), window_key(60.1)
    assert counted_by_authentication != judged
    assert cache.get(counted_by_authentication) == 1
    assert cache.get(judged) == 1  # counted afresh in the window that judged it, and only there


def test_the_limit_holds_across_many_requests(two_a_minute, kiosk_client, monkeypatch):
    monkeypatch.setattr(KioskThrottle, "timer", lambda self: 1000.0)
    statuses = [kiosk_client.post(HEARTBEAT).status_code for _ in range(5)]
    assert statuses == [200, 200, 429, 429, 429]
