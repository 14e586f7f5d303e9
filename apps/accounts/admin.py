from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from apps.accounts.models import Business, LoginChallenge, Owner, PersonalAccessToken, User


class BusinessInline(admin.TabularInline):
    model = Business
    extra = 0
    fields = ["name", "currency", "tax_rate_bps"]
    show_change_link = True


@admin.register(Owner)
class OwnerAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "suspended", "created_at"]
    list_filter = ["suspended"]
    search_fields = ["name"]
    inlines = [BusinessInline]


@admin.register(Business)
class BusinessAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "owner", "currency", "tax_rate_bps", "session_recording"]
    list_filter = ["currency", "session_recording"]
    search_fields = ["name", "owner__name"]
    list_select_related = ["owner"]


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
    readonly_fields = ["token_hash", "created_at", "last_used_at"]


@admin.register(LoginChallenge)
class LoginChallengeAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "created_at", "expires_at", "used_at", "failed_attempts"]
    search_fields = ["user__email"]
    readonly_fields = ["public_id", "user", "created_at", "expires_at", "used_at", "failed_attempts", "remember"]
