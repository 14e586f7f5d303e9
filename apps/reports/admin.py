"""Super-admin: the reports' own rows, read-only. The rollup and its stale hours are derived data
(rebuilt from sessions and orders by apps/reports/rollup_refresh.py); breaks are written by the
agents' status changes. Support reads them to answer "why does this report say so"."""

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from apps.reports.models import AgentBreak, SessionRollup, StaleHour


class ReadOnlyAdmin(admin.ModelAdmin[models.Model]):
    def get_readonly_fields(self, request: HttpRequest, obj: models.Model | None = None) -> list[str]:
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: models.Model | None = None) -> bool:
        return False


@admin.register(AgentBreak)
class AgentBreakAdmin(ReadOnlyAdmin):
    list_display = ["agent", "owner", "started_at", "ended_at"]
    list_filter = ["owner"]
    search_fields = ["agent__email"]
    list_select_related = ["agent", "owner"]


@admin.register(SessionRollup)
class SessionRollupAdmin(ReadOnlyAdmin):
    list_display = ["owner", "business", "grain", "bucket", "dim", "value"]
    list_filter = ["grain", "dim", "owner"]
    search_fields = ["value"]
    list_select_related = ["owner", "business"]


@admin.register(StaleHour)
class StaleHourAdmin(ReadOnlyAdmin):
    list_display = ["owner_id", "hour"]
    search_fields = ["owner_id"]
