"""`kiosk.offline` fires only after more than 90 s without any request from the kiosk. Heartbeat
writes are coalesced to one per 15 s, so a request inside that interval is not written to the row;
the sweep must still count it: offline is decided from the last request actually received, never
from the last one written."""

from datetime import timedelta

import time_machine
from django.utils import timezone

from apps.core.models import DomainEvent
from apps.kiosks import services
from apps.kiosks.models import Kiosk

HEARTBEAT = "/api/public/kiosks/heartbeat"


def _offline_events() -> list[DomainEvent]:
    return list(DomainEvent.objects.filter(name="kiosk.offline"))


def test_a_coalesced_heartbeat_keeps_the_kiosk_online_for_90_s_after_it(kiosk, kiosk_client):
    start = timezone.now().replace(microsecond=0) + timedelta(seconds=1)
    with time_machine.travel(start, tick=False):
        assert kiosk_client.post(HEARTBEAT).status_code == 200  # written
    last = start + timedelta(seconds=14)
    with time_machine.travel(last, tick=False):
        assert kiosk_client.post(HEARTBEAT).status_code == 200  # within 15 s of the write: coalesced
    assert Kiosk.objects.get(pk=kiosk.pk).last_seen_at == start  # the row still says the first

    with time_machine.travel(start + timedelta(seconds=95), tick=False):  # 81 s after the last request
        assert services.kiosks_mark_offline() == 0
    assert Kiosk.objects.get(pk=kiosk.pk).online and not _offline_events()

    with time_machine.travel(last + timedelta(seconds=91), tick=False):
        assert services.kiosks_mark_offline() == 1
    [event] = _offline_events()
    assert event.payload["last_seen_at"] == last.isoformat().replace("+00:00", "Z")


def test_a_kiosk_silent_since_its_last_written_heartbeat_goes_offline_after_90_s(kiosk, kiosk_client):
    start = timezone.now().replace(microsecond=0) + timedelta(seconds=1)
    with time_machine.travel(start, tick=False):
        assert kiosk_client.post(HEARTBEAT).status_code == 200
    with time_machine.travel(start + timedelta(seconds=89), tick=False):
        assert services.kiosks_mark_offline() == 0
    with time_machine.travel(start + timedelta(seconds=91), tick=False):
        assert services.kiosks_mark_offline() == 1


def test_a_request_with_a_wrong_token_does_not_keep_a_kiosk_online(kiosk, kiosk_client):
    from django.test import Client

    start = timezone.now().replace(microsecond=0) + timedelta(seconds=1)
    with time_machine.travel(start, tick=False):
        assert kiosk_client.post(HEARTBEAT).status_code == 200
    wrong = Client(headers={"X-Device-Id": str(kiosk.device_id), "X-Device-Token": "not-the-token"})
    with time_machine.travel(start + timedelta(seconds=60), tick=False):
        assert wrong.post(HEARTBEAT).status_code == 401
    with time_machine.travel(start + timedelta(seconds=91), tick=False):
        assert services.kiosks_mark_offline() == 1
