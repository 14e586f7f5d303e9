"""Super-admin: kiosks and pairing codes. Which business a kiosk serves, its token and its
pairing state change only through the services (the device's cached credentials are forgotten
at once); the super-admin may rename a kiosk or unpair it."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.core.admin_actions import each_through_service
from apps.kiosks import services
from apps.kiosks.models import Kiosk, PairingCode


@admin.register(Kiosk)
class KioskAdmin(admin.ModelAdmin[Kiosk]):
    list_display = ["id", "name", "business", "location", "online", "last_seen_at", "paired_at", "unpaired_at"]
    list_filter = ["online", "business__owner"]
    search_fields = ["name", "location", "device_id", "business__name"]
    list_select_related = ["business"]
    readonly_fields = ["business", "device_id", "online", "last_seen_at", "paired_at", "unpaired_at", "created_at"]
    fields = ["name", "location", *readonly_fields]
    actions = ["unpair"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # kiosks are made by pairing a device

    def save_model(self, request: HttpRequest, obj: Kiosk, form: Any, change: bool) -> None:
        services.kiosk_rename(kiosk=obj, name=form.cleaned_data["name"], location=form.cleaned_data["location"])

    @admin.action(description="Unpair the selected kiosks (their device tokens stop at once)")
    def unpair(self, request: HttpRequest, queryset: QuerySet[Kiosk]) -> None:
        paired = queryset.filter(unpaired_at=None).select_related("business")
        unpair = services.kiosk_unpair
        each_through_service(self, request, paired, lambda kiosk: unpair(kiosk=kiosk), "{count} kiosk(s) unpaired.")


@admin.register(PairingCode)
class PairingCodeAdmin(admin.ModelAdmin[PairingCode]):
    list_display = ["id", "business", "created_at", "expires_at", "used_at", "kiosk"]
    list_filter = ["business__owner"]
    search_fields = ["business__name"]
    readonly_fields = ["business", "code_hash", "created_at", "expires_at", "used_at", "kiosk"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # made by the panel or the owner API, which show the code once
