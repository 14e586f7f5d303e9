"""Session recordings: started with the call where the business records sessions, deleted 30
days later by the retention sweep (spec section 8)."""

from datetime import datetime, timedelta

from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from apps.video.models import SessionRecording

RETENTION = timedelta(days=30)


def recording_start(*, session_id: int, public_id: str, started_at: datetime) -> SessionRecording:
    """The recording row of an accepted session's call (sessions.services.session_accept calls
    this inside the accept, where the business records calls)."""
    return SessionRecording.objects.create(
        session_id=session_id, storage_prefix=f"recordings/{public_id}/", started_at=started_at
    )


def recordings_purge() -> int:
    """Delete the files of recordings older than the retention period. Each row is locked with
    SKIP LOCKED, so two sweeps at once never delete the same recording twice."""
    cutoff = timezone.now() - RETENTION
    expired = SessionRecording.objects.filter(purged_at=None, started_at__lt=cutoff).values_list("pk", flat=True)
    purged = 0
    for recording_id in list(expired):
        with transaction.atomic():
            recording = (
                SessionRecording.objects.select_for_update(skip_locked=True)
                .filter(pk=recording_id, purged_at=None)
                .first()
            )
            if recording is None:
                continue
            recording.files_deleted = _delete_tree(recording.storage_prefix)
            recording.purged_at = timezone.now()
            recording.save(update_fields=["files_deleted", "purged_at"])
            purged += 1
    return purged


def _delete_tree(prefix: str) -> int:
    if not default_storage.exists(prefix.rstrip("/")):
        return 0
    folders, files = default_storage.listdir(prefix)
    deleted = 0
    for name in files:
        default_storage.delete(f"{prefix}{name}")
        deleted += 1
    for folder in folders:
        deleted += _delete_tree(f"{prefix}{folder}/")
    return deleted
