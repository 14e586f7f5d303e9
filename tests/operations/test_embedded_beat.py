"""The embedded mode runs the beat schedule in-process (no Celery beat, no Redis)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.core import jobs
from apps.kiosks.models import Kiosk
from tests import factories
from tests.support.processes import wait_until


@pytest.mark.django_db(transaction=True)
def test_embedded_beat_runs_the_kiosk_sweep(settings, monkeypatch):
    settings.TASK_MODE = "thread"
    settings.CELERY_BEAT_SCHEDULE = {"kiosks-mark-offline": {"task": "kiosks.mark_offline", "schedule": 0.2}}
    monkeypatch.setattr(jobs.start_embedded_beat, "started", False, raising=False)
    kiosk = factories.KioskFactory(last_seen_at=timezone.now() - timedelta(minutes=3))
    stop = jobs.start_embedded_beat()
    try:
        wait_until(lambda: not Kiosk.objects.get(pk=kiosk.pk).online, 10, "the beat's offline sweep", every=0.2)
    finally:
        stop.set()
    assert Kiosk.objects.get(pk=kiosk.pk).online is False
