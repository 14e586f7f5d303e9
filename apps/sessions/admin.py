from django.contrib import admin

from apps.sessions.models import Session


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["public_id", "status", "owner", "kiosk", "agent", "created_at", "accepted_at", "ended_at"]
    list_filter = ["status", "end_reason", "owner"]
    search_fields = ["public_id", "kiosk__name", "agent__email"]
    list_select_related = ["owner", "kiosk", "agent"]
    date_hierarchy = "created_at"
    readonly_fields = ["public_id", "created_at", "accepted_at", "ended_at"]
