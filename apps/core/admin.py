from django.contrib import admin
from django.http import HttpRequest

from apps.core.models import DomainEvent


@admin.register(DomainEvent)
class DomainEventAdmin(admin.ModelAdmin[DomainEvent]):
    list_display = ["id", "name", "owner", "created_at"]
    list_filter = ["name", "owner"]
    date_hierarchy = "created_at"
    readonly_fields = ["name", "owner", "payload", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
