"""Super-admin: the reports' own rows, read-only. The rollup and its stale hours are derived data
(rebuilt from sessions and orders by apps/reports/rollup_refresh.py); breaks and sign-ins are written
by the agents' status changes. Support reads them to answer "why does this report say so"."""

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from apps.core.admin_bases import ReadOnlyAdmin
from apps.reports.models import AgentBreak, AgentSignedIn, SessionRollup, StaleHour


class _RowAdmin(ReadOnlyAdmin[models.Model]):
    def get_readonly_fields(self, request: HttpRequest, obj: models.Model | None = None) -> list[str]:
        return [field.name for field in self.model._meta.fields]


@admin.register(AgentBreak, AgentSignedIn)
class AgentStretchAdmin(_RowAdmin):
    list_display = ["agent", "owner", "started_at", "ended_at"]
    list_filter = ["owner"]
    search_fields = ["agent__email"]
    list_select_related = ["agent", "owner"]


@admin.register(SessionRollup)
class SessionRollupAdmin(_RowAdmin):
    list_display = ["owner", "business", "grain", "bucket", "dim", "value"]
    list_filter = ["grain", "dim", "owner"]
    search_fields = ["value"]
    list_select_related = ["owner", "business"]


@admin.register(StaleHour)
class StaleHourAdmin(_RowAdmin):
    list_display = ["owner_id", "hour"]
    search_fields = ["owner_id"]
