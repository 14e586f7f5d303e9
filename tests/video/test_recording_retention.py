"""Session recordings (spec section 8): started with the call where the owner records sessions,
and their files deleted by the retention sweep after 30 days, once."""

from datetime import timedelta

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

from apps.sessions import services as session_services
from apps.video.models import SessionRecording
from apps.video.tasks import purge_recordings
from tests import factories


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def accept(business, agent):
    pending = factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
    return session_services.session_accept(public_id=pending.public_id, agent=agent)


def test_accept_starts_a_recording_only_where_the_business_records(business, agent):
    assert SessionRecording.objects.count() == 0
    accept(business, agent)
    assert SessionRecording.objects.count() == 0  # recording is off by default

    business.session_recording = True
    business.save()
    second_agent = factories.AgentFactory(owner=business.owner)
    session = accept(business, second_agent)
    recording = SessionRecording.objects.get()
    assert recording.session_id == session.pk
    assert recording.storage_prefix == f"recordings/{session.public_id}/"
    assert recording.started_at == session.accepted_at


def recorded(session, days_ago: int, files: list[str]) -> SessionRecording:
    recording = factories.SessionRecordingFactory(
        session=session,
        storage_prefix=f"recordings/{session.public_id}/",
        started_at=timezone.now() - timedelta(days=days_ago),
    )
    for name in files:
        default_storage.save(f"{recording.storage_prefix}{name}", ContentFile(b"media"))
    return recording


def test_sweep_deletes_files_older_than_30_days_once(kiosk):
    old = recorded(factories.SessionFactory(kiosk=kiosk, status="completed"), 31, ["a.m3u8", "tracks/a_0.ts"])
    young = recorded(factories.SessionFactory(kiosk=kiosk, status="completed"), 29, ["b.m3u8"])

    assert purge_recordings() == 1
    old.refresh_from_db()
    young.refresh_from_db()
    assert old.purged_at is not None and old.files_deleted == 2
    assert not default_storage.exists(f"{old.storage_prefix}a.m3u8")
    assert not default_storage.exists(f"{old.storage_prefix}tracks/a_0.ts")
    assert young.purged_at is None and default_storage.exists(f"{young.storage_prefix}b.m3u8")

    assert purge_recordings() == 0  # idempotent: nothing left to purge


def test_a_recording_whose_files_never_arrived_is_still_closed(kiosk):
    empty = recorded(factories.SessionFactory(kiosk=kiosk, status="completed"), 40, [])
    assert purge_recordings() == 1
    empty.refresh_from_db()
    assert empty.purged_at is not None and empty.files_deleted == 0
