"""Super-admin: tenants (suspend, change plan), businesses, users, access tokens, 2FA challenges.
Secrets' hashes are read-only everywhere; plaintext secrets are never stored or shown. State that
services own (suspension, plan, a user's active flag and agent status, a token's revocation, a
record's tenant) is read-only in the forms and changes only through the actions, which call the
services one object at a time (events, webhooks, released sessions)."""

from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from apps.accounts import services
from apps.accounts.models import (
    Business,
    LoginChallenge,
    Owner,
    PersonalAccessToken,
    StoredSession,
    User,
)
from apps.accounts.totp import SealedTotpDevice
from apps.billing.models import OwnerBilling, Plan
from apps.billing.plans import plan_set
from apps.core.admin_actions import each_through_service
from apps.core.errors import DomainError
from apps.sessions import ending

if TYPE_CHECKING:  # a generic alias Python 3.11 cannot build at run time
    from django_stubs_ext import WithAnnotations


class BusinessInline(admin.TabularInline[Business, Owner]):
    model = Business
    extra = 0
    fields = ["name", "currency", "tax_rate_bps", "session_recording"]
    show_change_link = True


_BILLING_FIELDS = (
    "plan",
    "subscription_status",
    "dunning",
    "account_id",
    "charges_enabled",
    "payouts_enabled",
    "requirements_status",
    "customer_id",
    "subscription_id",
)


class OwnerBillingInline(admin.StackedInline[OwnerBilling, Owner]):
    """Shown, not edited: the plan moves with the owner actions (plan_set), the rest is the
    processor's."""

    model = OwnerBilling
    can_delete = False
    extra = 0
    fields = _BILLING_FIELDS
    readonly_fields = _BILLING_FIELDS

    def has_add_permission(self, request: HttpRequest, obj: Owner | None = None) -> bool:
        return False  # made by onboarding or a plan move (plan_set)


def _set_plan(modeladmin: admin.ModelAdmin[Owner], request: HttpRequest, queryset: QuerySet[Owner], plan: str) -> None:
    told = f"{{count}} owner(s) now on the {plan} plan."
    each_through_service(modeladmin, request, queryset, lambda owner: plan_set(owner=owner, plan=plan), told)


def _set_suspended(
    modeladmin: admin.ModelAdmin[Owner], request: HttpRequest, queryset: QuerySet[Owner], suspended: bool
) -> None:
    changed = sum(services.owner_set_suspended(owner=owner, suspended=suspended) for owner in queryset)
    verb = "suspended" if suspended else "reinstated"
    modeladmin.message_user(request, f"{changed} owner(s) {verb}.", messages.SUCCESS)


class _OwnerCounts(TypedDict):
    business_count: int
    user_count: int


@admin.register(Owner)
class OwnerAdmin(admin.ModelAdmin[Owner]):
    list_display = ["id", "name", "plan", "suspended", "business_count", "user_count", "created_at"]
    list_filter = ["suspended", "billing__plan", "billing__dunning"]
    search_fields = ["name", "businesses__name", "users__email"]
    readonly_fields = ["suspended", "created_at"]
    inlines = [OwnerBillingInline, BusinessInline]
    actions = ["suspend", "reactivate", "move_to_free_plan", "move_to_pro_plan"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Owner]:
        return (
            super()
            .get_queryset(request)
            .select_related("billing")
            .annotate(business_count=Count("businesses", distinct=True), user_count=Count("users", distinct=True))
        )

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        if formset.model is Business:  # the inline's edits reach the businesses' kiosks at once
            for business, _fields in formset.changed_objects:
                services.business_saved_elsewhere(business)

    @admin.display(description="plan", ordering="billing__plan")
    def plan(self, owner: Owner) -> str:
        billing = getattr(owner, "billing", None)
        return billing.plan if billing else Plan.FREE

    @admin.display(description="businesses", ordering="business_count")
    def business_count(self, owner: "WithAnnotations[Owner, _OwnerCounts]") -> int:
        return owner.business_count

    @admin.display(description="users", ordering="user_count")
    def user_count(self, owner: "WithAnnotations[Owner, _OwnerCounts]") -> int:
        return owner.user_count

    @admin.action(description="Suspend the selected owners (no new sessions, pairing, token or owner API)")
    def suspend(self, request: HttpRequest, queryset: QuerySet[Owner]) -> None:
        _set_suspended(self, request, queryset, True)

    @admin.action(description="Reinstate the selected owners")
    def reactivate(self, request: HttpRequest, queryset: QuerySet[Owner]) -> None:
        _set_suspended(self, request, queryset, False)

    @admin.action(description="Move to the free plan")
    def move_to_free_plan(self, request: HttpRequest, queryset: QuerySet[Owner]) -> None:
        _set_plan(self, request, queryset, Plan.FREE)

    @admin.action(description="Move to the pro plan")
    def move_to_pro_plan(self, request: HttpRequest, queryset: QuerySet[Owner]) -> None:
        _set_plan(self, request, queryset, Plan.PRO)


