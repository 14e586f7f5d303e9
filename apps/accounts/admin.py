"""Super-admin: businesses, access tokens, 2FA challenges, signed-in browsers. Secrets' hashes are
read-only everywhere; plaintext secrets are never stored or shown. State that services own (a
token's revocation, a record's tenant) is read-only in the forms and changes only through the
actions, which call the services one object at a time. The owners' page (suspend, change plan) is
billing's admin and the users' page (disable, which releases held sessions) is sessions': their
actions call services of those apps, which sit above accounts."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.accounts import services
from apps.accounts.models import Business, LoginChallenge, PersonalAccessToken
from apps.accounts.session_store import StoredSession
from apps.accounts.totp import SealedTotpDevice
from apps.core.admin_actions import each_through_service
from apps.core.admin_bases import NoAddAdmin


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


@admin.register(PersonalAccessToken)
class PersonalAccessTokenAdmin(NoAddAdmin[PersonalAccessToken]):
    # Tokens are issued by signing in: a hash typed here would match no secret.
    list_display = ["id", "user", "name", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["user__email", "name"]
    list_select_related = ["user"]
    readonly_fields = ["user", "token_hash", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke"]

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[PersonalAccessToken]) -> None:
        live = queryset.filter(revoked_at=None)
        revoke = services.access_token_revoke
        each_through_service(self, request, live, lambda token: revoke(token=token), "{count} token(s) revoked.")


@admin.register(LoginChallenge)
class LoginChallengeAdmin(NoAddAdmin[LoginChallenge]):
    list_display = ["id", "user", "created_at", "expires_at", "used_at", "failed_attempts"]
    search_fields = ["user__email"]
    readonly_fields = ["id_hash", "user", "created_at", "expires_at", "used_at", "failed_attempts", "remember"]


@admin.register(SealedTotpDevice)
class SealedTotpDeviceAdmin(NoAddAdmin[SealedTotpDevice]):
    """Authenticator apps: who has one, never the seed (stored encrypted). Deleting one turns the
    user's second factor off, as the panel's reset does."""

    list_display = ["id", "user", "name", "confirmed", "created_at", "last_used_at"]
    search_fields = ["user__email"]
    fields = readonly_fields = ("user", "name", "confirmed", "created_at", "last_used_at", "throttling_failure_count")


@admin.register(StoredSession)
class StoredSessionAdmin(NoAddAdmin[StoredSession]):
    """Signed-in browsers, by the hash of their cookie (the cookie itself is not stored). Deleting
    one signs that browser out."""

    list_display = ["session_key", "expire_date"]
    fields = readonly_fields = ("session_key", "expire_date")
