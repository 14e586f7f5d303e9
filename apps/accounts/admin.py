"""Super-admin: tenants (suspend, change plan), businesses, users, access tokens, 2FA challenges.
Secrets' hashes are read-only everywhere; plaintext secrets are never stored or shown."""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Count

from apps.accounts.models import Business, LoginChallenge, Owner, PersonalAccessToken, User
from apps.billing.models import OwnerBilling, Plan


class BusinessInline(admin.TabularInline):
    model = Business
    extra = 0
    fields = ["name", "currency", "tax_rate_bps", "session_recording"]
    show_change_link = True


class OwnerBillingInline(admin.StackedInline):
    """The plan is the super-admin's to change; the processor fields are the processor's."""

    model = OwnerBilling
    can_delete = False
    extra = 0
    fields = [
        "plan",
        "subscription_status",
        "dunning",
        "account_id",
        "charges_enabled",
        "payouts_enabled",
        "requirements_status",
        "customer_id",
        "subscription_id",
    ]
    readonly_fields = [
        "subscription_status",
        "account_id",
        "charges_enabled",
        "payouts_enabled",
        "requirements_status",
        "customer_id",
        "subscription_id",
    ]


def _set_plan(modeladmin, request, queryset, plan: str) -> None:
    for owner in queryset:
        OwnerBilling.objects.update_or_create(owner=owner, defaults={"plan": plan})
    modeladmin.message_user(request, f"{queryset.count()} owner(s) now on the {plan} plan.", messages.SUCCESS)


@admin.register(Owner)
class OwnerAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "plan", "suspended", "business_count", "user_count", "created_at"]
    list_filter = ["suspended", "billing__plan", "billing__dunning"]
    search_fields = ["name", "businesses__name", "users__email"]
    readonly_fields = ["created_at"]
    inlines = [OwnerBillingInline, BusinessInline]
    actions = ["suspend", "reactivate", "move_to_free_plan", "move_to_pro_plan"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("billing")
            .annotate(business_count=Count("businesses", distinct=True), user_count=Count("users", distinct=True))
        )

    @admin.display(description="plan", ordering="billing__plan")
    def plan(self, owner: Owner) -> str:
        billing = getattr(owner, "billing", None)
        return billing.plan if billing else Plan.FREE

    @admin.display(description="businesses", ordering="business_count")
    def business_count(self, owner: Owner) -> int:
        return owner.business_count

    @admin.display(description="users", ordering="user_count")
    def user_count(self, owner: Owner) -> int:
        return owner.user_count

    @admin.action(description="Suspend the selected owners")
    def suspend(self, request, queryset):
        self.message_user(request, f"{queryset.update(suspended=True)} owner(s) suspended.", messages.SUCCESS)

    @admin.action(description="Reactivate the selected owners")
    def reactivate(self, request, queryset):
        self.message_user(request, f"{queryset.update(suspended=False)} owner(s) reactivated.", messages.SUCCESS)

    @admin.action(description="Move to the free plan")
    def move_to_free_plan(self, request, queryset):
        _set_plan(self, request, queryset, Plan.FREE)

    @admin.action(description="Move to the pro plan")
    def move_to_pro_plan(self, request, queryset):
        _set_plan(self, request, queryset, Plan.PRO)


@admin.register(Business)
class BusinessAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "owner", "currency", "tax_rate_bps", "session_recording", "created_at"]
    list_filter = ["currency", "session_recording", "owner__suspended"]
    search_fields = ["name", "owner__name"]
    list_select_related = ["owner"]
    readonly_fields = ["order_sequence", "created_at"]


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    ordering = ["email"]
    list_display = ["email", "name", "owner", "is_agent", "agent_status", "panel_role", "is_active", "last_seen_at"]
    list_filter = ["is_agent", "agent_status", "panel_role", "is_active", "is_staff"]
    search_fields = ["email", "name", "owner__name"]
    list_select_related = ["owner"]
    readonly_fields = ["last_seen_at", "date_joined", "last_login"]
    fieldsets = [
        (None, {"fields": ["email", "password", "name", "avatar_url"]}),
        ("Tenant and role", {"fields": ["owner", "is_agent", "agent_status", "panel_role"]}),
        ("Permissions", {"fields": ["is_active", "is_staff", "is_superuser", "groups", "user_permissions"]}),
        ("Activity", {"fields": ["last_seen_at", "last_login", "date_joined"]}),
    ]
    add_fieldsets = [(None, {"classes": ["wide"], "fields": ["email", "name", "password1", "password2"]})]


@admin.register(PersonalAccessToken)
class PersonalAccessTokenAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "name", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["user__email", "name"]
    list_select_related = ["user"]
    readonly_fields = ["user", "token_hash", "created_at", "last_used_at"]

    def has_add_permission(self, request) -> bool:
        return False  # tokens are issued by signing in; a hash typed here would match no secret


@admin.register(LoginChallenge)
class LoginChallengeAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "created_at", "expires_at", "used_at", "failed_attempts"]
    search_fields = ["user__email"]
    readonly_fields = ["public_id", "user", "created_at", "expires_at", "used_at", "failed_attempts", "remember"]

    def has_add_permission(self, request) -> bool:
        return False
