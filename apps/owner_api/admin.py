"""Super-admin view of owner API keys. A key added here is made by the service, so its client
secret is hashed and shown once (in the confirmation message); revoking uses the service too."""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.accounts.models import User
from apps.owner_api import services
from apps.owner_api.models import OwnerApiKey
from apps.owner_api.scopes import SCOPE_LABELS


class OwnerApiKeyAddForm(forms.ModelForm[OwnerApiKey]):
    scope_choices = forms.MultipleChoiceField(
        choices=list(SCOPE_LABELS.items()), widget=forms.CheckboxSelectMultiple, label="Scopes"
    )

    class Meta:
        model = OwnerApiKey
        fields = ["owner", "name"]


READ_ONLY = ("owner", "name", "client_id", "scopes", "created_by", "created_at", "revoked_at")


@admin.register(OwnerApiKey)
class OwnerApiKeyAdmin(admin.ModelAdmin[OwnerApiKey]):
    list_display = ["id", "name", "owner", "client_id", "scopes", "created_by", "created_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "owner__name", "application__client_id"]
    list_select_related = ["owner", "application", "created_by"]
    readonly_fields = READ_ONLY
    fields = READ_ONLY
    actions = ["revoke_keys"]

    def get_form(
        self, request: HttpRequest, obj: OwnerApiKey | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[OwnerApiKey]]:
        if obj is None:
            kwargs["form"] = OwnerApiKeyAddForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: OwnerApiKey | None = None) -> tuple[str, ...]:
        return ("owner", "name", "scope_choices") if obj is None else READ_ONLY

    def get_readonly_fields(self, request: HttpRequest, obj: OwnerApiKey | None = None) -> tuple[str, ...]:
        return () if obj is None else READ_ONLY

    def save_model(
        self, request: HttpRequest, obj: OwnerApiKey, form: forms.ModelForm[OwnerApiKey], change: bool
    ) -> None:
        if change:
            return
        key, secret = services.owner_api_key_create(
            owner=form.cleaned_data["owner"],
            name=form.cleaned_data["name"],
            scopes=form.cleaned_data["scope_choices"],
            created_by=request.user if isinstance(request.user, User) else None,  # the admin signs staff in
        )
        obj.pk = key.pk
        messages.warning(
            request, f"Client id {key.client_id}, client secret {secret}. The secret is shown only this once."
        )

    def has_change_permission(self, request: HttpRequest, obj: OwnerApiKey | None = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    @admin.action(description="Revoke the selected keys")
    def revoke_keys(self, request: HttpRequest, queryset: QuerySet[OwnerApiKey]) -> None:
        for key in queryset.filter(revoked_at=None):
            services.owner_api_key_revoke(key=key)
        messages.success(request, "The keys are revoked; their tokens no longer work.")
