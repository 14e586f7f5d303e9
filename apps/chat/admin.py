"""Super-admin: chat messages, read-only (support reads what was said; the chat service writes)."""

from django.contrib import admin
from django.http import HttpRequest

from apps.chat.models import ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin[ChatMessage]):
    list_display = ["session", "sender", "agent", "created_at"]
    list_filter = ["sender"]
    search_fields = ["session__public_id"]
    list_select_related = ["session", "agent"]
    date_hierarchy = "created_at"
    readonly_fields = [field.name for field in ChatMessage._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
