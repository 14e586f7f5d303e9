"""Super-admin: sessions, read-only. A session moves only through its services (events, the
kiosk's cached status, webhooks); the one action ends a stuck session as a technical issue.
The users' page is here too, not in accounts' admin, because disabling a user releases the
customer session it holds (ending.agent_disable). A user's active flag and agent status are
read-only in its form and change only through the actions."""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.accounts import services as account_services
from apps.accounts.models import User
from apps.core.admin_actions import each_through_service
from apps.core.admin_bases import NoAddAdmin, ReadOnlyInline
from apps.core.errors import DomainError
from apps.sessions import ending
from apps.sessions.models import Assignment, Session, SessionStatus

ADMIN_END_NOTE = "Ended by the service's support team."


class AssignmentInline(ReadOnlyInline[Assignment, Session]):
    """Who served the session and when (read-only: accept and transfer write them)."""

    model = Assignment
    fields = readonly_fields = ("agent", "via", "started_at", "ended_at")


@admin.register(Session)
class SessionAdmin(NoAddAdmin[Session]):
    # Never added here: kiosks start sessions.
    inlines = [AssignmentInline]  # and its offers: apps/routing/admin.py
    list_display = ["public_id", "status", "owner", "kiosk", "agent", "created_at", "accepted_at", "ended_at"]
    list_filter = ["status", "end_reason", "owner"]
    search_fields = ["public_id", "kiosk__name", "agent__email"]
    list_select_related = ["owner", "kiosk", "agent"]
    date_hierarchy = "created_at"
    readonly_fields = [field.name for field in Session._meta.fields]
    actions = ["end_as_technical_issue"]

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


class UserAdminForm(UserChangeForm[User]):
    """The languages as the panel takes them: codes separated by commas (the service's rule)."""

    languages = forms.CharField(
        required=False, max_length=200, help_text="Language codes the agent serves, e.g. en, es. Empty: every language."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial["languages"] = ", ".join(self.instance.languages or [])

    def clean_languages(self) -> list[str]:
        try:
            return account_services.clean_languages(self.cleaned_data.get("languages") or "")
        except DomainError as exc:
            raise forms.ValidationError(exc.details.get("languages") or exc.message) from exc


@admin.register(User)
class UserAdmin(BaseUserAdmin[User]):
    form = UserAdminForm
    ordering = ["email"]
    list_display = ["email", "name", "owner", "is_agent", "agent_status", "panel_role", "is_active", "last_seen_at"]
    list_filter = ["is_agent", "agent_status", "panel_role", "is_active", "is_staff"]
    search_fields = ["email", "name", "owner__name"]
    list_select_related = ["owner"]
    readonly_fields = ["last_seen_at", "idle_since", "missed_offers", "status_reason", "date_joined", "last_login"]
    actions = ["disable_users", "reactivate_users"]
    fieldsets = [
        (None, {"fields": ["email", "password", "name", "avatar_url"]}),
        ("Tenant and role", {"fields": ["owner", "is_agent", "agent_status", "panel_role", "languages"]}),
        ("Routing", {"fields": ["idle_since", "missed_offers", "status_reason"]}),
        ("Permissions", {"fields": ["is_active", "is_staff", "is_superuser", "groups", "user_permissions"]}),
        ("Activity", {"fields": ["last_seen_at", "last_login", "date_joined"]}),
    ]
    add_fieldsets = [(None, {"classes": ["wide"], "fields": ["email", "name", "password1", "password2"]})]

    def get_readonly_fields(self, request: HttpRequest, obj: User | None = None) -> list[str] | tuple[str, ...]:
        if obj is None:
            return self.readonly_fields
        # Disabling goes through agent_disable (tokens revoked, a held session released); the
        # agent status is the agent's own; the tenant is fixed once the user exists.
        return [*self.readonly_fields, "is_active", "agent_status", "owner"]

    @admin.action(description="Disable the selected users (signed out, tokens revoked, sessions released)")
    def disable_users(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        users = list(queryset)
        released = sum(len(ending.agent_disable(agent=user)) for user in users)
        self.message_user(
            request, f"{len(users)} user(s) disabled; {released} customer session(s) ended.", messages.SUCCESS
        )

    @admin.action(description="Re-enable the selected users")
    def reactivate_users(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        disabled = queryset.filter(is_active=False)
        reactivate = account_services.user_reactivate
        each_through_service(self, request, disabled, lambda user: reactivate(user=user), "{count} user(s) re-enabled.")