@admin.register(Business)
class BusinessAdmin(admin.ModelAdmin[Business]):
    list_display = ["id", "name", "owner", "currency", "tax_rate_bps", "session_recording", "created_at"]
    list_filter = ["currency", "session_recording", "owner__suspended"]
    search_fields = ["name", "owner__name"]
    list_select_related = ["owner"]
    readonly_fields = ["order_sequence", "created_at"]

    def save_model(self, request: HttpRequest, obj: Business, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change:  # a new business has no kiosks yet
            services.business_saved_elsewhere(obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Business | None = None) -> list[str]:
        # Moving a business to another tenant would strand its kiosks, sessions and orders.
        return [*self.readonly_fields, *(["owner"] if obj is not None else [])]


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
            return services.clean_languages(self.cleaned_data.get("languages") or "")
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

    def get_readonly_fields(self, request: HttpRequest, obj: User | None = None) -> list[str]:
        if obj is None:
            return list(self.readonly_fields)
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
        reactivate = services.user_reactivate
        each_through_service(self, request, disabled, lambda user: reactivate(user=user), "{count} user(s) re-enabled.")


@admin.register(PersonalAccessToken)
class PersonalAccessTokenAdmin(admin.ModelAdmin[PersonalAccessToken]):
    list_display = ["id", "user", "name", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["user__email", "name"]
    list_select_related = ["user"]
    readonly_fields = ["user", "token_hash", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tokens are issued by signing in; a hash typed here would match no secret

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[PersonalAccessToken]) -> None:
        live = queryset.filter(revoked_at=None)
        revoke = services.access_token_revoke
        each_through_service(self, request, live, lambda token: revoke(token=token), "{count} token(s) revoked.")


@admin.register(LoginChallenge)
class LoginChallengeAdmin(admin.ModelAdmin[LoginChallenge]):
    list_display = ["id", "user", "created_at", "expires_at", "used_at", "failed_attempts"]
    search_fields = ["user__email"]
    readonly_fields = ["id_hash", "user", "created_at", "expires_at", "used_at", "failed_attempts", "remember"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(SealedTotpDevice)
class SealedTotpDeviceAdmin(admin.ModelAdmin[SealedTotpDevice]):
    """Authenticator apps: who has one, never the seed (stored encrypted). Deleting one turns the
    user's second factor off, as the panel's reset does."""

    list_display = ["id", "user", "name", "confirmed", "created_at", "last_used_at"]
    search_fields = ["user__email"]
    fields = readonly_fields = ("user", "name", "confirmed", "created_at", "last_used_at", "throttling_failure_count")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(StoredSession)
class StoredSessionAdmin(admin.ModelAdmin[StoredSession]):
    """Signed-in browsers, by the hash of their cookie (the cookie itself is not stored). Deleting
    one signs that browser out."""

    list_display = ["session_key", "expire_date"]
    fields = readonly_fields = ("session_key", "expire_date")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
