from django.db import models
from django.utils import timezone


class SessionRecording(models.Model):
    """The recording of one session's call, on a business whose owner turned recording on.

    The video provider's cloud recording writes the media files into our storage under
    `storage_prefix`; we keep them 30 days (spec section 8) and the retention sweep deletes them.
    """

    session = models.OneToOneField("agent_sessions.Session", on_delete=models.CASCADE, related_name="recording")
    storage_prefix = models.CharField(max_length=200)
    started_at = models.DateTimeField(default=timezone.now)
    purged_at = models.DateTimeField(null=True, blank=True)
    files_deleted = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["purged_at", "started_at"])]

    def __str__(self) -> str:
        return f"recording of session {self.session_id}"
