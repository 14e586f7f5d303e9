from django.contrib import admin

from apps.kiosks.models import Kiosk, PairingCode


@admin.register(Kiosk)
class KioskAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "business", "location", "online", "last_seen_at", "paired_at", "unpaired_at"]
    list_filter = ["online", "business__owner"]
    search_fields = ["name", "location", "device_id", "business__name"]
    list_select_related = ["business"]
    readonly_fields = ["token_hash", "device_id", "paired_at", "last_seen_at"]


@admin.register(PairingCode)
class PairingCodeAdmin(admin.ModelAdmin):
    list_display = ["id", "business", "created_at", "expires_at", "used_at", "kiosk"]
    list_filter = ["business__owner"]
    search_fields = ["business__name"]
    readonly_fields = ["code_hash", "created_at", "expires_at", "used_at", "kiosk"]
