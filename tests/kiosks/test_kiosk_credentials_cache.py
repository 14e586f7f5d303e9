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

from apps.accounts import services as account_services
from apps.accounts.models import Business
from apps.core.errors import DomainError
from apps.kiosks import selectors, services
from apps.kiosks.models import Kiosk
from tests import factories
from tests.conftest import kiosk_client_for

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


def _cached_business_name(kiosk) -> str | None:
    row = cache.get(selectors.credentials_cache_key(kiosk.device_id))
    return None if row is None else row["business"][_business_column("name")]


def _business_column(attname: str) -> int:
    return [field.attname for field in Business._meta.concrete_fields].index(attname)


def test_a_change_of_the_business_reaches_its_kiosks_cached_credentials_at_once(kiosk, kiosk_client, business):
    assert kiosk_client.post(HEARTBEAT).status_code == 200
    assert _cached_business_name(kiosk) == business.name

    account_services.business_update(business=business, name="Barn Two", tax_rate_bps=2000)

    assert _cached_business_name(kiosk) is None
    found = selectors.kiosk_for_device_credentials(device_id=kiosk.device_id, token_hash=kiosk.token_hash)
    assert found is not None and found.kiosk.business.name == "Barn Two"
    assert found.kiosk.business.tax_rate_bps == 2000


def test_a_failed_business_change_keeps_nothing_stale_and_other_businesses_kiosks_cached(kiosk, kiosk_client):
    stranger = factories.KioskFactory()
    assert kiosk_client_for(stranger).post(HEARTBEAT).status_code == 200
    assert kiosk_client.post(HEARTBEAT).status_code == 200
    with pytest.raises(DomainError):
        account_services.business_update(business=kiosk.business, primary_color="red")
    assert kiosk_client.post(HEARTBEAT).status_code == 200
    assert _cached_business_name(kiosk) == Business.objects.get(pk=kiosk.business_id).name
    account_services.business_update(business=Business.objects.get(pk=kiosk.business_id), name="Barn Two")
    assert _cached_business_name(kiosk) is None
    assert _cached_business_name(stranger) == stranger.business.name  # another tenant's row is left alone
