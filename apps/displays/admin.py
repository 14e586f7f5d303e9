"""Super-admin: kitchen and board display tokens, read-only (owners make and revoke them in the
panel; only the token's hash is stored, so there is nothing secret to show)."""

from django.contrib import admin

from apps.core.admin_bases import FieldsReadOnlyAdmin
from apps.displays.models import DisplayToken


@admin.register(DisplayToken)
class DisplayTokenAdmin(FieldsReadOnlyAdmin[DisplayToken]):
    list_display = ["name", "kind", "business", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["kind", "owner"]
    search_fields = ["name", "business__name"]
    list_select_related = ["business"]
