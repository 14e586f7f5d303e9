from django.contrib import admin

from apps.core.admin_bases import NoAddAdmin
from apps.core.models import DomainEvent


@admin.register(DomainEvent)
class DomainEventAdmin(NoAddAdmin[DomainEvent]):
    list_display = ["id", "name", "owner", "created_at"]
    list_filter = ["name", "owner"]
    date_hierarchy = "created_at"
    readonly_fields = ["name", "owner", "payload", "created_at"]
