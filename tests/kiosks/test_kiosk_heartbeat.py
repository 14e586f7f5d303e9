"""Every authenticated kiosk request is a heartbeat, written at most once per 45 s per kiosk;
an offline kiosk comes back online at once with a `kiosk.online` event."""

from datetime import timedelta

from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.core.models import DomainEvent
from apps.kiosks import selectors, services
from apps.kiosks.models import Kiosk
from tests.support.private_servers import wait_until


def _updates(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].upper().startswith("UPDATE")]


def test_heartbeats_are_coalesced_to_one_write_per_interval(kiosk, kiosk_client, monkeypatch):
    assert services.HEARTBEAT_WRITE_INTERVAL_SECONDS == 45
    monkeypatch.setattr(services, "HEARTBEAT_WRITE_INTERVAL_SECONDS", 1)  # the cache's own clock must pass
    with CaptureQueriesContext(connection) as queries:
        for _ in range(5):
            assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200
    assert len(_updates(queries.captured_queries)) == 1

    # The behaviour under test: past the (shortened) write interval, once the cache's own clock
    # has let the coalescing key expire.
    key = selectors.heartbeat_cache_key(kiosk.device_id)
    wait_until(lambda: cache.get(key) is None, 10, "the heartbeat key's expiry", every=0.05)
    with CaptureQueriesContext(connection) as queries:
        assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200
    assert len(_updates(queries.captured_queries)) == 1
    kiosk.refresh_from_db()
    assert (timezone.now() - kiosk.last_seen_at).total_seconds() < 1


def test_any_kiosk_request_counts_as_a_heartbeat(kiosk, kiosk_client):
    Kiosk.objects.filter(pk=kiosk.pk).update(last_seen_at=timezone.now() - timedelta(seconds=60))
    kiosk_client.get("/api/public/sessions/ses_unknown/status")
    kiosk.refresh_from_db()
    assert (timezone.now() - kiosk.last_seen_at).total_seconds() < 5


def test_offline_kiosk_comes_back_online_with_one_event(kiosk, kiosk_client):
    Kiosk.objects.filter(pk=kiosk.pk).update(online=False, last_seen_at=timezone.now() - timedelta(minutes=5))
    for _ in range(3):
        assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200
    kiosk.refresh_from_db()
    assert kiosk.online is True
    events = list(DomainEvent.objects.filter(name="kiosk.online"))
    assert len(events) == 1
    payload = events[0].payload
    assert payload["kiosk_id"] == kiosk.pk and payload["kiosk_name"] == kiosk.name
    assert payload["location"] == kiosk.location and payload["online_at"].endswith("Z")
    assert events[0].owner_id == kiosk.business.owner_id


def test_heartbeat_with_a_bad_token_changes_nothing(kiosk):
    from django.test import Client

    Kiosk.objects.filter(pk=kiosk.pk).update(online=False)
    client = Client(headers={"X-Device-Id": str(kiosk.device_id), "X-Device-Token": "wrong"})
    assert client.post("/api/public/kiosks/heartbeat").status_code == 401
    kiosk.refresh_from_db()
    assert kiosk.online is False
    assert not DomainEvent.objects.exists()
