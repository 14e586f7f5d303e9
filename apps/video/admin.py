from django.contrib import admin

from apps.video.models import SessionRecording


@admin.register(SessionRecording)
class SessionRecordingAdmin(admin.ModelAdmin[SessionRecording]):
    list_display = ["id", "session", "started_at", "purged_at", "files_deleted"]
    list_filter = ["purged_at"]
    search_fields = ["session__public_id", "storage_prefix"]
    readonly_fields = ["session", "storage_prefix", "started_at", "purged_at", "files_deleted"]
