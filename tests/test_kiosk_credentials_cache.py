"""The kiosk's paired row is cached for a few seconds (kiosks poll every 2 s), and every change
to it is seen at once: a steady poll runs one SQL query, and unpairing, re-pairing and going
offline take effect on the very next request."""

import uuid

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.kiosks import services
from apps.kiosks.models import Kiosk

HEARTBEAT = "/api/public/kiosks/heartbeat"


def test_a_steady_poll_reads_only_the_session(kiosk, kiosk_client):
    started = kiosk_client.post(
        "/api/public/sessions/start",
        {"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
        content_type="application/json",
    )
    url = f"/api/public/sessions/{started.json()['session_id']}/status"
    kiosk_client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert kiosk_client.get(url).status_code == 200
    assert [q["sql"].split(" FROM ")[1].split()[0] for q in queries.captured_queries] == ['"agent_sessions_session"']


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
    assert services.kiosks_mark_offline() == 1
    assert kiosk_client.post(HEARTBEAT).status_code == 200
    assert Kiosk.objects.get(pk=kiosk.pk).online
