"""The kiosk's paired row is cached for a few seconds (kiosks poll every 2 s), and every change
to it is seen at once: a steady kiosk request runs no SQL, and unpairing, re-pairing and going
offline take effect on the very next request."""

import uuid

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.kiosks import selectors, services
from apps.kiosks.models import Kiosk

HEARTBEAT = "/api/public/kiosks/heartbeat"


def test_a_steady_kiosk_request_reads_nothing_from_the_database(kiosk, kiosk_client):
    assert kiosk_client.post(HEARTBEAT).status_code == 200  # caches the credentials, writes the heartbeat
    with CaptureQueriesContext(connection) as queries:
        assert kiosk_client.post(HEARTBEAT).status_code == 200
    assert queries.captured_queries == []


def test_unpairing_a_kiosk_whose_credentials_are_cached_revokes_them_at_once(kiosk, kiosk_client):
    assert kiosk_client.post(HEARTBEAT).status_code == 200  # cached now
    services.kiosk_unpair(kiosk=kiosk)
    assert kiosk_client.post(HEARTBEAT).status_code == 401


def test_re_pairing_stops_the_old_cached_token_at_once(business):
    device_id = uuid.uuid4()
    first = services.kiosk_pair(
        code=services.pairing_code_create(business=business)[1], device_id=device_id, device_name="Front"
    )[1]
    old = Client(headers={"X-Device-Id": str(device_id), "X-Device-Token": first})
    assert old.post(HEARTBEAT).status_code == 200  # cached now
    second = services.kiosk_pair(
        code=services.pairing_code_create(business=business)[1], device_id=device_id, device_name="Front"
    )[1]
    assert old.post(HEARTBEAT).status_code == 401
    new = Client(headers={"X-Device-Id": str(device_id), "X-Device-Token": second})
    assert new.post(HEARTBEAT).status_code == 200


def test_a_kiosk_marked_offline_comes_back_online_on_its_next_request(kiosk, kiosk_client):
    assert kiosk_client.post(HEARTBEAT).status_code == 200  # cached as online
    Kiosk.objects.filter(pk=kiosk.pk).update(last_seen_at=kiosk.last_seen_at.replace(year=2000))
    cache.delete(
        selectors.heard_cache_key(kiosk.device_id, kiosk.token_hash)
    )  # silent since then, as far as anyone heard
    assert services.kiosks_mark_offline() == 1
    assert kiosk_client.post(HEARTBEAT).status_code == 200
    assert Kiosk.objects.get(pk=kiosk.pk).online


def _redis_round_trips(monkeypatch) -> list[bytes]:
    """The commands of each round trip to Redis (a pipeline sends several at once)."""
    from redis.connection import AbstractConnection

    sent: list[bytes] = []
    original = AbstractConnection.send_packed_command

    def recording(self, command, check_health=True):
        chunks = command if isinstance(command, list) else [command]
        sent.append(b"".join(bytes(chunk) for chunk in chunks))
        return original(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", recording)
    return sent


@pytest.mark.skipif(not settings.REDIS_URL, reason="counts round trips to Redis")
def test_a_steady_poll_makes_two_redis_round_trips_and_no_sql(kiosk, kiosk_client, monkeypatch):
    started = kiosk_client.post(
        "/api/public/sessions/start",
        {"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
        content_type="application/json",
    )
    url = f"/api/public/sessions/{started.json()['session_id']}/status"
    kiosk_client.get(url)  # caches the credentials and the status, records the heartbeat
    round_trips = _redis_round_trips(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        assert kiosk_client.get(url).status_code == 200
    assert queries.captured_queries == []
    assert len(round_trips) == 2, round_trips
    credentials_and_rate_limit, status = round_trips
    assert b"EVALSHA" in credentials_and_rate_limit  # apps.core.cache.GET_MANY_AND_COUNT: read, count, stamp
    assert b"throttle_kiosk_device-" in credentials_and_rate_limit and b"kiosk-heard:" in credentials_and_rate_limit
    assert b"kiosk-credentials:" in credentials_and_rate_limit and b"kiosk-heartbeat:" in credentials_and_rate_limit
    assert b"MGET" in status and b"session-status:" in status and b"session-generation:" in status


def test_a_wrong_token_does_not_hold_back_the_kiosks_heartbeat(kiosk, kiosk_client):
    from apps.kiosks.selectors import heartbeat_cache_key

    Kiosk.objects.filter(pk=kiosk.pk).update(last_seen_at=kiosk.last_seen_at.replace(year=2000))
    cache.delete(heartbeat_cache_key(kiosk.device_id))
    intruder = Client(headers={"X-Device-Id": str(kiosk.device_id), "X-Device-Token": "guessed"})
    assert intruder.post(HEARTBEAT).status_code == 401
    assert cache.get(heartbeat_cache_key(kiosk.device_id)) is None
    assert kiosk_client.post(HEARTBEAT).status_code == 200
    assert Kiosk.objects.get(pk=kiosk.pk).last_seen_at.year != 2000
