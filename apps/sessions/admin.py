"""Super-admin: sessions, read-only. A session moves only through its services (events, the
kiosk's cached status, webhooks); the one action ends a stuck session as a technical issue."""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.core.errors import DomainError
from apps.sessions import ending
from apps.sessions.models import Assignment, Session, SessionStatus

ADMIN_END_NOTE = "Ended by the service's support team."


class AssignmentInline(admin.TabularInline[Assignment, Session]):
    """Who served the session and when (read-only: accept and transfer write them)."""

    model = Assignment
    extra = 0
    can_delete = False
    fields = readonly_fields = ("agent", "via", "started_at", "ended_at")

    def has_add_permission(self, request: HttpRequest, obj: Session | None = None) -> bool:
        return False


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin[Session]):
    inlines = [AssignmentInline]  # and its offers: apps/routing/admin.py
    list_display = ["public_id", "status", "owner", "kiosk", "agent", "created_at", "accepted_at", "ended_at"]
    list_filter = ["status", "end_reason", "owner"]
    search_fields = ["public_id", "kiosk__name", "agent__email"]
    list_select_related = ["owner", "kiosk", "agent"]
    date_hierarchy = "created_at"
    readonly_fields = [field.name for field in Session._meta.fields]
    actions = ["end_as_technical_issue"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # kiosks start sessions

    @admin.action(description="End the selected accepted sessions as a technical issue")
    def end_as_technical_issue(self, request: HttpRequest, queryset: QuerySet[Session]) -> None:
        accepted = queryset.filter(status__in=(SessionStatus.ACTIVE, SessionStatus.PAYMENT), agent__isnull=False)
        public_ids = list(accepted.values_list("public_id", flat=True))
        skipped, ended = queryset.count() - len(public_ids), 0
        for public_id in public_ids:
            try:
                session = ending.session_release(public_id=public_id, notes=ADMIN_END_NOTE)
            except DomainError as exc:  # e.g. the processor would not cancel the payment
                self.message_user(request, f"{public_id} was not ended: {exc.message}", messages.ERROR)
                continue
            ended += session.status == SessionStatus.FAILED
        note = f" {skipped} waiting or ended session(s) left as they are." if skipped else ""
        self.message_user(request, f"{ended} session(s) ended as a technical issue.{note}", messages.SUCCESS)
