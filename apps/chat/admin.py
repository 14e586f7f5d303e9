"""Super-admin: chat messages, read-only (support reads what was said; the chat service writes)."""

from django.contrib import admin

from apps.chat.models import ChatMessage
from apps.core.admin_bases import FieldsReadOnlyAdmin


@admin.register(ChatMessage)
class ChatMessageAdmin(FieldsReadOnlyAdmin[ChatMessage]):
    list_display = ["session", "sender", "agent", "created_at"]
    list_filter = ["sender"]
    search_fields = ["session__public_id"]
    list_select_related = ["session", "agent"]
    date_hierarchy = "created_at"
